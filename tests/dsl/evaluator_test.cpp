// Evaluator semantics, table-driven: each row is a rule body evaluated over one small fact set.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>

#include "catch.hpp"
#include "dsl/plan.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;
using testing::MemoryFacts;

namespace {

void fill(MemoryFacts& m) {
  m.changed = {"a.py", "b/c.py"};
  m.add("pr", "", 0, {{"title", "Speed up"}, {"text", "Speed up\nbody"}, {"labels", Value::List{Value("perf"), Value("ci")}}});
  m.add("lines", "a.py", 1, {{"text", "x = gfx942"}, {"code", "x = gfx942"}, {"added", Value(true)}, {"function", "f"}});
  m.add("lines", "a.py", 2, {{"text", "y = 1"}, {"code", "y = 1"}, {"added", Value(false)}, {"function", "f"}});
  m.add("lines", "b/c.py", 7, {{"text", "z = gfx950"}, {"code", "z = gfx950"}, {"added", Value(true)}, {"function", ""}});
  m.add("lines", "other.py", 3, {{"text", "gfx942"}, {"code", "gfx942"}, {"added", Value(false)}});
  m.add("files", "a.py", 0, {{"path", "a.py"}, {"added_count", 1}});
  m.add("files", "b/c.py", 0, {{"path", "b/c.py"}, {"added_count", 1}});
  m.add("lines", "a.py", 1, {{"text", "old"}, {"added", Value(false)}}, /*base=*/true);
}

/// "RULE@file:line " for each finding, in order.
std::string where(const EvalResult& res) {
  std::string out;
  for (const auto& f : res.findings) out += f.rule_id + "@" + f.file + ":" + std::to_string(f.line) + " ";
  return out;
}

/// The facts' events, one per line.
std::string event_log(const MemoryFacts& m) {
  std::string out;
  for (const auto& e : m.events) out += e + "\n";
  return out;
}

/// The text of rule `id` with `body` and fixed messages and example.
std::string rule(const char* id, const char* body) {
  return std::string("rule ") + id + " \"r\" {\n" + body +
         "\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
}

std::string eval_rule(const std::string& body, MemoryFacts* out_facts = nullptr) {
  std::string text = "let pyfiles = \"**/*.py\"\nlet names = [\"y\", \"z\"]\nkind perf \"p\" when pr.title ~ /(?i)speed/\n"
                     "rule R \"r\" {\n" + body +
                     "\n  problem \"{p}\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  MemoryFacts local;
  MemoryFacts& m = out_facts ? *out_facts : local;
  fill(m);
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  std::string errs;
  for (const auto& d : r.diagnostics) errs += format_diagnostic(d);
  if (!r.ok()) return "LOAD " + errs;
  auto res = evaluate(*r.program, m);
  std::string out;
  for (const auto& f : res.findings) out += (out.empty() ? "" : " | ") + (f.file.empty() ? "-" : f.file + ":" + std::to_string(f.line)) + " " + f.problem;
  for (const auto& d : res.internal_diagnostics) out += " !" + d;
  return out;
}

}  // namespace

TEST_CASE("evaluator: semantics table") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      // templates can name anything in scope; {p} is redefined per row through a capture or var
      {"for l in lines(changed) where l.added and l.code ~ /(?P<p>gfx\\d+)/", "a.py:1 gfx942 | b/c.py:7 gfx950"},
      {"for l in lines(changed) where l.code ~ /(?P<p>gfx\\d+)/\n unless exists o in lines(repo) where o.file != l.file and o.code ~ /{p}/",
       "b/c.py:7 gfx950"},
      {"for l in lines(\"b/**\") where l.code ~ /(?P<p>\\w+)/", "b/c.py:7 z"},
      {"for l in lines(pyfiles) where l.file == \"other.py\" and l.code ~ /(?P<p>\\w+)/", "other.py:3 gfx942"},
      {"for l in lines(base) where l.text ~ /(?P<p>.+)/", "a.py:1 old"},
      {"for f in files where f.path like \"b/*\" and f.path ~ /(?P<p>.*)/", "b/c.py:0 b/c.py"},
      {"for f in files\n for l in lines(f.path) where l.text ~ /^(?P<p>[yz])/", "a.py:0 y | b/c.py:0 z"},
      {"for l in lines where l.code ~ /^(?P<p>\\w)/ and p in names", "a.py:2 y | b/c.py:7 z"},
      {"when kind perf\n where pr.labels ~ /(?P<p>ci)/", "- ci"},
      {"when not kind perf\n where pr.text ~ /(?P<p>x)/", ""},
      {"where count(l in lines(changed) where l.added) == 2 and pr.title ~ /(?P<p>up)/", "- up"},
      {"where count(pr.labels) >= 2 and \"ci\" in pr.labels and pr.title ~ /(?P<p>Speed)/", "- Speed"},
      {"for l in lines where l.line > 1 and l.line <= 7 and l.text !~ /gfx/ and l.text ~ /(?P<p>.)/", "a.py:2 y"},
      {"for l in lines where l.text ~ /(?P<p>.)/ and (l.line == 2 or l.file == \"b/c.py\")", "a.py:2 y | b/c.py:7 z"},
      {"for l in lines where l.comment == \"c\" or l.text ~ /^(?P<p>y)/", "a.py:2 y"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: regex holes with field chains insert quoted text") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      // `get.x` is quoted: the `.` matches only a dot, so `getax(` does not match
      {"for c in calls\n for f in functions where c.callee ~ /^{f.name}\\(/ and c.callee ~ /(?P<p>\\w+)/",
       "a.py:12 get"},
      // the captured name and a chain in one literal
      {"for f in functions where f.name ~ /^(?P<p>\\w+)/\n for c in calls where c.callee ~ /^{p}\\.{f.class}\\(/",
       "a.py:10 get"},
      // a null field inserts nothing: the regex is not built and `~` is false
      {"for c in calls where c.callee ~ /(?P<p>{c.function})/", ""},
      // lets and pr can fill holes too
      {"for c in calls where c.callee ~ /^(?P<p>{pyfiles})/", "a.py:13 **/*.py"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    MemoryFacts m;
    m.add("functions", "a.py", 10, {{"name", "get.x"}, {"class", "x"}});
    m.add("calls", "a.py", 11, {{"callee", "getax(1)"}});
    m.add("calls", "a.py", 12, {{"callee", "get.x(2)"}});
    m.add("calls", "a.py", 13, {{"callee", "**/*.py(3)"}});
    CHECK(eval_rule(r.body, &m) == r.want);
  }
}

