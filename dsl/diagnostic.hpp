// Load-time diagnostics of the rule language: one struct, one formatter, one spelling helper.
//
// Every problem found while loading a ruleset (syntax, names, types, regexes, lints) becomes a
// `Diagnostic` carrying its position and the offending source line, so callers print it with
// `format_diagnostic` in the compiler style the tests compare verbatim:
//
//   atom.rules:12:9: error: unknown source `line`; did you mean `lines`?
//     for l in line(changed)
//              ^~~~
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace review::dsl {

struct Diagnostic {
  enum class Level { Error, Warning } level = Level::Error;
  std::string file;
  int line = 0;            ///< 1-based; 0 = no position (then no source line is printed)
  int column = 0;          ///< 1-based byte column
  std::string message;     ///< one sentence, no trailing period, no position
  std::string source_line; ///< the whole line, without its newline
  int caret_len = 1;       ///< bytes underlined (at least 1)
};

/// Returns "file:line:col: error: message\n  <source line>\n  ^~~~\n" ("warning:" for
/// warnings). Source lines longer than 160 bytes are shown as a window around the caret, with
/// "..." marking the cut. Without a position: "file: error: message\n".
std::string format_diagnostic(const Diagnostic& d);

/// Returns the edit distance between `a` and `b` (bytes): insertions, deletions, substitutions and
/// transpositions of two adjacent bytes count one each (optimal string alignment, the
/// Damerau-Levenshtein distance without edits of a transposed pair: `cdoe` is 1 from `code`).
int edit_distance(std::string_view a, std::string_view b);

/// Returns the candidate closest to `word` by edit distance when that distance is at most
/// max(1, |word|/3) (ninja's SpellcheckString idea), else "". Ties go to the earlier candidate.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

/// Returns "; did you mean `x`?" for closest_name(word, candidates), or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace review::dsl
