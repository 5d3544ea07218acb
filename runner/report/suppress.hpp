// Suppressions: inline `review: ignore[ID] reason` comments and baseline files.
//
// Inline forms (on the finding's line or the line above it, in the head text):
//   x = f()  # review: ignore[D1b] the buffer is zeroed by the caller
//   // review: ignore[B5a,B5b] kept for ABI compatibility
//   <!-- review: ignore[P1] numbers are in the linked issue -->
// A suppressed finding keeps `suppressed = true`, `suppression_kind` ("inSource" inline,
// "external" baseline; SARIF 2.1.0 §3.35.4) and `suppression_reason`. It stays in SARIF (with
// `suppressions`) and JSON, and never changes the verdict.
//
// A baseline file is a JSON array of fingerprints (runner/report/fingerprint.hpp):
//   ["1f0c2a9b8e7d6c5b:1", "..."]
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/finding.hpp"
#include "runner/change/change.hpp"
#include "runner/report/findings_view.hpp"
#include "runner/report/reporter.hpp"

namespace review::report {

/// One parsed `review: ignore[...]` comment.
struct IgnoreComment {
  std::vector<std::string> ids;  ///< rule ids as written, in order, without duplicates
  std::string reason;            ///< trimmed; empty when none was given
};

/// Returns the ignore comment in one source line, or nullopt when the line has none. The
/// comment starts at `#`, `//` or `<!--` followed by optional spaces and `review: ignore[`;
/// ids are separated by commas (spaces allowed); the reason runs to the end of the line, or to
/// `-->` for the HTML form. `review: ignore[]` (no id) and an unclosed `[` return nullopt.
std::optional<IgnoreComment> parse_ignore_comment(std::string_view line);

/// How inline suppressions are read.
struct InlineOptions {
  /// The comment text of head line `line` of `path` as the language's front end sees it
  /// (comment markers included), "" when the line has none; nullopt when the file's language has
  /// no comment facts (then the whole line is searched, as for plain text). With it, an ignore
  /// comment inside a string literal suppresses nothing.
  std::function<std::optional<std::string>(const std::string& path, int line)> comment;
  /// Whether head line `line` of `path` is an added line of the change. An ignore comment on
  /// an added line is one the change adds: the finding it suppresses has `suppressed_by_change`.
  std::function<bool(const std::string& path, int line)> added;
  /// Whether head file `path` may hold `word` as a whole identifier token; false lets
  /// unknown_ignore_ids skip reading a file added whole (an audit's every file) that cannot hold
  /// an ignore comment ("review" and "ignore" are tokens of each). Unset: every file may.
  std::function<bool(const std::string& path, std::string_view word)> may_hold;
  /// false (configuration `inline-suppressions: base-only`): an ignore comment the change adds
  /// suppresses nothing; the finding stays and a warning says why.
  bool honour_added = true;
};

/// Marks every unsuppressed finding whose rule id is named by an ignore comment on its line or
/// the line above (head text from `source`) as suppressed, kind "inSource". PR-level and
/// file-level (line 0) findings are never suppressed inline.
/// Returns one warning per ignore comment used without a reason, as
/// "path:line: ignore comment has no reason; say why the finding does not apply" (once per line),
/// and one per comment the change adds that was not honoured (`honour_added` false), as
/// "path:line: ignore comment added by this change was not honoured (inline-suppressions: base-only)".
std::vector<std::string> apply_inline_suppressions(std::vector<review::dsl::Finding>& findings,
                                                   const SourceLookup& source, const InlineOptions& options = {});

/// Returns one warning per rule id named by an ignore comment on an added line of `change` that no
/// rule in `known_ids` has (a typo suppresses nothing, and hides that it does), as
/// "path:line: `review: ignore[X]` names no rule of the loaded rulesets; did you mean `Y`? (it
/// suppresses nothing)" -- the suggestion only when an id is close (dsl::did_you_mean). Comments
/// are read as apply_inline_suppressions reads them (`options.comment` when it answers, else the
/// line). Never throws.
std::vector<std::string> unknown_ignore_ids(const review::change::Change& change,
                                            const std::vector<std::string>& known_ids,
                                            const InlineOptions& options = {});

/// Reads a baseline: a JSON array of fingerprint strings. `name` is used in errors.
/// Throws review::change::InputError{name, "not valid JSON: <parser message>"} or
/// {name, "expected a JSON array of fingerprint strings"}.
std::set<std::string> read_baseline(std::istream& in, const std::string& name);

/// Writes the fingerprints of the unsuppressed findings as a sorted JSON array (one per line).
void write_baseline(std::ostream& out, FindingsView findings,
                    const SourceLookup& source = {});

/// Returns the `baseline` reporter (`--format baseline=FILE`, `--write-baseline FILE`): it keeps
/// the findings it is given and, in `finish`, writes write_baseline(out, findings,
/// options.source) -- the file `--baseline` reads back. Like every output it goes through
/// report::FanOut, so a file that cannot be written is an output failure (exit 3), not a warning.
std::unique_ptr<Reporter> make_baseline_reporter(std::ostream& out, const ReportOptions& options);

/// Marks every unsuppressed finding whose fingerprint is in `baseline` as suppressed, kind
/// "external", reason "in baseline". Returns how many it marked.
int apply_baseline(std::vector<review::dsl::Finding>& findings, const std::set<std::string>& baseline,
                   const SourceLookup& source = {});

}  // namespace review::report
