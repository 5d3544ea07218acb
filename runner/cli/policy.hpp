// Where the review policy is read from: the configuration (.github/review.yml), the rulesets given
// as paths (and what they `use`), and the baseline file.
//
// The trust boundary (docs/github-action.md, "Security model"): in a pull-request run the policy
// comes from the base commit, never from the head the pull request wrote. `PolicySource` with a
// revision reads every policy file as `git cat-file blob REV:path` (after `git ls-tree REV -- path`
// says it is a regular file, not a symbolic link), so a pull request that edits its own review
// policy changes nothing about its review; every policy path it tried is remembered, so the caller
// can report a change to any of them as a finding ("this pull request edits the review policy").
// Without a revision it reads the file system, but never through a symbolic link that leads out of
// the repository folder (a symlinked ruleset would otherwise print local files through diagnostics).
#pragma once

#include <optional>
#include <set>
#include <string>

namespace review::cli {

/// A policy file that cannot be read safely. `message` is a complete sentence naming the path.
struct PolicyError {
  std::string message;
};

class PolicySource {
 public:
  /// `repo`: the repository folder (any folder inside the work tree; "" = the current folder).
  /// `rev`: read from this revision (a commit id or name git resolves); "" = the file system.
  PolicySource(std::string repo, std::string rev);

  /// Reads policy file `path` (absolute, or relative to the current folder, as given on the
  /// command line or in the configuration). Returns nullopt when no such file exists (at REV, or on
  /// disk). Throws PolicyError when the file is a symbolic link (at REV), resolves through a link to
  /// a place outside the repository folder (file system), lies outside the repository while a
  /// revision is used, or git cannot be run. Every path tried is remembered (paths()).
  std::optional<std::string> read(const std::string& path);

  /// The name to show for `path` in messages: repository-relative when a revision is used.
  std::string display(const std::string& path) const;

  /// Repository-relative paths of every policy file tried so far ('/'-separated).
  const std::set<std::string>& paths() const { return paths_; }

  /// The revision policy is read from ("" = the file system).
  const std::string& revision() const { return rev_; }

 private:
  std::optional<std::string> relative(const std::string& path) const;  // repo-relative, or nullopt
  std::string repo_, rev_, top_;
  std::set<std::string> paths_;
};

}  // namespace review::cli
