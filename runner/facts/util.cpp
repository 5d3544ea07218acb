#include "runner/facts/util.hpp"

#include <algorithm>
#include <cctype>

namespace review::facts::util {

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return std::string(s.substr(a, b - a + 1));
}

std::string normalise_function(std::string f) {
  if (f == "<module>") return {};
  constexpr std::string_view locals = ".<locals>.";
  std::string out;
  out.reserve(f.size());
  std::string_view rest = f;
  for (size_t p; (p = rest.find(locals)) != std::string_view::npos;) {
    out.append(rest.substr(0, p));
    out += '.';
    rest.remove_prefix(p + locals.size());
  }
  out.append(rest);
  return out;
}

std::string last_name(std::string_view s) {
  size_t paren = s.find('(');
  if (paren != std::string_view::npos) s = s.substr(0, paren);
  std::string t;
  int angle = 0;
  for (char c : s) {
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (angle == 0) t += c;
  }
  size_t cut = t.find_last_of(".:>");
  return cut == std::string::npos ? t : t.substr(cut + 1);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool analysable(const change::ChangedFile& f) { return !f.skipped && !f.binary && !f.submodule; }

std::string base_path(const change::ChangedFile& f) { return f.old_path.empty() ? f.path : f.old_path; }

bool any_glob(const std::vector<std::string>& globs, std::string_view path) {
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return dsl::glob_match(g, path); });
}

std::string line_text(const lang::LineViews& lines, int line) {
  return line >= 1 && line <= static_cast<int>(lines.size()) ? trim(lines[line - 1]) : std::string();
}

}  // namespace review::facts::util
