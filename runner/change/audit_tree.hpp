// An audit's change without a diff: every file of one commit, each Added, as
// `git diff EMPTY_TREE COMMIT` lists it (runner/change/git.hpp, load_git_change with `all`), read
// from the commit's tree listing and its blobs instead of from that diff's text.
//
// An audit of a tree of N bytes made git write, and the runner read and parse, a diff of more
// than N bytes (43 MB on ROCm/aiter) whose every line was then dropped (Hunk::elided), and git's
// diff machinery cost more CPU than reading every blob does (bench/RESULTS.md, Session 30). The
// listing answers the same ChangedFile values: what a file's diff would say is derived from its
// mode, its `diff` attribute and its bytes, by git's own rules (below); the few files those rules
// do not settle are given to `git diff` itself.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runner/change/change.hpp"

namespace review::change {

/// What audit_tree_files answers: the files, and head texts it read on the way (path -> bytes).
struct AuditTree {
  std::vector<ChangedFile> files;
  std::unordered_map<std::string, std::string> head_texts;
};

/// The most bytes of head text audit_tree_files keeps for the review by default: ROCm/aiter's
/// 2,521 text files are 35 MB (the diff this replaces held 43 MB of text at once).
constexpr std::size_t kAuditKeepBytes = std::size_t{64} << 20;

/// The files of commit `head_sha` of `repo` as `parse_unified_diff` reads the diff
///   git diff --no-ext-diff --no-color --no-textconv -M --full-index --submodule=short EMPTY HEAD
/// with DiffOptions{max_file_bytes, elide_added_files = true}: the same files, in the same order,
/// with the same fields (status Added, new_mode, binary, submodule, skipped and skip_reason, one
/// elided hunk `-0,0 +1,N`, added_count and added_lines).
///
/// How a file is settled without the diff (git's diff.c, diff_filespec_is_binary and
/// builtin_diff; xdiff splits lines at '\n' only):
///   - a blob of mode 100644, 100755 or 120000 (a symbolic link: its bytes are the target) whose
///     `diff` attribute (`git check-attr`, as git diff reads attributes) is unset (`-diff`,
///     `binary`) is a binary file; with the attribute unspecified or set, a NUL byte in its first
///     8,000 bytes (buffer_is_binary, FIRST_FEW_BYTES) makes it binary; otherwise its lines are
///     counted, and the bytes the parser would count (each line without a CR before its end,
///     plus one) decide the max_file_bytes skip;
///   - an empty blob has no hunk.
///   - a `diff` attribute naming a driver (`*.py diff=python`) is judged as unspecified: with
///     --no-textconv and --no-ext-diff only the driver's `diff.<driver>.binary` setting changes
///     a new file's diff.
/// Every other entry goes through `git diff` restricted to those paths (literal pathspecs, 512 a
/// run): a submodule (mode 160000), a file whose driver has a `diff.<driver>.binary` setting, a
/// blob larger than core.bigFileThreshold (git calls it binary unread), a path with a "." or
/// ".." component (the parser refuses it, as before).
/// When the configuration has a `diff.default.*` key (it can change how every file is judged),
/// or names a promisor remote (a partial clone, whose missing blobs git diff fetches in one
/// batch and cat-file one at a time), nullopt: the caller runs the whole diff.
///
/// `empty_tree_sha` is empty_tree(repo). Reads the blobs through one `git cat-file --batch`, and
/// returns the texts it read, up to `keep_bytes` of them in tree order (for GitContent::keep: the
/// review reads every one again).
/// Throws InputError{repo, "git ls-tree failed: …"} (and the like for check-attr and the
/// restricted diff) when git fails, and what parse_unified_diff throws for the restricted diff.
std::optional<AuditTree> audit_tree_files(const std::string& repo, const std::string& head_sha,
                                          const std::string& empty_tree_sha, std::size_t max_file_bytes,
                                          std::size_t keep_bytes = kAuditKeepBytes);

}  // namespace review::change
