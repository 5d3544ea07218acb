// Where the `check-run` and `comment` reporters publish: an interface the report layer owns and
// runner/github/publisher.hpp implements over the GitHub REST API, so those two outputs are
// reporters of the one table (reporter.hpp's make_reporter) like the file formats, and tests can
// hand them a recorder instead of a network.
#pragma once

#include <string>
#include <vector>

#include "dsl/finding.hpp"
#include "runner/report/findings_view.hpp"

namespace review::report {

/// What one publication did, in words for the user.
struct PublishResult {
  /// Nothing reached the pull request (the token may not write, or the check run was never
  /// created): the check-run reporter writes workflow commands to its stream instead.
  bool fall_back = false;
  /// One line for the user ("the token cannot write check runs; falling back to workflow
  /// annotations"), "" when there is nothing to say.
  std::string warning;
};

/// A destination on the pull request. Implementations never throw for a network or permission
/// failure: they say so in PublishResult::warning.
class Publisher {
 public:
  virtual ~Publisher();
  /// Publishes `findings` (sorted, suppressed ones included) as one check run whose summary is
  /// `card` (the `summary` format). Returns what happened.
  virtual PublishResult check_run(FindingsView findings, const std::string& card) = 0;
  /// Writes `card` as the sticky comment of `ruleset` on pull request `number` (> 0), updating
  /// the one written before. Returns what happened.
  virtual PublishResult comment(const std::string& ruleset, long long number, const std::string& card) = 0;
};

}  // namespace review::report
