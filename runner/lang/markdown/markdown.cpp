#include "runner/lang/markdown/markdown.hpp"

#include <optional>
#include <string>

namespace review::lang {

namespace {

std::string_view trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

size_t indent_of(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return i;
}

// ATX heading: returns (level, text) or nullopt.
std::optional<std::pair<int, std::string>> atx(std::string_view line) {
  size_t i = indent_of(line);
  if (i > 3) return std::nullopt;
  size_t n = 0;
  while (i + n < line.size() && line[i + n] == '#') ++n;
  if (n == 0 || n > 6) return std::nullopt;
  std::string_view rest = line.substr(i + n);
  if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') return std::nullopt;
  rest = trim(rest);
  // Closing sequence: trailing '#'s preceded by a space (or the whole rest).
  size_t k = rest.size();
  while (k > 0 && rest[k - 1] == '#') --k;
  if (k == 0) rest = {};
  else if (k < rest.size() && (rest[k - 1] == ' ' || rest[k - 1] == '\t')) rest = trim(rest.substr(0, k));
  return std::make_pair(static_cast<int>(n), std::string(rest));
}

// Setext underline: 1 for '=', 2 for '-', 0 otherwise.
int setext(std::string_view line) {
  if (indent_of(line) > 3) return 0;
  std::string_view t = trim(line);
  if (t.empty()) return 0;
  char c = t[0];
  if (c != '=' && c != '-') return 0;
  for (char x : t)
    if (x != c) return 0;
  return c == '=' ? 1 : 2;
}

// Fence opener: returns the fence char and length, or 0.
std::pair<char, size_t> fence(std::string_view line) {
  size_t i = indent_of(line);
  if (i > 3 || i >= line.size()) return {0, 0};
  char c = line[i];
  if (c != '`' && c != '~') return {0, 0};
  size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return {0, 0};
  return {c, n};
}

}  // namespace

std::vector<Section> markdown_sections(std::string_view text) {
  std::vector<std::string> lines = split_lines(text);
  struct Head { int line; int level; std::string text; int body_start; };
  std::vector<Head> heads;
  char fence_char = 0;
  size_t fence_len = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (fence_char) {
      auto [c, n] = fence(l);
      if (c == fence_char && n >= fence_len && trim(l).find_first_not_of(c) == std::string_view::npos)
        fence_char = 0;
      continue;
    }
    if (auto [c, n] = fence(l); c) {
      fence_char = c;
      fence_len = n;
      continue;
    }
    if (auto h = atx(l)) {
      heads.push_back({static_cast<int>(i) + 1, h->first, h->second, static_cast<int>(i) + 2});
      continue;
    }
    // Setext: this line is text and the next is an underline. A '---' under a blank line is a
    // thematic break, not a heading.
    if (i + 1 < lines.size() && !trim(l).empty() && indent_of(l) <= 3 && setext(lines[i + 1]) &&
        !fence(l).first && !setext(l)) {
      heads.push_back({static_cast<int>(i) + 1, setext(lines[i + 1]), std::string(trim(l)),
                       static_cast<int>(i) + 3});
      ++i;
    }
  }
  std::vector<Section> out;
  auto body = [&](int from, int to) {  // 1-based inclusive
    std::string s;
    for (int k = from; k <= to; ++k) {
      if (k > from) s += '\n';
      s += lines[k - 1];
    }
    return s;
  };
  int n = static_cast<int>(lines.size());
  int first = heads.empty() ? n + 1 : heads[0].line;
  bool pre_text = false;
  for (int k = 1; k < first; ++k)
    if (!trim(lines[k - 1]).empty()) pre_text = true;
  if (pre_text) out.push_back(Section{"", 0, body(1, first - 1), 1, first - 1});
  for (size_t h = 0; h < heads.size(); ++h) {
    int end = h + 1 < heads.size() ? heads[h + 1].line - 1 : n;
    Section s;
    s.heading = heads[h].text;
    s.level = heads[h].level;
    s.start = heads[h].line;
    s.end = end;
    s.text = heads[h].body_start <= end ? body(heads[h].body_start, end) : std::string();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace review::lang
