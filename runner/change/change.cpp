#include "runner/change/change.hpp"

namespace review::change {

std::string_view status_name(FileStatus s) {
  switch (s) {
    case FileStatus::Added: return "added";
    case FileStatus::Modified: return "modified";
    case FileStatus::Deleted: return "deleted";
    case FileStatus::Renamed: return "renamed";
    case FileStatus::Copied: return "copied";
  }
  return "modified";
}

LineSet::LineSet(std::initializer_list<int> lines) {
  for (int l : lines) insert(l);
}

bool LineSet::insert(int line) {
  if (runs_.empty() || line > runs_.back().second + 1) {  // past the end, not touching: a new run
    runs_.emplace_back(line, line);
  } else if (line == runs_.back().second + 1) {           // the next line in order
    runs_.back().second = line;
  } else {
    // the first run starting after `line`; the run before it may hold or touch `line`
    auto next = std::upper_bound(runs_.begin(), runs_.end(), line,
                                 [](int l, const std::pair<int, int>& r) { return l < r.first; });
    if (next != runs_.begin() && std::prev(next)->second >= line) return false;  // already in
    bool joins_prev = next != runs_.begin() && std::prev(next)->second + 1 == line;
    bool joins_next = next != runs_.end() && next->first == line + 1;
    if (joins_prev && joins_next) {
      std::prev(next)->second = next->second;
      runs_.erase(next);
    } else if (joins_prev) {
      std::prev(next)->second = line;
    } else if (joins_next) {
      next->first = line;
    } else {
      runs_.insert(next, {line, line});
    }
  }
  ++size_;
  return true;
}

bool LineSet::contains(int line) const {
  auto next = std::upper_bound(runs_.begin(), runs_.end(), line,
                               [](int l, const std::pair<int, int>& r) { return l < r.first; });
  return next != runs_.begin() && std::prev(next)->second >= line;
}

LineSet::const_iterator LineSet::lower_bound(int line) const {
  // the first run that ends at or after `line`
  auto it = std::lower_bound(runs_.begin(), runs_.end(), line,
                             [](const std::pair<int, int>& r, int l) { return r.second < l; });
  if (it == runs_.end()) return end();
  return const_iterator(this, static_cast<std::size_t>(it - runs_.begin()), std::max(line, it->first));
}

LineSet::const_iterator& LineSet::const_iterator::operator++() {
  const auto& runs = set_->runs_;
  if (line_ < runs[run_].second) {
    ++line_;
  } else if (++run_ < runs.size()) {
    line_ = runs[run_].first;
  } else {
    line_ = 0;
  }
  return *this;
}

LineSet::const_iterator& LineSet::const_iterator::operator--() {
  const auto& runs = set_->runs_;
  if (run_ < runs.size() && line_ > runs[run_].first) {
    --line_;
  } else {
    --run_;
    line_ = runs[run_].second;
  }
  return *this;
}

int ChangedFile::head_line_of(int old_line) const {
  if (old_line < 1) return 0;
  int delta = 0;  // head minus base line numbers after the hunks passed so far
  for (const Hunk& h : hunks) {
    int old_first = h.old_count == 0 ? h.old_start + 1 : h.old_start;  // -N,0: insertion after N
    if (old_line < old_first) break;
    int old_end = h.old_count == 0 ? h.old_start : h.old_start + h.old_count - 1;
    if (old_line <= old_end) {
      for (size_t i = 0; i < h.lines.size(); ++i) {
        const DiffLine& l = h.lines[i];
        if (l.kind == LineKind::Added || l.old_line != old_line) continue;
        if (l.kind == LineKind::Context) return l.new_line;
        for (size_t j = i + 1; j < h.lines.size(); ++j)  // removed: the next head line of the hunk
          if (h.lines[j].kind != LineKind::Removed) return h.lines[j].new_line;
        return h.new_count == 0 ? h.new_start + 1 : h.new_start + h.new_count;
      }
      break;  // a hunk whose lines do not carry the number (malformed): fall back to the shift
    }
    delta += h.new_count - h.old_count;
  }
  return old_line + delta;
}

PathIndex& PathIndex::operator=(const PathIndex&) {
  std::lock_guard lock(mu_);
  data_ = nullptr;
  size_ = 0;
  at_.clear();
  return *this;
}

const ChangedFile* PathIndex::find(const std::vector<ChangedFile>& files, const std::string& path) const {
  std::lock_guard lock(mu_);
  auto build = [&] {
    at_.clear();
    at_.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i) at_.try_emplace(files[i].path, i);
    data_ = files.data();
    size_ = files.size();
  };
  if (files.data() != data_ || files.size() != size_) build();
  auto it = at_.find(path);
  if (it != at_.end() && files[it->second].path != path) {  // a path edited in place: look again
    build();
    it = at_.find(path);
  }
  return it == at_.end() ? nullptr : &files[it->second];
}

}  // namespace review::change
