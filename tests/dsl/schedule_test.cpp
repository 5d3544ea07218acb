// The rule-scheduling driver (dsl/schedule.hpp): which rules run file by file, and that running
// them so changes no finding, stop or diagnostic.
#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "dsl/plan.hpp"
#include "dsl/ruleset.hpp"
#include "dsl/schedule.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;
using testing::MemoryFacts;

namespace {

/// MemoryFacts whose `lines`, `functions` and `calls` are built file by file: query_file answers
/// one file's facts and is logged as "file SOURCE(SCOPE) PATH".
struct PerFileFacts : MemoryFacts {
  std::set<std::string> per_file{"lines", "functions", "calls"};
  bool builds_per_file(const std::string& s) const override { return per_file.count(s) > 0; }
  std::vector<std::string> scope_files(const Scope& scope) override {
    std::vector<std::string> out;
    for (const auto& s : per_file)
      for (const auto& f : select(s, scope))
        if (!f->file.empty() && std::find(out.begin(), out.end(), f->file) == out.end()) out.push_back(f->file);
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<FactPtr> query_file(const std::string& source, const Scope& scope, const std::string& path) override {
    events.push_back("file " + source + "(" + scope.describe() + ") " + path);
    std::vector<FactPtr> out;
    for (const auto& f : select(source, scope))
      if (f->file == path) out.push_back(f);
    return out;
  }
};

std::string rule(const std::string& id, const std::string& body, const std::string& extra = "") {
  return "rule " + id + " \"r\" {\n" + extra + body +
         "\n  problem \"{l.file}:{l.line}\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
}

/// Files a.py, b.py, c.py: lines with functions and calls; `n` lines per file.
void fill(MemoryFacts& m, int n = 4) {
  m.changed = {"a.py", "b.py", "c.py"};
  m.add("pr", "", 0, {{"title", "t"}, {"text", "t"}});
  for (const char* file : {"a.py", "b.py", "c.py"}) {
    for (int i = 1; i <= n; ++i) {
      std::string fn = i % 2 ? "f" : "g";
      std::string code = i % 3 ? "x = gfx942(" + std::to_string(i) + ")" : "assert y";
      m.add("lines", file, i, {{"text", code}, {"code", code}, {"function", fn}, {"added", Value(i != 2)}});
    }
    m.add("functions", file, 1, {{"name", "f"}, {"qualified", "f"}});
    m.add("functions", file, 2, {{"name", "g"}, {"qualified", "g"}});
    m.add("calls", file, 1, {{"callee", "gfx942"}, {"function", "f"}});
  }
  m.add("files", "a.py", 0, {{"path", "a.py"}});
}

const std::string kRules =
    rule("P1", "for l in lines(changed) where l.added and l.code ~ /gfx/") +
    rule("P2", "for l in lines(changed) where l.added\n for f in functions(l.file) where f.name == l.function") +
    rule("P3", "for l in lines(changed)\n unless exists o in lines(repo) where o.file == l.file and o.line == l.line + 1") +
    rule("P4", "for l in lines(changed)\n for k in calls(changed) where k.function == l.function\n where k.file == l.file") +
    rule("X1", "for l in lines(changed) where l.added\n unless exists o in lines(repo) where o.file != l.file and o.code ~ /assert/") +
    rule("X2", "for f in files(changed)\n for l in lines(f.path)") +
    rule("X3", "for l in lines(changed) where l.code ~ /assert/", "  tags \"t\"\n") +
    rule("X4", "for x in findings(\"t\")\n for l in lines(changed) where l.file == x.file") +
    rule("X5", "for l in lines(changed)\n where count(k in calls(changed) where k.function == l.function) > 0");

std::string describe(const EvalResult& res, bool sorted) {
  std::vector<std::string> rows;
  for (const auto& f : res.findings) rows.push_back(f.rule_id + "@" + f.file + ":" + std::to_string(f.line) + " " + f.problem);
  if (sorted) std::sort(rows.begin(), rows.end());
  std::string out;
  for (const auto& r : rows) out += r + "\n";
  for (const auto& d : res.internal_diagnostics) out += "! " + d + "\n";
  for (const auto& s : res.stopped) out += "stopped " + s + "\n";
  for (const auto& s : res.memory_stopped) out += "memory " + s + "\n";
  return out;
}

}  // namespace

TEST_CASE("schedule: a rule is per file when every binder is joined to its first `for` on the file") {
  PerFileFacts m;
  fill(m);
  auto r = load_ruleset("t.rules", kRules, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  const ProgramImpl& p = r.program->impl();
  std::set<std::string> read_tags;
  for (const auto& pr : p.rules) collect_tags(*pr.rule, read_tags);
  std::string per_file;
  for (const auto& pr : p.rules)
    if (per_file_rule(p, *pr.rule, m, read_tags)) per_file += pr.rule->id + " ";
  // X1 joins other files, X2 starts from `files` (not built file by file), X3's findings are
  // read by X4, which reads findings; X5's count reaches every file's calls
  CHECK(per_file == "P1 P2 P3 P4 ");
  // with no source built file by file, none is
  MemoryFacts plain;
  per_file.clear();
  for (const auto& pr : p.rules)
    if (per_file_rule(p, *pr.rule, plain, read_tags)) per_file += pr.rule->id + " ";
  CHECK(per_file.empty());
}

TEST_CASE("schedule: per-file evaluation finds what the whole-repository evaluation finds") {
  for (int n : {1, 4, 9}) {
    PerFileFacts m;
    MemoryFacts whole;
    fill(m, n);
    fill(whole, n);
    auto r = load_ruleset("t.rules", kRules, m.schema(), nullptr, {});
    REQUIRE(r.ok());
    auto a = evaluate(*r.program, m);
    auto b = evaluate(*r.program, whole);
    INFO("lines per file: " << n);
    CHECK(!a.findings.empty());
    CHECK(describe(a, true) == describe(b, true));
    // within a rule, in file order then fact order: the same order here (files are sorted)
    CHECK(describe(a, false) == describe(b, false));
  }
}

TEST_CASE("schedule: per-file rules read one file at a time and never the whole source") {
  PerFileFacts m;
  fill(m);
  std::string text = "kind k \"k\" when exists f in files(changed) where f.path == \"a.py\"\n" +
                     rule("P1", "for l in lines(changed) where l.code ~ /gfx/") +
                     rule("P2", "for l in lines(changed) where l.added\n for f in functions(l.file) where f.name == l.function");
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  auto res = evaluate(*r.program, m);
  CHECK(res.findings.size() == 3 * 3 + 3 * 3);
  std::string log;
  for (const auto& e : m.events) log += e + "\n";
  CHECK(log ==
        "query files(changed)\n"
        "release files\n"
        "file lines(changed) a.py\n"
        "file functions(\"a.py\") a.py\n"
        "file lines(changed) b.py\n"
        "file functions(\"b.py\") b.py\n"
        "file lines(changed) c.py\n"
        "file functions(\"c.py\") c.py\n"
        "release functions\n"
        "release lines\n");
}

TEST_CASE("schedule: a per-file rule over its budget is stopped across files and its findings dropped") {
  // P9 joins every line of a file with every other: 400 x 400 per file, far over a 5 ms budget
  // in total although no file alone need be
  std::string text = rule("P1", "for l in lines(changed) where l.code ~ /gfx/") +
                     rule("P9", "for l in lines(changed)\n for k in lines(l.file) where k.code ~ /gfx/ and k.line != l.line\n"
                                " where l.code ~ /gfx/");
  PerFileFacts m;
  MemoryFacts whole;
  fill(m, 400);
  fill(whole, 400);
  auto r = load_ruleset("t.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  EvalOptions o;
  o.rule_budget = std::chrono::milliseconds(5);
  auto a = evaluate(*r.program, m, o);
  auto b = evaluate(*r.program, whole, o);
  REQUIRE(a.stopped == std::vector<std::string>{"P9"});
  CHECK(b.stopped == a.stopped);
  CHECK(a.internal_diagnostics == b.internal_diagnostics);
  for (const auto& f : a.findings) CHECK(f.rule_id == "P1");
  CHECK(describe(a, true) == describe(b, true));
}
