// Fact::get over stored fields, a lazy FieldProvider and the location members.
#include <string>
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
  f->provider = std::make_shared<const Everything>();
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
  f->provider = p;
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
  lazy->provider = p;
  lazy->provider_index = 7;
  CHECK(Value(FactPtr(eager)) == Value(FactPtr(lazy)));
  CHECK_FALSE(Value(FactPtr(f)) == Value(FactPtr(lazy)));  // three fields against two
}
