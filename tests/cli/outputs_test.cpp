// Every output of a review is a reporter driven through one fan-out: a file that cannot be
// written stops neither the other files nor the check run and the sticky comment (the mock
// GitHub server of tests/github records them), and the run reports the failure (exit 3).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "cli/cli_util.hpp"
#include "github/mock_server.hpp"
#include "runner/change/process.hpp"

namespace fs = std::filesystem;
using review::cli::test::slurp;

namespace {

const std::string kFixtures = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli";

review::change::ProcessResult review_with_github(const std::string& api_url, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"env", "-u", "GITHUB_ACTIONS", "-u", "GITHUB_EVENT_PATH", "-u", "GITHUB_WORKFLOW",
                                   "-u", "GITHUB_JOB", "-u", "GITHUB_GRAPHQL_URL", "NO_COLOR=1",
                                   "GITHUB_API_URL=" + api_url, "GITHUB_REPOSITORY=o/r", "GITHUB_TOKEN=t0ken",
                                   REVIEW_RUNNER_PATH, "-r", "mini.rules", "--base-dir", "base", "--head-dir", "head",
                                   "--fail-on", "never"};
  argv.insert(argv.end(), args.begin(), args.end());
  review::change::ProcessOptions o;
  o.cwd = kFixtures;
  return review::change::run_process(argv, o);
}

int count_requests(const review::test::MockGithub& mock, const std::string& method, const std::string& path) {
  int n = 0;
  for (const auto& r : mock.requests())
    if (r.value("method", "") == method && r.value("path", "") == path) ++n;
  return n;
}

}  // namespace

TEST_CASE("a file output that fails stops neither the other files nor the check run and the comment") {
  review::test::TempDir tmp;
  review::test::MockGithub mock;
  fs::path pr = tmp.path() / "pr.json";
  std::ofstream(pr) << R"({"number": 7, "headRefOid": "0123456789abcdef0123456789abcdef01234567"})";
  fs::path json = tmp.path() / "out.json";
  auto r = review_with_github(mock.url(), {"--pr", pr.string(), "--format", "sarif=/nonexistent/dir/x.sarif",
                                           "--format", "json=" + json.string(), "--check-run", "review", "--comment"});
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("runner: cannot write /nonexistent/dir/x.sarif: the folder /nonexistent/dir does not exist\n") !=
        std::string::npos);
  auto j = nlohmann::json::parse(slurp(json), nullptr, false);
  REQUIRE(!j.is_discarded());
  CHECK(j["verdict"] == "block");
  CHECK(j["exit_code"] == 3);  // the SARIF file failed before the JSON was written: it says so
  CHECK(count_requests(mock, "POST", "/repos/o/r/check-runs") == 1);
  CHECK(count_requests(mock, "POST", "/repos/o/r/issues/7/comments") == 1);
  CHECK(r.err.find("warning:") == std::string::npos);
}

TEST_CASE("a check run GitHub refuses becomes workflow commands on stdout, said once; the comment is still written") {
  nlohmann::json scenario = {{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                                          {"responses", {{{"status", 403}, {"body", {{"message", "Resource not accessible by integration"}}}}}}}}}};
  review::test::MockGithub mock(scenario);
  review::test::TempDir tmp;
  fs::path pr = tmp.path() / "pr.json";
  std::ofstream(pr) << R"({"number": 9})";
  auto r = review_with_github(mock.url(), {"--pr", pr.string(), "--format", "json=" + (tmp.path() / "o.json").string(),
                                           "--check-run", "review", "--comment"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("::error ") != std::string::npos);  // workflow commands, not neutralised
  CHECK(r.err.find("warning: the token cannot write check runs; falling back to workflow annotations\n") != std::string::npos);
  CHECK(count_requests(mock, "POST", "/repos/o/r/issues/9/comments") == 1);
}

TEST_CASE("no token: the GitHub outputs are skipped with one warning, the files are written") {
  review::test::TempDir tmp;
  fs::path json = tmp.path() / "out.json";
  std::vector<std::string> argv = {"env", "-u", "GITHUB_TOKEN", "-u", "GITHUB_ACTIONS", "-u", "GITHUB_EVENT_PATH",
                                   "NO_COLOR=1", REVIEW_RUNNER_PATH, "-r", "mini.rules", "--base-dir", "base",
                                   "--head-dir", "head", "--fail-on", "never", "--format", "json=" + json.string(),
                                   "--check-run", "review", "--comment"};
  review::change::ProcessOptions o;
  o.cwd = kFixtures;
  auto r = review::change::run_process(argv, o);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("warning: GitHub output skipped: $GITHUB_TOKEN is empty\n") != std::string::npos);
  CHECK(!slurp(json).empty());
}

TEST_CASE("--token-env names the variable the token is read from, whatever its name") {
  review::test::TempDir tmp;
  review::test::MockGithub mock;
  fs::path pr = tmp.path() / "pr.json";
  std::ofstream(pr) << R"({"number": 5})";
  std::vector<std::string> argv = {"env", "-u", "GITHUB_TOKEN", "-u", "GITHUB_ACTIONS", "-u", "GITHUB_EVENT_PATH",
                                   "-u", "GITHUB_GRAPHQL_URL", "NO_COLOR=1", "GITHUB_API_URL=" + mock.url(),
                                   "GITHUB_REPOSITORY=o/r", "REVIEW_BOT_TOKEN=t0ken", REVIEW_RUNNER_PATH, "-r",
                                   "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "never",
                                   "--pr", pr.string(), "--token-env", "REVIEW_BOT_TOKEN", "--comment"};
  review::change::ProcessOptions o;
  o.cwd = kFixtures;
  auto r = review::change::run_process(argv, o);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("GitHub output skipped") == std::string::npos);
  CHECK(count_requests(mock, "POST", "/repos/o/r/issues/5/comments") == 1);
}

TEST_CASE("--write-baseline is an output: its file suppresses the same findings later, and a failure to write it exits 3") {
  review::test::TempDir tmp;
  fs::path baseline = tmp.path() / "baseline.json";
  fs::path json = tmp.path() / "out.json";
  // No GitHub output here; the server URL is never called.
  auto first = review_with_github("http://127.0.0.1:9", {"--write-baseline", baseline.string(), "--format",
                                                          "json=" + json.string()});
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  auto written = nlohmann::json::parse(slurp(baseline), nullptr, false);
  REQUIRE(written.is_array());
  auto report = nlohmann::json::parse(slurp(json), nullptr, false);
  REQUIRE(!report.is_discarded());
  CHECK(report["verdict"] == "block");  // mini.rules blocks on this fixture pair
  CHECK(written.size() >= 1);

  // The same run against that baseline: every finding is suppressed, the verdict is no longer block.
  fs::path json2 = tmp.path() / "out2.json";
  auto second = review_with_github("http://127.0.0.1:9", {"--baseline", baseline.string(), "--format",
                                                           "json=" + json2.string()});
  INFO(second.err);
  CHECK(second.exit_code == 0);
  auto report2 = nlohmann::json::parse(slurp(json2), nullptr, false);
  REQUIRE(!report2.is_discarded());
  CHECK(report2["verdict"] != "block");

  // An unwritable baseline is an output failure like any other: exit 3, the other file written.
  fs::path json3 = tmp.path() / "out3.json";
  auto third = review_with_github("http://127.0.0.1:9", {"--write-baseline", "/nonexistent/dir/b.json", "--format",
                                                          "json=" + json3.string()});
  CHECK(third.exit_code == 3);
  CHECK(third.err.find("/nonexistent/dir/b.json") != std::string::npos);
  CHECK(fs::exists(json3));
}
