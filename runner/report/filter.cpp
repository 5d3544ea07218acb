#include "runner/report/filter.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace review::report {

using review::dsl::Finding;

std::optional<FilterMode> parse_filter_mode(std::string_view name) {
  if (name == "added") return FilterMode::Added;
  if (name == "context") return FilterMode::Context;
  if (name == "file") return FilterMode::File;
  if (name == "all") return FilterMode::All;
  return std::nullopt;
}

std::string_view filter_mode_name(FilterMode mode) {
  switch (mode) {
    case FilterMode::Added: return "added";
    case FilterMode::Context: return "context";
    case FilterMode::File: return "file";
    case FilterMode::All: return "all";
  }
  return "all";
}

DiffQuery diff_query(const review::change::Change& change) {
  auto find = [&change](const std::string& path) -> const review::change::ChangedFile* {
    for (const auto& f : change.files)
      if (f.path == path) return &f;
    return nullptr;
  };
  DiffQuery q;
  q.is_added = [find](const std::string& path, int line) {
    const auto* f = find(path);
    return f && f->added_lines.count(line) > 0;
  };
  q.in_context = [find](const std::string& path, int line) {
    const auto* f = find(path);
    if (!f) return false;
    for (const auto& h : f->hunks)
      if (line >= h.new_start && line < h.new_start + std::max(h.new_count, 1)) return true;
    return false;
  };
  q.in_diff = [find](const std::string& path) { return find(path) != nullptr; };
  return q;
}

std::vector<Finding> apply_filter(std::vector<Finding> findings, FilterMode mode,
                                  const DiffQuery& diff) {
  if (mode == FilterMode::All) return findings;
  auto keep = [&](const Finding& f) {
    if (f.file.empty()) return true;  // PR-level
    switch (mode) {
      case FilterMode::Added:
        return f.line == 0 || f.touches_change || (diff.is_added && diff.is_added(f.file, f.line));
      case FilterMode::Context:
        return f.line == 0 || (diff.in_context && diff.in_context(f.file, f.line));
      case FilterMode::File:
        return diff.in_diff && diff.in_diff(f.file);
      case FilterMode::All:
        return true;
    }
    return true;
  };
  std::vector<Finding> out;
  out.reserve(findings.size());
  for (auto& f : findings)
    if (keep(f)) out.push_back(std::move(f));
  return out;
}

namespace {
auto location_key(const Finding& f) {
  return std::make_tuple(!f.file.empty(), std::cref(f.file), f.line, f.column,
                         -static_cast<int>(f.severity), std::cref(f.rule_id), std::cref(f.problem));
}
}  // namespace

bool location_less(const Finding& a, const Finding& b) { return location_key(a) < location_key(b); }

bool severity_less(const Finding& a, const Finding& b) {
  if (a.severity != b.severity) return a.severity > b.severity;
  return location_less(a, b);
}

std::vector<Finding> sort_and_dedup(std::vector<Finding> findings) {
  std::stable_sort(findings.begin(), findings.end(), location_less);
  std::map<std::tuple<std::string, std::string, int, std::string>, std::size_t> seen;
  std::vector<Finding> out;
  out.reserve(findings.size());
  for (auto& f : findings) {
    auto [it, fresh] = seen.try_emplace(std::make_tuple(f.rule_id, f.file, f.line, f.problem),
                                        out.size());
    if (fresh) out.push_back(std::move(f));
    else if (out[it->second].suppressed && !f.suppressed) out[it->second] = std::move(f);
  }
  return out;
}

}  // namespace review::report
