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

const ChangedFile* Change::find(const std::string& path) const {
  for (const ChangedFile& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

}  // namespace review::change
