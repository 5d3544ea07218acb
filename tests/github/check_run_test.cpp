#include "runner/github/check_run.hpp"

#include "catch.hpp"
#include "mock_server.hpp"

using review::dsl::Finding;
using review::dsl::Severity;
using review::github::CheckRunOutcome;
using review::github::Client;
using review::github::ClientOptions;
using review::test::MockGithub;

namespace {

const std::string kToken = "ghp_checkRUNtoken_0987654321";

Finding finding(std::string file, int line, Severity s = Severity::Warn) {
  Finding f;
  f.rule_id = "X9";
  f.rule_title = "Kernel launch without a stream";
  f.severity = s;
  f.file = std::move(file);
  f.line = line;
  f.problem = "the launch uses the default stream";
  f.impact = "work serialises with every other launch";
  f.action = "pass the caller's stream";
  return f;
}

struct Quiet {
  std::vector<std::string> log;
  std::vector<long long> sleeps;
  ClientOptions options(const std::string& url) {
    ClientOptions o;
    o.api_url = url;
    o.token = kToken;
    o.jitter_seed = 3;
    o.sleep = [this](std::chrono::milliseconds d) { sleeps.push_back(d.count()); };
    o.log = [this](std::string_view l) { log.emplace_back(l); };
    return o;
  }
};

}  // namespace

TEST_CASE("conclusion follows fail_on and ignores suppressed findings", "[github][check_run]") {
  using review::github::check_run_conclusion;
  auto warn = finding("a.py", 1, Severity::Warn);
  auto block = finding("a.py", 2, Severity::Block);
  auto hidden = block;
  hidden.suppressed = true;
  struct Row { std::vector<Finding> f; std::optional<Severity> fail_on; std::string want; };
  std::vector<Row> rows = {
      {{}, Severity::Block, "success"},
      {{hidden}, Severity::Note, "success"},
      {{warn}, Severity::Block, "neutral"},
      {{warn}, Severity::Warn, "failure"},
      {{warn}, Severity::Note, "failure"},
      {{block, warn}, Severity::Block, "failure"},
      {{block}, std::nullopt, "neutral"},
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i);
    CHECK(check_run_conclusion(rows[i].f, rows[i].fail_on) == rows[i].want);
  }
}

TEST_CASE("annotations: levels, columns on single lines only, no suppressed or PR-level ones", "[github][check_run]") {
  auto one = finding("src/k.cpp", 10, Severity::Block);
  one.column = 5;
  auto span = finding("src/k.cpp", 20, Severity::Note);
  span.end_line = 24;
  span.column = 3;
  auto whole = finding("README.md", 0, Severity::Warn);
  auto pr = finding("", 0, Severity::Block);
  auto hidden = finding("src/k.cpp", 30);
  hidden.suppressed = true;
  auto a = review::github::check_run_annotations(std::vector<Finding>{one, span, whole, pr, hidden});
  REQUIRE(a.size() == 3);
  CHECK(a[0] == nlohmann::json::parse(R"({"path":"src/k.cpp","start_line":10,"end_line":10,
      "annotation_level":"failure","title":"Kernel launch without a stream","start_column":5,"end_column":5,
      "message":"the launch uses the default stream\n\nWhy it matters: work serialises with every other launch\n\nWhat to do: pass the caller's stream"})"));
  CHECK(a[1]["annotation_level"] == "notice");
  CHECK(a[1]["start_line"] == 20);
  CHECK(a[1]["end_line"] == 24);
  CHECK_FALSE(a[1].contains("start_column"));
  CHECK_FALSE(a[1].contains("end_column"));
  CHECK(a[2]["annotation_level"] == "warning");
  CHECK(a[2]["start_line"] == 1);
  CHECK(a[2]["path"] == "README.md");
  for (const auto& x : a) CHECK(x.dump().find("X9") == std::string::npos);  // no rule ids in human text
}

