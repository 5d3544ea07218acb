// The change model: one pull request (or local change) as every later stage reads it.
//
// A `Change` holds the changed files with their hunks (every hunk line with its kind and its base
// and head line numbers), the pull-request metadata, and a `ContentSource` that returns the full
// head or base text of any file. Sources of a Change (runner/change/): git revisions, a unified
// diff file (with or without a repository), two folders, or an example snippet.
//
//   Change c = ...;
//   for (const ChangedFile& f : c.files)
//     for (int line : f.added_lines) ...;               // head line numbers of '+' lines
//   std::optional<std::string> text = c.content->head("atom/config.py");
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace review::change {

enum class FileStatus { Added, Modified, Deleted, Renamed, Copied };
enum class LineKind { Context, Added, Removed };

/// "added", "modified", "deleted", "renamed", "copied"
std::string_view status_name(FileStatus s);

/// One line of a hunk. `old_line` is 0 for added lines; `new_line` is 0 for removed lines.
struct DiffLine {
  LineKind kind = LineKind::Context;
  int old_line = 0;
  int new_line = 0;
  std::string text;            ///< without the leading ' ', '+', '-' and without the line ending
  bool no_newline_at_eof = false;  ///< followed by "\ No newline at end of file"
};

struct Hunk {
  int old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  std::string section;         ///< function context after the second "@@", may be empty
  std::vector<DiffLine> lines;
  /// `lines` is left empty although the hunk has lines: the hunk of a file added whole
  /// (DiffOptions::elide_added_files; `runner --all`, where every file of the tree is one), whose
  /// lines are head lines new_start .. new_start + new_count - 1, every one added, each the head
  /// text's line (ContentSource::head) without its line ending.
  bool elided = false;
};

/// A set of line numbers, stored as ascending runs of consecutive lines: a file added whole (every
/// file of an audit, `runner --all`) holds one run instead of one tree node per line (~40 bytes a
/// line as a std::set<int>; 0.9 M lines on ROCm/aiter). Reads like a sorted std::set<int>:
/// iteration in ascending order, count/contains and lower_bound in O(log runs), insert anywhere
/// (O(1) when appending in order, as the diff parser does; O(runs) otherwise).
class LineSet {
 public:
  /// Iterates the lines in ascending order (bidirectional; invalidated by insert and clear).
  class const_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = const int&;
    const_iterator() = default;
    const int& operator*() const { return line_; }
    const int* operator->() const { return &line_; }
    const_iterator& operator++();
    const_iterator operator++(int) { auto t = *this; ++*this; return t; }
    const_iterator& operator--();
    const_iterator operator--(int) { auto t = *this; --*this; return t; }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.run_ == b.run_ && a.line_ == b.line_;
    }

   private:
    friend class LineSet;
    const_iterator(const LineSet* s, std::size_t run, int line) : set_(s), run_(run), line_(line) {}
    const LineSet* set_ = nullptr;
    std::size_t run_ = 0;  // index into set_->runs_; runs_.size() at the end
    int line_ = 0;         // 0 at the end
  };
  using iterator = const_iterator;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using value_type = int;

  LineSet() = default;
  LineSet(std::initializer_list<int> lines);  // NOLINT: reads like a set literal

  /// Adds `line`; returns whether it was not in the set.
  bool insert(int line);
  void clear() { runs_.clear(), runs_.shrink_to_fit(), size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  bool contains(int line) const;
  std::size_t count(int line) const { return contains(line) ? 1 : 0; }
  /// The first line >= `line`, or end().
  const_iterator lower_bound(int line) const;
  const_iterator begin() const { return runs_.empty() ? end() : const_iterator(this, 0, runs_.front().first); }
  const_iterator end() const { return const_iterator(this, runs_.size(), 0); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  /// The runs [first, last] (inclusive), ascending, neither overlapping nor touching.
  const std::vector<std::pair<int, int>>& runs() const { return runs_; }

  friend bool operator==(const LineSet& a, const LineSet& b) { return a.runs_ == b.runs_; }
  friend bool operator==(const LineSet& a, const std::set<int>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  std::vector<std::pair<int, int>> runs_;
  std::size_t size_ = 0;
};

struct ChangedFile {
  std::string path;            ///< head path ('/'-separated, repository-relative); base path if deleted
  std::string old_path;        ///< base path (differs from path for renames/copies)
  FileStatus status = FileStatus::Modified;
  int similarity = 0;          ///< percent, for renames and copies
  std::string old_mode, new_mode;  ///< e.g. "100644"; empty when unchanged
  bool binary = false;
  bool submodule = false;      ///< a gitlink (mode 160000) pointer change
  bool skipped = false;        ///< not analysed; `skip_reason` says why (size limit, binary)
  std::string skip_reason;
  std::vector<Hunk> hunks;
  int added_count = 0, removed_count = 0;
  LineSet added_lines;         ///< head line numbers of added lines
  LineSet removed_lines;       ///< base line numbers of removed lines

  /// Returns the head line that stands at the place of base line `old_line` (1-based): the same
  /// line for an unchanged line, and for a removed line the first head line after the deleted
  /// block (one past the last head line when the deletion is at the end of the file). Lines
  /// outside every hunk are shifted by the line-count difference of the hunks before them
  /// (unified diff: a hunk with `new_count` 0 starts after head line `new_start`). Returns 0 for
  /// `old_line` < 1. Never throws.
  int head_line_of(int old_line) const;
};

/// Pull-request metadata. Every field may be empty for a local run.
struct PrMeta {
  int number = 0;
  std::string title, body, author, url;
  std::string base_ref, head_ref;  ///< branch names
  std::string base_sha, head_sha;
  std::vector<std::string> labels;
  int commits = 0;
  std::string repository;          ///< "owner/name"
};

/// Full file text at head and at base. Implementations: git objects (one long-lived
/// `git cat-file --batch`), two folders, in-memory (tests, examples).
class ContentSource {
 public:
  virtual ~ContentSource() = default;
  /// Returns the head text of `path`, or nullopt when it does not exist at head (or is unknown).
  virtual std::optional<std::string> head(const std::string& path) = 0;
  /// Returns the base text of `path`, or nullopt. `path` is the base-side path
  /// (ChangedFile::old_path for renamed and copied files).
  virtual std::optional<std::string> base(const std::string& path) = 0;
  /// Returns every file path at head (for `repo` scope), sorted. May be empty when unknown.
  virtual std::vector<std::string> head_files() = 0;
  /// Whether `path` has the same bytes at head and at base (both present), when the source can
  /// tell without comparing the texts (git: the same blob id in both trees); nullopt when it
  /// cannot tell. Lets a reader of both sides reuse what it made of one for the other. The
  /// default cannot tell.
  virtual std::optional<bool> same_text(const std::string& path) {
    (void)path;
    return std::nullopt;
  }
};

/// The head-path index behind Change::find: built on the first find, and built again when a
/// later find sees `files` resized or moved (a file added or removed). A copy starts empty.
/// Thread-safe (one mutex). Not part of the model: a Change's value is its other members.
class PathIndex {
 public:
  PathIndex() = default;
  PathIndex(const PathIndex&) {}
  PathIndex& operator=(const PathIndex&);
  /// The first file of `files` whose head path is `path`, or nullptr.
  const ChangedFile* find(const std::vector<ChangedFile>& files, const std::string& path) const;

 private:
  mutable std::mutex mu_;
  mutable const ChangedFile* data_ = nullptr;  // files.data() and files.size() when built
  mutable size_t size_ = 0;
  mutable std::unordered_map<std::string, size_t> at_;  // head path -> first position
};

struct Change {
  std::vector<ChangedFile> files;  ///< in diff order
  PrMeta pr;
  std::shared_ptr<ContentSource> content;  ///< never null; may answer nullopt for everything
  bool hunks_only = false;         ///< true when full texts are unknown (a diff without a repository)
  bool work_tree = false;          ///< the head side is the work tree, not a commit (git reviews)
  /// An audit (`--all`): the base is git's empty tree, so every file of the head is added and
  /// nothing is new to a change (the `pr` fact's `audit` field).
  bool audit = false;
  std::vector<std::string> notes;  ///< things the user should know (skipped files, fallbacks)

  /// Returns the changed file with head path `path` (the first, if several), or nullptr. Looked
  /// up in an index (PathIndex), not by a scan: a repository-wide reader asks once per file.
  /// Adding or removing files after a find is seen by the next find; editing the `path` of a
  /// file in place after a find is not (build the files first, then look them up).
  const ChangedFile* find(const std::string& path) const { return path_index_.find(files, path); }

 private:
  PathIndex path_index_;
};

/// An error reading an input (git, diff, event, file). `where` is "pr.diff:120" or a path;
/// the CLI prints "where: message" and exits 3.
struct InputError {
  std::string where;
  std::string message;
};

}  // namespace review::change
