// Turns the command line's input options (and, inside GitHub Actions, the environment) into one
// Change. Environment variables are read only here and in app.cpp, and passed down as values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/change/change.hpp"

namespace review::cli {

/// Input flags as given on the command line. Empty strings mean "not given".
struct InputOptions {
  std::string repo;          ///< --repo DIR
  std::string base, head;    ///< --base REV, --head REV
  bool work_tree = false;    ///< --work-tree
  bool all = false;          ///< --all: audit mode, every file of the head against an empty tree
  std::string diff;          ///< --diff FILE ("-" = stdin)
  std::string base_dir, head_dir;  ///< --base-dir A --head-dir B
  std::string event;         ///< --event FILE (GitHub pull_request payload)
  std::string pr;            ///< --pr FILE (gh pr view --json …)
  std::optional<std::string> title, body;  ///< --title, --body
  std::vector<std::string> labels;         ///< --label (repeatable)
  std::size_t max_file_bytes = std::size_t{2} * 1024 * 1024;
  std::size_t max_diff_bytes = std::size_t{256} * 1024 * 1024;  ///< --max-diff-size: a larger --diff is refused
};

/// The environment variables the runner reads (GitHub Actions: GITHUB_ACTIONS, GITHUB_EVENT_PATH,
/// GITHUB_WORKSPACE, GITHUB_REPOSITORY). Filled by `environment_from_process()` in the CLI, by
/// hand in tests.
struct Environment {
  std::map<std::string, std::string> vars;
  /// Returns the variable, or "" when unset.
  std::string get(const std::string& name) const;
};

/// Reads the listed variables of this process. Never fails.
Environment environment_from_process();

/// Builds the change. Which source, in order:
///  0. --all: git, --repo at --head (default HEAD) or the work tree (--work-tree) against git's
///     empty tree, so every file is Added (change::GitOptions::all). PR metadata comes only from
///     --pr/--title/--body/--label: $GITHUB_EVENT_PATH is not read (a scheduled or push workflow
///     has no pull request);
///  1. --base-dir/--head-dir: two folders;
///  2. --diff: a unified diff (full files from --repo at --head when --repo is given);
///  3. git: --repo (default "." or $GITHUB_WORKSPACE) with --base/--head; with neither revision
///     and not in GitHub Actions, the work tree against the default base (a local run).
/// PR metadata then comes from --event (or $GITHUB_EVENT_PATH inside Actions), --pr, and last
/// --title/--body/--label, each overriding the previous. Inside Actions with no --base/--head,
/// the revisions come from the event's pull_request.base.sha/head.sha (GITHUB_SHA is the test
/// merge commit, not the head).
/// Throws change::InputError for every unreadable input; std::invalid_argument for conflicting
/// flags (e.g. --diff with --base-dir; --all with --base, --diff, --base-dir/--head-dir or
/// --event: "--all reviews every file of the head; it cannot be combined with --base"), which
/// the CLI reports as a usage error.
change::Change load_change(const InputOptions& opts, const Environment& env);

}  // namespace review::cli
