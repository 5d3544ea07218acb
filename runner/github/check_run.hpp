// Publishes findings as one GitHub check run on the head commit, with annotations.
//
// GitHub REST "Checks" (api version 2022-11-28):
//   POST  /repos/{owner}/{repo}/check-runs               create, with the first 50 annotations
//   PATCH /repos/{owner}/{repo}/check-runs/{id}          append the next 50, and so on
// "The Checks API limits the number of annotations to a maximum of 50 per API request";
// annotations sent by later updates are appended. `output.summary` and `output.text` hold at
// most 65,535 characters each; `annotation_level` is notice, warning or failure; `start_column`
// and `end_column` are only accepted when `start_line == end_line`.
//
//   auto r = review::github::publish_check_run(client, "o/r", sha, "review", findings,
//                                              card_markdown, "", review::dsl::Severity::Block);
//   if (r.outcome == CheckRunOutcome::NoPermission) { print r.message; use workflow commands }
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/finding.hpp"
#include "runner/github/client.hpp"
#include "runner/report/findings_view.hpp"

namespace review::github {

inline constexpr size_t kMaxAnnotationsPerRequest = 50;    ///< GitHub Checks API limit
inline constexpr size_t kMaxOutputChars = 65535;           ///< output.summary / output.text
inline constexpr size_t kMaxAnnotationMessageChars = 65535;///< annotation message (64 KB)
inline constexpr size_t kMaxAnnotationTitleChars = 255;

enum class CheckRunOutcome {
  Published,     ///< created, and every annotation batch sent
  NoPermission,  ///< create answered 403/404 (e.g. a fork's read-only token): fall back
  Failed,        ///< any other failure (network, 422, a later batch failing)
};

struct CheckRunResult {
  CheckRunOutcome outcome = CheckRunOutcome::Failed;
  long long check_run_id = 0;       ///< GitHub's id once created
  std::string html_url;             ///< link to the check run, when GitHub sent one
  std::string conclusion;           ///< "success", "neutral" or "failure"
  size_t annotations_sent = 0;
  int requests = 0;                 ///< create + update calls made (retries not counted)
  /// One line for the user. NoPermission: "the token cannot write check runs — falling back to
  /// workflow annotations". Failed: describe_failure() of the failing call. Published: "".
  std::string message;
};

/// The check-run conclusion: "failure" when an unsuppressed finding is at or above `fail_on`
/// (nullopt = never fail), else "neutral" when any unsuppressed finding remains, else "success".
std::string check_run_conclusion(report::FindingsView findings,
                                 std::optional<review::dsl::Severity> fail_on);

/// `text` cut to at most `limit` bytes (so at most `limit` characters) on a UTF-8 boundary, with
/// a closing note saying it was cut; unchanged when it fits.
std::string cut_output(std::string_view text, size_t limit = kMaxOutputChars);

/// The annotations for `findings`, in order: suppressed findings and pull-request-level ones
/// (empty `file`) are left out. Each is {path, start_line, end_line, annotation_level, title,
/// message} plus start_column/end_column on single-line findings with a column. Line 0 (whole
/// file) becomes line 1. `title` is the rule title (no rule id); `message` joins problem, impact
/// and action.
std::vector<nlohmann::json> check_run_annotations(report::FindingsView findings);

/// Creates the check run `name` on `head_sha` of `repo` ("owner/name") as completed, with
/// `conclusion` from check_run_conclusion(), `output.summary` = `summary_markdown` and
/// `output.text` = `text` (omitted when empty; both cut by cut_output()), and the first 50
/// annotations; then PATCHes the rest 50 per request. Never throws.
CheckRunResult publish_check_run(Client& client, std::string_view repo, std::string_view head_sha,
                                 std::string_view name, report::FindingsView findings,
                                 std::string_view summary_markdown, std::string_view text,
                                 std::optional<review::dsl::Severity> fail_on);

}  // namespace review::github
