// Unified-diff parser: the text of `git diff` / `gh pr diff` / `diff -u` to ChangedFile values.
//
// Follows the formats git writes (git-diff(1) "GENERATING PATCH TEXT WITH -P", "--full-index",
// "--binary") and GNU diff's unified format (diffutils manual, "Detailed Unified"):
//   diff --git a/x b/y            file header (paths may be C-quoted: "caf\303\251")
//   old mode / new mode / new file mode / deleted file mode / similarity index /
//   dissimilarity index / rename from / rename to / copy from / copy to / index A..B [mode]
//   Binary files a/x and b/y differ   |   GIT binary patch (+ literal/delta blocks)
//   --- a/x | --- /dev/null           +++ b/y | +++ /dev/null
//   @@ -A[,B] +C[,D] @@ [section]   then ' ', '+', '-' lines and "\ No newline at end of file"
// Text before the first file and after the last hunk of a file (mail headers of
// `git format-patch`, its "-- " signature) is ignored, as `git apply` does.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runner/change/change.hpp"

namespace review::change {

struct DiffOptions {
  /// A file whose hunk text (sum of line lengths, bytes) exceeds this is kept with its counts but
  /// `skipped` with a reason, and its hunks and line sets are dropped. Default 2 MiB.
  std::size_t max_file_bytes = std::size_t{2} * 1024 * 1024;
  /// For a file added whole (Added status), keep each hunk's header, counts and line sets but no
  /// DiffLine (Hunk::elided): for a caller whose ContentSource answers every head text, so a
  /// reader of the lines reads them there (an audit holds every line of the tree otherwise).
  bool elide_added_files = false;
};

/// Parses `text`, a unified diff (git or plain `diff -u`), into its files in diff order.
///
/// `name` names the input in errors ("pr.diff" gives "pr.diff:12"). Line endings "\n" and "\r\n"
/// are accepted; a CR before the LF is dropped from every line, so DiffLine::text never ends in
/// '\r'. Paths are '/'-separated with the "a/" and "b/" prefixes removed and C quoting undone
/// (octal escapes become the raw UTF-8 bytes). Binary files (both git shapes) are `binary` and
/// `skipped`; mode 160000 marks a `submodule` (its "Subproject commit" hunk is kept).
/// Status: "new file mode" or "--- /dev/null" → Added; "deleted file mode" or "+++ /dev/null" →
/// Deleted; "rename from" → Renamed; "copy from" → Copied; otherwise Modified.
///
/// Throws InputError{"name:LINE", message} (LINE 1-based) for:
///   - combined diffs ("diff --cc", "diff --combined", "@@@" headers): not supported;
///   - "hunk header expected, got \"…\"" after a "+++" line;
///   - "\"+++\" line expected after \"--- …\", got \"…\"";
///   - a malformed "@@" header or numbers out of range;
///   - a hunk that ends before its header's line counts are reached (truncated diff) or that has
///     more lines than the header says;
///   - a file name that is absolute, has a "." or ".." component or a NUL byte (at the file's
///     header line): "the file name \"../x\" has a \"..\" component; …".
/// Quoted text in messages is cut to 60 bytes (then "…") with control bytes shown as \xNN.
/// Never reads past `text`; linear in its size.
std::vector<ChangedFile> parse_unified_diff(std::string_view text, const std::string& name,
                                            const DiffOptions& opts = {});

/// Why `path` cannot name a file of a change: "an absolute path", "a NUL byte in the path",
/// "a \"..\" component" or "a \".\" component" (the last such component's); "" when it can.
/// parse_unified_diff refuses a file whose name has one (a diff names files inside the
/// repository). Never throws.
std::string path_problem(std::string_view path);

/// Undoes git's C quoting of a path: `"dir/caf\303\251 x.py"` → `dir/café x.py`.
/// Input without surrounding double quotes is returned unchanged. Escapes: \a \b \t \n \v \f \r
/// \" \\ and three-digit octal. Returns nullopt-free: a malformed escape is kept literally.
std::string unquote_c_path(std::string_view quoted);

/// Shows `text` for an error message: at most `max_bytes` bytes (then "…"), control and
/// non-UTF-8-safe bytes (< 0x20, 0x7f) as \xNN. Used by every change-model error.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);

}  // namespace review::change
