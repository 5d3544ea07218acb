// Choosing, ordering and de-duplicating findings before they reach reporters.
//
//   auto kept = apply_filter(std::move(findings), FilterMode::Added, diff_query(change));
//   kept = sort_and_dedup(std::move(kept));
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/finding.hpp"
#include "runner/change/change.hpp"

namespace review::report {

/// `--filter` modes (reviewdog's filter.Mode): Added = findings on added lines, findings the
/// change touches although their own line is unchanged (Finding::touches_change, e.g. a read made
/// unsafe by a changed branch), plus file-level (line 0) and PR-level (no file) ones; Context = findings inside a diff hunk (added or context
/// lines) plus file- and PR-level ones; File = findings in a changed file plus PR-level ones;
/// All = everything.
enum class FilterMode { Added, Context, File, All };

/// Returns the mode for "added", "context", "file" or "all"; nullopt for anything else.
std::optional<FilterMode> parse_filter_mode(std::string_view name);
/// "added", "context", "file", "all".
std::string_view filter_mode_name(FilterMode mode);

/// Questions the filter asks about the diff. Paths are repository-relative head paths; lines are
/// 1-based head line numbers. An empty callback answers false.
struct DiffQuery {
  std::function<bool(const std::string& path, int line)> is_added;    ///< a '+' line
  std::function<bool(const std::string& path, int line)> in_context;  ///< inside a hunk's head range
  std::function<bool(const std::string& path)> in_diff;               ///< a changed file
};

/// Returns a DiffQuery answering from `change.files` (hunks' head ranges, added_lines). The
/// result refers to `change`, which must outlive it.
DiffQuery diff_query(const review::change::Change& change);

/// Returns the findings of `findings` that `mode` keeps, in their original order.
std::vector<review::dsl::Finding> apply_filter(std::vector<review::dsl::Finding> findings,
                                               FilterMode mode, const DiffQuery& diff);

/// Location order: PR-level findings first, then by file, line, column, severity (most severe
/// first), rule id, problem. A strict weak ordering.
bool location_less(const review::dsl::Finding& a, const review::dsl::Finding& b);
/// Severity order: block, warn, note; ties broken by `location_less`.
bool severity_less(const review::dsl::Finding& a, const review::dsl::Finding& b);

/// Returns `findings` sorted by `location_less`, keeping the first of each group with the same
/// rule id, file, line and problem (a suppressed duplicate never hides an unsuppressed one).
std::vector<review::dsl::Finding> sort_and_dedup(std::vector<review::dsl::Finding> findings);

}  // namespace review::report
