#include "dsl/facts.hpp"

#include <cstddef>

namespace review::dsl {

const FieldSchema* SourceSchema::field(std::string_view n) const {
  for (const auto& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

std::string Scope::describe() const {
  switch (kind) {
    case Kind::Changed: return "changed";
    case Kind::Base: return "base";
    case Kind::Repo: return "repo";
    case Kind::Globs:
    case Kind::Files: {
      std::string out;
      for (const auto& p : patterns) {
        if (!out.empty()) out += ", ";
        out += "\"" + p + "\"";
      }
      return out;
    }
  }
  return {};
}

Value RulesetData::let(std::string_view name) const {
  for (const auto& [n, v] : lets)
    if (n == name) return v;
  return {};
}

namespace {

constexpr int kMaxGlobDepth = 64;  // nested {} alternatives / ** backtracking bound

// Matches pattern p against s. Iterative for '*', recursive only for '**' and '{}'.
bool match(std::string_view p, std::string_view s, int depth) {
  if (depth > kMaxGlobDepth) return false;
  size_t pi = 0, si = 0;
  size_t star_p = std::string_view::npos, star_s = 0;
  while (si < s.size() || pi < p.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (c == '*' && pi + 1 < p.size() && p[pi + 1] == '*') {
        // '**' : any number of whole segments. "a/**/b" also matches "a/b".
        size_t rest = pi + 2;
        bool slash_after = rest < p.size() && p[rest] == '/';
        std::string_view tail = p.substr(slash_after ? rest + 1 : rest);
        for (size_t k = si; k <= s.size(); ++k) {
          if ((k == si || s[k - 1] == '/' || !slash_after) && match(tail, s.substr(k), depth + 1))
            return true;
        }
        return false;
      }
      if (c == '{') {
        size_t close = p.find('}', pi);
        if (close == std::string_view::npos) return false;
        std::string_view body = p.substr(pi + 1, close - pi - 1);
        std::string_view after = p.substr(close + 1);
        size_t start = 0;
        while (true) {
          size_t comma = body.find(',', start);
          std::string alt(body.substr(start, comma == std::string_view::npos ? body.npos : comma - start));
          alt.append(after);
          if (match(alt, s.substr(si), depth + 1)) return true;
          if (comma == std::string_view::npos) break;
          start = comma + 1;
        }
        return false;
      }
      if (si < s.size()) {
        if (c == '*') {
          star_p = pi++;
          star_s = si;
          continue;
        }
        if (c == '?' && s[si] != '/') { ++pi; ++si; continue; }
        if (c == '[') {
          size_t close = p.find(']', pi + 1);
          if (close == std::string_view::npos) return false;
          bool neg = p[pi + 1] == '!' || p[pi + 1] == '^';
          bool hit = false;
          for (size_t k = pi + 1 + (neg ? 1 : 0); k < close; ++k) {
            if (k + 2 < close && p[k + 1] == '-') {
              if (s[si] >= p[k] && s[si] <= p[k + 2]) hit = true;
              k += 2;
            } else if (p[k] == s[si]) {
              hit = true;
            }
          }
          if (hit != neg && s[si] != '/') { pi = close + 1; ++si; continue; }
        } else if (c == s[si]) {
          ++pi; ++si; continue;
        }
      } else if (c == '*') {
        ++pi;
        continue;
      }
    }
    // mismatch: backtrack to the last single '*' if it may absorb one more non-'/' char
    if (star_p != std::string_view::npos && star_s < s.size() && s[star_s] != '/') {
      pi = star_p + 1;
      si = ++star_s;
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) { return match(pattern, path, 0); }

}  // namespace review::dsl
