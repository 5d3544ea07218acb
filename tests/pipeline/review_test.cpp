// pipeline::review on a synthetic change, without the CLI: which findings each stage keeps,
// marks or drops, and the SARIF baselineState the differential review gives them.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/change/memory.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/pipeline/review.hpp"
#include "runner/report/reporter.hpp"
#include "runner/report/suppress.hpp"

namespace {

using review::dsl::Finding;
namespace pipeline = review::pipeline;
namespace report = review::report;

// Fires on every TODO comment of a changed file, added or not, so the filter, the suppressions
// and the differential review all have something to decide.
const std::string kRules = R"(ruleset t "pipeline test" {
  version 1
}

rule TODOX "TODO comment" {
  severity block
  for l in lines(changed) where l.comment ~ /\bTODO\b/
  problem "line {l.line} of `{l.file}` has a TODO"
  impact  "unfinished work ships unnoticed"
  action  "Author should resolve the TODO"
}
)";

// Line 2 (`a = 1  # TODO: old`) is in the base and a context line of the hunk; line 3 is added;
// line 5 is added and carries an ignore comment with a reason.
const std::string kBase = "def f():\n    a = 1  # TODO: old\n    return a\n";
const std::string kDiff =
    "--- a/pkg/a.py\n"
    "+++ b/pkg/a.py\n"
    "@@ -1,3 +1,5 @@\n"
    " def f():\n"
    "     a = 1  # TODO: old\n"
    "+    b = 2  # TODO: new\n"
    "+    c = 3  # review: ignore[TODOX] the TODO is tracked in the issue\n"
    "     return a\n";

struct Fixture {
  std::shared_ptr<const review::change::Change> change;
  std::unique_ptr<review::facts::ChangeFacts> facts;
  std::vector<std::shared_ptr<const review::dsl::Program>> programs;

  Fixture() {
    change = std::make_shared<review::change::Change>(
        review::change::make_patch_change(kDiff, {{"pkg/a.py", kBase}}, "test.diff"));
    facts = std::make_unique<review::facts::ChangeFacts>(change);
    auto r = review::dsl::load_ruleset("t.rules", kRules, facts->schema(), nullptr, {});
    REQUIRE(r.ok());
    programs.push_back(r.program);
  }
  pipeline::ReviewResult run(const pipeline::ReviewOptions& o, report::RunInfo& info) {
    return pipeline::review(change, programs, *facts, o, info);
  }
};

std::vector<int> lines_of(const std::vector<Finding>& fs) {
  std::vector<int> out;
  for (const auto& f : fs) out.push_back(f.line);
  return out;
}

}  // namespace

