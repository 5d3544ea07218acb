// ChangeFacts over hand-built changes: exact facts, fields, scopes, caching and parse counts.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "facts/change_builder.hpp"
#include "runner/change/memory.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/facts/schema.hpp"
#include "runner/lang/model.hpp"

using review::change::Change;
using review::change::ChangedFile;
using review::change::DiffLine;
using review::change::FileStatus;
using review::change::Hunk;
using review::change::LineKind;
using review::change::MemoryContent;
using review::dsl::FactPtr;
using review::dsl::Scope;
using review::dsl::Value;
using review::facts::ChangeFacts;
using review::facts::testing::ChangeBuilder;

namespace {

const Scope kChanged{Scope::Kind::Changed, {}};
const Scope kBase{Scope::Kind::Base, {}};
const Scope kRepo{Scope::Kind::Repo, {}};

std::string s(const FactPtr& f, const char* field) { return f->get(field).to_text(); }
std::string s(const Value& v, const char* field) { return v.as_fact()->get(field).to_text(); }

// "file:line field=value ..." for each fact, joined by newlines.
std::string dump(const std::vector<FactPtr>& facts, std::vector<const char*> fields) {
  std::string out;
  for (const auto& f : facts) {
    out += f->file + ":" + std::to_string(f->line);
    for (const char* x : fields) out += std::string(" ") + x + "=" + f->get(x).to_text();
    out += "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("schema lists every source with documented fields", "[facts]") {
  const auto& schema = review::facts::fact_schema();
  std::string names;
  for (const auto& src : schema) {
    names += src.name + " ";
    INFO(src.name);
    CHECK(!src.doc.empty());
    for (const auto& f : src.fields) {
      INFO(f.name);
      CHECK(!f.doc.empty());
      if (f.type == review::dsl::Type::Fact) CHECK(!f.fact_source.empty());
    }
  }
  CHECK(names ==
        "pr files lines added_lines removed_lines functions calls call_targets assignments statements branches "
        "dispatch_cases unbound_reads classes methods overrides subclasses attributes clones siblings symbols handlers throws checks includes ifdefs "
        "cmake_commands cmake_targets cmake_installs workflows jobs steps sections repos location construct ");
  auto facts = ChangeBuilder().facts();
  CHECK(&facts->schema() == &schema);
  CHECK(schema[0].takes_scope == false);
  REQUIRE(schema[1].field("tier"));
  CHECK(schema[1].field("tier")->type == review::dsl::Type::Int);
}

TEST_CASE("unknown and nested-only sources throw FactsError", "[facts]") {
  auto facts = ChangeBuilder().facts();
  struct Row { const char* source; const char* message; };
  const Row rows[] = {
      {"line", "unknown fact source 'line'"},
      {"location", "'location' records only appear inside other facts and cannot be queried"},
  };
  for (const auto& r : rows) {
    try {
      facts->query(r.source, kChanged);
      FAIL("no error");
    } catch (const review::dsl::FactsError& e) {
      CHECK(e.message == r.message);
    }
  }
}

TEST_CASE("pr fact: text strips HTML comments", "[facts]") {
  ChangeBuilder b;
  b.change.pr.number = 42;
  b.change.pr.title = "Fuse kernels";
  b.change.pr.body = "Why<!-- template hint -->\n## Test Plan\n<!-- fill in";
  b.change.pr.labels = {"perf", "ci"};
  b.change.pr.commits = 3;
  b.change.pr.base_ref = "main";
  auto facts = b.facts();
  const auto& pr = facts->query("pr", kChanged);
  REQUIRE(pr.size() == 1);
  CHECK(s(pr[0], "number") == "42");
  CHECK(s(pr[0], "text") == "Fuse kernels\n\nWhy\n## Test Plan\n");
  CHECK(s(pr[0], "body") == "Why<!-- template hint -->\n## Test Plan\n<!-- fill in");
  CHECK(s(pr[0], "labels") == "perf, ci");
  CHECK(pr[0]->get("labels").as_list().size() == 2);
  CHECK(s(pr[0], "base") == "main");
  CHECK(s(pr[0], "commits") == "3");
}

TEST_CASE("files: status, tier (first glob wins), test/tooling predicates, repo skip list", "[facts]") {
  ChangeBuilder b;
  b.file("atom/config.py", "a = 1\n", "a = 2\n");
  b.added("tests/test_x.py", "def test_a():\n    pass\n");
  b.added("scripts/run.sh", "echo\n");
  b.unchanged("atom/other.py", "x = 1\n");
  b.unchanged("third_party/lib/a.c", "int a;\n");
  b.unchanged("proto/m.pb.cc", "int b;\n");
  auto facts = b.facts();
  review::dsl::RulesetData d;
  d.tiers = {{1, "core", "atom/config.py", "all models", "wrong config"}, {2, "rest", "atom/**", "some", "x"}};
  d.test_globs = {"**/check_*.py"};
  facts->configure(d);
  CHECK(dump(facts->query("files", kChanged), {"status", "language", "tier", "blast", "is_test", "is_tooling", "added_count", "removed_count"}) ==
        "atom/config.py:0 status=modified language=python tier=1 blast=all models is_test=false is_tooling=false added_count=1 removed_count=1\n"
        "tests/test_x.py:0 status=added language=python tier=0 blast= is_test=true is_tooling=false added_count=2 removed_count=0\n"
        "scripts/run.sh:0 status=added language=text tier=0 blast= is_test=false is_tooling=true added_count=1 removed_count=0\n");
  CHECK(dump(facts->query("files", kRepo), {"status", "tier"}) ==
        "atom/config.py:0 status=modified tier=1\n"
        "atom/other.py:0 status=unchanged tier=2\n"
        "scripts/run.sh:0 status=added tier=0\n"
        "tests/test_x.py:0 status=added tier=0\n");
  CHECK(facts->notes() == std::vector<std::string>{"repository index: skipped 2 vendored or generated files"});
  CHECK(dump(facts->query("files", Scope{Scope::Kind::Globs, {"atom/*.py"}}), {"path"}) ==
        "atom/config.py:0 path=atom/config.py\natom/other.py:0 path=atom/other.py\n");
}

TEST_CASE("is_test and is_tooling built-in predicates", "[facts]") {
  struct Row { const char* path; bool test, tooling; };
  const Row rows[] = {
      {"op_tests/test_gemm.py", true, false}, {"a/tests/x.py", true, false},
      {"a/test_b.py", true, false},           {"a/b_test.py", true, false},
      {"src/x_test.cpp", true, false},        {"src/TestFoo.cpp", true, false},
      {"src/contest.py", false, false},       {"tests", false, false},
      {"bench_x/run.py", false, true},        {"a/scripts/x.py", false, true},
      {".github/workflows/ci.yml", false, true}, {"docs/a.md", false, true},
      {"atom/tools.py", false, false},
  };
  for (const auto& r : rows) {
    INFO(r.path);
    CHECK(review::facts::builtin_is_test(r.path) == r.test);
    CHECK(review::facts::builtin_is_tooling(r.path) == r.tooling);
  }
}

TEST_CASE("lines, added_lines, removed_lines", "[facts]") {
  ChangeBuilder b;
  b.file("m.py",
         "def f(x):\n    y = 1  # old\n    return y\n",
         "def f(x):\n    y = 2  # new\n    for i in x:\n        g(i)\n    return y\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("lines", kChanged), {"kind", "added", "function", "in_loop"}) ==
        "m.py:1 kind=context added=false function=f in_loop=false\n"
        "m.py:2 kind=added added=true function=f in_loop=false\n"
        "m.py:3 kind=added added=true function=f in_loop=false\n"
        "m.py:4 kind=added added=true function=f in_loop=true\n"
        "m.py:5 kind=context added=false function=f in_loop=false\n");
  const auto& added = facts->query("added_lines", kChanged);
  CHECK(dump(added, {"text", "code", "comment"}) ==
        "m.py:2 text=    y = 2  # new code=    y = 2        comment=# new\n"
        "m.py:3 text=    for i in x: code=    for i in x: comment=\n"
        "m.py:4 text=        g(i) code=        g(i) comment=\n");
  CHECK(dump(facts->query("removed_lines", kChanged), {"kind", "added", "text", "code", "function"}) ==
        "m.py:2 kind=removed added=false text=    y = 1  # old code=    y = 1        function=f\n");
  CHECK(dump(facts->query("lines", kBase), {"kind"}) ==
        "m.py:1 kind=context\nm.py:2 kind=removed\nm.py:3 kind=context\n");
  CHECK(facts->is_added("m.py", 2));
  CHECK_FALSE(facts->is_added("m.py", 1));
  CHECK_FALSE(facts->is_added("other.py", 2));
  // head_line: a head line is itself; a removed line stands where its replacement starts; a
  // base context line is mapped through the hunk
  CHECK(dump(facts->query("removed_lines", kChanged), {"head_line"}) == "m.py:2 head_line=2\n");
  CHECK(dump(facts->query("lines", kBase), {"head_line"}) ==
        "m.py:1 head_line=1\nm.py:2 head_line=2\nm.py:3 head_line=5\n");
  CHECK(dump(facts->query("added_lines", kChanged), {"head_line"}) ==
        "m.py:2 head_line=2\nm.py:3 head_line=3\nm.py:4 head_line=4\n");
}

TEST_CASE("one file of a per-file source is its per-file facts; a scope's release frees them, a later read rebuilds them", "[facts]") {
  ChangeBuilder b;
  b.file("m.py", "a = 1\n", "a = 2\nb = 3\n");
  b.unchanged("n.py", "c = 4\n");
  auto facts = b.facts();
  const Scope one{Scope::Kind::Files, {"m.py"}};
  const auto& whole = facts->query("lines", kChanged);
  const auto& file = facts->query("lines", one);
  CHECK(dump(file, {"text", "added"}) == "m.py:1 text=a = 2 added=true\nm.py:2 text=b = 3 added=true\n");
  REQUIRE(file.size() == 2);
  CHECK(file[0] == whole[0]);                    // the same facts, not copies
  CHECK(&facts->query("lines", one) == &file);   // and the same list on a second read
  CHECK(facts->query("lines", Scope{Scope::Kind::Files, {"gone.py"}}).empty());
  CHECK(facts->query("lines", Scope{Scope::Kind::Files, {"n.py"}}).size() == 1);  // unchanged file of the tree
  std::string before = dump(file, {"text", "added", "function"});
  facts->release_scope("lines", kChanged);
  CHECK(dump(facts->query("lines", one), {"text", "added", "function"}) == before);
  CHECK(dump(facts->query("lines", kChanged), {"text"}) == "m.py:1 text=a = 2\nm.py:2 text=b = 3\n");
}

TEST_CASE("head_line of a pure deletion points after it", "[facts]") {
  ChangeBuilder b;
  b.file("z.py", "a = 1\nout.zero_()\nb = 2\n", "a = 1\nb = 2\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("removed_lines", kChanged), {"head_line", "text"}) == "z.py:2 head_line=2 text=out.zero_()\n");
}

TEST_CASE("line facts store no fields: a shared provider answers every schema field", "[facts]") {
  ChangeBuilder b;
  b.file("m.py", "def f(x):\n    y = 1\n", "def f(x):\n    y = 2\n    return y\n");
  auto facts = b.facts();
  std::vector<std::string> schema_names;
  for (const auto& src : review::facts::fact_schema())
    if (src.name == "lines")
      for (const auto& f : src.fields)
        if (f.name != "file" && f.name != "line") schema_names.push_back(f.name);
  std::sort(schema_names.begin(), schema_names.end());
  for (const char* source : {"lines", "added_lines", "removed_lines"}) {
    INFO(source);
    const auto& got = facts->query(source, kChanged);
    REQUIRE_FALSE(got.empty());
    for (const auto& f : got) {
      CHECK(f->fields.empty());
      REQUIRE(f->provider);
      CHECK(f->provider == got.front()->provider);  // one provider per file
      CHECK(f->provider->names() == schema_names);
      CHECK(f->field_count() == schema_names.size());
      for (const auto& n : schema_names) CHECK_FALSE(f->get(n).is_null());
      CHECK(f->get("no_such_field").is_null());
    }
  }
  const auto& st = facts->query("statements", kChanged);
  REQUIRE(st.size() == 3);
  for (const auto& f : st) {
    CHECK(f->fields.empty());
    REQUIRE(f->provider);
    CHECK(f->provider->names() == std::vector<std::string>{"added", "code", "function", "kind", "text"});
  }
  // Equality of two lookups of the same line (same source, place and field count).
  CHECK(Value(facts->query("lines", kChanged)[1]) == Value(facts->query("lines", kChanged)[1]));
  CHECK_FALSE(Value(facts->query("lines", kChanged)[0]) == Value(facts->query("lines", kChanged)[1]));
}

TEST_CASE("deleted files: removed lines only, no head facts", "[facts]") {
  ChangeBuilder b;
  b.file("gone.py", "assert x\n", "", FileStatus::Deleted);
  auto facts = b.facts();
  CHECK(facts->query("lines", kChanged).empty());
  CHECK(dump(facts->query("removed_lines", kChanged), {"text"}) == "gone.py:1 text=assert x\n");
  CHECK(dump(facts->query("files", kChanged), {"status"}) == "gone.py:0 status=deleted\n");
}

TEST_CASE("reads_no_file: base when every changed file is added, changed when none is left at head", "[facts]") {
  ChangeBuilder audit;  // an audit: every file added against an empty tree
  audit.added("a.py", "def f():\n    pass\n");
  audit.added("b.py", "x = 1\n");
  auto facts = audit.facts();
  CHECK(facts->reads_no_file(kBase));
  CHECK(facts->query("functions", kBase).empty());  // what the answer promises: nothing to read
  CHECK_FALSE(facts->reads_no_file(kChanged));
  CHECK_FALSE(facts->reads_no_file(kRepo));

  ChangeBuilder pr;  // one modified file: its base version is a file of the base scope
  pr.added("a.py", "x = 1\n");
  pr.file("b.py", "y = 1\n", "y = 2\n");
  CHECK_FALSE(pr.facts()->reads_no_file(kBase));

  ChangeBuilder gone;  // only a deletion: nothing at head, the deleted file's base is there
  gone.file("gone.py", "x = 1\n", "", FileStatus::Deleted);
  auto g = gone.facts();
  CHECK(g->reads_no_file(kChanged));
  CHECK_FALSE(g->reads_no_file(kBase));
  CHECK(g->query("lines", kChanged).empty());
}

TEST_CASE("functions: changed by added or removed lines, added def line", "[facts]") {
  ChangeBuilder b;
  b.file("m.py",
         "def a():\n    return 1\n\ndef b():\n    x = 1\n    return x\n\ndef c():\n    pass\n",
         "def a():\n    return 1\n\ndef b():\n    return x\n\ndef c():\n    pass\n\n@dec\ndef d(p, q=3):\n    c()\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("functions", kChanged), {"name", "changed", "added", "start", "end", "params", "defaults", "decorators", "calls", "text"}) ==
        "m.py:1 name=a changed=false added=false start=1 end=2 params= defaults= decorators= calls= text=def a():\n"
        "m.py:4 name=b changed=true added=false start=4 end=5 params= defaults= decorators= calls= text=def b():\n"
        "m.py:7 name=c changed=false added=false start=7 end=8 params= defaults= decorators= calls= text=def c():\n"
        "m.py:11 name=d changed=true added=true start=11 end=12 params=p, q defaults=q=3 decorators=dec calls=c text=def d(p, q=3):\n");
}

TEST_CASE("calls, assignments, statements carry added flags and enclosing function", "[facts]") {
  ChangeBuilder b;
  b.file("m.py", "def f(n):\n    return n\n",
         "def f(n):\n    w = torch.empty(n, dtype=bf16)\n    self.w_shuffled, k = s(w)\n    return n\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("calls", kChanged), {"callee", "args", "kwargs", "kwarg_names", "function", "added", "text"}) ==
        "m.py:2 callee=torch.empty args=n kwargs=dtype=bf16 kwarg_names=dtype function=f added=true text=torch.empty(n, dtype=bf16)\n"
        "m.py:3 callee=s args=w kwargs= kwarg_names= function=f added=true text=s(w)\n");
  CHECK(facts->query("calls", kChanged)[0]->column == 9);
  CHECK(dump(facts->query("assignments", kChanged), {"target", "value", "function", "added"}) ==
        "m.py:2 target=w value=torch.empty(n, dtype=bf16) function=f added=true\n"
        "m.py:3 target=self.w_shuffled value=s(w) function=f added=true\n"
        "m.py:3 target=k value=s(w) function=f added=true\n");
  CHECK(dump(facts->query("statements", kChanged), {"kind", "added", "function"}) ==
        "m.py:1 kind=function_definition added=false function=\n"
        "m.py:2 kind=expression_statement added=true function=f\n"
        "m.py:3 kind=expression_statement added=true function=f\n"
        "m.py:4 kind=return_statement added=false function=f\n");
  // base scope: base line numbers, never added
  CHECK(dump(facts->query("statements", kBase), {"kind", "added"}) ==
        "m.py:1 kind=function_definition added=false\nm.py:2 kind=return_statement added=false\n");
}

TEST_CASE("branches and dispatch_cases come from the dispatch analysis", "[facts]") {
  ChangeBuilder b;
  b.added("d.py",
          "def pick(dtype):\n"
          "    if dtype == 'fp8':\n"
          "        return 1\n"
          "    elif dtype in ('bf16', 'fp16'):\n"
          "        return 2\n"
          "    else:\n"
          "        raise ValueError(dtype)\n");
  auto facts = b.facts();
  const auto& br = facts->query("branches", kChanged);
  CHECK(dump(br, {"kind", "arms", "has_else", "else_raises", "subject", "function", "added", "end_line"}) ==
        "d.py:2 kind=if arms=3 has_else=true else_raises=true subject=dtype function=pick added=true end_line=7\n");
  REQUIRE(br.size() == 1);
  CHECK(br[0]->get("conditions").as_list().size() == 3);
  const auto& dc = facts->query("dispatch_cases", kChanged);
  CHECK(dump(dc, {"subject", "value", "op", "function", "added"}) ==
        "d.py:2 subject=dtype value=\"fp8\" op=== function=pick added=true\n"
        "d.py:4 subject=dtype value=\"bf16\" op=in function=pick added=true\n"
        "d.py:4 subject=dtype value=\"fp16\" op=in function=pick added=true\n");
  CHECK(br[0]->get("else_kind").as_string() == "raise");
  REQUIRE(!dc.empty());
  CHECK(dc[0]->get("dispatch").as_fact() == br[0]);
}

TEST_CASE("unbound_reads: nested read and branch facts", "[facts]") {
  ChangeBuilder b;
  b.added("u.py", "def pick(flag):\n    if flag:\n        out = 1\n    return out\n");
  auto facts = b.facts();
  const auto& u = facts->query("unbound_reads", kChanged);
  REQUIRE(u.size() == 1);
  CHECK(s(u[0], "name") == "out");
  CHECK(u[0]->line == 4);
  CHECK(s(u[0], "function") == "pick");
  CHECK(s(u[0], "cause") == "branch");
  CHECK(s(u[0], "scope_kind") == "function");
  CHECK(s(u[0]->get("read"), "line") == "4");
  CHECK(s(u[0]->get("read"), "column") == "12");
  CHECK(s(u[0]->get("read"), "added") == "true");
  CHECK(s(u[0]->get("read"), "text") == "return out");
  CHECK(s(u[0]->get("branch"), "line") == "2");
  CHECK(s(u[0]->get("branch"), "kind") == "if");
  CHECK(!s(u[0], "bound_in").empty());
  CHECK(!s(u[0], "unbound_path").empty());
  ChangeBuilder ok;
  ok.added("u.py", "def pick(flag):\n    out = 0\n    if flag:\n        out = 1\n    return out\n");
  CHECK(ok.facts()->query("unbound_reads", kChanged).empty());
  // a later read on every path through an earlier one is no fact (the earlier read raised
  // first); one reached another way is
  ChangeBuilder again;
  again.added("u.py", "def pick(flag, more):\n    if flag:\n        out = 1\n    print(out)\n    log(out)\n"
                      "    if more:\n        return out\n    if flag:\n        del out\n    return out\n");
  std::vector<std::string> reads;
  auto again_facts = again.facts();
  for (const auto& f : again_facts->query("unbound_reads", kChanged)) reads.push_back(s(f, "name") + ":" + std::to_string(f->line));
  CHECK(reads == std::vector<std::string>{"out:4", "out:10"});
}

// The block the clone tests copy, rename and compare.
const std::string kLoadBlock =
    "def load(self, path):\n"
    "    data = read_file(path)\n"
    "    parts = data.split(',')\n"
    "    total = 0\n"
    "    for p in parts:\n"
    "        total += int(p)\n"
    "    return total\n";

TEST_CASE("clones: similar added blocks in two different files", "[facts]") {
  const std::string block = kLoadBlock;
  std::string renamed = block;
  for (auto [from, to] : {std::pair{"data", "blob"}, std::pair{"parts", "items"}})
    for (size_t p; (p = renamed.find(from)) != std::string::npos;) renamed.replace(p, std::string(from).size(), to);
  ChangeBuilder b;
  b.added("a.py", block);
  b.added("b.py", "import os\n\n" + renamed);
  b.added("c.py", "x = 1\ny = 2\nz = 3\nw = 4\nv = 5\n");
  auto facts = b.facts();
  review::dsl::RulesetData d;
  d.lets.emplace_back("clone_min_tokens", Value(30));
  facts->configure(d);
  const auto& c = facts->query("clones", kChanged);
  REQUIRE(c.size() == 1);
  CHECK(s(c[0]->get("a"), "file") == "a.py");
  CHECK(s(c[0]->get("b"), "file") == "b.py");
  CHECK(c[0]->get("similarity").as_int() >= 80);
  CHECK(c[0]->get("lines").as_int() >= 5);
  CHECK(c[0]->get("tokens").as_int() < 50);
  ChangeBuilder one;
  one.added("a.py", block + "\n" + block);
  auto one_facts = one.facts();
  one_facts->configure(d);
  CHECK(one_facts->query("clones", kChanged).empty());  // same file: not a clone pair
  // jscpd's default minimum (50 tokens) when the ruleset does not lower it: the block is smaller
  auto plain = b.facts();
  CHECK(plain->query("clones", kChanged).empty());
}

TEST_CASE("clones: an added block that copies existing code of another file", "[facts]") {
  const std::string block = kLoadBlock;
  std::string renamed = block;
  for (auto [from, to] : {std::pair{"data", "blob"}, std::pair{"parts", "items"}, std::pair{"load", "read"}})
    for (size_t p; (p = renamed.find(from)) != std::string::npos;) renamed.replace(p, std::string(from).size(), to);
  const std::string head_a = "import os\n\n\ndef first():\n    return 1\n\n\n" + renamed;
  review::dsl::RulesetData d;
  d.lets.emplace_back("clone_min_tokens", Value(30));
  // a.py gains a renamed copy of b.py's existing `load`; c.py and d.py hold the same old code
  ChangeBuilder b;
  b.file("a.py", "import os\n\n\ndef first():\n    return 1\n", head_a);
  b.unchanged("b.py", "X = 1\n\n" + block);
  b.unchanged("c.py", block);
  b.unchanged("d.py", block);
  auto facts = b.facts();
  facts->configure(d);
  // changed scope: b.py is not changed, so nothing to compare with
  CHECK(facts->query("clones", kChanged).empty());
  const auto& c = facts->query("clones", kRepo);
  // one fact per other file; never c.py with d.py (both existing)
  REQUIRE(c.size() == 3);
  CHECK(s(c[0]->get("a"), "file") == "a.py");
  CHECK(s(c[0]->get("a"), "added") == "true");
  CHECK(c[0]->line == 8);
  CHECK(s(c[0]->get("b"), "file") == "b.py");
  CHECK(s(c[0]->get("b"), "line") == "3");
  CHECK(s(c[0]->get("b"), "added") == "false");
  CHECK(s(c[1]->get("b"), "file") == "c.py");
  CHECK(s(c[2]->get("b"), "file") == "d.py");
  // the copied file changed elsewhere: its existing lines count in the changed scope
  ChangeBuilder e;
  e.file("a.py", "import os\n\n\ndef first():\n    return 1\n", head_a);
  e.file("b.py", "X = 1\n\n" + block, "X = 2\n\n" + block);
  auto efacts = e.facts();
  efacts->configure(d);
  const auto& ec = efacts->query("clones", kChanged);
  REQUIRE(ec.size() == 1);
  CHECK(ec[0]->file == "a.py");
  CHECK(s(ec[0]->get("b"), "file") == "b.py");
  CHECK(s(ec[0]->get("b"), "added") == "false");
  // a copy of existing code of its own file is not a pair; nor a copy shorter than the minimum
  ChangeBuilder own;
  own.file("a.py", block, block + "\n" + renamed);
  own.unchanged("z.py", "x = 1\n");
  auto ofacts = own.facts();
  ofacts->configure(d);
  CHECK(ofacts->query("clones", kRepo).empty());
  review::dsl::RulesetData big = d;
  big.lets.emplace_back("clone_min_lines", Value(8));
  auto bfacts = b.facts();
  bfacts->configure(big);
  CHECK(bfacts->query("clones", kRepo).empty());
}

TEST_CASE("clones: the facts of a few files equal the whole search's facts of those files", "[facts]") {
  const std::string block = kLoadBlock;
  auto renamed = [&](const std::string& a, const std::string& b) {
    std::string out = block;
    for (auto [from, to] : {std::pair{std::string("data"), a}, std::pair{std::string("parts"), b}})
      for (size_t p = 0; (p = out.find(from, p)) != std::string::npos; p += to.size()) out.replace(p, from.size(), to);
    return out;
  };
  review::dsl::RulesetData d;
  d.lets.emplace_back("clone_min_tokens", Value(30));
  auto text = [](const FactPtr& f) {
    return f->file + ":" + std::to_string(f->line) + "-" + std::to_string(f->end_line) + " " + s(f->get("b"), "file") +
           ":" + s(f->get("b"), "line") + "-" + s(f->get("b"), "end_line") + " added=" + s(f->get("b"), "added") +
           " sim=" + s(f, "similarity") + " tokens=" + s(f, "tokens");
  };
  // a pull request: added copies on both sides of a focus file in path order (m.py's pairs with
  // a.py are a.py's facts, with z.py m.py's), existing copies in an unchanged file and in the
  // kept lines of a changed one; and an audit, where every file is added
  ChangeBuilder pr;
  pr.file("a.py", "import os\n", "import os\n\n" + renamed("blob", "items"));
  pr.file("m.py", "X = 1\n", "X = 1\n\n" + renamed("raw", "rows"));
  pr.file("z.py", "Y = 2\n", "Y = 2\n\n" + renamed("buf", "cols") + "\nZ = 3\n");
  pr.file("k.py", "W = 0\n\n" + block, "W = 1\n\n" + block);
  pr.unchanged("b.py", "V = 1\n\n" + block);
  ChangeBuilder audit;
  for (auto [path, a, b] : {std::tuple{"a.py", "blob", "items"}, std::tuple{"m.py", "raw", "rows"},
                            std::tuple{"z.py", "buf", "cols"}, std::tuple{"b.py", "data", "parts"}})
    audit.file(path, "", "# " + std::string(path) + "\n" + renamed(a, b), review::change::FileStatus::Added);
  for (auto* builder : {&pr, &audit}) {
    for (const Scope& scope : {kChanged, kRepo}) {
      auto whole_facts = builder->facts();
      whole_facts->configure(d);
      const auto& whole = whole_facts->query("clones", scope);
      INFO((builder == &pr ? "pull request" : "audit") << ", scope " << scope.describe());
      if (scope.kind == Scope::Kind::Repo) CHECK(whole.size() >= (builder == &pr ? 7u : 6u));
      for (const std::vector<std::string>& files :
           {std::vector<std::string>{}, {"a.py"}, {"m.py"}, {"z.py"}, {"b.py"}, {"k.py"}, {"a.py", "z.py"},
            {"a.py", "b.py", "k.py", "m.py", "z.py"}}) {
        std::vector<std::string> want;
        for (const auto& f : whole)
          if (std::find(files.begin(), files.end(), f->file) != files.end()) want.push_back(text(f));
        auto few_facts = builder->facts();
        few_facts->configure(d);
        const auto* got = few_facts->query_in_files("clones", scope, files, nullptr);
        REQUIRE(got != nullptr);
        std::vector<std::string> have;
        for (const auto& f : *got) have.push_back(text(f));
        INFO("files: " << files.size() << (files.empty() ? std::string() : " from " + files[0]));
        CHECK(have == want);
        // and paired with a few files only (SourceSchema::partner `b`): the same facts whose
        // `b.file` is one of them too
        for (const std::vector<std::string>& partners :
             {std::vector<std::string>{}, {"a.py"}, {"b.py"}, {"k.py", "z.py"}, {"a.py", "b.py", "m.py"}}) {
          std::vector<std::string> paired;
          for (const auto& f : whole)
            if (std::find(files.begin(), files.end(), f->file) != files.end() &&
                std::find(partners.begin(), partners.end(), s(f->get("b"), "file")) != partners.end())
              paired.push_back(text(f));
          auto paired_facts = builder->facts();
          paired_facts->configure(d);
          const auto* narrowed = paired_facts->query_in_files("clones", scope, files, &partners);
          REQUIRE(narrowed != nullptr);
          std::vector<std::string> got_paired;
          for (const auto& f : *narrowed) got_paired.push_back(text(f));
          INFO("partners: " << partners.size());
          CHECK(got_paired == paired);
        }
      }
      // built whole already: the index of the whole list is cheaper than a second search
      CHECK(whole_facts->query_in_files("clones", scope, {"a.py"}, nullptr) == nullptr);
    }
  }
  // a source with no build of a few files answers nullptr (the evaluator reads it whole)
  auto plain = pr.facts();
  CHECK(plain->query_in_files("lines", kRepo, {"a.py"}, nullptr) == nullptr);
  CHECK(plain->query_in_files("clones", kBase, {"a.py"}, nullptr) == nullptr);
}

TEST_CASE("siblings: unchanged name variants of a changed function; suffix list from a let", "[facts]") {
  const std::string base =
      "def gather_rows(x):\n    return x\n\ndef gather_rows_opt(x):\n    return x\n\ndef gather_rows_custom(x):\n    return x\n";
  const std::string head =
      "def gather_rows(x):\n    return x + 1\n\ndef gather_rows_opt(x):\n    return x\n\ndef gather_rows_custom(x):\n    return x\n";
  ChangeBuilder b;
  b.file("k.py", base, head);
  auto facts = b.facts();
  const auto& sib = facts->query("siblings", kChanged);
  CHECK(dump(sib, {"suffix"}) == "k.py:1 suffix=_opt\n");
  REQUIRE(sib.size() == 1);
  CHECK(s(sib[0]->get("function"), "name") == "gather_rows");
  CHECK(s(sib[0]->get("sibling"), "name") == "gather_rows_opt");
  CHECK(s(sib[0]->get("sibling"), "line") == "4");
  review::dsl::RulesetData d;
  d.lets.emplace_back("sibling_suffixes", Value(Value::List{Value("_custom")}));
  facts->configure(d);
  CHECK(dump(facts->query("siblings", kChanged), {"suffix"}) == "k.py:1 suffix=_custom\n");
}

TEST_CASE("symbols over the repo: defs, classes, imports, assigns, references", "[facts]") {
  ChangeBuilder b;
  b.added("pkg/a.py", "import numpy as np\nfrom os import path, sep as s\nLIMIT = 4\nclass K(Base):\n    def run(self):\n        helper.go()\n");
  b.unchanged("pkg/b.cpp", "#include <vector>\nnamespace n { int f() { return g(); } }\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("symbols", kRepo), {"name", "kind", "qualified"}) ==
        "pkg/a.py:1 name=np kind=import qualified=numpy\n"
        "pkg/a.py:2 name=path kind=import qualified=os.path\n"
        "pkg/a.py:2 name=s kind=import qualified=os.sep\n"
        "pkg/a.py:3 name=LIMIT kind=assign qualified=LIMIT\n"
        "pkg/a.py:4 name=K kind=class qualified=K\n"
        "pkg/a.py:4 name=Base kind=reference qualified=Base\n"
        "pkg/a.py:5 name=run kind=def qualified=K.run\n"
        "pkg/a.py:6 name=go kind=reference qualified=helper.go\n"
        "pkg/b.cpp:1 name=vector kind=import qualified=vector\n"
        "pkg/b.cpp:2 name=f kind=def qualified=n::f\n"
        "pkg/b.cpp:2 name=g kind=reference qualified=g\n");
  // the fields come from one provider per file: the line's text, trimmed; a class-level
  // assignment and `import m as n` qualify as written
  b.added("pkg/c.py", "import torch.nn as nn\nclass Q:\n    SIZE = 2\n");
  auto more = b.facts();
  CHECK(dump(more->query("symbols", Scope{Scope::Kind::Files, {"pkg/c.py"}}), {"name", "kind", "qualified", "text"}) ==
        "pkg/c.py:1 name=nn kind=import qualified=torch.nn text=import torch.nn as nn\n"
        "pkg/c.py:2 name=Q kind=class qualified=Q text=class Q:\n"
        "pkg/c.py:3 name=SIZE kind=assign qualified=Q.SIZE text=SIZE = 2\n");
  const auto& one = more->query("symbols", kRepo).front();
  CHECK(one->fields.empty());
  CHECK(one->field_count() == 4);
  // the end of a review frees every model and result; a later query parses again, same facts
  std::string before = dump(more->query("symbols", kRepo), {"name", "kind", "qualified", "text"});
  CHECK(more->cached_models() == 3);
  more->release_all();
  CHECK(more->cached_models() == 0);
  CHECK(dump(more->query("symbols", kRepo), {"name", "kind", "qualified", "text"}) == before);
  CHECK(more->cached_models() == 3);
}

TEST_CASE("methods, overrides and subclasses: the class model across files of the repository", "[facts]") {
  // base.py changes Base.forward (a body line) and adds Base.extra; models.py is unchanged:
  // A inherits forward, B overrides it, C derives from B.
  ChangeBuilder b;
  b.file("pkg/base.py",
         "class Base:\n    def forward(self, x):\n        return x\n",
         "class Base:\n    def forward(self, x):\n        return x * 2\n    def extra(self):\n        return 0\n");
  b.unchanged("pkg/models.py",
              "from .base import Base\nclass A(Base):\n    pass\nclass B(Base):\n    def forward(self, x):\n"
              "        return x\nclass C(B):\n    def extra(self):\n        return 1\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("methods", kChanged),
             {"qualified", "added", "changed", "changed_line", "overrides", "overridden_by", "inherited_by"}) ==
        "pkg/base.py:2 qualified=Base.forward added=false changed=true changed_line=3 overrides= "
        "overridden_by=B inherited_by=A\n"
        "pkg/base.py:4 qualified=Base.extra added=true changed=true changed_line=4 overrides= "
        "overridden_by=C inherited_by=A, B\n");
  CHECK(dump(facts->query("methods", kRepo), {"qualified", "overrides", "changed"}) ==
        "pkg/base.py:2 qualified=Base.forward overrides= changed=true\n"
        "pkg/base.py:4 qualified=Base.extra overrides= changed=true\n"
        "pkg/models.py:5 qualified=B.forward overrides=Base.forward changed=false\n"
        "pkg/models.py:8 qualified=C.extra overrides=Base.extra changed=false\n");
  // Pairs with either side in the scope, located at the override.
  CHECK(dump(facts->query("overrides", kChanged), {"qualified", "base_qualified", "base_line", "direct", "base_changed"}) ==
        "pkg/models.py:5 qualified=B.forward base_qualified=Base.forward base_line=2 direct=true base_changed=true\n"
        "pkg/models.py:8 qualified=C.extra base_qualified=Base.extra base_line=4 direct=true base_changed=true\n");
  CHECK(dump(facts->query("subclasses", kChanged), {"class", "subclass", "depth", "methods"}) ==
        "pkg/models.py:2 class=Base subclass=A depth=1 methods=\n"
        "pkg/models.py:4 class=Base subclass=B depth=1 methods=forward\n"
        "pkg/models.py:7 class=Base subclass=C depth=2 methods=extra\n");
  CHECK(dump(facts->query("classes", kRepo), {"name", "inherited_methods"}) ==
        "pkg/base.py:1 name=Base inherited_methods=\n"
        "pkg/models.py:2 name=A inherited_methods=forward, extra\n"
        "pkg/models.py:4 name=B inherited_methods=extra\n"
        "pkg/models.py:7 name=C inherited_methods=forward\n");
}

TEST_CASE("cmake_commands and sections (files and PR body)", "[facts]") {
  ChangeBuilder b;
  b.file("CMakeLists.txt", "project(x)\n", "project(x)\nif(HIP)\n  add_library(k STATIC\n    k.hip)\nendif()\n");
  b.added("docs/guide.md", "# Guide\ntext\n## Usage\nrun\n");
  b.change.pr.body = "## Summary\nwhy\n## Test Plan\n<!-- describe -->\n";
  auto facts = b.facts();
  CHECK(dump(facts->query("cmake_commands", kChanged), {"name", "argtext", "depth", "added", "end_line"}) ==
        "CMakeLists.txt:1 name=project argtext=x depth=0 added=false end_line=1\n"
        "CMakeLists.txt:2 name=if argtext=HIP depth=0 added=true end_line=2\n"
        "CMakeLists.txt:3 name=add_library argtext=k STATIC k.hip depth=1 added=true end_line=4\n"
        "CMakeLists.txt:5 name=endif argtext= depth=0 added=true end_line=5\n");
  CHECK(dump(facts->query("sections", kChanged), {"heading", "level", "text", "pr_body", "end"}) ==
        ":1 heading=Summary level=2 text=why pr_body=true end=2\n"
        ":3 heading=Test Plan level=2 text= pr_body=true end=4\n"
        "docs/guide.md:1 heading=Guide level=1 text=text pr_body=false end=2\n"
        "docs/guide.md:3 heading=Usage level=2 text=run pr_body=false end=4\n");
}

TEST_CASE("handlers, throws, includes and ifdefs: C++ facts with their added marks", "[facts]") {
  ChangeBuilder b;
  b.file("src/api.cpp",
         "#include \"api.h\"\n"
         "int run(H* h) {\n"
         "  try { h->go(); } catch (const std::exception& e) { log(e.what()); throw; }\n"
         "  return 0;\n"
         "}\n",
         "#include \"api.h\"\n"
         "#ifdef _WIN32\n"
         "#include <windows.h>\n"
         "#else\n"
         "#include <dlfcn.h>\n"
         "#endif\n"
         "int run(H* h) {\n"
         "  try { h->go(); } catch (const std::exception& e) { log(e.what()); throw; }\n"
         "  try {\n"
         "    h->stop();\n"
         "  } catch (...) {\n"
         "    return 3;\n"
         "  }\n"
         "  return 0;\n"
         "}\n"
         "Plan::~Plan() { if (leaked_) throw std::runtime_error(\"leak\"); }\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("handlers", kChanged), {"type", "name", "catches_all", "rethrows", "uses_cause", "returns", "body", "end_line", "function", "added", "header_added"}) ==
        "src/api.cpp:8 type=const std::exception& e name=e catches_all=false rethrows=true uses_cause=true returns=false "
        "body=log(e.what()); throw; end_line=8 function=run added=false header_added=false\n"
        "src/api.cpp:11 type=... name= catches_all=true rethrows=false uses_cause=false returns=true body=return 3; "
        "end_line=13 function=run added=true header_added=true\n");
  CHECK(dump(facts->query("throws", kChanged), {"expr", "type", "rethrow", "in_handler", "handler_line", "in_destructor", "function", "added"}) ==
        "src/api.cpp:8 expr= type= rethrow=true in_handler=true handler_line=8 in_destructor=false function=run added=false\n"
        "src/api.cpp:16 expr=std::runtime_error(\"leak\") type=std::runtime_error rethrow=false in_handler=false handler_line=0 "
        "in_destructor=true function=Plan::~Plan added=true\n");
  CHECK(dump(facts->query("includes", kChanged), {"path", "system", "guard", "added"}) ==
        "src/api.cpp:1 path=api.h system=false guard= added=false\n"
        "src/api.cpp:3 path=windows.h system=true guard=defined(_WIN32) added=true\n"
        "src/api.cpp:5 path=dlfcn.h system=true guard=!(defined(_WIN32)) added=true\n");
  CHECK(dump(facts->query("ifdefs", kChanged), {"directive", "condition", "expr", "end_line", "endif_line", "added"}) ==
        "src/api.cpp:2 directive=ifdef condition=_WIN32 expr=defined(_WIN32) end_line=3 endif_line=6 added=true\n"
        "src/api.cpp:4 directive=else condition= expr=!(defined(_WIN32)) end_line=5 endif_line=6 added=true\n");
  CHECK(facts->query("handlers", review::dsl::Scope{review::dsl::Scope::Kind::Base, {}}).size() == 1);
}

TEST_CASE("workflows, jobs and steps: added marks; malformed YAML makes the review incomplete", "[facts]") {
  ChangeBuilder b;
  b.file(".github/workflows/ci.yml",
         "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n",
         "on:\n  pull_request:\n    paths: [src/**]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n"
         "  gpu:\n    runs-on: [self-hosted, mi300]\n    timeout-minutes: 60\n    steps:\n      - uses: actions/checkout@v4\n"
         "      - name: Test\n        run: ctest\n");
  b.added(".github/workflows/broken.yml", "on: push\njobs:\n  t:\n    runs-on: [x\n");
  b.added("ci/not-a-workflow.yml", "on: push\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("workflows", kChanged), {"triggers", "pull_request", "pr_paths", "jobs", "added"}) ==
        ".github/workflows/ci.yml:1 triggers=pull_request pull_request=true pr_paths=src/** jobs=2 added=true\n");
  CHECK(dump(facts->query("jobs", kChanged), {"id", "runs_on", "runner_labels", "timeout_minutes", "steps", "added", "runs_on_added", "end_line"}) ==
        ".github/workflows/ci.yml:5 id=build runs_on=ubuntu-latest runner_labels=ubuntu-latest timeout_minutes=0 steps=1 "
        "added=false runs_on_added=false end_line=8\n"
        ".github/workflows/ci.yml:9 id=gpu runs_on=self-hosted, mi300 runner_labels=self-hosted, mi300 timeout_minutes=60 "
        "steps=2 added=true runs_on_added=true end_line=15\n");
  CHECK(dump(facts->query("steps", kChanged), {"job", "index", "name", "uses", "run", "run_line", "added"}) ==
        ".github/workflows/ci.yml:8 job=build index=0 name= uses= run=make run_line=8 added=false\n"
        ".github/workflows/ci.yml:13 job=gpu index=0 name= uses=actions/checkout@v4 run= run_line=0 added=true\n"
        ".github/workflows/ci.yml:14 job=gpu index=1 name=Test uses= run=ctest run_line=15 added=true\n");
  auto inc = facts->incomplete();
  REQUIRE(inc.size() == 1);
  CHECK(inc[0].rfind(".github/workflows/broken.yml: not analysed: workflow YAML error at 5:", 0) == 0);
}

TEST_CASE("cmake_targets and cmake_installs: per file, with added marks", "[facts]") {
  ChangeBuilder b;
  b.file("lib/CMakeLists.txt", "add_library(core SHARED a.cpp)\ninstall(TARGETS core)\n",
         "add_library(core SHARED a.cpp)\ninstall(TARGETS core)\nadd_library(plugin MODULE p.cpp)\n"
         "set_target_properties(plugin PROPERTIES OUTPUT_NAME mylib_plugin)\n"
         "install(DIRECTORY include/ DESTINATION include)\n");
  auto facts = b.facts();
  CHECK(dump(facts->query("cmake_targets", kChanged), {"name", "kind", "output_name", "added"}) ==
        "lib/CMakeLists.txt:1 name=core kind=shared output_name=core added=false\n"
        "lib/CMakeLists.txt:3 name=plugin kind=module output_name=mylib_plugin added=true\n");
  CHECK(dump(facts->query("cmake_installs", kChanged), {"kind", "targets", "covers", "added"}) ==
        "lib/CMakeLists.txt:2 kind=TARGETS targets=core covers= added=false\n"
        "lib/CMakeLists.txt:5 kind=DIRECTORY targets= covers=lib/include/** added=true\n");
}

TEST_CASE("caching: each file parsed once per side whatever the sources; results cached", "[facts]") {
  ChangeBuilder b;
  b.file("a.py", "x = 1\n", "x = 2\n");
  b.file("b.py", "y = 1\n", "y = 2\n");
  for (int i = 0; i < 20; ++i) b.unchanged("r/f" + std::to_string(i) + ".py", "def f():\n    return 1\n");
  ChangeFacts::Options o;
  o.jobs = 2;
  auto facts = b.facts(o);
  std::map<std::string, int> parses;
  facts->set_parse_hook([&](const std::string& p, bool base) { ++parses[(base ? "b:" : "h:") + p]; });
  for (const char* src : {"lines", "added_lines", "functions", "calls", "assignments", "statements",
                          "branches", "dispatch_cases", "unbound_reads", "symbols", "siblings", "clones"}) {
    facts->query(src, kChanged);
    facts->query(src, kBase);
    facts->query(src, kRepo);
  }
  facts->query("removed_lines", kChanged);
  facts->query("files", kChanged);
  CHECK(parses.size() == 24);  // 22 head files + 2 base files
  for (const auto& [k, n] : parses) {
    INFO(k);
    CHECK(n == 1);
  }
  const auto& a = facts->query("functions", kRepo);
  const auto& a2 = facts->query("functions", kRepo);
  CHECK(&a == &a2);
  CHECK(a.size() == 20);
  CHECK(facts->query("functions", Scope{Scope::Kind::Files, {"r/f3.py"}}).size() == 1);
  CHECK(parses.size() == 24);
}

TEST_CASE("release: a released source is rebuilt with the same facts when asked again", "[facts]") {
  ChangeBuilder b;
  b.file("a.py", "def f():\n    return g(1)\n", "def f():\n    return g(2)\n");
  for (int i = 0; i < 4; ++i) b.unchanged("r/f" + std::to_string(i) + ".py", "def h():\n    return k()\n");
  auto facts = b.facts();
  std::map<std::string, int> parses;
  facts->set_parse_hook([&](const std::string& p, bool base) { ++parses[(base ? "b:" : "h:") + p]; });
  const std::vector<const char*> fields = {"name", "callee", "added"};
  std::string calls = dump(facts->query("calls", kRepo), fields);
  std::string lines = dump(facts->query("lines", kChanged), {"text", "added"});
  std::string files = dump(facts->query("functions", Scope{Scope::Kind::Files, {"r/f1.py"}}), fields);
  // call_targets keeps what its files share (the module summaries) in its state: freed with it
  const std::vector<const char*> target_fields = {"callee", "target", "target_file", "unresolved", "via"};
  std::string targets = dump(facts->query("call_targets", kRepo), target_fields);
  CHECK(targets.find("a.py:2 callee=g target= target_file=") != std::string::npos);
  CHECK(calls.find("a.py:2") != std::string::npos);
  CHECK(lines == "a.py:1 text=def f(): added=false\na.py:2 text=    return g(2) added=true\n");
  facts->release("calls");
  facts->release("lines");
  facts->release("functions");
  facts->release("call_targets");
  facts->release("no_such_source");  // nothing cached: a no-op
  CHECK(dump(facts->query("calls", kRepo), fields) == calls);
  CHECK(dump(facts->query("call_targets", kRepo), target_fields) == targets);
  CHECK(dump(facts->query("lines", kChanged), {"text", "added"}) == lines);
  CHECK(dump(facts->query("functions", Scope{Scope::Kind::Files, {"r/f1.py"}}), fields) == files);
  for (const auto& [k, n] : parses) {
    INFO(k);
    CHECK(n == 1);  // the models stay: rebuilding does not parse again
  }
}

TEST_CASE("hunks-only changes: facts from the diff lines at their real line numbers", "[facts]") {
  ChangeBuilder b;
  b.file("m.py", "def f():\n    a = 1\n    return a\n", "def f():\n    a = 2\n    return a\n");
  b.hunks_only();
  auto facts = b.facts();
  CHECK(dump(facts->query("added_lines", kChanged), {"function"}) == "m.py:2 function=f\n");
  CHECK(facts->notes() == std::vector<std::string>{"m.py: full head text unavailable; facts come from the diff hunks only"});
}

TEST_CASE("cached_head_text: the head text a cached model holds, never hunks or an unread file", "[facts]") {
  ChangeBuilder b;
  const std::string head = "def f():\r\n    a = 2  # x\n    return a\n";
  b.file("m.py", "def f():\n    a = 1\n    return a\n", head);
  b.added("n.py", "x = 1\n");
  b.added("blob.png", "not read\n");
  b.added("big.py", std::string(300, '#') + "\n");
  ChangeFacts::Options o;
  o.max_file_bytes = 100;
  auto made = b.facts(o);
  ChangeFacts& facts = *made;
  CHECK_FALSE(facts.cached_head_text("m.py"));  // nothing read yet
  REQUIRE(facts.model("m.py", false));
  CHECK(facts.cached_head_text("m.py") == std::optional<std::string>(head));  // bytes as read, CR kept
  REQUIRE(facts.model("m.py", true));
  CHECK(facts.cached_head_text("m.py") == std::optional<std::string>(head));  // the base model is not it
  CHECK_FALSE(facts.cached_head_text("n.py"));
  facts.model("blob.png", false);
  facts.model("big.py", false);
  CHECK_FALSE(facts.cached_head_text("blob.png"));
  CHECK_FALSE(facts.cached_head_text("big.py"));  // over the size limit: no text held
  CHECK_FALSE(facts.cached_head_text("missing.py"));

  ChangeBuilder h;
  h.file("k.py", "a = 1\n", "a = 2\n");
  h.hunks_only();
  auto hf = h.facts();
  REQUIRE(hf->model("k.py", false));
  CHECK_FALSE(hf->cached_head_text("k.py"));  // the text of the hunks is not the file's
}

TEST_CASE("size limit: oversized files are skipped with a note", "[facts]") {
  ChangeBuilder b;
  b.added("big.py", std::string(200, '#') + "\n");
  ChangeFacts::Options o;
  o.max_file_bytes = 100;
  auto facts = b.facts(o);
  CHECK(facts->query("lines", kChanged).empty());
  CHECK(facts->notes() == std::vector<std::string>{"big.py: skipped: 201 bytes exceeds the limit of 100 bytes"});
  CHECK(dump(facts->query("files", kChanged), {"skipped"}) == "big.py:0 skipped=true\n");
}

TEST_CASE("size limit: an oversized binary file is binary, and does not make the review incomplete", "[facts]") {
  // A repository's 2.7 MB logo read by a repository-wide source made every pull-request run of
  // that repository incomplete (exit 4) although no source was missing.
  ChangeBuilder b;
  b.added("big.py", std::string(200, '#') + "\n");
  b.added("logo.img", std::string("\x89PNG\0", 5) + std::string(300, 'x'));
  ChangeFacts::Options o;
  o.max_file_bytes = 100;
  auto facts = b.facts(o);
  CHECK(facts->query("lines", kChanged).empty());
  auto notes = facts->notes();
  std::sort(notes.begin(), notes.end());
  CHECK(notes == std::vector<std::string>{"big.py: skipped: 201 bytes exceeds the limit of 100 bytes",
                                          "logo.img: skipped: binary content (NUL byte)"});
  CHECK(facts->incomplete() == std::vector<std::string>{"big.py: skipped: 201 bytes exceeds the limit of 100 bytes"});
}

TEST_CASE("calls, assignments, functions: fields come from the file's model, none stored per fact", "[facts]") {
  // An audit makes one fact per call, assignment and function of the tree: stored, their
  // named values took 370 MiB of aiter's calls alone. Each file side shares one provider.
  ChangeBuilder b;
  b.file("m.py", "def f(n):\n    return n\n",
         "def f(n, k=2):\n    w = torch.empty(n, dtype=bf16)\n    if n == 1:\n        g(w)\n    elif n == 2:\n"
         "        h(w)\n    return n\n");
  auto facts = b.facts();
  for (const char* source : {"calls", "assignments", "functions"}) {
    INFO(source);
    const auto& fs = facts->query(source, kChanged);
    REQUIRE(!fs.empty());
    for (const auto& f : fs) {
      CHECK(f->fields.empty());
      CHECK(f->provider == fs.front()->provider);
      CHECK(f->field_count() == f->provider->names().size());
    }
  }
  CHECK(dump(facts->query("functions", kChanged), {"params", "defaults", "kwargs", "changed"}) ==
        "m.py:1 params=n, k defaults=k=2 kwargs= changed=true\n");
}

TEST_CASE("checks: asserts, raise guards and check calls, with canonical conjuncts", "[facts]") {
  ChangeBuilder b;
  b.file("pkg/ops.py",
         "def gather(kv, idx, mode):\n"
         "    assert idx.max() < kv.shape[0], 'index out of range'\n"
         "    assert mode in ('a', 'b') and kv.dim() == 3\n"
         "    return kv[idx]\n",
         "def gather(kv, idx, mode):\n"
         "    if kv.shape[0] <= idx.max():\n"
         "        log('bad')\n"
         "        raise IndexError('index out of range')\n"
         "    if mode == 'x':\n"
         "        return None\n"
         "    elif mode == 'y':\n"
         "        raise ValueError(mode)\n"
         "    torch._check(3 == kv.dim(), lambda: 'rank')\n"
         "    return kv[idx]\n");
  b.file("src/k.cpp", "int f(int n) {\n  return n;\n}\n",
         "int f(int n) {\n  TORCH_CHECK(n > 0 && !flag, \"n\");\n  TORCH_CHECK_EQ(n, 4);\n  return n;\n}\n");
  auto facts = b.facts();
  // The guard at line 2 restates the removed assert's condition: the same `norm`.
  CHECK(dump(facts->query("checks", kChanged), {"form", "callee", "cond", "norm", "function", "added", "kind", "end_line"}) ==
        "pkg/ops.py:2 form=raise callee= cond=kv.shape[0] <= idx.max() norm=idx.max() < kv.shape[0] function=gather added=true kind=added end_line=4\n"
        "pkg/ops.py:9 form=call callee=torch._check cond=3 == kv.dim() norm=3 == kv.dim() function=gather added=true kind=added end_line=9\n"
        "src/k.cpp:2 form=call callee=TORCH_CHECK cond=n > 0 && !flag norm=0 < n and not flag function=f added=true kind=added end_line=2\n"
        "src/k.cpp:3 form=call callee=TORCH_CHECK_EQ cond=(n) == (4) norm=4 == n function=f added=true kind=added end_line=3\n");
  CHECK(dump(facts->query("checks", kBase), {"form", "norm", "conjuncts", "kind", "head_line"}) ==
        "pkg/ops.py:2 form=assert norm=idx.max() < kv.shape[0] conjuncts=idx.max() < kv.shape[0] kind=removed head_line=2\n"
        "pkg/ops.py:3 form=assert norm=3 == kv.dim() and mode in (\"a\",\"b\") conjuncts=3 == kv.dim(), mode in (\"a\",\"b\") kind=removed head_line=2\n");
}

TEST_CASE("the analyses run on a parse only for the side a rule reads them of, never on an uncached read", "[facts]") {
  // Once a head-side source had asked for the analyses, every later parse ran them: the base
  // sides parsed for removed_lines and the modules call_targets reads and drops (ATOM 4b49af8160:
  // 15% of the run's CPU in analyses, most of it never read).
  const std::string base = "def pick(mode):\n    if mode == 'a':\n        return 1\n    elif mode == 'b':\n        return 2\n    return 0\n";
  const std::string head = "def pick(mode):\n    if mode == 'a':\n        v = 1\n    return v\n";
  ChangeBuilder b;
  b.file("m.py", base, head);
  b.unchanged("lib.py", "def helper(x):\n    if x:\n        y = 1\n    return y\n");
  auto facts = b.facts();
  CHECK(facts->query("unbound_reads", kChanged).size() == 1);  // the head side's analyses
  CHECK(facts->model("m.py", false)->analyses_ran());
  CHECK_FALSE(facts->query("removed_lines", kChanged).empty());
  CHECK_FALSE(facts->model("m.py", true)->analyses_ran());  // parsed for its lines only
  CHECK_FALSE(facts->read_model("lib.py", false)->analyses_ran());  // uncached, read for a summary
  // a rule that reads the base side's analyses gets them, the same as when asked first
  const auto& base_cases = facts->query("dispatch_cases", kBase);
  CHECK(facts->model("m.py", true)->analyses_ran());
  auto fresh = b.facts();
  CHECK(dump(base_cases, {"subject", "value"}) == dump(fresh->query("dispatch_cases", kBase), {"subject", "value"}));
  CHECK(base_cases.size() == 2);
}

TEST_CASE("analyses announced over the changed files run on the first parse of a changed file's head side only", "[facts]") {
  // An audit's kinds parse every file for added_lines before any rule reads unbound_reads: without
  // the announcement, each file was parsed again for its analyses (aiter: 12% of the audit's CPU).
  const std::string head = "def pick(mode):\n    if mode == 'a':\n        v = 1\n    return v\n";
  ChangeBuilder b;
  b.file("m.py", "def pick(mode):\n    return 0\n", head);
  b.unchanged("lib.py", "def helper(x):\n    if x:\n        y = 1\n    return y\n");
  auto quiet = b.facts();
  CHECK_FALSE(quiet->query("added_lines", kChanged).empty());
  CHECK_FALSE(quiet->model("m.py", false)->analyses_ran());  // nothing announced: parsed for its lines

  auto facts = b.facts();
  facts->will_read("lines", kChanged);            // no analyses: changes nothing
  facts->will_read("unbound_reads", Scope{Scope::Kind::Repo, {}});  // not the changed scope
  CHECK_FALSE(facts->query("added_lines", kChanged).empty());
  CHECK_FALSE(facts->model("m.py", false)->analyses_ran());

  auto told = b.facts();
  told->will_read("unbound_reads", kChanged);
  CHECK_FALSE(told->query("added_lines", kChanged).empty());
  CHECK(told->model("m.py", false)->analyses_ran());         // the changed file, head side
  CHECK_FALSE(told->model("m.py", true)->analyses_ran());    // its base side: not announced
  CHECK_FALSE(told->model("lib.py", false)->analyses_ran()); // not a changed file
  // the same facts as without the announcement
  CHECK(dump(told->query("unbound_reads", kChanged), {"name", "function"}) ==
        dump(quiet->query("unbound_reads", kChanged), {"name", "function"}));
  CHECK(told->query("unbound_reads", kChanged).size() == 1);
}

TEST_CASE("a binary file the change skipped is noted by the change only, not again when a source asks for it",
          "[facts]") {
  ChangeBuilder b;
  b.added("a.py", "x = 1\n");
  ChangedFile png;
  png.path = "docs/logo.png";
  png.status = FileStatus::Added;
  png.skipped = true;
  png.skip_reason = "binary file";
  b.change.files.push_back(png);
  b.content->head_texts_["docs/logo.png"] = std::string("\x89PNG\r\n\x1a\n\0", 9);
  b.unchanged("docs/other.png", "");  // not in the change: only the parse can say it was skipped
  auto facts = b.facts();
  // a read by key: files it cannot index (binary by name) are always candidates, and are read
  const auto* got = facts->query_containing("lines", Scope{Scope::Kind::Repo, {}}, {"x"});
  REQUIRE(got);
  CHECK(got->size() == 1);  // a.py's line
  std::string notes;
  for (const auto& n : facts->notes()) notes += n + "\n";
  INFO(notes);
  CHECK(notes.find("docs/logo.png") == std::string::npos);
  CHECK(notes.find("docs/other.png: skipped: binary file format (.png)") != std::string::npos);
}
