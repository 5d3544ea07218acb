#include "runner/analysis/clones.hpp"

#include "runner/analysis/hash_counts.hpp"
#include "runner/analysis/parallel_for.hpp"
#include "runner/analysis/radix_sort.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace review::analysis {
namespace {

using Kind = CloneToken::Kind;

constexpr size_t kSeed = 8;          // tokens per hashed window
constexpr size_t kMaxPostings = 64;  // windows more frequent than this are boilerplate
constexpr size_t kGram = 5;          // n-gram size for the similarity
constexpr uint32_t kMaxGap = 32;     // tokens between two shared windows of one chain, per side
constexpr size_t kMaxScores = 2048;  // similarity evaluations per block pair (worst-case bound)

const std::unordered_set<std::string_view>& keywords() {
  static const std::unordered_set<std::string_view> k = {
      // Python
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
      "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case",
      // C / C++
      "auto", "bool", "char", "const", "constexpr", "default", "do", "double", "enum", "float", "goto", "int",
      "long", "namespace", "new", "delete", "nullptr", "private", "protected", "public", "short", "signed",
      "sizeof", "static", "struct", "switch", "template", "this", "throw", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "true", "false", "inline", "__global__", "__device__",
      "__host__", "__shared__", "self"};
  return k;
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// A block's tokens without filler, with what the search needs per token.
// Self-contained: once made, the search never reads the block's CloneTokens (16 bytes each), so a
// caller may free them; this keeps 30 bytes per token, 22 once the seeds are made (exact freed).
struct Seq {
  std::vector<uint64_t> blank;  // hash with identifiers blanked (window seeds)
  std::vector<uint64_t> exact;  // hash with identifiers kept (seeds of frequent windows)
  std::vector<uint8_t> table;   // 1: on a constant-table line, 2: on a bracket-only line, 0: code
  std::vector<uint8_t> ident;   // 1: an identifier (abstracted when comparing), else 0
  std::vector<uint32_t> prev;   // identifiers: position of the previous same identifier, else kNone
  std::vector<uint32_t> next;   // identifiers: position of the next same identifier, else kNone
  std::vector<int> line;        // each token's line within its block
  size_t size() const { return line.size(); }
};

constexpr uint32_t kNone = UINT32_MAX;

// Per line: is it a constant-table line (a literal; only names, literals and , : = . - ( ) [ ] { };
// no call, no keyword), a bracket-only line, or code.
void classify_lines(const std::vector<const CloneToken*>& tok, std::string_view source, Seq& s) {
  static const std::string_view kTablePunct = ",:=.-()[]{}";
  static const std::string_view kBrackets = ",()[]{}";
  s.table.assign(tok.size(), 0);
  for (size_t i = 0; i < tok.size();) {
    size_t j = i;
    while (j < tok.size() && tok[j]->line == tok[i]->line) ++j;
    bool literal = false, table = true, brackets = true;
    for (size_t k = i; k < j; ++k) {
      const CloneToken& t = *tok[k];
      const std::string_view text = t.text(source);
      bool one_char = text.size() == 1;
      if (t.kind == Kind::Literal) literal = true;
      if (t.kind != Kind::Punct || !one_char || kBrackets.find(text[0]) == std::string_view::npos) brackets = false;
      if (t.kind == Kind::Keyword) table = false;
      if (t.kind == Kind::Punct && (!one_char || kTablePunct.find(text[0]) == std::string_view::npos)) table = false;
      if (t.kind == Kind::Punct && text == "(" && k > i &&
          (tok[k - 1]->kind == Kind::Identifier || tok[k - 1]->text(source) == ")" || tok[k - 1]->text(source) == "]"))
        table = false;  // a call
    }
    uint8_t v = brackets ? 2 : (table && literal) ? 1 : 0;
    for (size_t k = i; k < j; ++k) s.table[k] = v;
    i = j;
  }
}

// The token hashes of make_seq (blank, exact) of a block's tokens without filler: all that
// find_clones_with_existing's first pass reads of every file (its windows).
struct Hashes {
  std::vector<uint64_t> blank, exact;
};

Hashes token_hashes(const std::vector<CloneToken>& toks, std::string_view source) {
  Hashes h;
  std::hash<std::string_view> hs;
  const auto n = static_cast<size_t>(std::count_if(toks.begin(), toks.end(), [](const CloneToken& t) { return !t.filler; }));
  h.blank.reserve(n);
  h.exact.reserve(n);
  for (const auto& t : toks) {
    if (t.filler) continue;
    const bool ident = t.kind == Kind::Identifier;
    const uint64_t text = hs(t.text(source));
    h.blank.push_back(ident ? 0x5bd1e995ULL : text);
    h.exact.push_back(ident ? mix(0x5bd1e995ULL, text) : text);
  }
  return h;
}

Seq make_seq(const std::vector<CloneToken>& toks, std::string_view source) {
  Seq s;
  std::vector<const CloneToken*> tok;  // without filler
  for (const auto& t : toks)
    if (!t.filler) tok.push_back(&t);
  Hashes h = token_hashes(toks, source);
  s.blank = std::move(h.blank);
  s.exact = std::move(h.exact);
  s.ident.resize(tok.size());
  for (size_t i = 0; i < tok.size(); ++i) s.ident[i] = tok[i]->kind == Kind::Identifier ? 1 : 0;
  classify_lines(tok, source, s);
  // the previous occurrence of each identifier, once per block (grams() reads it per range)
  s.prev.assign(tok.size(), kNone);
  std::unordered_map<std::string_view, uint32_t> last;
  for (uint32_t i = 0; i < tok.size(); ++i) {
    if (!s.ident[i]) continue;
    auto [it, fresh] = last.try_emplace(tok[i]->text(source), i);
    if (!fresh) s.prev[i] = it->second;
    it->second = i;
  }
  s.next.assign(tok.size(), kNone);
  for (uint32_t i = 0; i < tok.size(); ++i)
    if (s.prev[i] != kNone) s.next[s.prev[i]] = i;
  s.line.resize(tok.size());
  for (size_t i = 0; i < tok.size(); ++i) s.line[i] = tok[i]->line;
  return s;
}

// Token 5-gram hashes of t[from,to), sorted; identifiers as the distance to their previous
// occurrence in the range (0 for the first).
std::vector<uint64_t> grams(const Seq& t, size_t from, size_t to) {
  std::vector<uint64_t> norm;
  norm.reserve(to - from);
  for (size_t i = from; i < to; ++i) {
    if (t.ident[i]) {
      // the previous occurrence in the block is in the range exactly when it is at `from` or later
      uint64_t d = t.prev[i] != kNone && t.prev[i] >= from ? i - t.prev[i] : 0;
      norm.push_back(0x9ddfea08eb382d69ULL * (d + 1));
    } else {
      norm.push_back(t.blank[i]);
    }
  }
  std::vector<uint64_t> g;
  if (norm.size() >= kGram) g.reserve(norm.size() - kGram + 1);
  for (size_t i = 0; i + kGram <= norm.size(); ++i) {
    uint64_t h = 0;
    for (size_t j = 0; j < kGram; ++j) h = mix(h, norm[i + j]);
    g.push_back(h);
  }
  std::sort(g.begin(), g.end());
  return g;
}

double dice(const Seq& a, size_t a0, size_t a1, const Seq& b, size_t b0, size_t b1) {
  auto ga = grams(a, a0, a1), gb = grams(b, b0, b1);
  size_t total = ga.size() + gb.size(), common = 0;
  for (size_t i = 0, j = 0; i < ga.size() && j < gb.size();) {
    if (ga[i] < gb[j]) ++i;
    else if (gb[j] < ga[i]) ++j;
    else ++common, ++i, ++j;
  }
  return total == 0 ? 0.0 : 2.0 * static_cast<double>(common) / static_cast<double>(total);
}

// A multiset of 5-gram hashes per side, kept up to date as the two ranges move, so that the
// Dice coefficient of a range pair next to the last one costs the tokens that moved, not the
// ranges' length (dice() above is the definition; the search used it per evaluation, which
// made trimming a long chain quadratic in its length). Same values as dice(), bit for bit:
// the same gram hashes, counted as multisets, and the same division.
class DiceState {
 public:
  DiceState(const Seq& a, const Seq& b) : side_{&a, &b} {}

  double at(size_t a0, size_t a1, size_t b0, size_t b1) {
    size_t want[2][2] = {{a0, a1}, {b0, b1}};
    size_t moved = 0, size = 0;
    for (int s = 0; s < 2; ++s) {
      moved += dist(from_[s], want[s][0]) + dist(to_[s], want[s][1]);
      size += want[s][1] - want[s][0];
    }
    if (!valid_ || moved > size) {
      reset();
      for (int s = 0; s < 2; ++s) {
        from_[s] = want[s][0];
        to_[s] = want[s][1];
        for (size_t p = from_[s]; p + kGram <= to_[s]; ++p) add(s, gram(s, p, from_[s]));
      }
      valid_ = true;
    } else {
      for (int s = 0; s < 2; ++s) move(s, want[s][0], want[s][1]);
    }
    size_t total = count_[0] + count_[1];
    return total == 0 ? 0.0 : 2.0 * static_cast<double>(common_) / static_cast<double>(total);
  }

 private:
  static size_t dist(size_t x, size_t y) { return x > y ? x - y : y - x; }

  // The gram at position p of side s when its range starts at `from` (grams() spelled per gram).
  uint64_t gram(int s, size_t p, size_t from) const {
    const Seq& t = *side_[s];
    uint64_t h = 0;
    for (size_t i = p; i < p + kGram; ++i) {
      uint64_t v;
      if (t.ident[i]) {
        uint64_t d = t.prev[i] != kNone && t.prev[i] >= from ? i - t.prev[i] : 0;
        v = 0x9ddfea08eb382d69ULL * (d + 1);
      } else {
        v = t.blank[i];
      }
      h = mix(h, v);
    }
    return h;
  }

  // Moves side s to [f2, t2): every gram whose presence or value changes is removed under the
  // old range and added under the new one. Presence changes at the two edges; a value changes
  // only where an identifier's previous occurrence enters or leaves the range (left edge).
  void move(int s, size_t f2, size_t t2) {
    size_t f = from_[s], t = to_[s];
    if (f == f2 && t == t2) return;
    touched_.clear();
    auto edge = [&](size_t x, size_t y) {  // grams starting in [x, y)
      for (size_t p = x; p < y; ++p) touched_.push_back(p);
    };
    if (t != t2) {  // grams ending in (min, max]
      size_t lo = std::min(t, t2), hi = std::max(t, t2);
      edge(lo + 1 >= kGram ? lo + 1 - kGram : 0, hi + 1 >= kGram ? hi + 1 - kGram : 0);
    }
    if (f != f2) {
      size_t lo = std::min(f, f2), hi = std::max(f, f2);
      edge(lo, hi);
      const auto& next = side_[s]->next;
      for (size_t i = lo; i < hi; ++i)
        if (next[i] != kNone && next[i] >= hi) {
          size_t j = next[i];
          edge(j + 1 >= kGram ? j + 1 - kGram : 0, j + 1);
        }
    }
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (size_t p : touched_) {
      if (p >= f && p + kGram <= t) remove(s, gram(s, p, f));
      if (p >= f2 && p + kGram <= t2) add(s, gram(s, p, f2));
    }
    from_[s] = f2;
    to_[s] = t2;
  }

  // Open addressing, linear probing; a slot's key is valid when its `used` mark is set.
  struct Slot {
    uint64_t key;
    int32_t n[2];
  };

  int32_t* counts(uint64_t key) {
    if ((used_count_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(key * 0x9e3779b97f4a7c15ULL >> 20) & mask;; i = (i + 1) & mask) {
      if (!used_[i]) {
        used_[i] = 1;
        used_list_.push_back(static_cast<uint32_t>(i));
        ++used_count_;
        slots_[i] = {key, {0, 0}};
        return slots_[i].n;
      }
      if (slots_[i].key == key) return slots_[i].n;
    }
  }
  void grow() {
    std::vector<Slot> old;
    std::vector<uint32_t> old_used;
    old.swap(slots_);
    old_used.swap(used_list_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
    used_.assign(slots_.size(), 0);
    used_count_ = 0;
    for (uint32_t i : old_used) {
      int32_t* n = counts(old[i].key);
      n[0] = old[i].n[0];
      n[1] = old[i].n[1];
    }
  }
  void reset() {
    for (uint32_t i : used_list_) used_[i] = 0;
    used_list_.clear();
    used_count_ = 0;
    count_[0] = count_[1] = 0;
    common_ = 0;
  }
  void add(int s, uint64_t g) {
    int32_t* n = counts(g);
    if (n[s] < n[1 - s]) ++common_;
    ++n[s];
    ++count_[s];
  }
  void remove(int s, uint64_t g) {
    int32_t* n = counts(g);
    --n[s];
    if (n[s] < n[1 - s]) --common_;
    --count_[s];
  }

  const Seq* side_[2];
  bool valid_ = false;
  size_t from_[2] = {0, 0}, to_[2] = {0, 0};
  size_t count_[2] = {0, 0}, common_ = 0;
  std::vector<Slot> slots_;
  std::vector<uint8_t> used_;
  std::vector<uint32_t> used_list_;
  size_t used_count_ = 0;
  std::vector<size_t> touched_;
};

// Lines [from, to] (0-based, inclusive) of `text`, joined by '\n': the text from the start of
// line `from` to the end of line `to` (or of the text); "" when `from` is past the last line.
std::string lines_of(const std::string& text, int from, int to) {
  if (from < 0 || to < from) return {};
  size_t start = 0;
  for (int line = 0; line < from; ++line) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) return {};
    start = nl + 1;
  }
  size_t end = start;
  for (int line = from;; ++line) {
    size_t nl = text.find('\n', end);
    if (nl == std::string::npos) return text.substr(start);
    if (line == to) return text.substr(start, nl - start);
    end = nl + 1;
  }
}

// A run of consecutive shared windows: tokens [a0,a1) of one block match [b0,b1) of the other.
struct Run {
  uint32_t a0, a1, b0, b1;
};

// One candidate: runs [lo,hi] of a chain, as token ranges of both sides.
struct Span {
  size_t a0, a1, b0, b1;
};

class PairSearch {
 public:
  PairSearch(const Seq& a, const Seq& b, const CloneOptions& o) : a_(a), b_(b), o_(o), dice_(a, b) {}

  // Both sides of x span at least min_lines lines and min_tokens tokens.
  bool big_enough(const Span& x) const {
    return lines(a_, x.a0, x.a1) >= o_.min_lines && lines(b_, x.b0, x.b1) >= o_.min_lines &&
           static_cast<int>(x.a1 - x.a0) >= o_.min_tokens && static_cast<int>(x.b1 - x.b0) >= o_.min_tokens;
  }

  // Searches runs [lo,hi] (inclusive) of one chain; appends every passing span.
  void search(const std::vector<Run>& runs, size_t lo, size_t hi, std::vector<std::pair<Span, double>>& out) {
    if (lo > hi || hi >= runs.size()) return;
    size_t l = lo, h = hi;
    bool found = false;
    while (big_enough(span(runs, l, h))) {  // shrinking only makes it smaller
      double s = score(span(runs, l, h));
      if (s >= o_.min_similarity && substantive(span(runs, l, h))) {
        out.emplace_back(span(runs, l, h), s);
        found = true;
        break;
      }
      if (l == h || budget_ == 0) break;
      double left = score(span(runs, l + 1, h)), right = score(span(runs, l, h - 1));
      if (left >= right) ++l;
      else --h;
    }
    if (!found) return;
    // what was dropped on either side may hold clones of its own
    if (l > lo) search(runs, lo, l - 1, out);
    if (h < hi) search(runs, h + 1, hi, out);
  }

 private:
  Span span(const std::vector<Run>& r, size_t lo, size_t hi) const {
    return {r[lo].a0, r[hi].a1, r[lo].b0, r[hi].b1};
  }
  int lines(const Seq& s, size_t from, size_t to) const { return s.line[to - 1] - s.line[from] + 1; }
  static bool mostly_code(const Seq& s, size_t from, size_t to) {
    size_t table = 0, code = 0;
    for (size_t i = from; i < to; ++i) {
      if (s.table[i] == 1) ++table;
      else if (s.table[i] == 0) ++code;
    }
    return code > 0 && table <= code;
  }
  bool substantive(const Span& x) const { return mostly_code(a_, x.a0, x.a1) && mostly_code(b_, x.b0, x.b1); }
  double score(const Span& x) {
    if (budget_ == 0) return 0.0;
    --budget_;
    // Dice can reach at most 2·min/(|A|+|B|) over ranges of these token lengths.
    double na = static_cast<double>(x.a1 - x.a0), nb = static_cast<double>(x.b1 - x.b0);
    if (2.0 * std::min(na, nb) / (na + nb) < o_.min_similarity) return 2.0 * std::min(na, nb) / (na + nb) - 1.0;
    return o_.recompute_similarity ? dice(a_, x.a0, x.a1, b_, x.b0, x.b1) : dice_.at(x.a0, x.a1, x.b0, x.b1);
  }

  const Seq& a_;
  const Seq& b_;
  const CloneOptions& o_;
  DiceState dice_;
  size_t budget_ = kMaxScores;
};

// Shared windows (sorted by position in a, then b) grouped into chains increasing in both
// positions with gaps of at most kMaxGap; each chain as its runs of consecutive windows. The
// runs of every chain share one pool, linked chain by chain: an audit makes millions of chains,
// most of one window, and a vector per chain was most of the time spent making them.
struct Chains {
  std::vector<Run> pool;
  std::vector<uint32_t> next;  ///< the chain's next run in pool, or kNone
  struct Chain {
    uint32_t first, last;  ///< first and last run in pool
  };
  std::vector<Chain> chains;  ///< in the order they were closed

  /// The chain's runs in order.
  std::vector<Run> runs(const Chain& c) const {
    std::vector<Run> out;
    for (uint32_t r = c.first; r != kNone; r = next[r]) out.push_back(pool[r]);
    return out;
  }
};

Chains chains_of(const std::vector<std::pair<uint32_t, uint32_t>>& m) {
  struct Open {
    Chains::Chain c;
    uint32_t la, lb;  // last window
  };
  Chains out;
  std::vector<Open> open;
  auto new_run = [&](uint32_t pa, uint32_t pb) {
    out.pool.push_back({pa, pa + static_cast<uint32_t>(kSeed), pb, pb + static_cast<uint32_t>(kSeed)});
    out.next.push_back(kNone);
    return static_cast<uint32_t>(out.pool.size() - 1);
  };
  for (auto [pa, pb] : m) {
    // close chains that cannot be extended any more
    for (size_t i = 0; i < open.size();) {
      if (open[i].la + kMaxGap < pa) {
        out.chains.push_back(open[i].c);
        open[i] = open.back();
        open.pop_back();
      } else {
        ++i;
      }
    }
    Open* best = nullptr;
    int64_t best_cost = 0;
    for (auto& c : open) {
      if (!(c.la < pa && c.lb < pb && pb - c.lb <= kMaxGap)) continue;
      int64_t diag = std::llabs((static_cast<int64_t>(pb) - pa) - (static_cast<int64_t>(c.lb) - c.la));
      int64_t cost = diag * 4 + (pa - c.la);
      if (!best || cost < best_cost) best = &c, best_cost = cost;
    }
    if (!best) {
      uint32_t r = new_run(pa, pb);
      open.push_back({{r, r}, pa, pb});
      continue;
    }
    Run& r = out.pool[best->c.last];
    if (pa == best->la + 1 && pb == best->lb + 1) {
      r.a1 = pa + static_cast<uint32_t>(kSeed);
      r.b1 = pb + static_cast<uint32_t>(kSeed);
    } else {
      uint32_t n = new_run(pa, pb);
      out.next[best->c.last] = n;
      best->c.last = n;
    }
    best->la = pa;
    best->lb = pb;
  }
  for (auto& c : open) out.chains.push_back(c.c);
  return out;
}

// Splits every run where its tokens in `a` change line, so that a chain can be trimmed a line
// at a time (a run of shared windows can hold a renaming that is consistent only in part).
std::vector<Run> by_line(const std::vector<Run>& runs, const Seq& a) {
  std::vector<Run> out;
  for (const Run& r : runs) {
    uint32_t from = r.a0;
    for (uint32_t i = r.a0 + 1; i < r.a1; ++i)
      if (a.line[i] != a.line[i - 1]) {
        out.push_back({from, i, r.b0 + (from - r.a0), r.b0 + (i - r.a0)});
        from = i;
      }
    out.push_back({from, r.a1, r.b0 + (from - r.a0), r.b1});
  }
  return out;
}

}  // namespace

std::vector<CloneToken> generic_clone_tokens(std::string_view s) {
  std::vector<CloneToken> out;
  if (s.size() > kMaxCloneText) return out;
  out.reserve(s.size() / 4);  // about one token per 4 bytes of code: no regrowth copies
  auto token = [&](size_t from, size_t to, Kind kind, int at) { out.push_back(CloneToken::of(from, to, kind, at)); };
  int line = 0;
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '#' || (c == '/' && i + 1 < n && s[i + 1] == '/')) {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i = std::min(n, i + 2);
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      std::string_view w = s.substr(i, j - i);
      // string prefixes: f"..", b'..', r"..": the literal follows
      if (j < n && (s[j] == '"' || s[j] == '\'') && w.size() <= 2) {
        i = j;
        continue;
      }
      token(i, j, keywords().count(w) ? Kind::Keyword : Kind::Identifier, line);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '_')) ++j;
      token(i, j, Kind::Literal, line);
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      int start_line = line;
      while (j < n && s[j] != c && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < n && s[j + 1] != '\n') ++j;
        ++j;
      }
      j = std::min(n, j + 1);
      if (j > 0 && s[j - 1] == '\n') --j;  // unterminated: the string ends with its line
      token(i, j, Kind::Literal, start_line);
      i = j;
      continue;
    }
    token(i, i + 1, Kind::Punct, line);
    ++i;
  }
  return out;
}

