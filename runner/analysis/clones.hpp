// Near-duplicate code blocks across files, after identifier renaming.
#pragma once

#include <string>
#include <vector>

namespace review::analysis {

/// A block of source lines: \a text holds lines start_line..end_line (1-based, inclusive) of
/// \a file, joined with '\n'.
struct CodeBlock {
  std::string file;
  int start_line = 0, end_line = 0;
  std::string text;
};

/// Two matching regions; each side is the matched sub-range of an input block (its own
/// file, line range and text).
struct ClonePair {
  CodeBlock a, b;     ///< a.file < b.file (byte order); then by a.start_line
  double similarity;  ///< see find_clones
};

/// Pairs of blocks from two DIFFERENT files whose token sequences match after renaming
/// identifiers.
///
/// Tokens: identifiers/keywords, numbers, string literals, operators (one character each);
/// `#`/`//` line comments and `/* */` comments are dropped. Python and C/C++ keywords keep their
/// text; every other identifier is renamed.
/// Method: windows of 8 tokens with every identifier blanked are hashed; windows occurring in
/// more than 64 places are boilerplate and ignored (this keeps the work near-linear in the
/// total size). For each pair of blocks sharing windows, the longest chain of shared windows
/// increasing in both blocks gives the matched range of each side. Similarity is the Dice
/// coefficient 2|A∩B| / (|A|+|B|) over the multisets of token 5-grams of the two ranges,
/// after consistent alpha-renaming within each range (the k-th distinct identifier becomes
/// `$k`), so one name consistently replaced by another scores 1.0, while a block that
/// swaps which variable goes where scores lower.
/// A pair is reported when both matched ranges span at least \a min_lines lines and the
/// similarity is at least \a min_similarity. Each pair of input blocks yields at most one pair.
/// Never throws; empty or identifier-free blocks never match.
std::vector<ClonePair> find_clones(const std::vector<CodeBlock>& blocks, int min_lines = 5,
                                   double min_similarity = 0.8);

}  // namespace review::analysis
