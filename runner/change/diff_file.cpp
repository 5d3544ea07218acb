#include "runner/change/diff_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "runner/change/diff_parser.hpp"
#include "runner/change/git.hpp"
#include "runner/change/patch.hpp"

namespace review::change {

namespace {

/// Answers nullopt for everything: only the hunks are known.
class NoContent : public ContentSource {
 public:
  std::optional<std::string> head(const std::string&) override { return std::nullopt; }
  std::optional<std::string> base(const std::string&) override { return std::nullopt; }
  std::vector<std::string> head_files() override { return {}; }
};

/// Head from git; base = head with the patch reversed (computed once, at load).
class PatchedContent : public ContentSource {
 public:
  /// Rebuilds every changed file's base; appends a note per file whose patch does not match.
  PatchedContent(std::shared_ptr<GitContent> git, const std::vector<ChangedFile>& files,
                 std::vector<std::string>& notes)
      : git_(std::move(git)) {
    for (const ChangedFile& f : files) {
      if (f.status == FileStatus::Added || f.status == FileStatus::Renamed ||
          f.status == FileStatus::Copied)
        new_paths_.insert(f.path);
    }
    for (const ChangedFile& f : files) {
      if (f.status == FileStatus::Added) continue;
      bases_[f.old_path] = rebuild(f, notes);
    }
  }

  std::optional<std::string> head(const std::string& path) override { return git_->head(path); }

  std::optional<std::string> base(const std::string& path) override {
    auto it = bases_.find(path);
    if (it != bases_.end()) return it->second;
    if (new_paths_.count(path)) return std::nullopt;  // did not exist before the patch
    return git_->head(path);                          // untouched by the patch
  }

  std::vector<std::string> head_files() override { return git_->head_files(); }

 private:
  std::optional<std::string> rebuild(const ChangedFile& f, std::vector<std::string>& notes) {
    if (f.binary || f.skipped) return std::nullopt;
    auto mismatch = [&](const std::string& why) -> std::optional<std::string> {
      notes.push_back(f.path + ": the patch does not match the head revision (" + why +
                      "); its base text is unknown");
      return std::nullopt;
    };
    std::string head_text;
    if (f.status != FileStatus::Deleted) {
      std::optional<std::string> h = git_->head(f.path);
      if (!h) return mismatch("the file is missing there");
      head_text = std::move(*h);
    }
    try {
      return apply_patch(head_text, f, PatchDirection::Reverse, f.path);
    } catch (const InputError& e) {
      return mismatch(e.message);
    }
  }

  std::shared_ptr<GitContent> git_;
  std::map<std::string, std::optional<std::string>> bases_;
  std::set<std::string> new_paths_;
};

std::string read_all(const std::string& diff_path, std::size_t limit) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (diff_path != "-") {
    file.open(diff_path, std::ios::binary);
    if (!file) throw InputError{diff_path, std::string("cannot read: ") + std::strerror(errno)};
    in = &file;
  }
  // Read in pieces, never more than the limit (+1 byte to know it was passed).
  std::string out;
  char buf[1 << 16];
  while (*in) {
    in->read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in->gcount()));
    if (out.size() > limit)
      throw InputError{diff_path, "the diff is larger than " + std::to_string(limit) +
                                      " bytes; review it in parts (e.g. per folder) or raise --max-diff-size"};
  }
  if (in->bad()) throw InputError{diff_path, std::string("cannot read: ") + std::strerror(errno)};
  return out;
}

// True for blank text, and for text with a line a diff or a mail-formatted patch starts with
// ("diff ", "--- ", "+++ ", "@@ ", "From "): the parser found no file in it, but it is a diff.
bool looks_like_empty_patch(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return true;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    for (std::string_view start : {"diff ", "--- ", "+++ ", "@@ ", "From "})
      if (line.substr(0, start.size()) == start) return true;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return false;
}

}  // namespace

Change load_diff_change(const std::string& diff_path, std::optional<std::string> repo,
                        std::string head_rev, const DiffOptions& opts, std::size_t max_diff_bytes) {
  std::string text = read_all(diff_path, max_diff_bytes);
  Change c;
  c.files = parse_unified_diff(text, diff_path == "-" ? "<stdin>" : diff_path, opts);
  // Text with no file of a diff in it is not an empty change: reviewing it as "0 changed files"
  // would pass silently. Blank input (`git diff` with nothing changed) is an empty change, and so
  // is a patch whose headers are there without a file (`git format-patch` of an empty commit).
  if (c.files.empty() && !looks_like_empty_patch(text))
    throw InputError{diff_path == "-" ? "<stdin>" : diff_path,
                     "not a unified diff: no `diff --git`, `--- a/…` and `+++ b/…` or `@@` line; pass the output of "
                     "`git diff`, `gh pr diff` or `git format-patch`"};
  for (const ChangedFile& f : c.files)
    if (f.skipped) c.notes.push_back(f.path + ": not analysed (" + f.skip_reason + ")");
  if (!repo) {
    c.hunks_only = true;
    c.content = std::make_shared<NoContent>();
    c.notes.push_back(
        "no repository given: only the diff's hunk lines are known, not the full files (--repo DIR reads them from "
        "DIR's --head, default HEAD, when the diff is of that revision)");
    return c;
  }
  std::string head_sha = resolve_revision(*repo, head_rev.empty() ? "HEAD" : head_rev);
  c.pr.head_sha = head_sha;
  auto git = std::make_shared<GitContent>(*repo, head_sha, head_sha, false);
  c.content = std::make_shared<PatchedContent>(git, c.files, c.notes);
  return c;
}

}  // namespace review::change