TEST_CASE("evaluator: a rule's regex instances are not kept after it") {
  // two rules with the same holed regex: each compiles its instances; none stay after the run
  std::string text = rule("R1", "for f in functions\n for c in calls where c.callee ~ /^{f.name}\\(/") +
                     rule("R2", "for f in functions\n for c in calls where c.callee ~ /^{f.name}\\(/");
  MemoryFacts m;
  m.changed = {"a.py"};
  m.add("functions", "a.py", 10, {{"name", "get.x"}});
  m.add("functions", "a.py", 20, {{"name", "put"}});
  m.add("calls", "a.py", 12, {{"callee", "get.x(2)"}});
  m.add("calls", "a.py", 22, {{"callee", "put(2)"}});
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  size_t holed = 0;
  for (const auto& [expr, cr] : r.program->impl().regexes) holed += !cr->holes.empty();
  REQUIRE(holed >= 2);
  auto res = evaluate(*r.program, m);
  CHECK(where(res) == "R1@a.py:10 R1@a.py:20 R2@a.py:10 R2@a.py:20 ");
  for (const auto& [expr, cr] : r.program->impl().regexes) CHECK(cr->cached_instances() == 0);
}

TEST_CASE("evaluator: `at` moves the finding to another bound fact") {
  // located at the first `for` (a.py:1) without `at`, at the joined fact with it
  CHECK(eval_rule("for l in lines(changed) where l.added and l.code ~ /(?P<p>gfx942)/\n"
                  " for o in lines(repo) where o.file == \"other.py\"") == "a.py:1 gfx942");
  CHECK(eval_rule("for l in lines(changed) where l.added and l.code ~ /(?P<p>gfx942)/\n"
                  " for o in lines(repo) where o.file == \"other.py\"\n at o") == "other.py:3 gfx942");
  // a value that is not a fact is refused at load time
  CHECK(eval_rule("for l in lines(changed) where l.added and l.code ~ /(?P<p>gfx942)/\n at l.function") ==
        "LOAD t.rules:6:5: error: `at` takes a fact (a variable bound by `for`, or a fact field), not a string: it "
        "sets the finding's file and line\n"
        "   at l.function\n"
        "      ^~~~~~~~~~\n");
  // `at` is a clause word: it cannot name a variable
  CHECK(eval_rule("for at in lines(changed) where at.code ~ /(?P<p>x)/").rfind("LOAD t.rules:5:", 0) == 0);
}

TEST_CASE("evaluator: the witness names the finding's location by the variable `at` names") {
  const std::string text = rule("AT", "  for l in lines(changed) where l.added and l.code ~ /gfx942/\n"
                                      "  for o in lines(repo) where o.file == \"other.py\"\n  at o") +
                           rule("FIRST", "  for l in lines(changed) where l.added and l.code ~ /gfx942/\n"
                                         "  for o in lines(repo) where o.file == \"other.py\"");
  MemoryFacts m;
  fill(m);
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalResult res = evaluate(*r.program, m, {});
  REQUIRE(res.findings.size() == 2);
  for (const auto& f : res.findings) {
    if (f.rule_id == "AT")  // other.py:3 is o's place, not l's
      CHECK(f.witness == Witness{{"o.file", "other.py"}, {"o.line", "3"}});
    else
      CHECK(f.witness == Witness{{"l.file", "a.py"}, {"l.line", "1"}});
  }
}

TEST_CASE("evaluator: a capture named with a leading underscore stays out of the witness") {
  const std::string text = rule("PRIV", "  for l in lines(changed) where l.added and l.code ~ /^(?P<_ind>\\s*)(?P<v>\\w+) = gfx942/");
  MemoryFacts m;
  fill(m);
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalResult res = evaluate(*r.program, m, {});
  REQUIRE(res.findings.size() == 1);
  CHECK(res.findings[0].witness == Witness{{"l.file", "a.py"}, {"l.line", "1"}, {"v", "x"}});
}

