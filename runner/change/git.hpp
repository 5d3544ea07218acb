// A change read from a git repository: the diff between two revisions (or a revision and the work
// tree) and the full texts from git objects through one long-lived `git cat-file --batch`.
// git always runs as a subprocess with an argument vector, never through a shell.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runner/change/change.hpp"
#include "runner/change/process.hpp"

namespace review::change {

struct GitOptions {
  std::string repo = ".";   ///< the repository folder (any folder inside a work tree)
  std::string base;         ///< base revision; empty = default_base()
  std::string head;         ///< head revision; empty = "HEAD"; ignored when work_tree is set
  bool work_tree = false;   ///< head = the work tree: uncommitted and untracked files included
  bool all = false;         ///< audit mode: base = git's empty tree (`base` must be empty), so every
                            ///< file of the head is Added and every line an added line
  std::size_t max_file_bytes = std::size_t{2} * 1024 * 1024;  ///< see DiffOptions
  /// Files this run writes (its report files, as given on the command line: relative to the
  /// current folder, or absolute). With `work_tree`, an untracked file that is one of them
  /// (the same file on disk, std::filesystem::equivalent) is left out of the change and of
  /// head_files(), with a note: a report of an earlier run is not the author's code. So is an
  /// untracked JSON, SARIF or rdjson report that names `review-action` as its tool (an earlier
  /// run's, written under another name).
  std::vector<std::string> own_outputs;
};

/// Head and base texts from git objects at two fixed commits (never the work tree unless
/// `work_tree`, in which case head texts are read from the files in `repo`). One
/// `git cat-file --batch` process, started on first use, serves every request. Thread-safe.
/// `base(path)` takes the base-side path (ChangedFile::old_path for renames).
/// Each side's tree is listed once, on its first read (`git ls-tree -r -z --full-tree REV`),
/// and a listed blob is asked by its object id: asked as `REV:PATH`, git would read every tree
/// on the path again for each file (on a 5,490-file tree, 0.79 s of git's CPU instead of
/// 0.28 s). A path the listing does not hold (absent, or spelt another way) is asked as
/// `REV:PATH`, so the answers are those of `REV:PATH` in every case.
class GitContent : public ContentSource {
 public:
  /// `base_sha`/`head_sha` are full commit ids; `head_sha` is unused when `work_tree`.
  /// `left_out`: repository-relative paths head_files() does not list (work tree only: the
  /// untracked report files of GitOptions::own_outputs, and earlier runs' reports).
  GitContent(std::string repo, std::string base_sha, std::string head_sha, bool work_tree,
             std::vector<std::string> left_out = {});
  /// Returns the blob `head_sha:path` (or the work-tree file), nullopt when absent or not a blob.
  std::optional<std::string> head(const std::string& path) override;
  /// Returns the blob `base_sha:path`, nullopt when absent or not a blob.
  std::optional<std::string> base(const std::string& path) override;
  /// Returns `git ls-tree -r --name-only head_sha` (work tree: tracked and untracked, not ignored,
  /// files present on disk, but for the constructor's `left_out`), sorted. Throws InputError{repo, …} when git fails.
  std::vector<std::string> head_files() override;
  /// From the two trees' listings (listed on first use): true when `path` is the same blob in
  /// both, false when it is a blob in only one of them or two different blobs; nullopt with a
  /// work-tree head, when a listing failed, or when neither tree holds `path` as a blob.
  std::optional<bool> same_text(const std::string& path) override;
  /// Hands over head texts already read (path -> bytes of the blob `head_sha:path`, as
  /// audit_tree_files returns them): head(path) answers each once from here, giving the bytes up,
  /// and asks git again after that. Ignored with a work-tree head.
  void keep(std::unordered_map<std::string, std::string> head_texts);
  /// Number of cat-file requests so far (tests check that one process serves them all).
  int requests() const;
  /// Of requests(), those asked as `REV:PATH` because the side's listing did not hold the path
  /// (tests check that a listed file is read by its object id).
  int named_requests() const;