TEST_CASE("cut_output keeps 65,535 characters at most, on a UTF-8 boundary, with a note", "[github][check_run]") {
  using review::github::cut_output;
  CHECK(cut_output("short") == "short");
  std::string exact(65535, 'a');
  CHECK(cut_output(exact) == exact);
  std::string big;
  while (big.size() < 70000) big += "\xC3\xA9";  // é, two bytes
  auto cut = cut_output(big);
  CHECK(cut.size() <= 65535);
  CHECK(cut.find("This text was cut to fit GitHub's 65,535-character limit") != std::string::npos);
  auto body = cut.substr(0, cut.find("\n\n---\n"));
  CHECK(body.size() % 2 == 0);  // no half character
}

TEST_CASE("120 findings: one create with 50 annotations, then PATCHes of 50 and 20", "[github][check_run]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                                               {"responses", {{{"status", 201}, {"body", {{"id", 77}, {"html_url", "http://x/77"}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  std::vector<Finding> findings;
  for (int i = 1; i <= 120; ++i) findings.push_back(finding("f" + std::to_string(i) + ".py", i, Severity::Block));
  findings.push_back(finding("", 0, Severity::Block));  // PR-level: not an annotation
  auto r = review::github::publish_check_run(c, "o/r", "abc123", "review", findings, "## BLOCK", "details",
                                             Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Published);
  CHECK(r.message.empty());
  CHECK(r.check_run_id == 77);
  CHECK(r.html_url == "http://x/77");
  CHECK(r.annotations_sent == 120);
  CHECK(r.requests == 3);
  CHECK(r.conclusion == "failure");

  auto reqs = mock.requests();
  REQUIRE(reqs.size() == 3);
  CHECK(reqs[0]["method"] == "POST");
  CHECK(reqs[0]["path"] == "/repos/o/r/check-runs");
  auto& create = reqs[0]["body"];
  CHECK(create["name"] == "review");
  CHECK(create["head_sha"] == "abc123");
  CHECK(create["status"] == "completed");
  CHECK(create["conclusion"] == "failure");
  CHECK(create["output"]["title"] == "121 findings (121 block)");
  CHECK(create["output"]["summary"] == "## BLOCK");
  CHECK(create["output"]["text"] == "details");
  CHECK(create["output"]["annotations"].size() == 50);
  CHECK(create["output"]["annotations"][0]["path"] == "f1.py");
  for (int i : {1, 2}) {
    CHECK(reqs[i]["method"] == "PATCH");
    CHECK(reqs[i]["path"] == "/repos/o/r/check-runs/77");
    CHECK(reqs[i]["body"]["output"]["title"] == "121 findings (121 block)");
    CHECK(reqs[i]["body"]["output"]["summary"] == "## BLOCK");
  }
  CHECK(reqs[1]["body"]["output"]["annotations"].size() == 50);
  CHECK(reqs[1]["body"]["output"]["annotations"][0]["path"] == "f51.py");
  CHECK(reqs[2]["body"]["output"]["annotations"].size() == 20);
  CHECK(reqs[2]["body"]["output"]["annotations"][19]["path"] == "f120.py");
  CHECK(q.sleeps.empty());
}

TEST_CASE("no findings: one create, success, no annotations", "[github][check_run]") {
  MockGithub mock;
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", {}, "LGTM", "", Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Published);
  CHECK(r.conclusion == "success");
  auto reqs = mock.requests();
  REQUIRE(reqs.size() == 1);
  CHECK(reqs[0]["body"]["output"]["title"] == "No findings");
  CHECK(reqs[0]["body"]["output"]["annotations"].empty());
  CHECK_FALSE(reqs[0]["body"]["output"].contains("text"));
}

TEST_CASE("500 then 201 on create: retried, then published", "[github][check_run]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                                               {"responses", {{{"status", 500}}, {{"status", 201}, {"body", {{"id", 5}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", std::vector<Finding>{finding("a.py", 1)}, "s", "",
                                             Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Published);
  CHECK(r.check_run_id == 5);
  CHECK(q.sleeps.empty());                // not retried blindly: looked up first
  CHECK(mock.requests().size() == 3);     // POST 500, GET the commit's check runs (none), POST
}

