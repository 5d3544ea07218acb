// The generic contract of every registered fact source: each fact it makes carries exactly the
// fields of its schema, with the declared types, nested facts included (source.hpp).
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

// Checks `f` against the schema of `source`; recurses into nested facts. Returns the number of
// facts checked.
int check_fact(const FactPtr& f, const std::string& source) {
  const SourceSchema& s = schema_of(source);
  INFO("source " << source << ", fact at " << f->file << ":" << f->line);
  CHECK(f->source == source);
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
}
