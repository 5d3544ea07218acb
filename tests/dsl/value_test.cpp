// Fact::get over stored fields, a lazy FieldProvider and the location members.
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "dsl/value.hpp"

using namespace review::dsl;

namespace {

// Answers "text" = "line <index>" and "n" = index; nothing else.
struct Numbered final : FieldProvider {
  Value field(int index, std::string_view name) const override {
    if (name == "text") return Value("line " + std::to_string(index));
    if (name == "n") return Value(index);
    return {};
  }
  std::vector<std::string> names() const override { return {"n", "text"}; }
};

// Answers every name with "p", the location names included (which FieldProvider's contract
// says it is never asked for).
struct Everything final : FieldProvider {
  Value field(int, std::string_view) const override { return Value("p"); }
};

}  // namespace

TEST_CASE("fact: the location members are never asked of the provider", "[value]") {
  auto f = make_fact("lines", "a.py", 7);
  f->column = 3;
  auto everything = std::make_shared<const Everything>();
  f->provider = everything.get();
  CHECK(f->get("line").as_int() == 7);
  CHECK(f->get("end_line").as_int() == 7);
  CHECK(f->get("column").as_int() == 3);
  CHECK(f->get("file").as_string() == "a.py");
  CHECK(f->get("text").as_string() == "p");
  f->set("line", Value("stored"));  // a stored field still comes first
  CHECK(f->get("line").as_string() == "stored");
}

TEST_CASE("fact: provider fields, stored fields first, location last", "[value]") {
  auto p = std::make_shared<const Numbered>();
  auto f = make_fact("lines", "a.py", 7);
  f->provider = p.get();
  f->provider_index = 7;
  CHECK(f->get("text").as_string() == "line 7");
  CHECK(f->get("n").as_int() == 7);
  CHECK(f->get("line").as_int() == 7);       // not a provider name: the location member
  CHECK(f->get("file").as_string() == "a.py");
  CHECK(f->get("other").is_null());
  CHECK(f->field_count() == 2);
  CHECK(Value(FactPtr(f)).to_text() == "line 7");  // templates read `text` through the provider

  f->set("text", Value("stored"));
  CHECK(f->get("text").as_string() == "stored");
  CHECK(f->field_count() == 2);              // "text" counted once
  f->set("extra", Value(true));
  CHECK(f->field_count() == 3);

  auto eager = make_fact("lines", "a.py", 7);
  eager->set("text", Value("line 7"));
  eager->set("n", Value(7));
  auto lazy = make_fact("lines", "a.py", 7);
  lazy->provider = p.get();
  lazy->provider_index = 7;
  CHECK(Value(FactPtr(eager)) == Value(FactPtr(lazy)));
  CHECK_FALSE(Value(FactPtr(f)) == Value(FactPtr(lazy)));  // three fields against two
}

TEST_CASE("interned strings: one copy per value, compared like strings", "[value]") {
  std::string built = std::string("pkg/") + "mod.py";
  Interned a(built), b("pkg/mod.py"), c(std::string_view("pkg/other.py")), empty;
  CHECK(&a.str() == &b.str());  // the same text is stored once
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK(a == "pkg/mod.py");
  CHECK(a == std::string("pkg/mod.py"));
  CHECK("pkg/mod.py" == a);
  CHECK(a < c);  // by text, not by address
  CHECK(c > a);
  CHECK(a < std::string("pkg/n"));
  CHECK(empty.empty());
  CHECK(empty == Interned(""));
  CHECK(a + ":3" == "pkg/mod.py:3");
  CHECK(std::string(a) == built);
  CHECK(std::string_view(a).size() == built.size());
  CHECK(std::hash<Interned>{}(a) == std::hash<std::string_view>{}("pkg/mod.py"));
  // two facts of one file share its path; interning is safe from several threads
  auto f = make_fact("lines", built, 1);
  auto g = make_fact("lines", "pkg/mod.py", 2);
  CHECK(&f->file.str() == &g->file.str());
  CHECK(&f->source.str() == &g->source.str());
  CHECK(f->get("file").as_string() == "pkg/mod.py");
  std::vector<std::thread> threads;
  std::vector<const std::string*> seen(8);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &seen] {
      for (int i = 0; i < 1000; ++i) Interned("pkg/t" + std::to_string(i % 50) + ".py");
      seen[static_cast<std::size_t>(t)] = &Interned("pkg/t7.py").str();
    });
  for (auto& th : threads) th.join();
  for (const auto* s : seen) CHECK(s == seen[0]);
}

TEST_CASE("fact fields: set keeps one value per name, read in name order", "[value]") {
  auto f = make_fact("calls", "a.py", 3);
  f->set("z", Value(1));
  f->set("a", Value("x"));
  f->set("m", Value(true));
  f->set("a", Value("y"));  // replaces
  CHECK(f->fields.size() == 3);
  std::vector<std::string> names;
  for (const auto& [name, v] : f->fields) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a", "m", "z"});
  CHECK(f->get("a").as_string() == "y");
  CHECK(f->fields.count("m") == 1);
  CHECK(f->fields.count("b") == 0);
  CHECK(f->fields.find("q") == f->fields.end());
  CHECK(f->get("line").as_int() == 3);
  CHECK(f->field_count() == 3);
}

TEST_CASE("FieldMap: empty until set, sorted by name, deep copies") {
  FieldMap m;
  CHECK(m.empty());
  CHECK(m.size() == 0);
  CHECK(m.find("a") == m.end());
  CHECK(m.begin() == m.end());
  m.insert_or_assign("b", Value(int64_t{2}));
  m.insert_or_assign("a", Value("x"));
  m.insert_or_assign("b", Value(int64_t{3}));  // replaces
  REQUIRE(m.size() == 2);
  CHECK(m.begin()->first == "a");
  CHECK(m.find("b")->second.as_int() == 3);
  CHECK(m.count("c") == 0);
  FieldMap copy = m;
  copy.insert_or_assign("a", Value("y"));
  CHECK(m.find("a")->second.as_string() == "x");  // the copy holds its own fields
  CHECK(copy.find("a")->second.as_string() == "y");
  FieldMap moved = std::move(copy);
  CHECK(moved.size() == 2);
  FieldMap none;
  moved = none;  // assigning an empty map empties it
  CHECK(moved.empty());
  CHECK(moved.find("a") == moved.end());
  CHECK(sizeof(Fact) <= 56);  // the line facts of an audit are millions of these
}