std::vector<ClonePair> find_clones(std::vector<CodeBlock> blocks, int min_lines, double min_similarity) {
  CloneOptions o;
  o.min_lines = min_lines;
  o.min_tokens = 0;
  o.min_similarity = min_similarity;
  return find_clones(std::move(blocks), o);
}

namespace {

// Windows known to be frequent over a larger corpus than the blocks searched (the existing code
// find_clones_with_existing left out): treated as if they occurred in more than kMaxPostings places.
struct Frequent {
  std::unordered_set<uint64_t> blank, exact;
};

uint64_t window_hash(const std::vector<uint64_t>& th, size_t i) {
  uint64_t h = 0;
  for (size_t j = 0; j < kSeed; ++j) h = mix(h, th[i + j]);
  return h;
}

// A one-hash Bloom filter of window hashes: `maybe` is true for every hash added, and false for
// most others (at 16 bits per hash added, about 6% of them pass). find_clones_with_existing's
// first pass asks it before its count maps for every window of every file, most of which share
// nothing with an added block: a bit in a table that stays in cache, not a hash-map probe.
class WindowFilter {
 public:
  explicit WindowFilter(size_t hashes) {
    while ((uint64_t{1} << bits_) < hashes * 16 && bits_ < 40) ++bits_;
    words_.assign((uint64_t{1} << bits_) / 64, 0);
  }
  void add(uint64_t h) {
    const uint64_t b = bit(h);
    words_[b >> 6] |= uint64_t{1} << (b & 63);
  }
  bool maybe(uint64_t h) const {
    const uint64_t b = bit(h);
    return (words_[b >> 6] >> (b & 63)) & 1;
  }

