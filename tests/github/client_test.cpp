#include "runner/github/client.hpp"

#include "catch.hpp"
#include "mock_server.hpp"

using namespace std::chrono_literals;
using review::github::Client;
using review::github::ClientOptions;
using review::test::MockGithub;

namespace {

const std::string kToken = "ghs_SECRETtoken1234567890";

struct Recorder {
  std::vector<long long> sleeps;  // ms
  std::vector<std::string> log;
  ClientOptions options(const std::string& url) {
    ClientOptions o;
    o.api_url = url;
    o.token = kToken;
    o.version = "1.2.3";
    o.jitter_seed = 7;
    o.sleep = [this](std::chrono::milliseconds d) { sleeps.push_back(d.count()); };
    o.log = [this](std::string_view l) { log.emplace_back(l); };
    o.now_unix = [] { return std::int64_t{1700000000}; };
    return o;
  }
  std::string all_log() const {
    std::string s;
    for (auto& l : log) s += l + "\n";
    return s;
  }
};

nlohmann::json route(const std::string& method, const std::string& path, nlohmann::json responses) {
  return {{"method", method}, {"path", path}, {"responses", std::move(responses)}};
}

}  // namespace

TEST_CASE("next_link finds rel=next in a Link header", "[github][client]") {
  struct Row { std::string header, next; };
  std::vector<Row> rows = {
      {R"(<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last")",
       "https://api.github.com/x?page=2"},
      {R"(<https://h/x?page=1>; rel="prev", <https://h/x?page=3>; rel="next")", "https://h/x?page=3"},
      {R"(<https://h/x?page=1>; rel="first")", ""},
      {"", ""},
      {"<unterminated", ""},
      {R"(<https://h/x?page=9>; REL="NEXT")", "https://h/x?page=9"},
  };
  for (const auto& r : rows) {
    INFO(r.header);
    CHECK(review::github::next_link(r.header) == r.next);
  }
}

TEST_CASE("parse_retry_after_seconds accepts whole seconds only", "[github][client]") {
  CHECK(review::github::parse_retry_after_seconds("2") == 2);
  CHECK(review::github::parse_retry_after_seconds(" 60 ") == 60);
  CHECK(review::github::parse_retry_after_seconds("") == -1);
  CHECK(review::github::parse_retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == -1);
  CHECK(review::github::parse_retry_after_seconds("-5") == -1);
  CHECK(review::github::parse_retry_after_seconds("99999999999999") == -1);
}

TEST_CASE("requests carry GitHub's headers and the token only in Authorization", "[github][client]") {
  MockGithub mock;
  Recorder rec;
  Client c(rec.options(mock.url() + "/"));  // trailing slash is tolerated
  auto r = c.post("/repos/o/r/check-runs", {{"name", "x"}});
  REQUIRE(r.status == 201);
  CHECK(r.path == "/repos/o/r/check-runs");
  CHECK(r.json()["id"] == 1);
  auto reqs = mock.requests();
  REQUIRE(reqs.size() == 1);
  auto h = reqs[0]["headers"];
  CHECK(h["accept"] == "application/vnd.github+json");
  CHECK(h["x-github-api-version"] == "2022-11-28");
  CHECK(h["user-agent"] == "review-action/1.2.3");
  CHECK(h["authorization"] == "Bearer " + kToken);
  CHECK(reqs[0]["body"] == nlohmann::json{{"name", "x"}});
  CHECK(rec.sleeps.empty());
}

TEST_CASE("500 then 201: retried once after a jittered backoff", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("PATCH", "/repos/o/r/check-runs/1",
                                     {{{"status", 500}, {"body", {{"message", "Server Error"}}}},
                                      {{"status", 502}},
                                      {{"status", 201}, {"body", {{"id", 9}}}}})}}});
  Recorder rec;
  auto o = rec.options(mock.url());
  o.initial_backoff = 1000ms;
  Client c(o);
  auto r = c.patch("/repos/o/r/check-runs/1", {{"name", "x"}});
  CHECK(r.status == 201);
  CHECK(r.attempts == 3);
  REQUIRE(rec.sleeps.size() == 2);
  CHECK(rec.sleeps[0] >= 500);   // attempt 1: 1000 ms with equal jitter -> [500, 1000]
  CHECK(rec.sleeps[0] <= 1000);
  CHECK(rec.sleeps[1] >= 1000);  // attempt 2: 2000 ms -> [1000, 2000]
  CHECK(rec.sleeps[1] <= 2000);
  CHECK(mock.requests().size() == 3);
  REQUIRE(rec.log.size() == 2);
  CHECK(rec.log[0].rfind("github: PATCH /repos/o/r/check-runs/1: HTTP 500; retrying in ", 0) == 0);
  CHECK(rec.log[0].find("(attempt 2 of 6)") != std::string::npos);
}

