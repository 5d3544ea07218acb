// One sticky pull-request comment per ruleset, updated in place.
//
// The comment carries a hidden HTML marker, `<!-- review-action:<ruleset> [job=<workflow>/<job>] -->`,
// on its first line. Only a comment that starts with the marker AND was written by the token's
// own identity carries the verdict: anyone can paste the marker into a comment of their own
// ("LGTM"), and such a comment is never edited, never counted, never left standing in for ours.
// The identity is `GET /user`'s login (a personal or OAuth token); an installation token (the
// workflow's GITHUB_TOKEN) cannot read /user, and then the owner is `github-actions[bot]`
// unless StickyOptions::owner names the app's bot.
// GitHub REST "Issue comments" (pull requests are issues for comments):
//   GET   /repos/{owner}/{repo}/issues/{number}/comments?per_page=100   (paginated, Link headers)
//   PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}
//   POST  /repos/{owner}/{repo}/issues/{number}/comments
// A comment body holds at most 65,536 characters; longer bodies are cut with a note.
// A comment of ours that a maintainer minimised (hidden as outdated, off-topic, …) no longer
// carries the verdict: nobody sees it unfolded. REST does not say whether a comment is minimised;
// GraphQL does (`IssueComment.isMinimized`), reached from the REST comment's `node_id`:
//   POST /graphql  {"query": "query($ids:[ID!]!){nodes(ids:$ids){... on IssueComment{id isMinimized}}}", …}
// (GitHub Enterprise Server: https://HOST/api/graphql, Actions' GITHUB_GRAPHQL_URL). A minimised
// comment of ours is left as it is and a new one is posted.
//
//   auto r = review::github::upsert_sticky_comment(client, "o/r", 7, "atom", card_markdown);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/github/client.hpp"

namespace review::github {

enum class CommentOutcome {
  Created,       ///< no marked comment existed; one was posted
  Updated,       ///< the marked comment was edited in place
  NoPermission,  ///< 403/404 on the write (e.g. a fork's read-only token)
  Failed,        ///< listing or writing failed otherwise
};

struct CommentResult {
  CommentOutcome outcome = CommentOutcome::Failed;
  long long comment_id = 0;
  std::string html_url;
  /// One line for the user. NoPermission: "the token cannot write pull request comments —
  /// the verdict is in the step summary only". Failed: describe_failure() of the failing call.
  std::string message;
  /// Set when the comment was written but something could not be checked: "cannot tell whether
  /// comment N is minimised (…); it was updated in place". Empty otherwise.
  std::string warning;
};

/// Who may own the sticky comment, and which run it belongs to.
struct StickyOptions {
  /// The workflow and job identity ("review.yml/review"): two workflows or jobs reviewing one pull
  /// request keep separate comments. "" = none (the marker names the ruleset only).
  std::string scope;
  /// The login whose comment carries the verdict; "" = the token's own (see above).
  std::string owner;
  /// The GraphQL endpoint; "" = derived from the client's api_url: ".../api/v3" becomes
  /// ".../api/graphql" (GitHub Enterprise Server), anything else gets "/graphql" appended.
  std::string graphql_url;
};

/// The GraphQL endpoint that belongs to REST base URL `api_url` (see StickyOptions::graphql_url).
std::string graphql_url_for(std::string_view api_url);

/// Which of the comments with these GraphQL node ids are minimised: ids in, the minimised ones
/// out. Returns false and sets `error` when GitHub cannot answer (HTTP failure, GraphQL `errors`,
/// an answer without `data.nodes`). Never throws.
bool minimised_comments(Client& client, const std::string& graphql_url, const std::vector<std::string>& node_ids,
                        std::vector<std::string>& minimised, std::string& error);

/// `<!-- review-action:NAME -->`, or `<!-- review-action:NAME job=SCOPE -->`; characters other
/// than [A-Za-z0-9._/-] become '_' so the marker can never close the HTML comment early.
std::string sticky_marker(std::string_view ruleset, std::string_view scope = {});

/// The full comment body: the marker line, then `body_markdown`, cut to GitHub's 65,536
/// characters with a note when longer.
std::string sticky_body(std::string_view ruleset, std::string_view body_markdown, std::string_view scope = {});

/// The login of the token's identity: `GET /user`'s `login`; "github-actions[bot]" when /user
/// answers 401/403 (an installation token); "" when the call fails otherwise (then `error` says why).
std::string token_login(Client& client, std::string& error);

/// Finds the first comment on pull request `number` of `repo` ("owner/name") whose body starts
/// with sticky_marker(`ruleset`, scope), whose author is the owner (all pages) and that is not
/// minimised (minimised_comments()), PATCHes it with sticky_body(), else POSTs a new one. When
/// GitHub cannot say which comments are minimised, the first one of ours is used and
/// CommentResult::warning says so. Comments of anyone else are ignored, marker or not. Never
/// creates a second comment of ours when one exists. When the existing body is already identical,
/// nothing is written (outcome Updated). A listing that is not a JSON array is a failure (never
/// read as "no comment yet"). Never throws.
CommentResult upsert_sticky_comment(Client& client, std::string_view repo, long long number,
                                    std::string_view ruleset, std::string_view body_markdown,
                                    const StickyOptions& options = {});

}  // namespace review::github
