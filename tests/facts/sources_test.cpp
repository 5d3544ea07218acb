// The generic contract of every registered fact source: each fact it makes carries exactly the
// fields of its schema, with the declared types, nested facts included (source.hpp).
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "facts/change_builder.hpp"
#include "runner/facts/schema.hpp"
#include "runner/facts/source.hpp"

using review::dsl::FactPtr;
using review::dsl::Scope;
using review::dsl::SourceSchema;
using review::dsl::Type;
using review::dsl::Value;
using review::facts::testing::ChangeBuilder;

namespace {

// The location members every Fact answers from its own members, not from named fields.
const std::set<std::string> kLocation = {"file", "line", "end_line", "column"};

const SourceSchema& schema_of(const std::string& name) {
  for (const auto& s : review::facts::fact_schema())
    if (s.name == name) return s;
  FAIL("no schema for source '" << name << "'");
  throw;  // unreachable
}

bool has_type(const Value& v, Type t) {
  switch (t) {
    case Type::Any: return true;
    case Type::Null: return v.is_null();
    case Type::Bool: return v.is_bool();
    case Type::Int: return v.is_int();
    case Type::String: return v.is_string();
    case Type::List: return v.is_list();
    case Type::Fact: return v.is_fact();
  }
  return false;
}

// Which fields facts lent as views (Fact::text), by "source.field": how often.
std::map<std::string, int> lent;

// Checks `f` against the schema of `source`; recurses into nested facts. Returns the number of
// facts checked.
int check_fact(const FactPtr& f, const std::string& source) {
  const SourceSchema& s = schema_of(source);
  INFO("source " << source << ", fact at " << f->file << ":" << f->line);
  CHECK(f->source == (s.fact_source.empty() ? source : s.fact_source));
  std::set<std::string> want, got;
  for (const auto& field : s.fields)
    if (!kLocation.count(field.name)) want.insert(field.name);
  for (const auto& [name, value] : f->fields) got.insert(name);
  if (f->provider)
    for (const auto& n : f->provider->names()) got.insert(n);
  CHECK(got == want);
  CHECK(f->field_count() == want.size());
  int checked = 1;
  for (const auto& field : s.fields) {
    INFO("field " << field.name);
    Value v = f->get(field.name);
    // Fact::get answers a location member from the fact's own members; an empty `file` (the
    // pull-request body's sections) reads as null.
    if (field.name == "file" && f->file.empty()) CHECK(v.is_null());
    else CHECK(has_type(v, field.type));
    // a field lent as a view (Fact::text) is the string get() answers
    if (auto text = f->text(field.name)) {
      CHECK(field.type == Type::String);
      CHECK(v.is_string());
      CHECK(v.as_string() == *text);
      ++lent[source + "." + field.name];
    }
    if (field.type == Type::Fact && v.is_fact()) checked += check_fact(v.as_fact(), field.fact_source);
    if (field.type == Type::List)
      for (const auto& x : v.as_list()) CHECK((x.is_string() || x.is_int() || x.is_bool()));
  }
  return checked;
}

// A change that makes every source produce facts on its head side, and most on its base side.
ChangeBuilder fixture() {
  const std::string block =
      "def load(self, path):\n"
      "    data = read_file(path)\n"
      "    parts = data.split(',')\n"
      "    total = 0\n"
      "    count = 0\n"
      "    for p in parts:\n"
      "        total += int(p)\n"
      "        count += len(p.strip()) * 2\n"
      "    return total, count\n";  // >= 50 tokens: the clones source's default minimum (jscpd's)
  std::string renamed = block;
  for (auto [from, to] : {std::pair{"data", "blob"}, std::pair{"parts", "items"}})
    for (size_t p; (p = renamed.find(from)) != std::string::npos;) renamed.replace(p, std::string(from).size(), to);
  ChangeBuilder b;
  b.file("pkg/k.py",
         "import os\nfrom m import a as b\n\n@dec\ndef gather(x, y=1):\n    return x\n\n"
         "def gather_opt(x):\n    return x\n",
         "import os\nfrom m import a as b\nLIMIT = 4\n\n@dec\ndef gather(x, y=1):\n    if x == 'a':\n        v = 1\n"
         "    elif x in ('b', 'c'):\n        v = 2\n    print(v, sep='')\n    return x + 1\n\n"
         "def gather_opt(x):\n    return x\n\nclass K(Base):\n    def run(self):\n        for i in range(3):\n"
         "            self.w = i\n\nclass Base:\n    def run(self):\n        return 0\n\ndef check(v):\n    assert v\n");
  b.added("a.py", block);
  b.added("b.py", "import os\n\n" + renamed);
  b.file("src/k.cpp", "int f() { return 0; }\n",
         "#include <vector>\nnamespace n {\nint f(int x) {\n  if (x == 1) { return g(x); }\n  int y = 2;\n  return y;\n}\n}\n"
         "#ifndef NDEBUG\nint h() { try { return f(1); } catch (...) { throw std::runtime_error(\"h\"); } }\n#endif\n");
  b.file("CMakeLists.txt", "project(x)\n", "project(x)\nif(HIP)\n  add_library(k STATIC\n    k.hip)\nendif()\ninstall(TARGETS k)\n");
  b.file(".github/workflows/ci.yml", "on: push\njobs: {}\n",
         "on:\n  pull_request:\n    paths: [src/**]\njobs:\n  t:\n    runs-on: [self-hosted, mi300]\n    steps:\n      - run: ctest\n");
  b.file("docs/guide.md", "# Guide\nold\n", "# Guide\ntext\n## Usage\nrun\n");
  b.unchanged("pkg/r.py", "def r():\n    return helper()\n");
  b.change.pr.number = 7;
  b.change.pr.title = "t";
  b.change.pr.body = "## Summary\nwhy\n";
  b.change.pr.labels = {"perf"};
  return b;
}

}  // namespace

