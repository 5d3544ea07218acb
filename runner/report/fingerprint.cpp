#include "runner/report/fingerprint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>

#include "runner/report/filter.hpp"

namespace review::report {

using review::dsl::Finding;

namespace {

void fnv(std::uint64_t& h, std::string_view s) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  h ^= 0xFF;  // field separator (0xFF never occurs in UTF-8 text)
  h *= 0x100000001b3ULL;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

}  // namespace

std::string line_hash(const Finding& f, std::string_view line_text) {
  std::string normalised;
  normalised.reserve(line_text.size());
  for (char c : line_text)
    if (!is_space(c)) normalised += c;
  std::uint64_t h = 0xcbf29ce484222325ULL;
  fnv(h, f.rule_id);
  if (!f.label.empty()) fnv(h, f.label);  // two bodies of one rule at one place stay apart
  fnv(h, f.file);
  fnv(h, f.file.empty() ? std::string_view(f.problem) : std::string_view(normalised));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string line_of(std::string_view text, int line) {
  if (line < 1) return "";
  std::size_t pos = 0;
  for (int i = 1; i < line; ++i) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return "";
    ++pos;
  }
  if (pos >= text.size()) return "";
  std::size_t end = text.find('\n', pos);
  std::string_view l = text.substr(pos, end == std::string_view::npos ? text.size() - pos : end - pos);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return std::string(l);
}

LineIndex::LineIndex(std::string text) : text_(std::move(text)) {
  for (std::size_t pos = 0; pos < text_.size();) {
    starts_.push_back(pos);
    std::size_t nl = text_.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
}

std::string LineIndex::line(int n) const {
  if (n < 1 || static_cast<std::size_t>(n) > starts_.size()) return "";
  std::size_t a = starts_[static_cast<std::size_t>(n) - 1];
  std::size_t end = text_.find('\n', a);
  std::string_view l = std::string_view(text_).substr(a, end == std::string::npos ? text_.size() - a : end - a);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return std::string(l);
}

std::vector<std::string> fingerprints(FindingsView findings, const SourceLookup& source) {
  std::map<std::string, std::optional<LineIndex>> cache;
  std::vector<std::string> hashes(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    std::string text = f.snippet;
    if (text.empty() && source && !f.file.empty() && f.line > 0) {
      auto it = cache.find(f.file);
      if (it == cache.end()) {
        auto t = source(f.file);
        it = cache.emplace(f.file, t ? std::optional<LineIndex>(LineIndex(std::move(*t))) : std::nullopt).first;
      }
      if (it->second) text = it->second->line(f.line);
    }
    hashes[i] = line_hash(f, text);
  }
  // Occurrence index: order of findings sharing a hash, by location.
  std::vector<std::size_t> order(findings.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return location_less(findings[a], findings[b]);
  });
  std::map<std::string, int> seen;
  std::vector<std::string> out(findings.size());
  for (std::size_t i : order) out[i] = hashes[i] + ":" + std::to_string(++seen[hashes[i]]);
  return out;
}

}  // namespace review::report