TEST_CASE("evaluator: lower, trim, len") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"where lower(pr.title) == \"speed up\" and pr.title ~ /(?P<p>up)/", "- up"},
      {"where len(pr.labels) == 2 and len(pr.title) == 8 and len(\"\u00e9\") == 1 and pr.title ~ /(?P<p>up)/", "- up"},
      {"for l in lines where len(l.text) > 5 and l.text ~ /^(?P<p>\\w)/", "a.py:1 x | b/c.py:7 z"},
      // null in, null out
      {"for l in lines where len(l.comment) >= 0 or lower(l.comment) == \"\" or l.text ~ /^(?P<p>y)/", "a.py:2 y"},
      {"for l in lines where l.text ~ /(?P<p>gfx\\d+)/ and lower(\"GFX942\") == p", "a.py:1 gfx942"},
      {"where trim(\" \\t a b \\n\") == \"a b\" and trim(\"   \") == \"\" and pr.title ~ /(?P<p>up)/", "- up"},
      {"where oneline(\" a\\n\\n  b \\t\") == \"a b\" and oneline(\"\\n\") == \"\" and pr.title ~ /(?P<p>up)/", "- up"},
      {"where trim(pr.number) == \"\" and pr.title ~ /(?P<p>up)/",
       "LOAD t.rules:5:12: error: `trim` needs a string, got int\n"
       "  where trim(pr.number) == \"\" and pr.title ~ /(?P<p>up)/\n"
       "             ^~~~~~~~~\n"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: int and version") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"where int(\" 42 apples\") == 42 and int(\"-7\") == -7 and pr.title ~ /(?P<p>up)/", "- up"},
      {"where version(\"3.25\") > version(\"3.21.9\") and version(\"v1.14.1\") == 1014001 and pr.title ~ /(?P<p>up)/", "- up"},
      // 3.9 < 3.10: parts compare as numbers, not as text
      {"where version(\"3.9\") < version(\"3.10\") and version(\"20\") == 20000000 and pr.title ~ /(?P<p>up)/", "- up"},
      // no digits, a part of 1000 or more, or a null argument: null, so every comparison is false
      {"where (int(\"x1\") == 0 or version(\"gfx942\") >= 0 or version(\"1.1000\") >= 0 or int(pr.title) >= 0"
       " or version(\"\") >= 0) and pr.title ~ /(?P<p>up)/", ""},
      {"where int(pr.number) == 1 and pr.title ~ /(?P<p>up)/",
       "LOAD t.rules:5:11: error: `int` needs a string, got int\n"
       "  where int(pr.number) == 1 and pr.title ~ /(?P<p>up)/\n"
       "            ^~~~~~~~~\n"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: not in, not like") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"for l in lines where l.code ~ /^(?P<p>\\w)/ and p not in names", "a.py:1 x"},
      {"for l in lines where l.file not like \"b/*\" and l.code ~ /^(?P<p>\\w)/", "a.py:1 x | a.py:2 y"},
      {"for l in lines where l.file not like [\"b/*\", \"a.*\"] and l.code ~ /^(?P<p>\\w)/", ""},
      {"for l in lines where \"gfx\" not in l.text and l.code ~ /^(?P<p>\\w)/", "a.py:2 y"},
      // a missing field on the left: both forms are false
      {"for l in lines where (l.comment not in names or l.comment not like \"*\") and l.code ~ /^(?P<p>\\w)/", ""},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: ==, != and like on a bound fact's text field") {
  // The left side is a field the fact lends as text (compared without a copy): against
  // another lent field, a literal, a computed string, a missing field, a non-string.
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"for l in lines where l.code == l.text and l.code ~ /^(?P<p>\\w)/", "a.py:1 x | a.py:2 y | b/c.py:7 z"},
      {"for l in lines where l.function == \"f\" and l.code ~ /^(?P<p>\\w)/", "a.py:1 x | a.py:2 y"},
      {"for l in lines where l.function != \"f\" and l.code ~ /^(?P<p>\\w)/", "b/c.py:7 z"},
      {"for l in lines where l.function == lower(\"F\") and l.code ~ /^(?P<p>\\w)/", "a.py:1 x | a.py:2 y"},
      {"for l in lines where l.function != l.file and l.code == l.function + \"\" and l.code ~ /^(?P<p>\\w)/", ""},
      // a missing field: == is false, != true
      {"for l in lines where l.code == l.comment and l.code ~ /^(?P<p>\\w)/", ""},
      {"for l in lines where l.code != l.comment and l.code ~ /^(?P<p>[xz])/", "a.py:1 x | b/c.py:7 z"},
      // a string never equals an int (the checker rejects a literal one; an element of a mixed
      // list gets past it)
      // (the finding is at the first `for`'s binding, which has no file: "-")
      {"for v in [1, \"y = 1\"]\n for l in lines where l.code == v and l.code ~ /^(?P<p>\\w)/", "- y"},
      {"for v in [1, \"y = 1\"]\n for l in lines where l.code != v and l.code ~ /^(?P<p>y)/", "- y"},
      // a field of a bound value that is not a fact is null, and null equals no bool
      {"for v in [1, \"q\"]\n for l in lines where v.x == l.added and l.code ~ /^(?P<p>\\w)/", ""},
      {"for v in [1, \"q\"]\n for l in lines where v.x != l.added and l.code ~ /^(?P<p>x)/", "- x"},
      {"for l in lines where l.function like \"f*\" and l.code ~ /^(?P<p>\\w)/", "a.py:1 x | a.py:2 y"},
      {"for l in lines where l.function not like [\"g*\", \"f\"] and l.code ~ /^(?P<p>\\w)/", "b/c.py:7 z"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: arithmetic") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"for l in lines where l.line >= 7 - 5 * 1 and l.text ~ /(?P<p>\\w)/", "a.py:2 y | b/c.py:7 z"},
      {"for l in lines\n for k in lines where k.line == l.line + 1 and k.text ~ /(?P<p>\\w)/", "a.py:1 y"},
      {"for l in lines where l.line == 2 and (l.text + \"!\" + l.function) ~ /(?P<p>.+)/", "a.py:2 y = 1!f"},
      // a missing field makes the sum null: no comparison holds
      {"for l in lines where l.comment + \"x\" == \"x\" or l.line - 1 == 6 and l.text ~ /(?P<p>\\w)/", "b/c.py:7 z"},
      // saturating, never wrapping
      {"where 9223372036854775807 + 1 == 9223372036854775807 and -9223372036854775807 - 5 < 0 and "
       "3037000500 * 3037000500 == 9223372036854775807 and -3037000500 * 3037000500 < 0 and pr.title ~ /(?P<p>Speed)/",
       "- Speed"},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    CHECK(eval_rule(r.body) == r.want);
  }
}

