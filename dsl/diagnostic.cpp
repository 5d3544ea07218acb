#include "dsl/diagnostic.hpp"

#include <algorithm>

namespace review::dsl {

namespace {
constexpr size_t kMaxShownLine = 160;  // wider lines are cut to a window around the caret
constexpr size_t kWindowBefore = 60;
}  // namespace

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.file;
  if (d.line > 0) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
  out += d.level == Diagnostic::Level::Error ? ": error: " : ": warning: ";
  out += d.message;
  out += "\n";
  if (d.line <= 0) return out;
  std::string_view src = d.source_line;
  size_t col = d.column > 0 ? static_cast<size_t>(d.column - 1) : 0;
  size_t len = static_cast<size_t>(std::max(1, d.caret_len));
  std::string prefix;
  if (src.size() > kMaxShownLine) {
    size_t start = col > kWindowBefore ? col - kWindowBefore : 0;
    std::string_view win = src.substr(start, kMaxShownLine);
    std::string shown = (start > 0 ? "..." : "") + std::string(win) +
                        (start + win.size() < src.size() ? "..." : "");
    col = col - start + (start > 0 ? 3 : 0);
    len = std::min(len, kMaxShownLine);
    src = {};
    out += "  " + shown + "\n";
    out += "  " + std::string(col, ' ') + "^" + std::string(len - 1, '~') + "\n";
    return out;
  }
  out += "  " + std::string(src) + "\n  ";
  for (size_t i = 0; i < col; ++i) out += (i < src.size() && src[i] == '\t') ? '\t' : ' ';
  if (col + len > src.size() && src.size() > col) len = src.size() - col;
  out += "^" + std::string(len > 0 ? len - 1 : 0, '~') + "\n";
  return out;
}

int edit_distance(std::string_view a, std::string_view b) {
  // optimal string alignment: three rows, the one before the previous for a transposition
  std::vector<int> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

std::string closest_name(std::string_view word, const std::vector<std::string>& candidates) {
  int limit = std::max<int>(1, static_cast<int>(word.size()) / 3);
  int best = limit + 1;
  std::string out;
  for (const auto& c : candidates) {
    if (c == word) continue;
    int d = edit_distance(word, c);
    if (d < best) {
      best = d;
      out = c;
    }
  }
  return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string c = closest_name(word, candidates);
  return c.empty() ? std::string() : "; did you mean `" + c + "`?";
}

}  // namespace review::dsl
