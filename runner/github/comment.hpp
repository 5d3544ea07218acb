// One sticky pull-request comment per ruleset, updated in place.
//
// The comment carries a hidden HTML marker, `<!-- review-action:<ruleset> -->`, on its first line.
// GitHub REST "Issue comments" (pull requests are issues for comments):
//   GET   /repos/{owner}/{repo}/issues/{number}/comments?per_page=100   (paginated, Link headers)
//   PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}
//   POST  /repos/{owner}/{repo}/issues/{number}/comments
// A comment body holds at most 65,536 characters; longer bodies are cut with a note.
//
//   auto r = review::github::upsert_sticky_comment(client, "o/r", 7, "atom", card_markdown);
#pragma once

#include <string>
#include <string_view>

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
};

/// `<!-- review-action:NAME -->`; characters other than [A-Za-z0-9._/-] in `ruleset` become '_'
/// so the marker can never close the HTML comment early.
std::string sticky_marker(std::string_view ruleset);

/// The full comment body: the marker line, then `body_markdown`, cut to GitHub's 65,536
/// characters with a note when longer.
std::string sticky_body(std::string_view ruleset, std::string_view body_markdown);

/// Finds the first comment on pull request `number` of `repo` ("owner/name") whose body
/// contains sticky_marker(`ruleset`) (all pages), PATCHes it with sticky_body(), else POSTs
/// a new one. Never creates a second marked comment when one exists. When the existing body is
/// already identical, nothing is written (outcome Updated). Never throws.
CommentResult upsert_sticky_comment(Client& client, std::string_view repo, long long number,
                                    std::string_view ruleset, std::string_view body_markdown);

}  // namespace review::github
