// Near-duplicate code blocks across files, after identifier renaming (Type-2 clones). The
// algorithm is language-neutral: it reads tokens. A language may supply its own tokens (Python:
// runner/lang/python/tokens.hpp, which marks import statements and docstrings as filler);
// otherwise `generic_clone_tokens` splits C-like or Python-like text.
//
//   std::vector<CodeBlock> blocks = {{"a.py", 10, 15, text_a}, {"b.py", 40, 45, text_b}};
//   for (const auto& p : find_clones(blocks, CloneOptions{})) ...   // p.a / p.b: matched spans
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace review::analysis {

/// One token of a block, as the clone search sees it.
struct CloneToken {
  enum class Kind : uint8_t {
    Identifier,  ///< a name: abstracted (renamed) when comparing
    Keyword,     ///< a keyword of the language (`if`, `return`, `self`): compared by text
    Literal,     ///< number, string, and `None`/`True`/`False`-like constants: compared by text
    Punct,       ///< operator or bracket: compared by text
  };
  uint32_t begin = 0;   ///< offset of the token's first byte in the text it was made from
  uint32_t size = 0;    ///< its length in bytes (a token never holds a copy of its text: an audit
                        ///< tokenizes every file of the repository, twice for most)
  Kind kind = Kind::Punct;
  int line = 0;         ///< 0-based line within the block's text
  bool filler = false;  ///< part of an import statement or a docstring: never part of a clone

  /// The token's text: \a source is the text it was made from (its block's `text`).
  std::string_view text(std::string_view source) const { return source.substr(begin, size); }
  /// The token of bytes [from, to) of its text, on 0-based line \a line, not filler (a tokenizer
  /// keeps its texts under kMaxCloneText bytes, so the offsets fit).
  static CloneToken of(size_t from, size_t to, Kind kind, int line) {
    return {static_cast<uint32_t>(from), static_cast<uint32_t>(to - from), kind, line, false};
  }
};

/// The most bytes of text a tokenizer reads (CloneToken's offsets are 32-bit): a longer text gives
/// no tokens, so it matches nothing.
constexpr size_t kMaxCloneText = UINT32_MAX;

/// Tokens of `text` for a language with no tokenizer of its own: identifiers and keywords (Python
/// and C/C++ keywords keep their text, every other name is an Identifier), numbers, quoted
/// strings (one line), one-character operators; `#` and `//` line comments and `/* */` comments
/// dropped. Nothing is filler. Offsets are into `text`; none over kMaxCloneText bytes. Never
/// throws.
std::vector<CloneToken> generic_clone_tokens(std::string_view text);

/// A block of source lines: \a text holds lines start_line..end_line (1-based, inclusive) of
/// \a file, joined with '\n' (it may run on past end_line's end to the end of a token that starts
/// on end_line). \a tokens are its tokens, their offsets into \a text; when empty, find_clones
/// fills them with generic_clone_tokens(text). \a added is false for existing code (lines a change did not
/// add): a clone needs at least one added side, so two existing blocks are never compared.
struct CodeBlock {
  std::string file;
  int start_line = 0, end_line = 0;
  std::string text;
  std::vector<CloneToken> tokens;
  bool added = true;
};

/// Two matching regions; each side is the matched sub-range of an input block (its own
/// file, line range and text).
struct ClonePair {
  CodeBlock a, b;       ///< a.file < b.file (byte order); then by a.start_line. `tokens` are left
                        ///< empty; `added` is the input block's.
  double similarity;    ///< see find_clones
  int tokens = 0;       ///< non-filler tokens of the shorter side
};

/// The minimum size and similarity of a reported clone. The defaults are jscpd's (5 lines,
/// 50 tokens: `--min-lines`, `--min-tokens` of jscpd 5) and 0.8 similarity.
struct CloneOptions {
  int min_lines = 5;            ///< both sides span at least this many lines (first to last token)
  int min_tokens = 50;          ///< both sides hold at least this many non-filler tokens
  double min_similarity = 0.8;  ///< Dice similarity, see find_clones
  /// For tests: compute every similarity from scratch (the definition) instead of updating it
  /// as the compared ranges move; the results are the same either way.
  bool recompute_similarity = false;
  /// Threads for find_clones_with_existing's first pass (each file loaded, tokenized and its
  /// windows hashed on its own); above 1, the loader is called from that many threads at once and
  /// must be thread-safe. The results are the same for any number.
  unsigned jobs = 1;
};

/// Every maximal clone between blocks of two DIFFERENT files, at least one of them added
/// (CodeBlock::added), whose token sequences match after renaming identifiers.
///
/// Method: filler tokens (import statements, docstrings) are dropped. Windows of 8 tokens with
/// every identifier blanked are hashed; a window occurring in more than 64 places is hashed
/// again with its identifiers kept, and ignored if that is still that frequent (boilerplate:
/// this keeps the work near-linear in the total size). For each pair of blocks,
/// the shared windows are grouped into chains, increasing in both blocks with gaps of at most
/// 32 tokens on each side: every chain is a candidate, so one block pair can give several clones.
/// A chain is split into runs of consecutive shared windows, and those at line ends; when the
/// whole chain does not pass, runs are dropped from whichever end raises the similarity most
/// until the rest passes (at most 2,048 similarity evaluations per block pair; each costs the
/// tokens the two ranges moved by since the last one, not their length)
/// (a strong core inside a weaker chain is reported with its own span), and the dropped runs
/// are searched again on their own.
/// Similarity is the Dice coefficient 2|A∩B| / (|A|+|B|) over the multisets of token 5-grams of
/// the two ranges, with each identifier replaced by the distance to its previous occurrence in
/// its range (0 for the first; Baker's parameterized strings), so one name consistently
/// replaced by another scores 1.0, a block that swaps which variable goes where scores lower,
/// and one inserted name changes only the grams near it.
/// A clone is reported when both sides pass `opts` (lines, tokens, similarity) and on each side
/// at most half of the tokens sit on constant-table lines (a line with a literal and only
/// names, literals and `, : = . - ( ) [ ] { }`, no call, no keyword): tables of constants are
/// not clones. Pairs whose both spans lie inside another reported pair of the same two blocks
/// are left out. Never throws; empty or identifier-free blocks never match.
std::vector<ClonePair> find_clones(std::vector<CodeBlock> blocks, const CloneOptions& opts);

/// Loads the existing code of candidate file \a i (0 <= i < count) as blocks whose `added` is
/// false (`tokens` may be left empty); an empty vector when the file has none. May be called
/// twice for one file (see find_clones_with_existing); must return the same blocks each time.
using ExistingLoader = std::function<std::vector<CodeBlock>(size_t i)>;

/// The clones of find_clones over \a added plus the existing code of \a count files, without
/// holding all of that code at once. Pass 1 loads each file, hashes its windows and counts those
/// that also occur in an added block (so window frequencies are those of the whole corpus);
/// pass 2 loads again only the files holding a window that is a seed with an added block (rare
/// enough, the 64-place rule of find_clones), and searches only the regions around such windows
/// (runs of them at most 32 tokens apart, widened to whole lines; every clone's existing side
/// lies in one). The result equals find_clones(added + every loaded block), restricted to pairs
/// with an added side. Cost: one token scan of every file, then find_clones over the added
/// blocks and the regions; memory: the added blocks, one file at a time (per thread: opts.jobs)
/// and the regions.
/// Blocks of \a added get `added` true. Never throws unless \a load does.
///
/// \a searched, when set, names the files whose clones the caller keeps (a rule that reads only
/// the clones with a few files): pass 2 loads and searches only those for which it returns
/// true. The result is then the full result without the pairs whose existing side lies in
/// another file, exactly: pass 1 still reads every file, so a window's frequency is the whole
/// corpus's, and a pair depends only on its two blocks and those frequencies.
std::vector<ClonePair> find_clones_with_existing(std::vector<CodeBlock> added, size_t count,
                                                 const ExistingLoader& load, const CloneOptions& opts,
                                                 const std::function<bool(size_t)>& searched = {});

/// The same with the defaults of CloneOptions except `min_lines` and `min_similarity`, and no
/// token minimum (for callers that compare line ranges only).
std::vector<ClonePair> find_clones(std::vector<CodeBlock> blocks, int min_lines = 5, double min_similarity = 0.8);

}  // namespace review::analysis