TEST_CASE("evaluator: for / exists / count over lists") {
  struct Row { const char* body; const char* want; };
  const Row rows[] = {
      {"for f in functions\n for k in f.params where k ~ /^(?P<p>d\\w+)/", "a.py:10 dtype"},
      {"for f in functions where count(k in f.params where k != \"self\") == 2 and f.name ~ /(?P<p>.+)/", "a.py:10 f"},
      {"for f in functions where (exists k in f.params where k == \"x\") and not (exists k in f.params where k == \"y\")"
       " and f.name ~ /(?P<p>.+)/", "a.py:10 f"},
      {"for f in functions where (exists k in f.params where k == \"nope\") and f.name ~ /(?P<p>.+)/", ""},
      // elements that are facts, with their fields
      {"for f in functions\n for c in f.calls where c.callee ~ /(?P<p>\\w+)/", "a.py:10 torch"},
      // a [list] literal and a let list (bare name that is not a source); no location
      {"for k in [\"a\", \"bb\"] where k ~ /(?P<p>b+)/", "- bb"},
      {"for n in names where n ~ /(?P<p>z)/", "- z"},
      {"where count(n in names where n ~ /[a-y]/) == 1 and pr.title ~ /(?P<p>up)/", "- up"},
      // a missing list field iterates nothing
      {"for f in functions\n for k in f.decorators where k ~ /(?P<p>.)/", ""},
  };
  for (const auto& r : rows) {
    INFO(r.body);
    MemoryFacts m;
    auto call = m.add("calls", "a.py", 11, {{"callee", "torch.empty"}});
    m.add("functions", "a.py", 10,
          {{"name", "f"}, {"params", Value::List{Value("self"), Value("x"), Value("dtype")}},
           {"calls", Value::List{Value(call)}}});
    CHECK(eval_rule(r.body, &m) == r.want);
  }
}

TEST_CASE("evaluator: each (source, scope) is queried once") {
  MemoryFacts m;
  eval_rule("for l in lines(changed) where l.text ~ /(?P<p>.)/\n for k in lines(changed) where k.line == l.line\n"
            " unless exists o in lines(changed) where o.line == 99",
            &m);
  CHECK(m.query_count["lines(changed)"] == 1);
}

TEST_CASE("evaluator: one file's read of a changed-only source that has nothing in the change is skipped") {
  const char* body = "for l in lines(changed) where l.added and l.text ~ /^(?P<p>\\w+)/\n for r in removed_lines(l.file) where r.function == l.function\n"
                     " unless exists o in removed_lines(l.file) where o.text == \"keep\"";
  // nothing removed anywhere: removed_lines is read once over the change, never file by file
  MemoryFacts none;
  CHECK(eval_rule(body, &none) == "");
  CHECK(none.query_count["removed_lines(changed)"] == 1);
  for (const auto& [query, n] : none.query_count) CHECK(query.rfind("removed_lines(\"", 0) != 0);
  // a removed line in a changed file: read file by file, the findings as before
  MemoryFacts some;
  some.add("removed_lines", "a.py", 1, {{"text", "old"}, {"function", "f"}});
  CHECK(eval_rule(body, &some) == "a.py:1 x");
  CHECK(some.query_count["removed_lines(\"a.py\")"] == 1);
}

TEST_CASE("evaluator: a later for or a where exists over a scope with no file and no fact skips the loops") {
  // the first for binds a.py:1 and b/c.py:7; the rest needs a base function
  const std::string loops = "for l in lines(changed) where l.added and l.code ~ /^(?P<p>\\w+)/\n"
                            " for k in lines(l.file) where k.line == l.line\n";
  const std::string later_for = loops + " for b in functions(base) where b.name == p";
  const std::string exists = loops + " where exists b in functions(base) where b.name == p";
  const std::string unless = loops + " unless exists b in functions(base) where b.name == p";
  for (const auto& body : {later_for, exists}) {
    INFO(body);
    // no base file (an audit): functions(base) is asked once, and no file of lines is read
    MemoryFacts audit;
    audit.no_base_files = true;
    CHECK(eval_rule(body, &audit) == "");
    CHECK(audit.query_count["functions(base)"] == 1);
    for (const auto& [query, n] : audit.query_count) CHECK(query.rfind("lines(\"", 0) != 0);
    // the same facts when the base may hold files: the loops run, with the same (no) findings
    MemoryFacts pr;
    CHECK(eval_rule(body, &pr) == "");
    CHECK(pr.query_count["lines(\"a.py\")"] == 1);
    // a base function of that name: found either way
    for (bool no_files : {true, false}) {
      MemoryFacts m;
      m.no_base_files = no_files;
      m.add("functions", "a.py", 3, {{"name", "x"}}, /*base=*/true);
      CHECK(eval_rule(body, &m) == "a.py:1 x");
    }
  }
  // under `unless`, an empty source lets every binding through: nothing is skipped
  MemoryFacts audit;
  audit.no_base_files = true;
  CHECK(eval_rule(unless, &audit) == "a.py:1 x | b/c.py:7 z");
}

TEST_CASE("evaluator: a source is released after its last reader and never queried again") {
  MemoryFacts m;
  fill(m);
  m.add("functions", "a.py", 1, {{"name", "f"}});
  m.add("calls", "a.py", 2, {{"callee", "g"}});
  std::string text = "kind k \"k\" when exists f in files(changed) where f.path == \"a.py\"\n" +
                     rule("R1", "for l in lines(changed) where l.text ~ /gfx/") +
                     rule("R2", "for f in functions(changed)\n where exists l in lines(changed) where l.function == f.name") +
                     rule("R3", "for f in functions(changed) where f.name == \"f\"") +
                     rule("R4", "for c in calls(changed) where c.callee == \"g\"");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  std::string found = where(evaluate(*r.program, m));
  CHECK(found == "R1@a.py:1 R1@b/c.py:7 R2@a.py:1 R3@a.py:1 R4@a.py:2 ");
  std::string log = event_log(m);
  CHECK(log ==
        "query files(changed)\n"
        "release files\n"
        "query lines(changed)\n"
        "query functions(changed)\n"
        "release lines\n"
        "release functions\n"
        "query calls(changed)\n"
        "release calls\n");
  // by construction: nothing is asked for after its release
  for (size_t i = 0; i < m.events.size(); ++i)
    if (m.events[i].rfind("release ", 0) == 0)
      for (size_t j = i + 1; j < m.events.size(); ++j) {
        INFO(m.events[i] << " then " << m.events[j]);
        CHECK(m.events[j].rfind("query " + m.events[i].substr(8) + "(", 0) != 0);
      }
}