TEST_CASE("review: context filter, inline suppression, differential review, in line order") {
  Fixture fx;
  pipeline::ReviewOptions o;
  o.filter = report::FilterMode::Context;
  o.differential = true;
  std::ostringstream notes;
  o.notes = &notes;
  report::RunInfo run;
  auto r = fx.run(o, run);

  REQUIRE(lines_of(r.findings) == std::vector<int>{2, 3, 4});
  // Line 2 is in the base: pre-existing. Line 3 is new. Line 4's ignore comment suppresses it.
  CHECK(r.findings[0].pre_existing);
  CHECK_FALSE(r.findings[0].suppressed);
  CHECK_FALSE(r.findings[1].pre_existing);
  CHECK_FALSE(r.findings[1].suppressed);
  CHECK(r.findings[2].suppressed);
  CHECK(r.findings[2].suppression_kind == "inSource");
  CHECK(r.differential.ran);
  CHECK(r.differential.pre_existing == 1);
  CHECK(run.differential);
  CHECK(run.rulesets == std::vector<std::string>{"t"});
  CHECK(run.incomplete.empty());
  CHECK(notes.str().find("1 finding is also on the base (pre-existing)") != std::string::npos);
  // One verdict-setting finding: the new, unsuppressed one on line 3.
  CHECK(report::verdict_of(r.findings) == report::Verdict::Block);
  CHECK(report::count_findings(r.findings).block == 1);

  // SARIF results carry baselineState: "unchanged" for line 2, "new" for the rest.
  auto sarif = nlohmann::json::parse(report::render("sarif", run, r.findings, {}));
  std::map<int, std::string> state;
  for (const auto& res : sarif["runs"][0]["results"])
    state[res["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>()] = res["baselineState"];
  CHECK(state == std::map<int, std::string>{{2, "unchanged"}, {3, "new"}, {4, "new"}});
}

TEST_CASE("review: the default filter keeps added lines only; no differential review unless asked") {
  Fixture fx;
  report::RunInfo run;
  auto r = fx.run({}, run);
  REQUIRE(lines_of(r.findings) == std::vector<int>{3, 4});
  CHECK_FALSE(r.differential.ran);
  CHECK_FALSE(run.differential);
  for (const auto& f : r.findings) CHECK_FALSE(f.pre_existing);
}

TEST_CASE("review: severity overrides, excludes, baseline and the caller's extra findings") {
  Fixture fx;
  {
    pipeline::ReviewOptions o;
    o.severity_overrides["TODOX"] = "warn";
    report::RunInfo run;
    auto r = fx.run(o, run);
    REQUIRE(r.findings.size() == 2);
    for (const auto& f : r.findings) CHECK(f.severity == review::dsl::Severity::Warn);
  }
  {
    pipeline::ReviewOptions o;
    o.severity_overrides["TODOX"] = "off";
    report::RunInfo run;
    CHECK(fx.run(o, run).findings.empty());
  }
  {
    pipeline::ReviewOptions o;
    o.exclude = {"pkg/**"};
    report::RunInfo run;
    CHECK(fx.run(o, run).findings.empty());
  }
  {
    // A baseline holding line 3's fingerprint suppresses it ("external"); an extra finding of the
    // caller is added after the baseline and sorted with the rest (a file-level one comes first
    // in its file).
    report::RunInfo first;
    auto all = fx.run({}, first).findings;
    REQUIRE(all.size() == 2);
    std::ostringstream written;
    report::write_baseline(written, std::vector<review::dsl::Finding>{all[0]}, [&](const std::string& p) { return fx.change->content->head(p); });
    std::istringstream in(written.str());
    pipeline::ReviewOptions o;
    o.baseline = report::read_baseline(in, "baseline.json");
    Finding extra;
    extra.rule_id = "EXTRA";
    extra.file = "pkg/a.py";
    extra.severity = review::dsl::Severity::Warn;
    o.extra_findings.push_back(extra);
    report::RunInfo run;
    auto r = fx.run(o, run);
    REQUIRE(lines_of(r.findings) == std::vector<int>{0, 3, 4});
    CHECK(r.findings[0].rule_id == "EXTRA");
    CHECK(r.findings[1].suppressed);
    CHECK(r.findings[1].suppression_kind == "external");
    CHECK(r.findings[2].suppression_kind == "inSource");
  }
}

TEST_CASE("review: an audit drops the pull-request findings and the kinds, and skips the differential review") {
  Fixture fx;
  // A rule about the pull request's (empty) title: a PR-level finding, with no file. A kind that
  // every change with a file has.
  auto t = review::dsl::load_ruleset("title.rules",
                                     "ruleset title \"titles\" {\n  version 1\n}\n"
                                     "kind touched \"touches files\" when exists f in files(changed) where f.path != \"\"\n"
                                     "rule TITLEX \"no title\" {\n  severity warn\n  when pr.title ~ /^\\s*$/\n"
                                     "  problem \"the pull request has no title\"\n  impact \"reviewers cannot tell\"\n"
                                     "  action \"Author should write a title\"\n}\n",
                                     fx.facts->schema(), nullptr, {});
  REQUIRE(t.ok());
  fx.programs.push_back(t.program);
  {
    report::RunInfo run;
    auto r = fx.run({}, run);
    REQUIRE(lines_of(r.findings) == std::vector<int>{0, 3, 4});
    CHECK(r.findings[0].rule_id == "TITLEX");
    CHECK(run.rulesets == std::vector<std::string>{"t", "title"});
    REQUIRE(run.kinds.size() == 1);
    CHECK(run.kinds[0].first == "touched");
  }
  pipeline::ReviewOptions o;
  o.audit = true;
  o.differential = true;
  std::ostringstream notes;
  o.notes = &notes;
  report::RunInfo run;
  auto r = fx.run(o, run);
  CHECK(lines_of(r.findings) == std::vector<int>{3, 4});
  CHECK(r.audit_dropped == 1);
  CHECK(notes.str().find("audit mode: 1 pull-request finding of TITLEX left out") != std::string::npos);
  CHECK(run.kinds.empty());  // the kind named the whole tree, not a change
  CHECK_FALSE(r.differential.ran);
  CHECK_FALSE(run.differential);
}