TEST_CASE("403 with Retry-After waits exactly that long", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("PATCH", "/repos/o/r/check-runs/5",
                                     {{{"status", 403},
                                       {"headers", {{"Retry-After", "2"}}},
                                       {"body", {{"message", "You have exceeded a secondary rate limit."}}}},
                                      {{"status", 200}, {"body", {{"id", 5}}}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  auto r = c.patch("/repos/o/r/check-runs/5", {{"output", nullptr}});
  CHECK(r.status == 200);
  CHECK(rec.sleeps == std::vector<long long>{2000});
  REQUIRE(rec.log.size() == 1);
  CHECK(rec.log[0] == "github: PATCH /repos/o/r/check-runs/5: rate limited (HTTP 403); retrying in 2000 ms "
                      "(attempt 2 of 6)");
}

TEST_CASE("x-ratelimit-remaining 0 waits until x-ratelimit-reset", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("GET", "/rate",
                                     {{{"status", 429},
                                       {"headers", {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000005"}}}},
                                      {{"status", 200}, {"body", nlohmann::json::object()}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  CHECK(c.get("/rate").status == 200);
  CHECK(rec.sleeps == std::vector<long long>{5000});
}

TEST_CASE("a wait past the total budget gives up without sleeping", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("POST", "/x", {{{"status", 429}, {"headers", {{"Retry-After", "120"}}}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));  // default budget 60 s
  auto r = c.post("/x", nlohmann::json::object());
  CHECK(r.status == 429);
  CHECK(r.gave_up);
  CHECK(rec.sleeps.empty());
  REQUIRE(rec.log.size() == 1);
  CHECK(rec.log[0] == "github: POST /x: rate limited (HTTP 429); waiting 120000 ms more would pass the 60000 ms "
                      "budget, giving up");
}

TEST_CASE("5xx forever stops after max_attempts and the sleeps stay in budget", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("GET", "/down", {{{"status", 503}}})}}});
  Recorder rec;
  auto o = rec.options(mock.url());
  o.max_attempts = 4;
  Client c(o);
  auto r = c.get("/down");
  CHECK(r.status == 503);
  CHECK(r.attempts == 4);
  CHECK(r.gave_up);
  CHECK(rec.sleeps.size() == 3);
  CHECK(review::github::describe_failure(r) == "GET /down: HTTP 503 (after 4 attempts)");
}

TEST_CASE("4xx other than rate limits is returned at once with GitHub's message", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("POST", "/repos/o/r/check-runs",
                                     {{{"status", 422}, {"body", {{"message", "Invalid request."}}}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  auto r = c.post("/repos/o/r/check-runs", nlohmann::json::object());
  CHECK(r.status == 422);
  CHECK(r.attempts == 1);
  CHECK(rec.sleeps.empty());
  CHECK(review::github::describe_failure(r) == "POST /repos/o/r/check-runs: HTTP 422: Invalid request.");
}

TEST_CASE("no server: transport errors are retried, then described without the token", "[github][client]") {
  int port;
  {
    MockGithub mock;  // learn a free port, then stop the server
    port = std::stoi(mock.url().substr(mock.url().rfind(':') + 1));
  }
  Recorder rec;
  auto o = rec.options("http://127.0.0.1:" + std::to_string(port));
  o.max_attempts = 2;
  Client c(o);
  auto r = c.get("/repos/o/r");
  CHECK(r.status == 0);
  CHECK(r.attempts == 2);
  CHECK(rec.sleeps.size() == 1);
  CHECK(review::github::describe_failure(r).rfind("GET /repos/o/r: no answer (", 0) == 0);
  CHECK(rec.all_log().find(kToken) == std::string::npos);
}

TEST_CASE("get_all follows Link rel=next across pages", "[github][client]") {
  nlohmann::json initial = nlohmann::json::array();
  for (int i = 1; i <= 5; ++i) initial.push_back({{"id", i}, {"body", "c" + std::to_string(i)}});
  MockGithub mock(nlohmann::json{{"comments", {{"per_page", 2}, {"initial", initial}}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  auto p = c.get_all("/repos/o/r/issues/3/comments?per_page=100");
  REQUIRE(p.ok());
  CHECK(p.pages == 3);
  REQUIRE(p.items.size() == 5);
  CHECK(p.items[4]["body"] == "c5");
  auto reqs = mock.requests();
  REQUIRE(reqs.size() == 3);
  CHECK(reqs[1]["query"] == "per_page=2&page=2");
  CHECK(reqs[2]["headers"]["authorization"] == "Bearer " + kToken);
}

TEST_CASE("redact removes the token from any text", "[github][client]") {
  Recorder rec;
  Client c(rec.options("http://127.0.0.1:1"));
  CHECK(c.redact("a " + kToken + " b " + kToken) == "a *** b ***");
  ClientOptions anon;
  Client a(anon);
  CHECK(a.redact("nothing") == "nothing");
}

TEST_CASE("a POST that may have been applied is never retried blindly", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("POST", "/repos/o/r/issues/7/comments",
                                     {{{"status", 502}, {"apply", true}}, {{"status", 201}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  auto r = c.post("/repos/o/r/issues/7/comments", {{"body", "x"}});
  CHECK(r.status == 502);
  CHECK(r.maybe_applied);
  CHECK(r.attempts == 1);
  CHECK(rec.sleeps.empty());
  CHECK(mock.requests().size() == 1);
}

TEST_CASE("a rate-limit 403 is told apart from a missing permission", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("POST", "/repos/o/r/check-runs",
                                     {{{"status", 403}, {"body", {{"message", "API rate limit exceeded"}}},
                                       {"headers", {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700009999"}}}}}),
                                            route("POST", "/repos/o/r/other",
                                     {{{"status", 403}, {"body", {{"message", "Resource not accessible by integration"}}}}})}}});
  Recorder rec;
  Client c(rec.options(mock.url()));
  auto limited = c.post("/repos/o/r/check-runs", nlohmann::json::object());
  CHECK(limited.rate_limited);
  CHECK(limited.gave_up);
  auto denied = c.post("/repos/o/r/other", nlohmann::json::object());
  CHECK_FALSE(denied.rate_limited);
  CHECK(denied.status == 403);
}

TEST_CASE("one deadline bounds all API work of a run", "[github][client]") {
  MockGithub mock(nlohmann::json{{"routes", {route("GET", "/slow", {{{"status", 503}}})}}});
  Recorder rec;
  auto o = rec.options(mock.url());
  o.initial_backoff = 1000ms;
  o.max_backoff = 1000ms;
  o.total_budget = 60000ms;
  o.run_budget = 2500ms;  // each call alone could retry for a minute
  Client c(o);
  auto first = c.get("/slow");
  CHECK(first.gave_up);
  long long slept = 0;
  for (auto s : rec.sleeps) slept += s;
  CHECK(slept <= 2500);
  size_t sent = mock.requests().size();
  auto second = c.get("/slow");
  auto third = c.get("/slow");
  CHECK(third.gave_up);
  CHECK(third.transport_error.find("used up") != std::string::npos);
  CHECK(review::github::describe_failure(third).find("GET /slow: no answer (not sent: the run's 2500 ms") == 0);
  CHECK(mock.requests().size() <= sent + 1);
  (void)second;
}

TEST_CASE("redact removes any 8 characters of the token and anything token-shaped", "[github][client]") {
  MockGithub mock;
  Recorder rec;
  Client c(rec.options(mock.url()));
  CHECK(c.redact("Bad credentials: ghs_SECRETto…") == "Bad credentials: ***…");
  CHECK(c.redact("prefix SECRETtoken12 end") == "prefix *** end");
  CHECK(c.redact("other ghp_abcDEF123 and github_pat_11AAA_xyz") == "other *** and ***");
  CHECK(c.redact("nothing here: 1234567") == "nothing here: 1234567");
}