TEST_CASE("evaluator: a scope known in advance is released after its last reader while others of its source are read") {
  MemoryFacts m;
  fill(m);
  std::string text = rule("R1", "for l in lines(changed) where l.text ~ /gfx/") +
                     rule("R2", "for f in files(changed)\n for l in lines(f.path) where l.added") +
                     rule("R3", "for l in lines(repo) where l.text ~ /^gfx/") +
                     rule("R4", "for f in files(changed)\n where count(l in lines(f.path)) == 2");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  std::string found = where(evaluate(*r.program, m));
  CHECK(found == "R1@a.py:1 R1@b/c.py:7 R2@a.py:0 R2@b/c.py:0 R3@other.py:3 R4@a.py:0 ");
  std::string log = event_log(m);
  INFO(log);
  // lines(changed) and lines(repo) each go once their one reader is done; lines itself (read by
  // file in R2 and R4) once the last of those is
  auto at = [&](const std::string& e) {
    return std::find(m.events.begin(), m.events.end(), e) - m.events.begin();
  };
  const auto n = static_cast<long>(m.events.size());
  REQUIRE(at("release lines(changed)") < n);
  REQUIRE(at("release lines(repo)") < n);
  REQUIRE(at("release lines") < n);
  CHECK(at("release lines(changed)") > at("query lines(changed)"));
  CHECK(at("release lines(repo)") > at("query lines(repo)"));
  CHECK(at("release lines") > at("release lines(changed)"));
  CHECK(at("release lines") > at("release lines(repo)"));
  // nothing is asked for over a scope after that scope's release
  for (size_t i = 0; i < m.events.size(); ++i)
    if (m.events[i].rfind("release lines(", 0) == 0)
      for (size_t j = i + 1; j < m.events.size(); ++j) CHECK(m.events[j] != "query " + m.events[i].substr(8));
}

TEST_CASE("evaluator: a later for whose own conditions no fact at hand meets skips the rule's loops") {
  std::string text = "kind k \"k\" when exists f in files(changed) where f.path == \"a.py\"\n" +
                     rule("T", "for l in lines(changed) where l.added\n for f in files(changed) where f.path == l.file and f.added_count == 2");
  {
    MemoryFacts m;
    fill(m);  // every file has added_count 1
    auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
    REQUIRE(r.ok());
    CHECK(r.program->plan("T").find("check (== f.added_count 2)  (some fact first)") != std::string::npos);
    CHECK(where(evaluate(*r.program, m)).empty());
    CHECK(m.query_count["lines(changed)"] == 0);  // files(changed) was at hand (the kind read it): no loop ran
  }
  {
    MemoryFacts m;
    fill(m);
    m.add("files", "a.py", 0, {{"path", "a.py"}, {"added_count", 2}});
    auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
    REQUIRE(r.ok());
    CHECK(where(evaluate(*r.program, m)) == "T@a.py:1 ");
    CHECK(m.query_count["lines(changed)"] == 1);
  }
  {  // not at hand (no kind reads files): the loops run, with the same (empty) result
    MemoryFacts m;
    fill(m);
    auto r = load_ruleset("t.rules", rule("T", "for l in lines(changed) where l.added\n for f in files(changed) where f.path == l.file and f.added_count == 2"),
                          m.schema(), nullptr, {});
    REQUIRE(r.ok());
    CHECK(where(evaluate(*r.program, m)).empty());
    CHECK(m.query_count["lines(changed)"] == 1);
  }
}

TEST_CASE("evaluator: the changed and base reads of the kinds and of the rules that run are announced before the kinds run") {
  MemoryFacts m;
  fill(m);
  std::string text = "kind k \"k\" when exists f in files(changed) where f.path == \"a.py\"\n" +
                     rule("R1", "for l in lines where l.text ~ /gfx/\n unless exists c in calls(repo) where c.line == l.line") +
                     rule("R2", "for f in functions(base)\n where exists l in lines(f.file) where l.line == f.line") +
                     rule("R3", "for c in calls(changed) where c.callee == \"g\"");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalOptions o;
  o.only_rules = {"R1", "R2"};  // R3 does not run: its read is not announced
  evaluate(*r.program, m, o);
  std::string got;
  for (const auto& a : m.announced) got += a + " ";
  // `lines` has the default scope (changed); calls(repo) and lines(f.file) are not announced
  // (@0: before any query, so before the kinds ran)
  CHECK(got == "files(changed)@0 functions(base)@0 lines(changed)@0 ");
  REQUIRE_FALSE(m.events.empty());
  CHECK(m.events.front() == "query files(changed)");
}