 private:
  // the top bits of h times the golden ratio (Fibonacci hashing): every bit of h counts
  uint64_t bit(uint64_t h) const { return (h * 0x9e3779b97f4a7c15ULL) >> (64 - bits_); }
  unsigned bits_ = 16;
  std::vector<uint64_t> words_;
};

// The shared windows of two blocks as search_clones keeps them: the block pair `pair` (block a
// in the high half of Key, block b in the low half) and the windows' positions pa, pb; sorted by
// (pair, pa, pb).
template <class K>
struct WideMatches {
  using Key = K;
  struct Match {
    Key pair;
    uint32_t pa, pb;
    bool operator<(const Match& o) const { return std::tie(pair, pa, pb) < std::tie(o.pair, o.pa, o.pb); }
  };
  static Match make(Key pair, uint32_t pa, uint32_t pb) { return {pair, pa, pb}; }
  static Key pair(const Match& m) { return m.pair; }
  static uint32_t pa(const Match& m) { return m.pa; }
  static uint32_t pb(const Match& m) { return m.pb; }
};

// The same in one integer when blocks and positions fit in 16 bits: its order is (pair, pa, pb).
struct PackedMatches {
  using Key = uint32_t;
  using Match = uint64_t;
  static Match make(Key pair, uint32_t pa, uint32_t pb) {
    return (static_cast<uint64_t>(pair) << 32) | (static_cast<uint64_t>(pa) << 16) | pb;
  }
  static Key pair(Match m) { return static_cast<Key>(m >> 32); }
  static uint32_t pa(Match m) { return static_cast<uint32_t>(m >> 16) & 0xffff; }
  static uint32_t pb(Match m) { return static_cast<uint32_t>(m) & 0xffff; }
};

std::vector<ClonePair> search_clones(std::vector<CodeBlock> blocks, const CloneOptions& opts, const Frequent* known) {
  std::vector<ClonePair> out;
  std::vector<Seq> seqs;
  seqs.reserve(blocks.size());
  for (auto& b : blocks) {
    if (b.tokens.empty()) b.tokens = generic_clone_tokens(b.text);
    seqs.push_back(make_seq(b.tokens, b.text));
    std::vector<CloneToken>().swap(b.tokens);  // read no more: the Seq holds what the search needs
  }

  // Seeds: (window hash, block, position), sorted by hash; a group is the windows of one hash.
  struct Seed {
    uint64_t hash;
    uint32_t block, pos;
  };
  auto window = window_hash;
  auto known_blank = [&](uint64_t h) { return known && known->blank.count(h) > 0; };
  auto known_exact = [&](uint64_t h) { return known && known->exact.count(h) > 0; };
  std::vector<Seed> seeds, exact_seeds;
  size_t windows = 0;
  for (const Seq& q : seqs) windows += q.blank.size() >= kSeed ? q.blank.size() - kSeed + 1 : 0;
  seeds.reserve(windows);
  for (uint32_t bi = 0; bi < seqs.size(); ++bi)
    for (size_t i = 0; i + kSeed <= seqs[bi].blank.size(); ++i)
      seeds.push_back({window(seqs[bi].blank, i), bi, static_cast<uint32_t>(i)});
  // made in (block, position) order: stable by hash is by (hash, block, position)
  radix_sort(seeds, [](const Seed& x) { return x.hash; });
  // A window too frequent with identifiers blanked (field declarations, kernel parameter lists)
  // is a seed only where its exact tokens, names included, are rare: exact copies of such code
  // are still found, renamed ones are not.
  for (size_t g = 0; g < seeds.size();) {
    size_t e = g;
    while (e < seeds.size() && seeds[e].hash == seeds[g].hash) ++e;
    if (e - g > kMaxPostings || known_blank(seeds[g].hash))
      for (size_t k = g; k < e; ++k)
        exact_seeds.push_back({window(seqs[seeds[k].block].exact, seeds[k].pos), seeds[k].block, seeds[k].pos});
    g = e;
  }
  // by hash; within a hash in the order of the groups above (a group's windows give the same
  // matches in any order: each pair is ordered by file below, and the matches are sorted)
  radix_sort(exact_seeds, [](const Seed& x) { return x.hash; });
  for (auto& q : seqs) std::vector<uint64_t>().swap(q.exact);  // read only by the seeds
  // each block's file as its rank among the distinct file names (byte order): the pair loop
  // below compares integers, not paths
  std::vector<uint32_t> file_rank(blocks.size());
  {
    std::vector<std::string_view> names;
    for (const auto& b : blocks) names.push_back(b.file);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (size_t i = 0; i < blocks.size(); ++i)
      file_rank[i] = static_cast<uint32_t>(std::lower_bound(names.begin(), names.end(), std::string_view(blocks[i].file)) - names.begin());
  }
  // shared window positions of two blocks, (block a, block b) packed in one Key first: sorted
  // once, each block pair's positions are one slice in (a, b) order. With at most 65,536 blocks
  // a pair fits in 32 bits and a match takes 12 bytes, not 16 (an audit of ROCm/ATOM made about
  // six million matches; they are its peak).
  //
  // With at most 65,536 tokens in every block too, a match is one 64-bit integer (pair, pa, pb
  // in 32, 16 and 16 bits): 8 bytes, and sorted as integers (an audit of ROCm/ATOM sorted six
  // million; its own time was the largest part of the search).
  auto search_pairs = [&]<class Codec>() {
    using Key = typename Codec::Key;
    using Match = typename Codec::Match;
    constexpr int kShift = static_cast<int>(sizeof(Key)) * 4;
    std::vector<Match> matches;
    // the groups that are seeds, their windows as (block, position) one group after the other
    // (most windows occur once and are no group: the seeds are freed before the matches are made,
    // an audit's peak was both at once); the pairs they can give bound what matches will hold
    // (reserved: pages never written cost nothing)
    struct Member {
      uint32_t block, pos;
    };
    std::vector<Member> members;
    std::vector<size_t> group_end;  // end of each group in members
    size_t bound = 0;
    for (const std::vector<Seed>* ss : {&seeds, &exact_seeds})
      for (size_t g = 0; g < ss->size();) {
        const auto& p = *ss;
        const bool exact = ss == &exact_seeds;
        size_t e = g;
        while (e < p.size() && p[e].hash == p[g].hash) ++e;
        bool any_added = false;
        for (size_t x = g; x < e && !any_added; ++x) any_added = blocks[p[x].block].added;
        if (e - g > 1 && any_added && e - g <= kMaxPostings && !(exact ? known_exact(p[g].hash) : known_blank(p[g].hash))) {
          for (size_t x = g; x < e; ++x) members.push_back({p[x].block, p[x].pos});
          group_end.push_back(members.size());
          bound += (e - g) * (e - g - 1) / 2;
        }
        g = e;
      }
    std::vector<Seed>().swap(seeds);
    std::vector<Seed>().swap(exact_seeds);
    // every shared window of two blocks of different files, one of them added: f(a, pa, b, pb)
    // with a's file before b's
    auto each_match = [&](auto&& f) {
      for (size_t gi = 0, g = 0; gi < group_end.size(); g = group_end[gi++]) {
        const size_t e = group_end[gi];
        for (size_t x = g; x < e; ++x)
          for (size_t y = x + 1; y < e; ++y) {
            uint32_t ba = members[x].block, pa = members[x].pos, bb = members[y].block, pb = members[y].pos;
            if (ba == bb || file_rank[ba] == file_rank[bb]) continue;
            if (!blocks[ba].added && !blocks[bb].added) continue;  // existing code with itself
            if (file_rank[ba] > file_rank[bb]) std::swap(ba, bb), std::swap(pa, pb);
            f(ba, pa, bb, pb);
          }
      }
    };
    auto make = [&](uint32_t ba, uint32_t pa, uint32_t bb, uint32_t pb) {
      return Codec::make(static_cast<Key>((static_cast<Key>(ba) << kShift) | bb), pa, pb);
    };
    if constexpr (std::is_same_v<Match, uint64_t>) {
      // Sorted without a second array of them (they are the search's peak): counted per block
      // a first, then each made straight into its block's slice (a counting sort by a, the
      // key's top bits), and each slice sorted on its own
      std::vector<size_t> at(blocks.size() + 1, 0);
      each_match([&](uint32_t ba, uint32_t, uint32_t, uint32_t) { ++at[ba + 1]; });
      for (size_t b = 0; b < blocks.size(); ++b) at[b + 1] += at[b];
      matches.resize(at.back());
      std::vector<size_t> next(at.begin(), at.end() - 1);
      each_match([&](uint32_t ba, uint32_t pa, uint32_t bb, uint32_t pb) { matches[next[ba]++] = make(ba, pa, bb, pb); });
      // a slice of more than kInPlace (a pull request's one large added file can hold nearly all
      // of them) is sorted in place: the radix sort's buffer would double the peak
      constexpr size_t kInPlace = size_t{1} << 18;
      std::vector<uint64_t> buffer;
      for (size_t b = 0; b < blocks.size(); ++b) {
        std::span<uint64_t> slice(matches.data() + at[b], at[b + 1] - at[b]);
        if (slice.size() > kInPlace) std::sort(slice.begin(), slice.end());
        else radix_sort(slice, [](uint64_t x) { return x; }, buffer);
      }
    } else {
      matches.reserve(bound);
      each_match([&](uint32_t ba, uint32_t pa, uint32_t bb, uint32_t pb) { matches.push_back(make(ba, pa, bb, pb)); });
      std::sort(matches.begin(), matches.end());
    }
    // the groups are read no more (the pairs below read the matches): freed before the search
    std::vector<Member>().swap(members);
    std::vector<size_t>().swap(group_end);
    std::vector<std::pair<uint32_t, uint32_t>> m;
    for (size_t g = 0; g < matches.size();) {
      const Key key = Codec::pair(matches[g]);
      const uint32_t ka = static_cast<uint32_t>(key >> kShift), kb = static_cast<uint32_t>(key & ((Key{1} << kShift) - 1));
      m.clear();
      for (; g < matches.size() && Codec::pair(matches[g]) == key; ++g) m.emplace_back(Codec::pa(matches[g]), Codec::pb(matches[g]));
      const Seq& sa = seqs[ka];
      const Seq& sb = seqs[kb];
      PairSearch search(sa, sb, opts);
      std::vector<std::pair<Span, double>> found;
      const Chains chains = chains_of(m);
      for (const Chains::Chain& c : chains.chains) {
        // a chain too small as a whole gives nothing (search() only shrinks it): most are one
        // window, and are not split into lines
        const Run &first = chains.pool[c.first], &last = chains.pool[c.last];
        if (!search.big_enough({first.a0, last.a1, first.b0, last.b1})) continue;
        auto runs = by_line(chains.runs(c), sa);
        search.search(runs, 0, runs.size() - 1, found);
      }
      // keep the maximal ones: drop a span whose both sides lie inside another's
      std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) {
        return (x.first.a1 - x.first.a0) + (x.first.b1 - x.first.b0) > (y.first.a1 - y.first.a0) + (y.first.b1 - y.first.b0);
      });
      std::vector<std::pair<Span, double>> kept;
      for (const auto& f : found) {
        bool inside = false;
        for (const auto& k : kept)
          if (k.first.a0 <= f.first.a0 && f.first.a1 <= k.first.a1 && k.first.b0 <= f.first.b0 && f.first.b1 <= k.first.b1)
            inside = true;
        if (!inside) kept.push_back(f);
      }
      const CodeBlock& A = blocks[ka];
      const CodeBlock& B = blocks[kb];
      for (const auto& [x, sim] : kept) {
        int la0 = sa.line[x.a0], la1 = sa.line[x.a1 - 1], lb0 = sb.line[x.b0], lb1 = sb.line[x.b1 - 1];
        ClonePair cp{{A.file, A.start_line + la0, A.start_line + la1, lines_of(A.text, la0, la1), {}, A.added},
                     {B.file, B.start_line + lb0, B.start_line + lb1, lines_of(B.text, lb0, lb1), {}, B.added},
                     sim, static_cast<int>(std::min(x.a1 - x.a0, x.b1 - x.b0))};
        out.push_back(std::move(cp));
      }
    }
  };
  size_t longest = 0;
  for (const Seq& q : seqs) longest = std::max(longest, q.size());
  if (blocks.size() <= 65536 && longest <= 65536) search_pairs.template operator()<PackedMatches>();
  else if (blocks.size() <= 65536) search_pairs.template operator()<WideMatches<uint32_t>>();
  else search_pairs.template operator()<WideMatches<uint64_t>>();
  std::sort(out.begin(), out.end(), [](const ClonePair& x, const ClonePair& y) {
    // similarity and tokens last: two pairs of the same lines (token spans that differ within
    // their first or last line) come out in one order whatever order the block pairs ran in
    return std::tie(x.a.file, x.a.start_line, x.a.end_line, x.b.file, x.b.start_line, x.b.end_line, x.similarity, x.tokens) <
           std::tie(y.a.file, y.a.start_line, y.a.end_line, y.b.file, y.b.start_line, y.b.end_line, y.similarity, y.tokens);
  });
  return out;
}

}  // namespace

