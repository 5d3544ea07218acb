// `github`: GitHub Actions workflow commands, one annotation per unsuppressed finding, written in
// `finish` (the fallback when no token may write check runs).
//
//   ::error file=atom/config.py,line=12,endLine=12,col=5,title=Variable possibly unbound::<message>
//
// - Command per severity (RULES.md §0.1): block → error, warn → warning, note → notice.
// - Properties: file, line and endLine (when line > 0), col (when column > 0), title = the rule's
//   plain-words title (never a rule id; RULES.md §4.2 V-NOCODE). PR-level findings carry only
//   title. Property values are escaped with `escape_command_property`, the message with
//   `escape_command_data` (escape.hpp), after invalid UTF-8 is replaced; every command is one line.
// - Message: "<problem>\nImpact: <impact>\nAction: <action> [verified|inferred]", each part cut to
//   kGithubMaxPart bytes.
// - Limits (GitHub: 10 error, 10 warning and 10 notice annotations per step, 50 per job): most
//   severe first, at most kGithubMaxPerLevel of each command; when any finding is left out, one
//   slot of the notices is kept for a closing notice: "<n> more findings are not shown as
//   annotations; see the job summary or the code scanning results."
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>

#include "runner/report/reporter.hpp"

namespace review::report {

inline constexpr std::size_t kGithubMaxPerLevel = 10;  ///< annotations per level per step
inline constexpr std::size_t kGithubMaxPerJob = 50;    ///< annotations per job (never reached: 3 × 10)
inline constexpr std::size_t kGithubMaxPart = 1000;    ///< bytes of problem/impact/action shown

/// Returns a `github` reporter writing to `out`.
std::unique_ptr<Reporter> make_github_reporter(std::ostream& out, const ReportOptions& options);

}  // namespace review::report