TEST_CASE("evaluator: a skipped rule is not evaluated, unless a rule that runs reads its findings") {
  auto run = [](std::vector<std::string> skip) {
    MemoryFacts m;
    fill(m);
    std::string text = rule("R1", "  tags \"r1\"\n  for f in files(changed) where f.path == \"a.py\"") +
                       rule("R2", "for l in lines where l.text ~ /gfx/") +
                       rule("R3", "for x in findings(\"r1\")");
    auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
    REQUIRE(r.ok());
    EvalOptions o;
    o.skip_rules = std::move(skip);
    auto out = evaluate(*r.program, m, o);
    std::string got;
    for (const auto& f : out.findings) got += f.rule_id + " ";
    std::string queried;
    for (const auto& e : m.events)
      if (e.rfind("query ", 0) == 0) queried += e.substr(6) + " ";
    return std::make_pair(got, queried);
  };
  auto all = run({});
  REQUIRE(all.first.find("R2") != std::string::npos);
  REQUIRE(all.first.find("R3") != std::string::npos);
  // R2 off: no finding, and lines are never read
  auto no_r2 = run({"R2"});
  CHECK(no_r2.first.find("R2") == std::string::npos);
  CHECK(no_r2.second.find("lines(") == std::string::npos);
  CHECK(no_r2.first.find("R3") != std::string::npos);
  // R1 off: R3 reads its findings, so R1 still runs, silently
  auto no_r1 = run({"R1"});
  CHECK(no_r1.first.find("R1") == std::string::npos);
  CHECK(no_r1.first.find("R3") != std::string::npos);
  CHECK(no_r1.second.find("files(changed)") != std::string::npos);
  // R1 and R3 off: nothing reads R1's findings any more, so files are never read
  auto no_r13 = run({"R1", "R3"});
  CHECK(no_r13.first == "R2 R2 ");
  CHECK(no_r13.second.find("files(") == std::string::npos);
}

TEST_CASE("evaluator: a loop-invariant anti-join over facts at hand is checked before the loops") {
  // files(changed) is at hand (the kind read it); the unless reads no `for` variable, so when it
  // holds the loops never run and `lines` is never read; when it fails the findings are those
  // of the nested loops, and an anti-join over facts not read yet waits for a binding.
  auto run = [](const std::string& unless, const std::string& when_kind) {
    MemoryFacts m;
    fill(m);
    m.add("calls", "a.py", 1, {{"callee", "g"}, {"function", "f"}});
    std::string text = "kind k \"k\" when exists f in files(changed) where f.path " + when_kind + "\n" +
                       "rule R \"r\" {\n for l in lines(changed) where l.text ~ /gfx/\n unless " + unless +
                       "\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
    auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
    REQUIRE(r.ok());
    auto res = evaluate(*r.program, m);
    std::string out;
    for (const auto& f : res.findings) out += f.file + ":" + std::to_string(f.line) + " ";
    return std::make_pair(out, m.query_count);
  };
  // holds: no finding, and the loops' source is never read
  auto [held, held_queries] = run("exists a in files(changed) where a.path like \"b/**\"", "== \"a.py\"");
  CHECK(held.empty());
  CHECK(held_queries.count("lines(changed)") == 0);
  CHECK(held_queries["files(changed)"] == 1);
  // fails: every binding of the loops is checked as before
  auto [failed, failed_queries] = run("exists a in files(changed) where a.path like \"z/**\"", "== \"a.py\"");
  CHECK(failed == "a.py:1 b/c.py:7 ");
  CHECK(failed_queries["lines(changed)"] == 1);
  // not at hand (calls were never read): the loops run first, as written
  auto [later, later_queries] = run("exists c in calls(changed) where c.callee == \"g\"", "== \"a.py\"");
  CHECK(later.empty());
  CHECK(later_queries["lines(changed)"] == 1);
  CHECK(later_queries["calls(changed)"] == 1);
}

namespace {
/// MemoryFacts whose `lines` take `burn` of process CPU time to build (a slow source).
struct SlowLines : MemoryFacts {
  std::chrono::milliseconds burn{0};
  const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) override {
    if (source == "lines") {
      auto cpu = [] {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
      };
      auto until = cpu() + burn;
      volatile uint64_t x = 0;
      while (cpu() < until) x = x + 1;
    }
    return MemoryFacts::query(source, scope);
  }
};
}  // namespace

TEST_CASE("evaluator: timings charge a source's build to the source and list every rule and kind") {
  SlowLines m;
  m.burn = std::chrono::milliseconds(60);
  fill(m);
  std::string text = "kind k \"k\" when exists f in files(changed) where f.path == \"a.py\"\n" +
                     rule("R1", "for l in lines(changed) where l.text ~ /gfx/") +
                     rule("R2", "for l in lines(changed) where l.added") + rule("R3", "for f in files(changed)");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalTimings t;
  EvalOptions o;
  o.timings = &t;
  auto res = evaluate(*r.program, m, o);
  REQUIRE(t.rules.size() == 4);
  std::map<std::string, EvalTimings::Rule> by_id;
  for (const auto& x : t.rules) by_id[x.id] = x;
  REQUIRE(by_id.count("kind k"));
  CHECK(by_id["R1"].findings == 2);
  CHECK(by_id["R2"].findings == 2);
  CHECK(by_id["R3"].findings == 2);
  // lines are built once, by whichever of R1 and R2 runs first; the other finds them cached
  CHECK(t.sources.count("lines"));
  CHECK(t.sources.count("files"));
  CHECK(t.sources["lines"] >= 0.055);
  CHECK(std::max(by_id["R1"].sources_s, by_id["R2"].sources_s) >= 0.055);
  CHECK(std::min(by_id["R1"].sources_s, by_id["R2"].sources_s) < 0.03);
  CHECK(by_id["R1"].own_s < 0.03);
  CHECK(by_id["R2"].own_s < 0.03);
  // the process's memory high-water mark after each, in evaluation order: never falls
  for (size_t i = 0; i < t.rules.size(); ++i) {
    CHECK(t.rules[i].peak_rss_kib > 0);
    if (i > 0) CHECK(t.rules[i].peak_rss_kib >= t.rules[i - 1].peak_rss_kib);
  }
  // the same findings as without timings
  auto plain = evaluate(*r.program, m);
  CHECK(plain.findings.size() == res.findings.size());
}