std::vector<ClonePair> find_clones(std::vector<CodeBlock> blocks, const CloneOptions& opts) {
  return search_clones(std::move(blocks), opts, nullptr);
}

std::vector<ClonePair> find_clones_with_existing(std::vector<CodeBlock> added, size_t count,
                                                 const ExistingLoader& load, const CloneOptions& opts,
                                                 const std::function<bool(size_t)>& searched) {
  // Pass 1: how often each window of an added block occurs, added blocks and existing code
  // together (names blanked, and names kept), and which files hold which of them.
  HashCounts blank_count, exact_count;
  for (auto& b : added) {
    b.added = true;
    if (b.tokens.empty()) b.tokens = generic_clone_tokens(b.text);
    Hashes s = token_hashes(b.tokens, b.text);
    for (size_t i = 0; i + kSeed <= s.blank.size(); ++i) {
      ++blank_count[window_hash(s.blank, i)];
      ++exact_count[window_hash(s.exact, i)];
    }
  }
  if (added.empty()) return {};
  WindowFilter added_window(blank_count.size());
  blank_count.each([&](uint64_t h, uint32_t) { added_window.add(h); });
  // A window of existing code that is also a window of an added block.
  struct Hit {
    uint32_t block, pos;
    uint64_t blank, exact;
    bool has_exact;  // the window with names kept is also an added block's
  };
  std::vector<std::vector<Hit>> hits(count);
  // Each file on its own (on opts.jobs threads: the maps are only read here), then the counts in
  // file order: the same counts for any number of threads.
  auto scan = [&](size_t f) {
    auto loaded = load(f);
    for (uint32_t bi = 0; bi < loaded.size(); ++bi) {
      auto& b = loaded[bi];
      if (b.tokens.empty()) b.tokens = generic_clone_tokens(b.text);
      Hashes s = token_hashes(b.tokens, b.text);
      for (size_t i = 0; i + kSeed <= s.blank.size(); ++i) {
        uint64_t h = window_hash(s.blank, i);
        if (!added_window.maybe(h) || !blank_count.contains(h)) continue;  // shares nothing with an added block
        uint64_t e = window_hash(s.exact, i);
        hits[f].push_back({bi, static_cast<uint32_t>(i), h, e, exact_count.contains(e)});
      }
    }
  };
  parallel_for(count, opts.jobs, scan);  // the loader's exception, if any, reaches the caller
  for (const auto& file_hits : hits)
    for (const Hit& h : file_hits) {
      ++blank_count[h.blank];
      if (h.has_exact) ++exact_count[h.exact];
    }
  // Pass 2: the regions of existing code around windows that are seeds with an added block
  // (rare over the whole corpus, names blanked or kept), searched with the whole corpus's
  // frequencies. A chain's consecutive windows are at most kMaxGap tokens apart on each side,
  // so every clone's existing side lies in one region: a maximal run of such windows with gaps of
  // at most kMaxGap, widened to whole lines. A region keeps its file's tokens (never tokenized
  // on its own, so a docstring or bracket that starts before it reads the same).
  Frequent known;
  blank_count.each([&](uint64_t h, uint32_t n) {
    if (n > kMaxPostings) known.blank.insert(h);
  });
  exact_count.each([&](uint64_t h, uint32_t n) {
    if (n > kMaxPostings) known.exact.insert(h);
  });
  // the counts are read no more: freed before pass 2 and the search (their peak)
  blank_count = HashCounts();
  exact_count = HashCounts();
  std::vector<CodeBlock> blocks = std::move(added);
  for (size_t f = 0; f < count; ++f) {
    std::vector<std::pair<uint32_t, uint32_t>> seeds;  // (block, position), in order
    for (const Hit& h : hits[f])
      if (!known.blank.count(h.blank) || (h.has_exact && !known.exact.count(h.exact))) seeds.emplace_back(h.block, h.pos);
    hits[f] = {};
    if (seeds.empty() || (searched && !searched(f))) continue;
    auto loaded = load(f);
    for (size_t k = 0; k < seeds.size();) {
      uint32_t bi = seeds[k].first;
      if (bi >= loaded.size()) break;  // the loader gave fewer blocks than the first time
      CodeBlock& b = loaded[bi];
      if (b.tokens.empty()) b.tokens = generic_clone_tokens(b.text);
      std::vector<int> at_line;  // of each token without filler (the positions the seeds count)
      at_line.reserve(b.tokens.size());
      for (const auto& t : b.tokens)
        if (!t.filler) at_line.push_back(t.line);
      std::vector<std::pair<int, int>> lines;  // block-relative line ranges of the regions
      while (k < seeds.size() && seeds[k].first == bi) {
        size_t first = seeds[k].second, last = first;
        while (++k < seeds.size() && seeds[k].first == bi && seeds[k].second <= last + kMaxGap) last = seeds[k].second;
        if (last + kSeed > at_line.size()) break;  // the loader gave other tokens than the first time
        int l0 = at_line[first], l1 = at_line[last + kSeed - 1];
        if (!lines.empty() && l0 <= lines.back().second) lines.back().second = std::max(lines.back().second, l1);
        else lines.emplace_back(l0, l1);
      }
      // where each line of the block starts (one scan per block, not one per region)
      std::vector<size_t> starts{0};
      for (size_t i = 0; i < b.text.size(); ++i)
        if (b.text[i] == '\n') starts.push_back(i + 1);
      for (auto [l0, l1] : lines) {
        if (l1 - l0 + 1 < opts.min_lines || static_cast<size_t>(l0) >= starts.size()) continue;
        auto first = std::lower_bound(b.tokens.begin(), b.tokens.end(), l0,
                                      [](const CloneToken& t, int line) { return t.line < line; });
        auto last = first;
        while (last != b.tokens.end() && last->line <= l1) ++last;
        // the text of lines l0..l1, and on to the end of the last token (a string that starts on
        // line l1 and spans more): the tokens' offsets point into it
        const size_t from = starts[l0];
        size_t to = static_cast<size_t>(l1) + 1 < starts.size() ? starts[l1 + 1] - 1 : b.text.size();
        if (last != first) to = std::max(to, static_cast<size_t>((last - 1)->begin) + (last - 1)->size);
        CodeBlock r{b.file, b.start_line + l0, b.start_line + l1, b.text.substr(from, to - from), {}, false};
        r.tokens.reserve(static_cast<size_t>(last - first));
        for (auto t = first; t != last; ++t)
          r.tokens.push_back({static_cast<uint32_t>(t->begin - from), t->size, t->kind, t->line - l0, t->filler});
        blocks.push_back(std::move(r));
      }
    }
  }
  return search_clones(std::move(blocks), opts, &known);
}

}  // namespace review::analysis
