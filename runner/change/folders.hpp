// A change between two folders (tests, examples, local experiments): the diff of
// `git diff --no-index` with paths made relative to each folder, texts read from the folders.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/change/change.hpp"
#include "runner/change/diff_parser.hpp"

namespace review::change {

/// Texts read from two folders: head(path) = head_dir/path, base(path) = base_dir/path.
/// Paths are '/'-separated and relative; one containing ".." components answers nullopt. A
/// symbolic link answers the path it holds (as git shows a link), never the file it points to,
/// and a path through a linked folder that leads out of the folder answers nullopt.
class FolderContent : public ContentSource {
 public:
  FolderContent(std::string base_dir, std::string head_dir);
  /// Returns the bytes of head_dir/path, or nullopt when it is not a readable regular file.
  std::optional<std::string> head(const std::string& path) override;
  /// Returns the bytes of base_dir/path, or nullopt when it is not a readable regular file.
  std::optional<std::string> base(const std::string& path) override;
  /// Returns every regular file under head_dir (relative, '/'-separated, sorted), skipping
  /// `.git` folders.
  std::vector<std::string> head_files() override;

 private:
  std::string base_dir_, head_dir_;
};

/// Loads the change from folder `base_dir` to folder `head_dir` with
///   git diff --no-index --no-ext-diff --no-color --no-textconv -M --full-index
/// (run from "/" on the canonical folder paths, whose prefixes are then removed so every path is
/// relative to its folder). Renames and copies are detected as in git mode.
/// Throws InputError{dir, "no such folder"} when either does not exist, InputError{dir, "not a
/// folder"} when it is something else, and
/// InputError{"git diff --no-index", …} when git fails (exit code other than 0 or 1).
/// `opts.max_file_bytes` skips a file whose hunks are larger (DiffOptions).
Change load_folder_change(const std::string& base_dir, const std::string& head_dir, const DiffOptions& opts = {});

}  // namespace review::change
