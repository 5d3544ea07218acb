// The acceptance rules of issue 3 load under strict checking and evaluate to exact findings.
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;
using review::dsl::testing::MemoryFacts;

namespace {

std::string read_fixture(const std::string& rel) {
  std::ifstream in(std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/dsl/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<const Program> load_acceptance() {
  MemoryFacts m;
  LoadOptions o;
  o.strict = true;
  auto r = load_ruleset("acceptance.rules", read_fixture("acceptance.rules"), m.schema(), nullptr, o);
  for (const auto& d : r.diagnostics) FAIL_CHECK(format_diagnostic(d));
  REQUIRE(r.ok());
  return r.program;
}

std::string line_of(const Finding& f) {
  return f.rule_id + " " + (f.file.empty() ? "-" : f.file + ":" + std::to_string(f.line)) + " " + f.problem;
}

std::vector<std::string> run(MemoryFacts& m) {
  auto p = load_acceptance();
  auto out = evaluate(*p, m);
  for (const auto& d : out.internal_diagnostics) FAIL_CHECK(d);
  std::vector<std::string> lines;
  for (const auto& f : out.findings) lines.push_back(line_of(f));
  return lines;
}

void quiet_pr(MemoryFacts& m, const std::string& title = "Refactor", const std::string& body = "Because x.") {
  m.add("pr", "", 0, {{"title", title}, {"body", body}, {"text", title + "\n" + body}, {"labels", Value::List{}}});
}

}  // namespace

TEST_CASE("acceptance: loads under strict checking, rule order puts AI-ELEV after the signs") {
  auto p = load_acceptance();
  std::vector<std::string> ids;
  for (const auto& r : p->rules()) ids.push_back(r.id);
  CHECK(ids == std::vector<std::string>{"D1b", "F1", "B6", "C3", "P1", "T-TIER", "AI-T1", "AI-T9", "AI-T11", "AI-ELEV"});
  CHECK(p->name() == "acceptance");
  CHECK(p->data().tiers.size() == 3);
  CHECK(p->data().test_globs.size() == 2);
  REQUIRE(p->rules()[0].examples.size() == 2);
  CHECK(p->rules()[0].examples[0].bad);
  CHECK(p->rules()[0].examples[0].code.find("# <- D1b") != std::string::npos);
}

TEST_CASE("acceptance: D1b reads nested facts") {
  MemoryFacts m;
  m.changed = {"a.py"};
  quiet_pr(m);
  auto branch = m.add("reads", "a.py", 2, {{"added", Value(true)}});
  auto read = m.add("reads", "a.py", 4, {{"added", Value(true)}});
  auto old_read = m.add("reads", "a.py", 9, {{"added", Value(false)}});
  m.add("unbound_reads", "a.py", 4, {{"name", "out"}, {"read", read}, {"branch", branch},
                                     {"bound_in", "the `if flag` arm"}, {"unbound_path", "flag is false"}});
  m.add("unbound_reads", "a.py", 9, {{"name", "old"}, {"read", old_read}, {"branch", branch},
                                     {"bound_in", "x"}, {"unbound_path", "y"}});
  CHECK(run(m) == std::vector<std::string>{
                      "D1b a.py:4 `out` is bound only in the `if flag` arm of the branch at line 2, but line 4 reads it on every path"});
}

TEST_CASE("acceptance: F1 reuses a capture inside the unless-exists regex") {
  MemoryFacts m;
  m.changed = {"a.py", "b.py"};
  quiet_pr(m);
  m.add("assignments", "a.py", 3, {{"target", "self.w_shuffled"}, {"function", "load"}, {"added", Value(true)}});
  m.add("assignments", "b.py", 5, {{"target", "self.w.x_packed"}, {"function", "load"}, {"added", Value(true)}});
  m.add("assignments", "b.py", 7, {{"target", "self.v_quantized"}, {"function", "load2"}, {"added", Value(true)}});
  m.add("statements", "b.py", 8, {{"code", "del self.v"}});
  m.add("statements", "a.py", 4, {{"code", "del self.wx"}});  // another name: must not silence
  CHECK(run(m) == std::vector<std::string>{"F1 a.py:3 `self.w_shuffled` is stored next to `self.w` in load"});
}

TEST_CASE("acceptance: B6 joins dispatch cases and branches on subject") {
  MemoryFacts m;
  m.changed = {"q.py"};
  quiet_pr(m);
  m.add("dispatch_cases", "q.py", 10, {{"subject", "w_dtype"}, {"value", "fp4"}, {"added", Value(true)}});
  auto b1 = make_fact("branches", "tiles.py", 3);
  b1->end_line = 6;
  b1->set("subject", Value("w_dtype"));
  b1->set("else_raises", Value(false));
  m.facts["branches"].push_back(b1);
  auto b2 = make_fact("branches", "safe.py", 3);
  b2->end_line = 6;
  b2->set("subject", Value("w_dtype"));
  b2->set("else_raises", Value(true));
  m.facts["branches"].push_back(b2);
  auto b3 = make_fact("branches", "ok.py", 20);
  b3->end_line = 30;
  b3->set("subject", Value("w_dtype"));
  b3->set("else_raises", Value(false));
  m.facts["branches"].push_back(b3);
  m.add("dispatch_cases", "ok.py", 22, {{"subject", "w_dtype"}, {"value", "fp4"}, {"added", Value(false)}});
  m.add("dispatch_cases", "tiles.py", 3, {{"subject", "w_dtype"}, {"value", "fp8"}, {"added", Value(false)}});
  CHECK(run(m) == std::vector<std::string>{
                      "B6 q.py:10 new value `fp4` of `w_dtype` reaches the dispatch at tiles.py:3, which has no case for it"});
}

TEST_CASE("acceptance: C3 stays quiet when the literal is already on an unchanged line") {
  MemoryFacts m;
  m.changed = {"r.py", "s.py"};
  quiet_pr(m);
  m.add("lines", "r.py", 12, {{"text", "m.kv = kv.view(n, 1, 576)"}, {"code", "m.kv = kv.view(n, 1, 576)"},
                              {"function", "_bind_kv"}, {"added", Value(true)}});
  m.add("lines", "s.py", 4, {{"code", "if arch == \"gfx950\":"}, {"function", "run"}, {"added", Value(true)}});
  m.add("lines", "s.py", 9, {{"code", "elif arch == \"gfx950\":"}, {"function", "run"}, {"added", Value(false)}});
  m.add("lines", "s.py", 20, {{"code", "return arch == \"gfx1250\""}, {"function", "_detect_gfx"}, {"added", Value(true)}});
  auto p = load_acceptance();
  auto out = evaluate(*p, m);
  REQUIRE(out.findings.size() == 1);
  const auto& f = out.findings[0];
  CHECK(line_of(f) == "C3 r.py:12 `r.py:12` hard-codes `576` in dispatch");
  CHECK(f.snippet == "m.kv = kv.view(n, 1, 576)");
  CHECK(f.witness == Witness{{"lit", "576"}, {"l.file", "r.py"}, {"l.line", "12"}});
  CHECK(f.action == "Author must derive it from the config or a named constant in the arch registry");
}

TEST_CASE("acceptance: P1 on PR text, with and without units") {
  struct Row { const char* title; const char* body; bool fires; };
  const Row rows[] = {
      {"Optimize MoE sort", "Much faster now.\n![trace](trace.png)", true},
      {"Optimize MoE sort", "| tokens | before (us) | after (us) |\n| 4096 | 41.2 us | 27.9 us |", false},
      {"Fix typo", "Because it was wrong.", false},
      {"Speed-up decode", "2.1x on MI300X", false},
  };
  for (const auto& r : rows) {
    INFO(r.title << " / " << r.body);
    MemoryFacts m;
    quiet_pr(m, r.title, r.body);
    auto lines = run(m);
    bool fired = false;
    for (const auto& l : lines) fired = fired || l.rfind("P1 ", 0) == 0;
    CHECK(fired == r.fires);
    if (r.fires)
      CHECK(lines.front() == "P1 - the pull request claims a performance gain (\"Optimize MoE sort\") but gives no measured numbers with units");
  }
}

TEST_CASE("acceptance: T-TIER notes Tier-1 files with their blast radius") {
  MemoryFacts m;
  m.changed = {"atom/config.py", "atom/models/glm4_moe.py"};
  quiet_pr(m);
  m.add("files", "atom/config.py", 0, {{"path", "atom/config.py"}, {"tier", 1}, {"blast", "every model"},
                                       {"fails", "a wrong config silently switches kernels"}});
  m.add("files", "atom/models/glm4_moe.py", 0, {{"path", "atom/models/glm4_moe.py"}, {"tier", 3}});
  auto p = load_acceptance();
  auto out = evaluate(*p, m);
  REQUIRE(out.findings.size() == 1);
  CHECK(line_of(out.findings[0]) == "T-TIER atom/config.py:0 `atom/config.py` is Tier 1 (every model)");
  CHECK(out.findings[0].tier == "1");
  CHECK(out.findings[0].severity == Severity::Note);
  CHECK(m.configured.tiers.size() == 3);  // evaluate() configured the facts
}

TEST_CASE("acceptance: AI-ELEV fires on three ai-sign findings, not on two") {
  SECTION("three signs") {
    MemoryFacts m;
    quiet_pr(m, "Add kernel", "Add new kernel.\n## Test Plan\n\n## Test Result\nok\nGenerated with [Claude Code]");
    auto lines = run(m);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "AI-T1 - the description of \"Add kernel\" says what changed but not why");
    CHECK(lines[1] == "AI-T9 - the Test Plan section of \"Add kernel\" is still the empty template");
    CHECK(lines[2] == "AI-T11 - the description of \"Add kernel\" carries an AI-tool footer");
    CHECK(lines[3] == "AI-ELEV - several markers of generated code (description says what, not why, test plan left as the template, AI-tool attribution footer)");
  }
  SECTION("two signs") {
    MemoryFacts m;
    quiet_pr(m, "Add kernel", "Add new kernel.\nGenerated with [Claude Code]");
    CHECK(run(m) == std::vector<std::string>{"AI-T1 - the description of \"Add kernel\" says what changed but not why",
                                             "AI-T11 - the description of \"Add kernel\" carries an AI-tool footer"});
  }
  SECTION("only_rules still runs the rules AI-ELEV reads") {
    MemoryFacts m;
    quiet_pr(m, "Add kernel", "Add new kernel.\n## Test Plan\n\n## Test Result\nok\nGenerated with [Claude Code]");
    EvalOptions o;
    o.only_rules = {"AI-ELEV"};
    auto out = evaluate(*load_acceptance(), m, o);
    REQUIRE(out.findings.size() == 1);
    CHECK(out.findings[0].rule_id == "AI-ELEV");
  }
}

TEST_CASE("acceptance: kinds are reported") {
  MemoryFacts m;
  quiet_pr(m, "Optimize MoE sort", "Because 2x faster: 41 us -> 20 us");
  auto out = evaluate(*load_acceptance(), m);
  REQUIRE(out.kinds.size() == 1);
  CHECK(out.kinds[0].name == "perf");
  CHECK(out.kinds[0].label == "performance change");
}
