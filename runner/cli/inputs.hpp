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
  /// The files this run writes its reports to (--format FORMAT=FILE, --sarif, --write-baseline):
  /// a work-tree review leaves them out when they are untracked (change::GitOptions::own_outputs).
  std::vector<std::string> own_outputs;
};

/// The environment variables the runner reads (GitHub Actions: GITHUB_ACTIONS, GITHUB_EVENT_PATH,
/// GITHUB_WORKSPACE, GITHUB_REPOSITORY). Filled by `environment_from_process()` in the CLI, by
/// hand in tests.
struct Environment {
  std::map<std::string, std::string> vars;
  /// Returns the variable, or "" when unset.
  std::string get(const std::string& name) const;
};

/// Reads the GitHub Actions variables the runner uses (GITHUB_ACTIONS, GITHUB_EVENT_PATH,
/// GITHUB_WORKSPACE, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_GRAPHQL_URL, GITHUB_SERVER_URL,
/// GITHUB_STEP_SUMMARY, GITHUB_TOKEN, GITHUB_SHA, GITHUB_WORKFLOW, GITHUB_JOB, NO_COLOR) and
/// every name in `extra` (e.g. the variable `--token-env` names) from this process. Unset
/// variables are left out. Never fails.
Environment environment_from_process(const std::vector<std::string>& extra = {});

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
/// --title/--body/--label, each overriding the previous. With no --base/--head, the revisions come
/// from the event's pull_request.base.sha/head.sha (inside Actions, or with --event; GITHUB_SHA is
/// the test merge commit, not the head) or from --pr's baseRefOid/headRefOid.
/// A git review of two revisions (not the work tree, not --all) whose event and --pr give no title
/// and no body takes the head commit's subject as the title and the rest of its message as the
/// body (--title/--body still win), and adds the note "the pull-request title and body are the head
/// commit's message (SHA12); --title and --body set them" ("body is"/"title is" when one was given).
/// Throws change::InputError for every unreadable input; std::invalid_argument for conflicting
/// flags (e.g. --diff with --base-dir; --all with --base, --diff, --base-dir/--head-dir or
/// --event: "--all reviews every file of the head; it cannot be combined with --base"), which
/// the CLI reports as a usage error.
change::Change load_change(const InputOptions& opts, const Environment& env);

/// The repository's configuration file found by default: `.github/review.yml` at the root of the
/// git work tree that holds `repo` ("" = the current folder), the root being the nearest folder
/// upwards with a `.git` entry (a folder, or a file in a linked work tree). Returns the path
/// (relative to the current folder when it lies below it, else absolute) whether or not the file
/// exists -- the caller reads it through its PolicySource, so a pull-request run reads the base's
/// copy -- and nullopt when `repo` is in no git work tree. Never throws.
std::optional<std::string> default_config_path(const std::string& repo);

}  // namespace review::cli
