#include "runner/github/comment.hpp"

#include "catch.hpp"
#include "mock_server.hpp"

using review::github::Client;
using review::github::ClientOptions;
using review::github::CommentOutcome;
using review::test::MockGithub;

namespace {

ClientOptions quiet(const std::string& url, std::vector<std::string>* log) {
  ClientOptions o;
  o.api_url = url;
  o.token = "ghs_commentTOKEN_abcdef";
  o.jitter_seed = 1;
  o.sleep = [](std::chrono::milliseconds) {};
  o.log = [log](std::string_view l) { log->emplace_back(l); };
  return o;
}

// REST requests of `method` (the GraphQL query for minimised comments is a POST too; not counted).
size_t count(const std::vector<nlohmann::json>& reqs, const std::string& method) {
  size_t n = 0;
  for (auto& r : reqs) n += r["method"] == method && r["path"] != "/graphql";
  return n;
}

}  // namespace

TEST_CASE("sticky_marker is a hidden HTML comment that cannot be closed early", "[github][comment]") {
  using review::github::sticky_marker;
  CHECK(sticky_marker("atom") == "<!-- review-action:atom -->");
  CHECK(sticky_marker("rulesets/ops.rules") == "<!-- review-action:rulesets/ops.rules -->");
  CHECK(sticky_marker("a b-->c") == "<!-- review-action:a_b-__c -->");
  CHECK(sticky_marker("x--y") == "<!-- review-action:x-_y -->");
  CHECK(review::github::sticky_body("atom", "## LGTM") == "<!-- review-action:atom -->\n## LGTM");
  CHECK(sticky_marker("atom", "review.yml/gate") == "<!-- review-action:atom job=review.yml/gate -->");
  CHECK(sticky_marker("atom", "x -->") == "<!-- review-action:atom job=x_-__ -->");
}

