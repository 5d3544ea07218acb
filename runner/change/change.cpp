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

const ChangedFile* Change::find(const std::string& path) const {
  for (const ChangedFile& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

}  // namespace review::change
