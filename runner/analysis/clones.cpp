#include "runner/analysis/clones.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace review::analysis {
namespace {

constexpr size_t kSeed = 8;         // tokens per hashed window
constexpr size_t kMaxPostings = 64; // windows more frequent than this are boilerplate
constexpr size_t kGram = 5;         // n-gram size for the similarity

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

struct Tok {
  std::string text;  // literal/operator/keyword text, or the identifier itself
  bool ident = false;
  int line = 0;      // 0-based line within the block
};

std::vector<Tok> tokenize(std::string_view s) {
  std::vector<Tok> out;
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
      out.push_back({std::string(w), !keywords().count(w), line});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '_')) ++j;
      out.push_back({std::string(s.substr(i, j - i)), false, line});
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      int start_line = line;
      while (j < n && s[j] != c) {
        if (s[j] == '\\') ++j;
        else if (s[j] == '\n') ++line;
        ++j;
      }
      j = std::min(n, j + 1);
      out.push_back({std::string(s.substr(i, j - i)), false, start_line});
      i = j;
      continue;
    }
    out.push_back({std::string(1, c), false, line});
    ++i;
  }
  return out;
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// Dice coefficient over the multisets of token kGram-grams of a[a0,a1) and b[b0,b1), each
// range alpha-renamed on its own. Grams are hashed to 64 bits and compared as sorted vectors.
double dice(const std::vector<Tok>& a, size_t a0, size_t a1, const std::vector<Tok>& b, size_t b0, size_t b1) {
  auto grams = [](const std::vector<Tok>& t, size_t from, size_t to) {
    std::unordered_map<std::string_view, uint64_t> names;
    std::hash<std::string_view> hs;
    std::vector<uint64_t> norm;
    norm.reserve(to - from);
    for (size_t i = from; i < to; ++i) {
      if (t[i].ident) {
        auto [it, fresh] = names.try_emplace(t[i].text, names.size());
        norm.push_back(0x9ddfea08eb382d69ULL * (it->second + 1));
      } else {
        norm.push_back(hs(t[i].text));
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
  };
  auto ga = grams(a, a0, a1), gb = grams(b, b0, b1);
  size_t total = ga.size() + gb.size(), common = 0;
  for (size_t i = 0, j = 0; i < ga.size() && j < gb.size();) {
    if (ga[i] < gb[j]) ++i;
    else if (gb[j] < ga[i]) ++j;
    else ++common, ++i, ++j;
  }
  return total == 0 ? 0.0 : 2.0 * static_cast<double>(common) / static_cast<double>(total);
}

std::string lines_of(const std::string& text, int from, int to) {  // 0-based inclusive
  std::string out;
  int line = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      if (line >= from && line <= to) {
        if (!out.empty() || line > from) out += '\n';
        out.append(text, start, i - start);
      }
      ++line;
      start = i + 1;
    }
  }
  return out;
}

}  // namespace

std::vector<ClonePair> find_clones(const std::vector<CodeBlock>& blocks, int min_lines, double min_similarity) {
  std::vector<ClonePair> out;
  std::vector<std::vector<Tok>> toks;
  toks.reserve(blocks.size());
  for (auto& b : blocks) toks.push_back(tokenize(b.text));

  std::unordered_map<uint64_t, std::vector<std::pair<uint32_t, uint32_t>>> postings;
  std::hash<std::string> hs;
  for (uint32_t bi = 0; bi < toks.size(); ++bi) {
    auto& t = toks[bi];
    std::vector<uint64_t> th(t.size());
    for (size_t i = 0; i < t.size(); ++i) th[i] = t[i].ident ? 0x5bd1e995ULL : hs(t[i].text);
    for (size_t i = 0; i + kSeed <= t.size(); ++i) {
      uint64_t h = 0;
      for (size_t j = 0; j < kSeed; ++j) h = mix(h, th[i + j]);
      auto& p = postings[h];
      if (p.size() <= kMaxPostings) p.emplace_back(bi, static_cast<uint32_t>(i));
    }
  }
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
  // (block a << 32 | block b) -> shared window positions
  std::unordered_map<uint64_t, std::vector<std::pair<uint32_t, uint32_t>>> matches;
  for (auto& [h, p] : postings) {
    if (p.size() > kMaxPostings) continue;
    for (size_t x = 0; x < p.size(); ++x)
      for (size_t y = x + 1; y < p.size(); ++y) {
        auto [ba, pa] = p[x];
        auto [bb, pb] = p[y];
        if (ba == bb || file_rank[ba] == file_rank[bb]) continue;
        if (file_rank[ba] > file_rank[bb]) std::swap(ba, bb), std::swap(pa, pb);
        matches[(static_cast<uint64_t>(ba) << 32) | bb].emplace_back(pa, pb);
      }
  }
  for (auto& entry : matches) {
    const uint64_t pair_key = entry.first;
    auto& m = entry.second;  // a plain reference: a lambda below captures it (C++17 forbids capturing a structured binding)
    const std::pair<uint32_t, uint32_t> key{static_cast<uint32_t>(pair_key >> 32),
                                            static_cast<uint32_t>(pair_key & 0xffffffffu)};
    std::sort(m.begin(), m.end());
    // longest chain increasing in both positions (patience LIS on the second)
    std::vector<size_t> tails, prev(m.size(), SIZE_MAX);
    for (size_t i = 0; i < m.size(); ++i) {
      auto it = std::lower_bound(tails.begin(), tails.end(), m[i].second,
                                 [&](size_t idx, uint32_t v) { return m[idx].second < v; });
      size_t pos = static_cast<size_t>(it - tails.begin());
      if (pos > 0) prev[i] = tails[pos - 1];
      if (it == tails.end()) tails.push_back(i);
      else *it = i;
      // equal first positions must not chain: lower_bound on strictly smaller second suffices
    }
    if (tails.empty()) continue;
    size_t last = tails.back(), first = last;
    while (prev[first] != SIZE_MAX) first = prev[first];
    auto& ta = toks[key.first];
    auto& tb = toks[key.second];
    size_t a0 = m[first].first, a1 = m[last].first + kSeed, b0 = m[first].second, b1 = m[last].second + kSeed;
    int la0 = ta[a0].line, la1 = ta[a1 - 1].line, lb0 = tb[b0].line, lb1 = tb[b1 - 1].line;
    if (la1 - la0 + 1 < min_lines || lb1 - lb0 + 1 < min_lines) continue;
    // Dice can reach at most 2·min/(|A|+|B|) over ranges of these token lengths.
    double na = static_cast<double>(a1 - a0), nb = static_cast<double>(b1 - b0);
    if (2.0 * std::min(na, nb) / (na + nb) < min_similarity) continue;
    double sim = dice(ta, a0, a1, tb, b0, b1);
    if (sim < min_similarity) continue;
    const CodeBlock& A = blocks[key.first];
    const CodeBlock& B = blocks[key.second];
    ClonePair cp{{A.file, A.start_line + la0, A.start_line + la1, lines_of(A.text, la0, la1)},
                 {B.file, B.start_line + lb0, B.start_line + lb1, lines_of(B.text, lb0, lb1)},
                 sim};
    out.push_back(std::move(cp));
  }
  std::sort(out.begin(), out.end(), [](const ClonePair& x, const ClonePair& y) {
    return std::tie(x.a.file, x.a.start_line, x.b.file, x.b.start_line) <
           std::tie(y.a.file, y.a.start_line, y.b.file, y.b.start_line);
  });
  return out;
}

}  // namespace review::analysis