TEST_CASE("every source's facts carry exactly its schema's fields, with their types", "[facts][sources]") {
  auto b = fixture();
  auto facts = b.facts();
  // A declared repository (`let lib = repo`), so that `repos` has a fact.
  review::dsl::RulesetData data;
  data.repos.push_back({"lib", "pins.txt", "lib @ (\\w+)"});
  facts->configure(data);
  std::set<std::string> names;
  for (const auto& src : review::facts::sources()) {
    const std::string& name = src->schema().name;
    INFO("source " << name);
    CHECK(names.insert(name).second);  // one row per name
    if (src->nested_only()) {
      CHECK_THROWS_AS(facts->query(name, Scope{}), review::dsl::FactsError);
      continue;
    }
    int head = 0, nested = 0;
    for (const Scope& scope : {Scope{Scope::Kind::Changed, {}}, Scope{Scope::Kind::Base, {}},
                               Scope{Scope::Kind::Repo, {}}, Scope{Scope::Kind::Globs, {"pkg/**"}}}) {
      INFO("scope " << scope.describe());
      for (const auto& f : facts->query(name, scope)) {
        int n = check_fact(f, name);
        nested += n - 1;
        if (scope.kind == Scope::Kind::Changed) ++head;
      }
    }
    CHECK(head > 0);  // the fixture exercises every source
    if (name == "unbound_reads" || name == "clones" || name == "siblings" || name == "dispatch_cases")
      CHECK(nested > 0);
  }
  // The registry is the schema: same names, same order.
  std::vector<std::string> from_registry, from_schema;
  for (const auto& src : review::facts::sources()) from_registry.push_back(src->schema().name);
  for (const auto& s : review::facts::fact_schema()) from_schema.push_back(s.name);
  CHECK(from_registry == from_schema);
  CHECK(review::facts::find_source("functions") != nullptr);
  CHECK(review::facts::find_source("no_such_source") == nullptr);
  // the line sources lend their text fields, and stored string fields and paths are lent too
  for (const char* field : {"lines.text", "lines.code", "lines.comment", "lines.function", "lines.class",
                            "added_lines.code", "removed_lines.text", "files.path", "functions.file",
                            "functions.qualified", "functions.text", "calls.callee", "calls.function"}) {
    INFO(field);
    CHECK(lent[field] > 0);
  }
}

