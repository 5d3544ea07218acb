#include "runner/report/sarif.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sys/wait.h>

#include "catch.hpp"
#include "fixture.hpp"
#include "runner/report/json.hpp"

using namespace review::report;
using namespace review::report::testing;
using nlohmann::json;

TEST_CASE("sarif: levels, locations, PR-level findings, suppressions") {
  json log = sarif_log(fixed_findings(), fixed_run(), head_source());
  const json& run = log["runs"][0];
  CHECK(log["version"] == "2.1.0");
  CHECK(run["automationDetails"]["id"] == "review-action/atom/");
  const json& results = run["results"];
  REQUIRE(results.size() == 4);  // the PR-level finding is not a result
  CHECK(results[0]["ruleId"] == "D1b");
  CHECK(results[0]["level"] == "error");
  CHECK(results[0]["ruleIndex"] == 0);
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"] ==
        json{{"uri", "atom/model.py"}, {"uriBaseId", "%SRCROOT%"}});
  CHECK(results[0]["properties"]["witness"]["variable"] == "scale");
  CHECK(results[0]["properties"]["tier"] == "1");
  CHECK(results[3]["ruleId"] == "D9");  // suppressed ones last
  CHECK(results[3]["suppressions"] ==
        json::array({{{"kind", "inSource"}, {"status", "accepted"}, {"justification", "rows stay below 2^16"}}}));
  CHECK(run["properties"]["pullRequestFindings"][0]["ruleId"] == "P1");
  CHECK(run["invocations"][0]["exitCode"] == 1);
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  CHECK(run["versionControlProvenance"][0]["revisionId"] == fixed_run().head_sha);
}

TEST_CASE("sarif: category override and rule limits") {
  RunInfo info = fixed_run();
  info.category = "custom/";
  RuleMeta big = info.rules[0];
  big.id = "Z9";
  big.tags = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "a"};
  big.problem = std::string(3000, 'p');
  info.rules.push_back(big);
  json run = sarif_log({}, info)["runs"][0];
  CHECK(run["automationDetails"]["id"] == "custom/");
  const json& z = run["tool"]["driver"]["rules"].back();
  CHECK(z["properties"]["tags"].size() == 10);
  CHECK(z["fullDescription"]["text"].get<std::string>().size() <= kSarifMaxDescription);
  CHECK(z["name"] == "VariablePossiblyUnboundAfterIfElif");
  RuleMeta quoted = info.rules[0];
  quoted.id = "Q1";
  quoted.title = "stated scope narrower than the shared file's reach";
  info.rules.push_back(quoted);
  CHECK(sarif_log({}, info)["runs"][0]["tool"]["driver"]["rules"].back()["name"] ==
        "StatedScopeNarrowerThanTheSharedFilesReach");
}

TEST_CASE("sarif: a rule's descriptions read as sentences; a first word that is code keeps its case") {
  RunInfo info = fixed_run();
  struct Row {
    const char* title;
    const char* problem;
    const char* short_text;
    const char* full_start;
  };
  const Row rows[] = {
      {"near-identical new block", "the same {c.lines}-line block", "Near-identical new block.",
       "The same \u2039c.lines\u203a-line block."},
      {"find_package with no REQUIRED", "`find_package({pkg})` at {c.file}", "find_package with no REQUIRED.",
       "`find_package(\u2039pkg\u203a)` at \u2039c.file\u203a."},
      {"torch.empty output", "torch.empty result read", "torch.empty output.", "torch.empty result read."},
      {"\"tests will be added\" with no test", "x9 is read", "\"tests will be added\" with no test.", "x9 is read."},
  };
  for (const auto& r : rows) {
    RuleMeta m = info.rules[0];
    m.id = "S" + std::to_string(info.rules.size());
    m.title = r.title;
    m.problem = r.problem;
    m.impact = "a build fails";
    m.action = "";
    info.rules.push_back(m);
  }
  json run = sarif_log({}, info)["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  for (size_t i = 0; i < std::size(rows); ++i) {
    const json& j = rules[rules.size() - std::size(rows) + i];
    INFO(rows[i].title);
    CHECK(j["shortDescription"]["text"] == rows[i].short_text);
    CHECK(j["fullDescription"]["text"] == std::string(rows[i].full_start) + " Impact: a build fails.");
  }
}

TEST_CASE("sarif: overflow is cut most severe first with a note") {
  std::vector<Finding> v;
  for (int i = 1; i <= 5; ++i)
    v.push_back(make_finding("R", "T", i == 4 ? Severity::Block : Severity::Note, Evidence::Verified, "a.py", i, 0, "p",
                             "", ""));
  json run = sarif_log(v, RunInfo{}, {}, 2)["runs"][0];
  REQUIRE(run["results"].size() == 2);
  CHECK(run["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 4);
  CHECK(run["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
  CHECK(run["properties"]["cutByLimits"] == 3);
  CHECK(run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] ==
        "3 results were left out to stay within GitHub's limit of 2 results per run; the least severe went first.");
}

/// Runs scripts/sarif-validate on `sarif`; returns its exit code and output.
static std::pair<int, std::string> validate(const std::string& sarif, const std::string& name) {
  std::string dir = std::string(REVIEW_SOURCE_DIR);
  std::string file = "/tmp/review-report-" + name + "-" + std::to_string(::getpid()) + ".sarif";
  std::ofstream(file, std::ios::binary) << sarif;
  std::string cmd = "'" + dir + "/scripts/sarif-validate' '" + file + "' 2>&1";
  std::string out;
  int status = -1;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    status = ::pclose(p);
  }
  std::remove(file.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST_CASE("sarif: findings of a rule's `also` bodies share its rule entry and carry their label") {
  std::vector<Finding> v = fixed_findings();
  auto located = std::find_if(v.begin(), v.end(), [](const Finding& f) { return !f.file.empty() && !f.suppressed; });
  REQUIRE(located != v.end());
  Finding extra = *located;  // another body of that finding's rule, one line further
  const std::string id = extra.rule_id;
  extra.label = "consumer repository";
  extra.line += 1;
  v.push_back(extra);
  json run = sarif_log(v, fixed_run(), head_source())["runs"][0];
  std::set<std::string> ids;
  for (const auto& r : run["tool"]["driver"]["rules"]) CHECK(ids.insert(r["id"].get<std::string>()).second);
  int labelled = 0;
  for (const auto& r : run["results"]) {
    if (!r["properties"].contains("label")) continue;
    ++labelled;
    CHECK(r["properties"]["label"] == "consumer repository");
    CHECK(r["ruleId"] == id);
    CHECK(run["tool"]["driver"]["rules"][r["ruleIndex"].get<std::size_t>()]["id"] == id);
  }
  CHECK(labelled == 1);
}

TEST_CASE("sarif passes the official validator with GitHub rules", "[validator]") {
  if (std::system("command -v npm >/dev/null 2>&1") != 0) {
    WARN("npm is not installed: the SARIF validator test is skipped");
    return;
  }
  ReportOptions opt;
  opt.source = head_source();
  auto [code, out] = validate(render("sarif", fixed_findings(), fixed_run(), opt), "fixed");
  INFO(out);
  CHECK(code == 0);
  CHECK(out.find(": 0 errors, 0 warnings\n") != std::string::npos);
}
