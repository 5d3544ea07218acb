// `summary`: the verdict card (RULES.md §4.1 V-CARD, §4.2) in GitHub-flavoured Markdown, for
// $GITHUB_STEP_SUMMARY and for a sticky PR comment. Written in `finish`.
//
//   ## ATOM PR #12 — Fix the fp8 path
//
//   **Fix the fp8 path**
//
//   🔴 BLOCK — 1 blocking concern, 2 warnings.
//
//   PR kinds: Kernel change, Config change
//
//   ### Blocking concerns
//
//   - 🔴 <problem> — <impact> **<action>** [verified] ([atom/config.py:12](…/blob/<sha>/atom/config.py#L12))
//
//   ### Non-blocking concerns and questions
//
//   #### <sub-area> (<n>)
//
//   - ⚠️ …
//
//   ### Strengths
//
//   - ✅ <problem of a finding whose rule is tagged "strength">
//
//   ### Recommended deeper passes
//
//   - **<sub-area>**: 2 warnings (1 inferred from patterns, to confirm by reading)
//
//   Notes:
//   - <RunInfo::notes entry>
//
//   _1 more finding was cut by limits._
//
//   <details><summary>Rule ids for suppression</summary> … </details>
//
// - Heading: "## [<summary_title> ]PR #<n> — <title>" (or "Review — <title>" / "Review" without
//   a PR number); the bold line is the PR title (the runner has no LLM summary sentence).
// - The sections follow the operational review report (seed 000 "Producing the report"): the
//   verdict with a one-sentence justification from the counts; blocking concerns ("None." when
//   there are none); the other findings grouped by sub-area, which is the rule's first tag
//   ("other" for an untagged rule), in the order the run's rules first carry each tag (the
//   checklist's own order; "other" last); strengths, the
//   findings of rules tagged "strength" (they never count as concerns); recommended deeper
//   passes, one per sub-area with a warning. With no finding the card is the heading and verdict.
// - One bullet per unsuppressed finding, block → warn → note (then by location), no rule ids in
//   the bullet; the link text is "path:line", linked to the head blob when RunInfo has both
//   repository_uri and head_sha. The findings section is dropped when empty.
// - Suppressed findings are counted in one line, never listed.
// - Every untrusted string goes through `escape_markdown` (escape.hpp): no HTML, no mention, no
//   broken Markdown; each part is cut to kSummaryMaxPart bytes.
// - Size: the card never exceeds ReportOptions::summary_max_bytes (default 1 MiB, GitHub's
//   step summary limit); bullets that do not fit are counted in "<n> more findings are not shown
//   here (size limit)".
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>

#include "runner/report/reporter.hpp"

namespace review::report {

inline constexpr std::size_t kSummaryMaxPart = 2000;  ///< bytes per problem/impact/action/title/note
inline constexpr std::size_t kSummaryMaxNotes = 50;   ///< RunInfo::notes entries shown
inline constexpr const char* kStrengthTag = "strength";  ///< a rule with this tag states a strength

/// True when `f`'s rule is tagged kStrengthTag: the finding states what the change does well.
/// The card and the text report count strengths apart from notes, whatever their severity.
bool is_strength(const dsl::Finding& f);

/// Returns a `summary` reporter writing to `out` (also the `markdown` format: the same card, for a
/// file kept next to the RFC or the change).
std::unique_ptr<Reporter> make_summary_reporter(std::ostream& out, const ReportOptions& options);

}  // namespace review::report