TEST_CASE("evaluator: rules sharing a source run together; findings keep the ruleset's order") {
  MemoryFacts m;
  fill(m);
  m.add("calls", "a.py", 2, {{"callee", "g"}});
  auto rule = [](const char* id, const char* head, const char* body) {
    return std::string("rule ") + id + " \"r\" {\n" + head + body +
           "\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  };
  std::string text = rule("R1", "", "for l in lines(changed) where l.text ~ /gfx942/") +
                     rule("R2", "  tags \"t\"\n", "for c in calls(changed) where c.callee == \"g\"") +
                     rule("R3", "", "for l in lines(changed) where l.text ~ /gfx950/") +
                     rule("R4", "", "for c in calls(changed) where c.callee == \"g\"") +
                     rule("R5", "", "for x in findings(\"t\")\n for l in lines(changed) where l.file == x.file and l.line == 1");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  std::vector<std::string> ran;
  EvalOptions o;
  o.on_rule = [&](const std::string& id, size_t, size_t) { ran.push_back(id); };
  CHECK(where(evaluate(*r.program, m, o)) == "R1@a.py:1 R2@a.py:2 R3@b/c.py:7 R4@a.py:2 R5@a.py:2 ");
  // R3 joins R1 (lines open), R4 joins R2 (calls open); R5 reads R2's findings: after it
  CHECK(ran == std::vector<std::string>{"R1", "R3", "R2", "R4", "R5"});
  std::string log = event_log(m);
  CHECK(log == "query lines(changed)\nquery calls(changed)\nrelease calls\nrelease lines\n");
}

TEST_CASE("evaluator: findings of a tag no rule reads are reported; a read tag's are read") {
  MemoryFacts m;
  fill(m);
  auto rule = [](const char* id, const char* head, const char* body) {
    return std::string("rule ") + id + " \"r\" {\n" + head + body +
           "\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  };
  std::string text = rule("W1", "  tags \"unread\", \"read\"\n", "for l in lines(changed) where l.text ~ /gfx942/") +
                     rule("W2", "  tags \"unread\"\n", "for l in lines(changed) where l.text ~ /gfx950/") +
                     rule("R", "", "for x in findings(\"read\")") +
                     rule("N", "", "for x in findings(\"unread\")");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  std::string found = where(evaluate(*r.program, m));
  // N reads "unread" too, so it is read after all: both writers' findings reach it
  CHECK(found == "W1@a.py:1 W2@b/c.py:7 R@a.py:1 N@a.py:1 N@b/c.py:7 ");
  text = rule("W1", "  tags \"unread\", \"read\"\n", "for l in lines(changed) where l.text ~ /gfx942/") +
         rule("W2", "  tags \"unread\"\n", "for l in lines(changed) where l.text ~ /gfx950/") +
         rule("R", "", "for x in findings(\"read\")");
  auto r2 = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r2.ok());
  CHECK(where(evaluate(*r2.program, m)) == "W1@a.py:1 W2@b/c.py:7 R@a.py:1 ");
}

TEST_CASE("evaluator: time budget stops one rule, others run") {
  MemoryFacts m;
  fill(m);
  for (int i = 0; i < 300; ++i) m.add("lines", "a.py", 100 + i, {{"text", "t"}});
  std::string text =
      "rule SLOW \"s\" {\n  for a in lines where count(b in lines(changed) where count(c in lines(changed) where c.line + 0 == a.line) > 0) < 0\n"
      "  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n"
      "rule FAST \"f\" {\n  problem \"fast\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalOptions o;
  o.rule_budget = std::chrono::milliseconds(20);
  auto res = evaluate(*r.program, m, o);
  REQUIRE(res.internal_diagnostics.size() == 1);
  CHECK(res.internal_diagnostics[0] == "rule `SLOW` stopped: it ran longer than its time budget of 20 ms; its findings are dropped");
  REQUIRE(res.findings.size() == 1);
  CHECK(res.findings[0].rule_id == "FAST");
}

TEST_CASE("evaluator: past the memory ceiling the rule running stops and no later rule or kind starts") {
  MemoryFacts m;
  fill(m);
  std::string text =
      "kind big \"big\" when count(l in lines(changed)) > 0\n"
      "rule A \"a\" {\n  for l in lines\n  problem \"{l.text}\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n"
      "rule B \"b\" {\n  problem \"b\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  std::atomic<bool> over{false};
  EvalOptions o;
  o.memory_exceeded = &over;
  auto fine = evaluate(*r.program, m, o);
  CHECK(fine.memory_stopped.empty());
  CHECK_FALSE(fine.findings.empty());
  over = true;
  auto res = evaluate(*r.program, m, o);
  CHECK(res.findings.empty());
  CHECK(res.kinds.empty());
  CHECK(res.memory_stopped == std::vector<std::string>{"kind big", "A", "B"});
  CHECK(res.stopped.empty());  // not a time budget
}

TEST_CASE("evaluator: a failing fact source becomes an internal diagnostic") {
  MemoryFacts m;
  auto schema = m.schema();
  SourceSchema ex;
  ex.name = "explode";
  schema.push_back(ex);
  std::string text =
      "rule BOOM \"b\" {\n  for e in explode(changed)\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
  auto r = load_ruleset("t.rules", text, schema, nullptr, {});
  REQUIRE(r.ok());
  auto res = evaluate(*r.program, m);
  CHECK(res.internal_diagnostics == std::vector<std::string>{"rule `BOOM`: explode: cannot read input"});
}

TEST_CASE("evaluator: hostile regex runs in linear time") {
  MemoryFacts m;
  fill(m);
  m.add("lines", "a.py", 50, {{"text", std::string(100000, 'a') + "!"}});
  std::string text = "rule R \"r\" {\n  for l in lines where l.text ~ /(a+)+$/\n  problem \"p\"\n  impact \"i\"\n"
                     "  action \"Author must\"\n  example bad text \"x\"\n}\n";
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  auto t0 = std::chrono::steady_clock::now();
  auto res = evaluate(*r.program, m);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  CHECK(res.findings.empty());
}

TEST_CASE("evaluator: `also` bodies — the union of the bodies' findings, under the rule id, with labels") {
  MemoryFacts m;
  fill(m);
  std::string text =
      "kind perf \"p\" when pr.title ~ /(?i)speed/\n"
      "rule R \"r\" {\n"
      "  tags \"t1\"\n"
      "  when kind perf\n"
      "  for l in lines(changed) where l.added and l.code ~ /(?P<g>gfx942)/\n"
      "  problem \"main {g}\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n"
      // fires at b/c.py:7 only; `g` here is this body's own capture
      "  also \"second\" {\n"
      "    severity block\n    evidence verified\n"
      "    for l in lines(changed) where l.code ~ /(?P<g>gfx950)/\n"
      "    problem \"second {g} at {l.file}\"\n  impact \"i2\"\n  action \"Author should\"\n"
      "  }\n"
      // fires at a.py:1, the main body's place, with the same problem text: kept apart by label
      "  also \"third\" {\n"
      "    for l in lines(changed) where l.code ~ /(?P<g>gfx942)/\n"
      "    problem \"main {g}\"\n  impact \"i\"\n  action \"Author must\"\n"
      "  }\n"
      "}\n"
      "rule READ \"reads R's findings\" {\n"
      "  for f in findings(\"t1\")\n  problem \"saw {f.problem}\"\n  impact \"i\"\n  action \"Author must\"\n"
      "  example bad text \"x\"\n}\n";
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  for (const auto& d : r.diagnostics) FAIL_CHECK(format_diagnostic(d));
  REQUIRE(r.ok());
  REQUIRE(r.program->rules().size() == 2);  // one rule, however many bodies
  for (bool planned : {true, false}) {
    EvalOptions o;
    o.use_plan = planned;
    auto res = evaluate(*r.program, m, o);
    INFO("use_plan " << planned);
    REQUIRE(res.internal_diagnostics.empty());
    std::vector<std::string> got;
    for (const auto& f : res.findings)
      got.push_back(f.rule_id + " " + f.file + ":" + std::to_string(f.line) + " [" + f.label + "] " +
                    std::string(severity_name(f.severity)) + " " + f.problem + " / " + f.action);
    CHECK(got == std::vector<std::string>{
                     "R a.py:1 [] warn main gfx942 / Author must",
                     "R b/c.py:7 [second] block second gfx950 at b/c.py / Author should",
                     "R a.py:1 [third] warn main gfx942 / Author must",
                     "READ a.py:1 [] warn saw main gfx942 / Author must",
                     "READ b/c.py:7 [] warn saw second gfx950 at b/c.py / Author must",
                 });
  }
}

TEST_CASE("evaluator: the rule's `when` guards every `also` body; a body over budget stops the whole rule") {
  MemoryFacts m;
  fill(m);
  for (int i = 0; i < 300; ++i) m.add("lines", "a.py", 100 + i, {{"text", "t"}});
  std::string text =
      "rule GUARD \"g\" {\n  when pr.title ~ /nope/\n  problem \"main\"\n  impact \"i\"\n  action \"Author must\"\n"
      "  example bad text \"x\"\n"
      "  also \"b\" {\n    problem \"body b\"\n    impact \"i\"\n    action \"Author must\"\n  }\n}\n"
      "rule SLOW \"s\" {\n  problem \"fast main\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n"
      "  also \"slow\" {\n"
      "    for a in lines where count(b in lines(changed) where count(c in lines(changed) where c.line + 0 == a.line) > 0) < 0\n"
      "    problem \"p\"\n    impact \"i\"\n    action \"Author must\"\n  }\n}\n"
      "rule FAST \"f\" {\n  problem \"fast\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n"
      "  also \"too\" {\n    problem \"fast too\"\n    impact \"i\"\n    action \"Author must\"\n  }\n}\n";
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  for (const auto& d : r.diagnostics) FAIL_CHECK(format_diagnostic(d));
  REQUIRE(r.ok());
  EvalOptions o;
  o.rule_budget = std::chrono::milliseconds(20);
  auto res = evaluate(*r.program, m, o);
  REQUIRE(res.internal_diagnostics.size() == 1);
  CHECK(res.internal_diagnostics[0] == "rule `SLOW` stopped: it ran longer than its time budget of 20 ms; its findings are dropped");
  CHECK(res.stopped == std::vector<std::string>{"SLOW"});
  // SLOW's main body had found "fast main": dropped with the rule; GUARD's `when` holds for no body
  std::vector<std::string> got;
  for (const auto& f : res.findings) got.push_back(f.rule_id + " " + f.problem);
  CHECK(got == std::vector<std::string>{"FAST fast", "FAST fast too"});
}

TEST_CASE("evaluator: a rule reports a file, line and problem once, however many bindings reach it") {
  // each changed line meets all four lines of the repository: four bindings, one finding each
  CHECK(eval_rule("  for l in lines(changed) where l.code ~ /(?P<p>gfx\\d+)/\n  for o in lines(repo)") ==
        "a.py:1 gfx942 | b/c.py:7 gfx950");
  // the same problem on another line, or another problem on the same line, is another finding
  CHECK(eval_rule("  for l in lines(repo) where l.code ~ /(?P<p>gfx942)/") == "a.py:1 gfx942 | other.py:3 gfx942");
  CHECK(eval_rule("  for l in lines(changed) where l.file == \"a.py\"\n  for o in lines(repo) where o.code ~ "
                  "/(?P<p>gfx\\d+)/\n  at l") == "a.py:1 gfx942 | a.py:1 gfx950 | a.py:2 gfx942 | a.py:2 gfx950");
}