namespace {

// A bare SourceContext over a change with in-memory texts: models straight from
// lang::analyze_file, per-file facts from the source itself, no caching. Lets a test call
// Source::build_file on files the default build and the reads by key would not hand it.
class BareContext final : public review::facts::SourceContext {
 public:
  explicit BareContext(std::shared_ptr<const review::change::Change> c) : change_(std::move(c)) {}
  const review::change::Change& change() const override { return *change_; }
  std::shared_ptr<const review::change::Change> change_ptr() const override { return change_; }
  const review::dsl::RulesetData& data() const override { return data_; }
  const std::vector<review::facts::Repository>& repositories() const override { return repos_; }
  std::vector<review::facts::FileRef> files(const Scope&) override {
    std::vector<review::facts::FileRef> out;
    for (const auto& p : repo_files()) out.push_back({p, false, change_->find(p)});
    return out;
  }
  const std::vector<std::string>& repo_files() override {
    if (paths_.empty()) paths_ = change_->content->head_files();
    return paths_;
  }
  void prefetch(const std::vector<review::facts::FileRef>&, bool) override {}
  std::shared_ptr<const review::lang::SourceModel> model(const std::string& path, bool base) override {
    auto t = base ? change_->content->base(path) : change_->content->head(path);
    if (!t) return nullptr;
    review::lang::AnalyzeOptions o;
    o.analyses = true;
    return review::lang::analyze_file(path, *t, o);
  }
  std::optional<std::string> head_text(const std::string& path) override { return change_->content->head(path); }
  const std::vector<FactPtr>& file_facts(const std::string& source, const review::facts::FileRef& ref) override {
    kept_.push_back(review::facts::find_source(source)->build_file(*this, ref));
    return kept_.back();
  }
  void note(const std::string&) override {}
  void incomplete(const std::string&) override {}

 private:
  std::shared_ptr<const review::change::Change> change_;
  review::dsl::RulesetData data_;
  std::vector<review::facts::Repository> repos_;
  std::vector<std::string> paths_;
  std::deque<std::vector<FactPtr>> kept_;
};

}  // namespace

TEST_CASE("a source that does not read a language makes no facts from its files", "[facts][sources]") {
  // Source::reads lets the default build and the reads by key skip those files unread: the
  // claim holds only if build_file makes nothing of them, whatever their text. Python and C++
  // text under every other language's names, and the fixture's own files.
  auto b = fixture();
  const std::string py = "import os\nfrom m import a as b\nLIMIT = 4\n\nclass K(Base):\n    def run(self, x):\n"
                         "        return helper(x, key=1)\n\ndef helper(x, key=0):\n    return os.getcwd()\n";
  const std::string cpp = "#include <vector>\nint f(int x) { return g(x); }\nclass C : public B { void h(); };\n";
  for (const std::string path : {"notes.txt", "k.py.txt", "gen.cmake", "pkg/README.md", "data.csv", "k.hip.in"}) {
    b.unchanged(path, py + cpp);
    b.unchanged("x/" + path, py);
  }
  auto change = std::make_shared<review::change::Change>(b.change);
  change->content = b.content;
  BareContext ctx(change);
  int restricted = 0, checked = 0;
  for (const auto& src : review::facts::sources()) {
    if (src->nested_only()) continue;
    bool some = false;
    for (auto l : {review::lang::Language::Python, review::lang::Language::Cpp, review::lang::Language::CMake,
                   review::lang::Language::Markdown, review::lang::Language::Text})
      some = some || !src->reads(l);
    if (!some) continue;
    ++restricted;
    INFO("source " << src->schema().name);
    int made = 0;
    for (const auto& ref : ctx.files(Scope{Scope::Kind::Repo, {}})) {
      INFO("file " << ref.path);
      auto facts = src->build_file(ctx, ref);
      if (src->reads(review::lang::language_of(ref.path))) {
        made += static_cast<int>(facts.size());
      } else {
        CHECK(facts.empty());
        ++checked;
      }
    }
    CHECK(made > 0);  // the source does make facts of the files it reads here
  }
  CHECK(restricted >= 4);  // symbols, functions, calls, call_targets
  CHECK(checked > 0);
}

