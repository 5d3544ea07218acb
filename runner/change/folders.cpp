#include "runner/change/folders.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/change/diff_parser.hpp"
#include "runner/change/process.hpp"

namespace fs = std::filesystem;

namespace review::change {

namespace {

bool safe_relative(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path))
    if (part == "..") return false;
  return true;
}

std::optional<std::string> read_under(const std::string& dir, const std::string& path) {
  if (!safe_relative(path)) return std::nullopt;
  fs::path p = fs::path(dir) / path;
  std::error_code ec;
  // A symbolic link is its target path (as git shows it), never followed; and a linked folder
  // on the way may not lead out of `dir`.
  if (fs::is_symlink(fs::symlink_status(p, ec))) {
    auto target = fs::read_symlink(p, ec);
    if (ec) return std::nullopt;
    return target.string();
  }
  fs::path parent = fs::weakly_canonical(p.parent_path(), ec);
  auto rel = parent.lexically_relative(fs::weakly_canonical(dir, ec));
  if (ec || (!rel.empty() && *rel.begin() == "..")) return std::nullopt;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

std::string canonical_folder(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(p, ec)) {
    std::error_code exists_ec;
    throw InputError{dir, fs::exists(dir, exists_ec) ? "not a folder" : "no such folder"};
  }
  return p.string();
}

/// "tmp/x/base/sub/f.py" with prefix "tmp/x/base" → "sub/f.py".
std::string relative_to(const std::string& path, const std::string& prefix) {
  if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
      path[prefix.size()] == '/')
    return path.substr(prefix.size() + 1);
  return path;
}

}  // namespace

FolderContent::FolderContent(std::string base_dir, std::string head_dir)
    : base_dir_(std::move(base_dir)), head_dir_(std::move(head_dir)) {}

std::optional<std::string> FolderContent::head(const std::string& path) {
  return read_under(head_dir_, path);
}

std::optional<std::string> FolderContent::base(const std::string& path) {
  return read_under(base_dir_, path);
}

std::vector<std::string> FolderContent::head_files() {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(head_dir_, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec))
      out.push_back(fs::relative(it->path(), head_dir_, ec).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Change load_folder_change(const std::string& base_dir, const std::string& head_dir, const DiffOptions& opts) {
  std::string base = canonical_folder(base_dir), head = canonical_folder(head_dir);
  // Run from "/" with relative paths so every path git prints has the same shape.
  std::string rel_base = base.substr(1), rel_head = head.substr(1);
  ProcessOptions po;
  po.cwd = "/";
  ProcessResult r;
  try {
    r = run_process({"git", "diff", "--no-index", "--no-ext-diff", "--no-color", "--no-textconv",
                     "-M", "--full-index", "--src-prefix=a/", "--dst-prefix=b/", "--",
                     rel_base.empty() ? "." : rel_base, rel_head.empty() ? "." : rel_head},
                    po);
  } catch (const InputError& e) {
    throw InputError{"git diff --no-index", e.message};
  }
  if (r.exit_code != 0 && r.exit_code != 1) {
    std::string err = r.err.substr(0, r.err.find('\n'));
    throw InputError{"git diff --no-index", "failed: " + excerpt(err, 200)};
  }
  Change c;
  c.files = parse_unified_diff(r.out, "git diff --no-index", opts);
  for (ChangedFile& f : c.files) {
    if (f.status == FileStatus::Deleted) {
      f.path = relative_to(f.path, rel_base);
      f.old_path = relative_to(f.old_path, rel_base);
    } else {
      f.path = relative_to(f.path, rel_head);
      if (!f.old_path.empty()) f.old_path = relative_to(f.old_path, rel_base);
    }
    if (f.skipped) c.notes.push_back(f.path + ": not analysed (" + f.skip_reason + ")");
  }
  c.content = std::make_shared<FolderContent>(base, head);
  return c;
}

}  // namespace review::change
