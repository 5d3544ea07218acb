// `text`: compiler-style output for a terminal (the local default).
//
//   atom/config.py:12:5: block[D1b]: `scale` may be unbound when `mode` is neither branch [verified]
//       impact: a NameError at the first call with mode="fp8"
//       action: Author must initialise `scale` before the if/elif
//      11 |     if mode == "bf16":
//      12 |         out = x * scale
//         |         ^
//      13 |     return out
//
//   1 block, 0 warn, 0 note — BLOCK
//
// One block per unsuppressed finding, in the order added (the CLI sorts by location), then a
// blank line and the closing line "<b> block, <w> warn, <n> note[, <s> suppressed] — <VERDICT>".
// The code frame shows the finding's line with a caret under its column (or under the first
// non-blank character when the column is unknown) and one line of context above and below,
// read through ReportOptions::source (or `Finding::snippet` alone when the source is unknown).
// Lines longer than 160 bytes are shown as a window around the column, cut with "…".
// Location forms: "path:line:col:", "path:line:" (column 0), "path:" (line 0), "(pull request):".
// Code and messages pass through `terminal_safe` (no escape sequences from the PR reach the
// terminal). Colour (ANSI SGR) only when ReportOptions::color.
#pragma once

#include <iosfwd>
#include <memory>

#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns a `text` reporter writing to `out`.
std::unique_ptr<Reporter> make_text_reporter(std::ostream& out, const ReportOptions& options);

}  // namespace review::report
