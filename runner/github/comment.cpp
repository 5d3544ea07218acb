#include "runner/github/comment.hpp"

#include <algorithm>
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

std::string graphql_url_for(std::string_view api_url) {
  std::string u(api_url);
  while (!u.empty() && u.back() == '/') u.pop_back();
  const std::string v3 = "/api/v3";
  if (u.size() >= v3.size() && u.compare(u.size() - v3.size(), v3.size(), v3) == 0)
    return u.substr(0, u.size() - v3.size()) + "/api/graphql";
  return u + "/graphql";
}

bool minimised_comments(Client& client, const std::string& graphql_url, const std::vector<std::string>& node_ids,
                        std::vector<std::string>& minimised, std::string& error) {
  minimised.clear();
  if (node_ids.empty()) return true;
  nlohmann::json body = {
      {"query", "query($ids:[ID!]!){nodes(ids:$ids){... on IssueComment{id isMinimized}}}"},
      {"variables", {{"ids", node_ids}}}};
  Response r = client.post(graphql_url, body);
  if (!r.ok()) {
    error = describe_failure(r);
    return false;
  }
  auto j = r.json();
  if (j.is_object() && j.contains("errors") && j["errors"].is_array() && !j["errors"].empty()) {
    const auto& e = j["errors"][0];
    error = "GraphQL: " + (e.is_object() && e.contains("message") && e["message"].is_string()
                               ? e["message"].get<std::string>()
                               : std::string("an error"));
    return false;
  }
  if (!j.is_object() || !j.contains("data") || !j["data"].is_object() || !j["data"].contains("nodes") ||
      !j["data"]["nodes"].is_array()) {
    error = "POST " + r.path + ": the answer has no data.nodes list";
    return false;
  }
  for (const auto& n : j["data"]["nodes"]) {
    if (!n.is_object() || !n.contains("id") || !n["id"].is_string()) continue;  // null: not found
    if (n.contains("isMinimized") && n["isMinimized"].is_boolean() && n["isMinimized"].get<bool>())
      minimised.push_back(n["id"].get<std::string>());
  }
  return true;
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

    std::vector<const nlohmann::json*> ours;
    for (const auto& c : list.items) {
      if (!c.is_object() || !c.contains("body") || !c["body"].is_string() || !c.contains("id") ||
          !c["id"].is_number_integer())
        continue;
      if (c["body"].get<std::string>().rfind(marker, 0) != 0) continue;
      // Only our own comment: a stranger can paste the marker.
      if (!c.contains("user") || !c["user"].is_object() || !c["user"].contains("login") ||
          !c["user"]["login"].is_string() || !iequal(c["user"]["login"].get<std::string>(), owner))
        continue;
      ours.push_back(&c);
    }
    // A minimised comment of ours is hidden from readers: it no longer carries the verdict.
    std::string warning;
    if (!ours.empty()) {
      std::vector<std::string> ids, hidden;
      for (const auto* c : ours)
        if (c->contains("node_id") && (*c)["node_id"].is_string()) ids.push_back((*c)["node_id"].get<std::string>());
      std::string gerror;
      std::string gurl = options.graphql_url.empty() ? graphql_url_for(client.options().api_url) : options.graphql_url;
      if (ids.size() < ours.size()) {
        warning = "cannot tell whether our comment is minimised (the comment list has no node_id); it was updated in place";
      } else if (!minimised_comments(client, gurl, ids, hidden, gerror)) {
        warning = "cannot tell whether our comment is minimised (" + gerror + "); it was updated in place";
      } else {
        std::erase_if(ours, [&](const nlohmann::json* c) {
          return std::find(hidden.begin(), hidden.end(), (*c)["node_id"].get<std::string>()) != hidden.end();
        });
      }
    }

    for (const auto* cp : ours) {
      const auto& c = *cp;
      CommentResult out;
      out.warning = warning;
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