TEST_CASE("sticky comment: a stranger's comment with our marker is never ours", "[github][comment]") {
  // A stranger pasted the marker into a fake "LGTM" comment; a second one even starts with it.
  MockGithub mock(nlohmann::json{
      {"comments",
       {{"initial",
         {{{"id", 1}, {"body", "<!-- review-action:atom -->\n## LGTM"}, {"user", {{"login", "mallory"}}}},
          {{"id", 2}, {"body", "x <!-- review-action:atom -->"}, {"user", {{"login", "github-actions[bot]"}}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## BLOCK");
  CHECK(r.outcome == CommentOutcome::Created);
  auto reqs = mock.requests();
  CHECK(count(reqs, "PATCH") == 0);  // neither the stranger's nor a marker in mid-body
  CHECK(reqs.back()["method"] == "POST");
  // The next run finds its own comment (author github-actions[bot], marker first).
  auto again = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## LGTM");
  CHECK(again.outcome == CommentOutcome::Updated);
  CHECK(again.comment_id == r.comment_id);
}

TEST_CASE("sticky comment: a personal token owns comments by its own login", "[github][comment]") {
  MockGithub mock(nlohmann::json{{"viewer", "octo-bot"},
                                 {"comments",
                                  {{"initial", {{{"id", 1}, {"body", "<!-- review-action:atom job=w/j -->\nold"},
                                                 {"user", {{"login", "github-actions[bot]"}}}},
                                                {{"id", 2}, {"body", "<!-- review-action:atom job=w/j -->\nold"},
                                                 {"user", {{"login", "Octo-Bot"}}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  review::github::StickyOptions so;
  so.scope = "w/j";
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "new", so);
  CHECK(r.outcome == CommentOutcome::Updated);
  CHECK(r.comment_id == 2);
  // Another job's marker is another comment.
  so.scope = "w/other";
  CHECK(review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "new", so).outcome == CommentOutcome::Created);
}

TEST_CASE("sticky comment: a listing that is not JSON is an error, not an empty list", "[github][comment]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "GET"}, {"path", "/repos/o/r/issues/7/comments"},
                                               {"responses", {{{"status", 200}, {"body", {{"not", "a list"}}}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "x");
  CHECK(r.outcome == CommentOutcome::Failed);
  CHECK(r.message.find("not a JSON list") != std::string::npos);
  for (const auto& q : mock.requests()) CHECK(q["method"] != "POST");
}

TEST_CASE("sticky comment: created once, then updated in place, never duplicated", "[github][comment]") {
  // Two unrelated comments already there; two per page so the search must paginate.
  MockGithub mock(nlohmann::json{{"comments", {{"per_page", 2},
                                               {"initial", {{{"id", 1}, {"body", "nice work"}},
                                                            {{"id", 2}, {"body", "<!-- review-action:other -->\nx"}},
                                                            {{"id", 3}, {"body", "lgtm"}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));

  auto first = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## NEEDS WORK");
  CHECK(first.outcome == CommentOutcome::Created);
  CHECK(first.message.empty());
  CHECK(first.comment_id > 3);
  auto reqs = mock.requests();
  CHECK(count(reqs, "GET") == 3);  // GET /user (who are we), then two pages
  CHECK(count(reqs, "POST") == 1);
  CHECK(reqs.back()["path"] == "/repos/o/r/issues/7/comments");
  CHECK(reqs.back()["body"]["body"] == "<!-- review-action:atom -->\n## NEEDS WORK");

  auto second = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## LGTM");
  CHECK(second.outcome == CommentOutcome::Updated);
  CHECK(second.comment_id == first.comment_id);
  reqs = mock.requests();
  CHECK(count(reqs, "POST") == 1);  // still one
  CHECK(count(reqs, "PATCH") == 1);
  CHECK(reqs.back()["path"] == "/repos/o/r/issues/comments/" + std::to_string(first.comment_id));
  CHECK(reqs.back()["body"]["body"] == "<!-- review-action:atom -->\n## LGTM");

  // Same body again: found, nothing written.
  auto third = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## LGTM");
  CHECK(third.outcome == CommentOutcome::Updated);
  reqs = mock.requests();
  CHECK(count(reqs, "POST") == 1);
  CHECK(count(reqs, "PATCH") == 1);

  // Another ruleset gets its own comment; the "other" one (id 2) is left alone.
  auto ops = review::github::upsert_sticky_comment(c, "o/r", 7, "ops", "## BLOCK");
  CHECK(ops.outcome == CommentOutcome::Created);
  CHECK(ops.comment_id != first.comment_id);
  CHECK(log.empty());
}

TEST_CASE("sticky comment: a read-only token gets one clear line", "[github][comment]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/issues/7/comments"},
                                               {"responses", {{{"status", 403}, {"body", {{"message", "Resource not accessible by integration"}}}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "x");
  CHECK(r.outcome == CommentOutcome::NoPermission);
  CHECK(r.message == "the token cannot write pull request comments \xE2\x80\x94 the verdict is in the step summary only");
}

TEST_CASE("sticky comment: a failing listing writes nothing", "[github][comment]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "GET"}, {"path", "/repos/o/r/issues/7/comments"},
                                               {"responses", {{{"status", 410}, {"body", {{"message", "Gone"}}}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "x");
  CHECK(r.outcome == CommentOutcome::Failed);
  CHECK(r.message == "GET /repos/o/r/issues/7/comments?per_page=100: HTTP 410: Gone");
  CHECK(mock.requests().size() == 2);  // GET /user, then the listing
}

TEST_CASE("sticky comment: a create answered 502 after it was applied is not posted twice", "[github][comment]") {
  MockGithub mock(nlohmann::json{{"routes", {{{"method", "POST"}, {"path", "/repos/o/r/issues/7/comments"},
                                               {"responses", {{{"status", 502}, {"apply", true}}}}}}}});
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## BLOCK");
  CHECK(r.outcome == CommentOutcome::Created);
  CHECK(count(mock.requests(), "POST") == 1);
}

TEST_CASE("sticky comment: a minimised comment of ours no longer carries the verdict", "[github][comment]") {
  // Our old comment (id 1) was hidden by a maintainer; id 2 is a stranger's copy of the marker.
  MockGithub mock(nlohmann::json::parse(R"({"comments": {"initial": [
      {"id": 1, "node_id": "IC_one", "minimized": true, "body": "<!-- review-action:atom -->\n## BLOCK",
       "user": {"login": "github-actions[bot]"}},
      {"id": 2, "body": "<!-- review-action:atom -->\n## LGTM", "user": {"login": "mallory"}}]}})"));
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## BLOCK again");
  CHECK(r.outcome == CommentOutcome::Created);
  CHECK(r.warning.empty());
  auto reqs = mock.requests();
  CHECK(count(reqs, "PATCH") == 0);  // the hidden comment is left as it is
  // GraphQL was asked about our comment only, by its REST node_id.
  int asked = 0;
  for (const auto& q : reqs)
    if (q["path"] == "/graphql") {
      ++asked;
      CHECK(q["body"]["variables"]["ids"] == nlohmann::json::array({"IC_one"}));
      CHECK(q["body"]["query"].get<std::string>().find("isMinimized") != std::string::npos);
    }
  CHECK(asked == 1);
  // The next run updates the new, visible comment, never the hidden one.
  auto again = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "## LGTM");
  CHECK(again.outcome == CommentOutcome::Updated);
  CHECK(again.comment_id == r.comment_id);
  CHECK(again.comment_id != 1);
  CHECK(count(mock.requests(), "PATCH") == 1);
}

TEST_CASE("sticky comment: when GraphQL cannot answer, our comment is updated with a warning", "[github][comment]") {
  MockGithub mock(nlohmann::json::parse(R"({
      "routes": [{"method": "POST", "path": "/graphql",
                  "responses": [{"status": 200, "body": {"errors": [{"message": "Resource not accessible"}]}}]}],
      "comments": {"initial": [{"id": 5, "body": "<!-- review-action:atom -->\nold",
                                "user": {"login": "github-actions[bot]"}}]}})"));
  std::vector<std::string> log;
  Client c(quiet(mock.url(), &log));
  auto r = review::github::upsert_sticky_comment(c, "o/r", 7, "atom", "new");
  CHECK(r.outcome == CommentOutcome::Updated);
  CHECK(r.comment_id == 5);
  CHECK(r.warning ==
        "cannot tell whether our comment is minimised (GraphQL: Resource not accessible); it was updated in place");
}

TEST_CASE("graphql_url_for: github.com and GitHub Enterprise Server", "[github][comment]") {
  CHECK(review::github::graphql_url_for("https://api.github.com") == "https://api.github.com/graphql");
  CHECK(review::github::graphql_url_for("https://ghe.example.com/api/v3/") == "https://ghe.example.com/api/graphql");
}