TEST_CASE("a create answered 502 after it was applied is found, not duplicated", "[github][check_run]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                                               {"responses", {{{"status", 502}, {"apply", true}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", std::vector<Finding>{finding("a.py", 1)}, "s", "",
                                             Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Published);
  CHECK(r.check_run_id == 1);
  int posts = 0;
  for (const auto& q2 : mock.requests()) posts += q2["method"] == "POST";
  CHECK(posts == 1);
}

TEST_CASE("an exhausted rate limit is not mistaken for a read-only token", "[github][check_run]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                                               {"responses", {{{"status", 403}, {"body", {{"message", "API rate limit exceeded for installation"}}},
                                                               {"headers", {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "99999999999"}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", std::vector<Finding>{finding("a.py", 1)}, "s", "",
                                             Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Failed);
  CHECK(r.message.find("rate limit") != std::string::npos);
}

TEST_CASE("a fork's read-only token (403/404) asks for the workflow-annotation fallback", "[github][check_run]") {
  for (int status : {403, 404}) {
    INFO(status);
    MockGithub mock(nlohmann::json{
        {"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                     {"responses", {{{"status", status}, {"body", {{"message", "Resource not accessible by integration"}}}}}}}}}});
    Quiet q;
    Client c(q.options(mock.url()));
    auto r = review::github::publish_check_run(c, "o/r", "abc", "review", std::vector<Finding>{finding("a.py", 1)}, "s", "",
                                               Severity::Block);
    CHECK(r.outcome == CheckRunOutcome::NoPermission);
    CHECK(r.message == "the token cannot write check runs \xE2\x80\x94 falling back to workflow annotations");
    CHECK(r.requests == 1);
    CHECK(mock.requests().size() == 1);  // no retry: this is not a rate limit
    CHECK(q.sleeps.empty());
  }
}

TEST_CASE("422 on create fails with method, path, status and GitHub's message", "[github][check_run]") {
  MockGithub mock(nlohmann::json{
      {"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                   {"responses", {{{"status", 422}, {"body", {{"message", "No commit found for SHA: abc"}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", {}, "s", "", Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Failed);
  CHECK(r.message == "POST /repos/o/r/check-runs: HTTP 422: No commit found for SHA: abc");
}

TEST_CASE("a failing append batch is reported, not hidden", "[github][check_run]") {
  MockGithub mock(nlohmann::json{
      {"routes", {{{"method", "PATCH"}, {"path", "/repos/o/r/check-runs/1"},
                   {"responses", {{{"status", 422}, {"body", {{"message", "Invalid annotation"}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  std::vector<Finding> findings;
  for (int i = 1; i <= 60; ++i) findings.push_back(finding("a.py", i));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", findings, "s", "", Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Failed);
  CHECK(r.annotations_sent == 50);
  CHECK(r.message == "PATCH /repos/o/r/check-runs/1: HTTP 422: Invalid annotation");
}

TEST_CASE("the token never appears in logs or results, even when GitHub echoes it", "[github][check_run]") {
  MockGithub mock(nlohmann::json{
      {"routes", {{{"method", "POST"}, {"path", "/repos/o/r/check-runs"},
                   {"responses", {{{"status", 429}, {"headers", {{"Retry-After", "1"}}}, {"body", {{"message", "bad token " + kToken}}}},
                                  {{"status", 422}, {"body", {{"message", "bad token " + kToken}}}}}}}}}});
  Quiet q;
  Client c(q.options(mock.url()));
  auto r = review::github::publish_check_run(c, "o/r", "abc", "review", std::vector<Finding>{finding("a.py", 1)}, "s", "",
                                             Severity::Block);
  CHECK(r.outcome == CheckRunOutcome::Failed);
  std::string everything = r.message;
  for (auto& l : q.log) everything += l;
  CHECK_FALSE(q.log.empty());
  CHECK(everything.find(kToken) == std::string::npos);
  CHECK(everything.find(kToken.substr(0, 11)) == std::string::npos);  // no part of it either
}
