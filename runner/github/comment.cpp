#include "runner/github/comment.hpp"

#include <cctype>

#include "runner/github/check_run.hpp"

namespace review::github {
namespace {

constexpr size_t kMaxCommentChars = 65536;

CommentResult failed(const Response& r) {
  CommentResult out;
  if (r.rate_limited) {
    out.outcome = CommentOutcome::Failed;
    out.message = "GitHub's API rate limit for this token is used up (" + describe_failure(r) +
                  ") \xE2\x80\x94 the verdict is in the step summary only";
  } else if (r.status == 403 || r.status == 404) {
    out.outcome = CommentOutcome::NoPermission;
    out.message = "the token cannot write pull request comments \xE2\x80\x94 the verdict is in the step summary only";
  } else {
    out.outcome = CommentOutcome::Failed;
    out.message = describe_failure(r);
  }
  return out;
}

void take_ids(CommentResult& out, const Response& r) {
  auto j = r.json();
  if (!j.is_object()) return;
  if (j.contains("id") && j["id"].is_number_integer()) out.comment_id = j["id"].get<long long>();
  if (j.contains("html_url") && j["html_url"].is_string()) out.html_url = j["html_url"].get<std::string>();
}

}  // namespace

namespace {
std::string marker_word(std::string_view s) {
  std::string name;
  for (char c : s) {
    bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '/' || c == '-';
    name += keep ? c : '_';
  }
  // "--" may not appear inside an HTML comment.
  for (size_t p = name.find("--"); p != std::string::npos; p = name.find("--")) name[p + 1] = '_';
  if (!name.empty() && name.back() == '-') name.back() = '_';
  return name;
}
bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}
}  // namespace

std::string sticky_marker(std::string_view ruleset, std::string_view scope) {
  std::string m = "<!-- review-action:" + marker_word(ruleset);
  if (!scope.empty()) m += " job=" + marker_word(scope);
  return m + " -->";
}

std::string sticky_body(std::string_view ruleset, std::string_view body_markdown, std::string_view scope) {
  std::string marker = sticky_marker(ruleset, scope) + "\n";
  return marker + cut_output(body_markdown, kMaxCommentChars - marker.size());
}

std::string token_login(Client& client, std::string& error) {
  Response r = client.get("/user");
  if (r.status == 401 || r.status == 403) return "github-actions[bot]";
  auto j = r.json();
  if (r.ok() && j.is_object() && j.contains("login") && j["login"].is_string()) return j["login"].get<std::string>();
  error = r.ok() ? "GET /user: the answer has no login" : describe_failure(r);
  return {};
}

CommentResult upsert_sticky_comment(Client& client, std::string_view repo, long long number,
                                    std::string_view ruleset, std::string_view body_markdown,
                                    const StickyOptions& options) {
  const std::string marker = sticky_marker(ruleset, options.scope);
  const std::string body = sticky_body(ruleset, body_markdown, options.scope);
  const std::string issue = "/repos/" + std::string(repo) + "/issues/" + std::to_string(number);

  std::string owner = options.owner, error;
  if (owner.empty()) owner = token_login(client, error);
  if (owner.empty()) {
    CommentResult out;
    out.message = "cannot tell whose comment is ours: " + error;
    return out;
  }

  // A create that may have been applied (no answer after sending, or 5xx) is looked up again
  // before it is sent again: one retry at most, and never a second comment.
  for (int round = 0;; ++round) {
    PagedResponse list = client.get_all(issue + "/comments?per_page=100");
    if (!list.ok()) return failed(list.last);
    if (list.invalid) {
      CommentResult out;
      out.message = "GET " + issue + "/comments: the answer is not a JSON list of comments; nothing was written";
      return out;
    }

    for (const auto& c : list.items) {
      if (!c.is_object() || !c.contains("body") || !c["body"].is_string() || !c.contains("id") ||
          !c["id"].is_number_integer())
        continue;
      if (c["body"].get<std::string>().rfind(marker, 0) != 0) continue;
      // Only our own comment: a stranger can paste the marker.
      if (!c.contains("user") || !c["user"].is_object() || !c["user"].contains("login") ||
          !c["user"]["login"].is_string() || !iequal(c["user"]["login"].get<std::string>(), owner))
        continue;
      CommentResult out;
      out.outcome = round > 0 ? CommentOutcome::Created : CommentOutcome::Updated;
      out.comment_id = c["id"].get<long long>();
      if (c.contains("html_url") && c["html_url"].is_string()) out.html_url = c["html_url"].get<std::string>();
      if (c["body"].get<std::string>() == body) return out;  // nothing changed: no write
      Response r = client.patch("/repos/" + std::string(repo) + "/issues/comments/" + std::to_string(out.comment_id),
                                nlohmann::json{{"body", body}});
      if (!r.ok()) return failed(r);
      return out;
    }

    Response r = client.post(issue + "/comments", nlohmann::json{{"body", body}});
    if (r.maybe_applied && round == 0) continue;
    if (!r.ok()) return failed(r);
    CommentResult out;
    out.outcome = CommentOutcome::Created;
    take_ids(out, r);
    return out;
  }
}

}  // namespace review::github