 private:
  /// One side's tree: path -> blob object id ("" for an entry that is not a blob: a submodule).
  struct Listing {
    bool listed = false;  ///< ls-tree ran (when it failed, `ids` stays empty: every path is asked by name)
    std::unordered_map<std::string, std::string> ids;
  };
  std::optional<std::string> blob(const std::string& rev, const std::string& path, Listing& listing);
  /// Runs `git ls-tree` for `rev` into `listing` unless it ran already. Caller holds mutex_.
  void list(const std::string& rev, Listing& listing);
  bool listing_failed_ = false;  ///< an ls-tree failed: same_text cannot tell

  std::string repo_, base_sha_, head_sha_;
  bool work_tree_;
  std::vector<std::string> left_out_;
  mutable std::mutex mutex_;
  std::unique_ptr<CatFileBatch> batch_;
  Listing head_listing_, base_listing_;
  std::unordered_map<std::string, std::string> kept_;  ///< keep(): head texts not asked for yet
  int named_requests_ = 0;
};

/// Runs `git -C repo ARGS…` with an argument vector (never through a shell), `input` on its
/// standard input, and returns its exit code and output. Throws InputError{repo, "cannot run
/// git: …"} when git cannot be started.
ProcessResult run_git(const std::string& repo, std::vector<std::string> args, std::string input = {});

/// Returns the full commit id of `rev` in `repo` (`git rev-parse --verify REV^{commit}`).
/// Throws InputError{repo, "unknown revision \"REV\" (…hint on shallow clones…)"} when it names no commit, and
/// InputError{repo, "not a git repository (…what to pass instead…)"} when `repo` is not inside one.
std::string resolve_revision(const std::string& repo, const std::string& rev);

/// Returns the id of the empty tree in `repo`'s object format (`git hash-object -t tree --stdin`
/// with no input: 4b825dc642cb6eb9a060e54bf8d69288fbee4904 for SHA-1 repositories). git answers
/// it without the tree being stored. Throws InputError{repo, "not a git repository (…)"} when
/// `repo` is not inside one, InputError{repo, "git hash-object failed: …"} when git fails.
std::string empty_tree(const std::string& repo);

/// The default base for `head_sha`: the merge-base with `origin/HEAD`, else with `main`, else with
/// `master` (the first of them that exists and shares history with head). Throws
/// InputError{repo, "no base revision given, and none of origin/HEAD, main, master shares history
/// with the head; pass a base revision"} when none does.
std::string default_base(const std::string& repo, const std::string& head_sha);

/// The message of commit `sha` in `repo` as (subject, body): `git log -1 --format=%s%x00%b`, the
/// body without trailing blank lines. Returns nullopt when git cannot be run or fails (an unknown
/// commit); never throws.
std::optional<std::pair<std::string, std::string>> commit_message(const std::string& repo, const std::string& sha);

/// The arguments after `git -C REPO` of the diff load_git_change runs from `base` to `head`
/// (`head` empty: the work tree), up to but not including its "--" (audit_tree_files runs the
/// same diff on a few paths). Never throws.
std::vector<std::string> diff_arguments(const std::string& base, const std::string& head);

/// Loads the change `base..head` of `opts.repo`:
///   git diff --no-ext-diff --no-color --no-textconv -M --full-index --submodule=short BASE HEAD
/// (without HEAD for `work_tree`, plus every untracked, not ignored file as Added: `git ls-files
/// --others --exclude-standard`, but for those of `own_outputs` and earlier runs' reports). Fills pr.base_sha/head_sha (head_sha = HEAD's commit for
/// `work_tree`), content = GitContent, and one note per skipped file.
/// With `all`, BASE is empty_tree(repo) (pr.base_sha is that tree id): the diff lists every file
/// of the head (or of the work tree, untracked ones included) as Added; binary files and files
/// over `max_file_bytes` stay in the list, skipped, each with its note. For a commit that list is
/// read from the tree instead of the diff's text (audit_tree_files: the same files, fields and
/// order), and the head texts read on the way are kept for GitContent (GitContent::keep).
/// Throws InputError{repo, …} for an unknown revision, a missing default base, or a failing git;
/// std::invalid_argument when `all` is set together with a `base`.
Change load_git_change(const GitOptions& opts);

}  // namespace review::change