TEST_CASE("a file whose every line is added has one fact per line, read through lines and added_lines alike",
          "[facts][sources]") {
  ChangeBuilder b;
  b.added("new.py", "x = 1\ny = 2\nz = x + y\n");
  b.file("old.py", "a = 1\nb = 2\n", "a = 1\nb = 3\nc = 4\n");
  auto facts = b.facts();
  auto lines = facts->query("lines", Scope{});
  auto added = facts->query("added_lines", Scope{});
  auto of = [](const std::vector<FactPtr>& fs, const std::string& file) {
    std::vector<FactPtr> out;
    for (const auto& f : fs)
      if (f->file == file) out.push_back(f);
    return out;
  };
  // new.py: the same fact objects (made once), lines 1-3
  auto nl = of(lines, "new.py"), na = of(added, "new.py");
  REQUIRE(nl.size() == 3);
  REQUIRE(na.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(nl[i].get() == na[i].get());
    CHECK(nl[i]->line == static_cast<int>(i) + 1);
    CHECK(nl[i]->get("added").as_bool());
  }
  // old.py: lines 2 and 3 are added, line 1 is context; its facts are made per source but are
  // equal values, since added_lines makes `lines` facts
  auto ol = of(lines, "old.py"), oa = of(added, "old.py");
  REQUIRE(ol.size() == 3);
  REQUIRE(oa.size() == 2);
  CHECK(oa[0].get() != ol[1].get());
  CHECK(Value(oa[0]) == Value(ol[1]));
  CHECK(Value(oa[1]) == Value(ol[2]));
  CHECK_FALSE(Value(oa[0]) == Value(ol[0]));
  CHECK_FALSE(ol[0]->get("added").as_bool());
  CHECK(oa[1]->get("text").as_string() == "c = 4");
}

TEST_CASE("results with the same facts in the same order are held once, whichever source or scope asked first",
          "[facts][sources]") {
  // every line of both files is added (as in an audit); a file of 100 lines is over the size
  // from which lists are shared (ChangeFacts::kInternFrom = 64), one of 3 lines under it
  std::string big;
  for (int i = 0; i < 100; ++i) big += "v" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  ChangeBuilder b;
  b.added("big.py", big);
  b.added("small.py", "x = 1\ny = 2\nz = 3\n");
  auto facts = b.facts();
  const auto& added = facts->query("added_lines", Scope{});
  const auto& lines = facts->query("lines", Scope{});
  REQUIRE(added.size() == 103);
  CHECK(&lines == &added);  // the whole change: one list
  Scope big_file{Scope::Kind::Files, {"big.py"}};
  Scope small_file{Scope::Kind::Files, {"small.py"}};
  const auto& big_lines = facts->query("lines", big_file);
  const auto& big_added = facts->query("added_lines", big_file);
  REQUIRE(big_lines.size() == 100);
  CHECK(&big_added == &big_lines);  // one file: one list, however it was asked for
  const auto& small_lines = facts->query("lines", small_file);
  const auto& small_added = facts->query("added_lines", small_file);
  REQUIRE(small_added.size() == 3);
  CHECK(small_added[0].get() == small_lines[0].get());  // the same facts, in lists of their own
  // a shared list outlives the source released first; the other still reads it
  facts->release("lines");
  const auto& again = facts->query("added_lines", big_file);
  REQUIRE(again.size() == 100);
  CHECK(again[99]->get("text").as_string() == "v99 = 99");
  CHECK(facts->query("added_lines", Scope{}).size() == 103);
  // asked again after the release, lines are made anew and still equal added_lines' facts
  CHECK(facts->query("lines", big_file).size() == 100);
}
