// Stable finding fingerprints: SARIF `partialFingerprints.primaryLocationLineHash` and baseline
// entries.
//
// A fingerprint is "<16 hex digits>:<occurrence>" (the shape GitHub code scanning computes for
// primaryLocationLineHash). The hash is 64-bit FNV-1a over the rule id, the label of the rule's
// `also` body when there is one (Finding::label), the path and the line text with all
// whitespace removed; the occurrence numbers findings with the same hash in line
// order, from 1. Line numbers are not hashed, so moving unrelated lines keeps every fingerprint.
// PR-level findings (no file) hash the problem text instead of a line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/finding.hpp"
#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns "<16 lower-case hex digits>" for one finding with line text `line_text`.
std::string line_hash(const review::dsl::Finding& finding, std::string_view line_text);

/// Returns the 1-based line `line` of `text` (without its line ending), or "" when out of range.
/// Scans `text` from the start: for many lines of one text, use LineIndex.
std::string line_of(std::string_view text, int line);

/// The lines of one text, found once: line(n) equals line_of(text, n) in constant time. Holds a
/// copy of the text, so a reporter that shows N findings of one file reads it once, not N times.
class LineIndex {
 public:
  explicit LineIndex(std::string text);
  /// Returns the 1-based line `n` without its line ending ("\n", "\r\n"); "" when out of range.
  std::string line(int n) const;
  /// Returns how many lines the text has (a final "\n" ends the last line; "" has none).
  std::size_t count() const { return starts_.size(); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::vector<std::size_t> starts_;  ///< byte offset of each line
};

/// Returns one fingerprint per finding, index for index. The line text is `Finding::snippet`,
/// or, when that is empty and `source` is set, the line read through `source`.
std::vector<std::string> fingerprints(FindingsView findings,
                                      const SourceLookup& source = {});

}  // namespace review::report
