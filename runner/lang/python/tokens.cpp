#include "runner/lang/python/tokens.hpp"

#include <array>
#include <cctype>
#include <string>
#include <unordered_set>

namespace review::lang::python {
namespace {

using analysis::CloneToken;
using Kind = CloneToken::Kind;

// ASCII classes (the C locale's, which the runner never changes): inline, not a call per byte.
bool ascii_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool name_start(unsigned char c) { return ascii_alpha(c) || c == '_' || c >= 0x80; }
bool name_char(unsigned char c) { return ascii_alpha(c) || ascii_digit(c) || c == '_' || c >= 0x80; }

// Python's keywords, and `self` and `cls`, by length: a name is compared with the few of its
// length, not hashed (the clone search reads every name of the repository, in an audit twice).
bool is_keyword(std::string_view w) {
  static constexpr std::string_view k2[] = {"as", "if", "in", "is", "or"};
  static constexpr std::string_view k3[] = {"and", "def", "del", "for", "not", "try", "cls"};
  static constexpr std::string_view k4[] = {"elif", "else", "from", "pass", "with", "self"};
  static constexpr std::string_view k5[] = {"async", "await", "break", "class", "raise", "while", "yield"};
  static constexpr std::string_view k6[] = {"assert", "except", "global", "import", "lambda", "return"};
  static constexpr std::string_view k7[] = {"finally"};
  static constexpr std::string_view k8[] = {"continue", "nonlocal"};
  auto any = [&](const auto& ks) {
    for (std::string_view k : ks)
      if (k == w) return true;
    return false;
  };
  switch (w.size()) {
    case 2: return any(k2);
    case 3: return any(k3);
    case 4: return any(k4);
    case 5: return any(k5);
    case 6: return any(k6);
    case 7: return any(k7);
    case 8: return any(k8);
    default: return false;
  }
}

// Operators, longest first within each leading character's candidates.
constexpr std::array<std::string_view, 25> kOps = {"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//",
                                                   "<<",  ">>",  "<=",  ">=",  "==",  "!=", "+=", "-=", "*=",
                                                   "/=",  "%=",  "&=",  "|=",  "^=",  "@=", "~"};
// The characters some operator of kOps starts with: any other punctuation is one character.
constexpr std::string_view kOpStarts = "*/><.-:=!+%&|^@~";

// Length of a string prefix (r, b, f, u, rb, br, fr, rf, any case) at s[i] followed by a quote; 0 if none.
size_t string_prefix(std::string_view s, size_t i) {
  for (size_t len = 1; len <= 2 && i + len < s.size(); ++len) {
    char q = s[i + len];
    if (q != '"' && q != '\'') continue;
    std::string p;
    for (size_t k = 0; k < len; ++k) p += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i + k])));
    static const std::unordered_set<std::string> ok = {"r", "b", "f", "u", "rb", "br", "fr", "rf"};
    return ok.count(p) ? len : 0;
  }
  return 0;
}

}  // namespace

std::vector<CloneToken> clone_tokens(std::string_view s) {
  std::vector<CloneToken> out;
  if (s.size() > analysis::kMaxCloneText) return out;
  out.reserve(s.size() / 4);  // about one token per 4 bytes of Python: no regrowth copies
  int line = 0, depth = 0;
  size_t stmt = 0;  // index in `out` of the current logical line's first token
  auto token = [&](size_t from, size_t to, Kind kind, int at) { out.push_back(CloneToken::of(from, to, kind, at)); };
  auto end_statement = [&]() {
    if (stmt < out.size()) {
      const std::string_view first = out[stmt].text(s);
      bool filler = out[stmt].kind == Kind::Keyword && (first == "import" || first == "from");
      if (!filler) {
        filler = true;
        for (size_t k = stmt; k < out.size() && filler; ++k) {
          const std::string_view t = out[k].text(s);
          filler = out[k].kind == Kind::Literal &&
                   (t[0] == '"' || t[0] == '\'' || std::isalpha(static_cast<unsigned char>(t[0])) != 0) &&
                   t != "None" && t != "True" && t != "False";
        }
      }
      if (filler)
        for (size_t k = stmt; k < out.size(); ++k) out[k].filler = true;
    }
    stmt = out.size();
  };
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      if (depth == 0) end_statement();
      continue;
    }
    if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {  // line join
      i += 1;
      if (s[i] == '\r') ++i;
      if (i < n && s[i] == '\n') ++i;
      ++line;
      continue;
    }
    if (ascii_space(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    size_t pre = name_start(static_cast<unsigned char>(c)) ? string_prefix(s, i) : 0;
    if (c == '"' || c == '\'' || pre > 0) {
      size_t j = i + pre;
      char q = s[j];
      bool triple = j + 2 < n && s[j + 1] == q && s[j + 2] == q;
      int start_line = line;
      j += triple ? 3 : 1;
      while (j < n) {
        if (s[j] == '\\' && j + 1 < n) {
          if (s[j + 1] == '\n') ++line;
          j += 2;
          continue;
        }
        if (s[j] == '\n') {
          if (!triple) break;  // unterminated: ends with its line
          ++line;
        }
        if (s[j] == q && (!triple || (j + 2 < n && s[j + 1] == q && s[j + 2] == q))) {
          j += triple ? 3 : 1;
          break;
        }
        ++j;
      }
      if (j > n) j = n;
      token(i, j, Kind::Literal, start_line);
      i = j;
      continue;
    }
    if (name_start(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && name_char(static_cast<unsigned char>(s[j]))) ++j;
      std::string_view w = s.substr(i, j - i);
      Kind k = (w == "None" || w == "True" || w == "False") ? Kind::Literal
               : is_keyword(w)                                ? Kind::Keyword
                                                              : Kind::Identifier;
      token(i, j, k, line);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i;
      while (j < n) {
        char d = s[j];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
          ++j;
        } else if ((d == '+' || d == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                   !(s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X'))) {
          ++j;
        } else {
          break;
        }
      }
      token(i, j, Kind::Literal, line);
      i = j;
      continue;
    }
    if (c == ';' && depth == 0) {
      ++i;
      end_statement();
      continue;
    }
    size_t len = 1;
    if (kOpStarts.find(c) != std::string_view::npos)
      for (auto op : kOps)
        if (op[0] == c && s.compare(i, op.size(), op) == 0) {
          len = op.size();
          break;
        }
    const std::string_view text = s.substr(i, len);
    if (text == "(" || text == "[" || text == "{") ++depth;
    if ((text == ")" || text == "]" || text == "}") && depth > 0) --depth;
    token(i, i + len, text == "..." ? Kind::Literal : Kind::Punct, line);
    i += len;
  }
  end_statement();
  return out;
}

}  // namespace review::lang::python
