// The main command: load rulesets, build the change, evaluate, post-process findings (filter,
// suppressions, baseline, sort), write every requested output, optionally publish to GitHub, and
// compute the exit code. Every step that can fail reports and continues where it can: a failing
// reporter or an unreachable API never loses the other outputs.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/finding.hpp"
#include "dsl/ruleset.hpp"
#include "runner/change/repository.hpp"
#include "runner/change/shard.hpp"
#include "runner/cli/inputs.hpp"
#include "runner/cli/policy.hpp"

namespace review::cli {

/// One requested output: a format name and a file ("" or "-" = standard output).
struct OutputSpec {
  std::string format;
  std::string path;
};

/// Exit code of a review that did not look at everything (RunInfo::incomplete), unless
/// ReviewOptions::allow_incomplete. Takes precedence over 1 (findings): a partial review cannot
/// vouch for the change.
inline constexpr int kExitIncomplete = 4;

struct ReviewOptions {
  std::vector<std::string> rulesets;        ///< --ruleset (names or paths), at least one
  InputOptions inputs;
  std::vector<OutputSpec> outputs;          ///< --format FMT[=FILE]; empty = text on stdout
  std::optional<dsl::Severity> fail_on = dsl::Severity::Block;  ///< nullopt = never
  std::string filter = "added";             ///< added|context|file|all
  std::string color = "auto";               ///< auto|always|never
  std::string category;                     ///< SARIF automationDetails.id override
  std::string baseline;                     ///< fingerprint file to suppress (--write-baseline is an output)
  std::string check_run;                    ///< check-run name ("" = none)
  bool comment = false;                     ///< sticky PR comment
  std::string token_env = "GITHUB_TOKEN";   ///< variable holding the API token
  int api_deadline_s = 120;                 ///< all GitHub API work of the run together (--api-deadline)
  int jobs = 0;                             ///< parser threads (0 = cores)
  int rule_budget_ms = 2000;
  /// --max-memory: once the process's resident memory passes this many bytes, the rule running
  /// stops, no later rule or file starts, and the outputs are written saying what was skipped;
  /// the review is incomplete (runner/cli/memory_ceiling.hpp). 0 = no ceiling.
  std::size_t max_memory = 0;
  /// Exit with the findings' code even when the review is incomplete (a rule stopped by its
  /// budget, a file skipped for size or not parsed); the reports still say it is incomplete.
  bool allow_incomplete = false;
  bool stderr_is_tty = false;               ///< progress of long runs is redrawn in place
  std::vector<std::string> only_rules;      ///< --rule ID (repeatable)
  std::vector<std::string> skip_rules;      ///< --exclude-rule ID (repeatable)
  std::vector<std::string> exclude;         ///< globs: findings in these paths are dropped (config)
  std::map<std::string, std::string> severity_overrides;  ///< rule id -> block|warn|note|off (config)
  /// Where rulesets given as paths and the baseline are read (--policy-from: a revision);
  /// nullptr = the file system. When it reads a revision, every changed file that is a policy
  /// file it tried becomes a finding "this pull request edits the review policy".
  std::shared_ptr<PolicySource> policy;
  std::string inline_suppressions = "all";  ///< all|base-only (config `inline-suppressions`)
  /// --shard I/N: every shard evaluates the whole change (rules join facts across changed files)
  /// and reports what shard I owns (change::own_shard_notes for the notes). So that the shards' SARIF files merge into what
  /// one unsharded run reports, shard I keeps a finding only when it has no file and I is 1 (the
  /// pull request's own findings), when its file is a changed file that I owns, or when its file
  /// is not a changed file at all (an unchanged file that a change of this shard reaches; two
  /// shards whose changes reach the same place both report it).
  std::optional<change::Shard> shard;
  /// Differential review (runner/pipeline/differential.hpp): findings the base already has are
  /// pre-existing and never set the verdict or the exit code. --no-differential turns it off.
  bool differential = true;
  /// --quiet: no "note:" lines on `err` and no default text report (warnings, errors and the
  /// outputs asked for still appear; the exit code is unchanged).
  bool quiet = false;
  /// --timings: after the run, print on `err` where the evaluation's CPU went: each fact
  /// source's build (facts and indexes) and each rule's own joins, slowest first (print_timings).
  bool timings = false;
  /// Other repositories as named scopes (--with NAME=PATH[@REV], `repos:` in the configuration).
  std::vector<change::WithSpec> with;
};

/// `--timings`: prints on `err`, one "timings: " line each, the process's CPU time (getrusage
/// RUSAGE_SELF, user + system) with the evaluation's share in fact sources and in rules' own
/// work; each fact source's build time, slowest first; each rule's and kind's own time and the
/// time of the sources it was the first to read, slowest first by their sum (ties keep `t.rules`'
/// order); a source, rule or kind under 0.005 s is not listed but counted in one line ("N more
/// …"); last, the rule during which the resident high-water mark peaked (EvalTimings::Rule::
/// peak_rss_kib) and by how much it rose there (nothing when `t.rules` is empty). Never throws
/// beyond what writing to `err` throws.
void print_timings(const dsl::EvalTimings& t, std::ostream& err);

/// Runs a review and returns the exit code: 0 nothing new at or above fail_on (pre-existing
/// findings do not count), 1 new findings at or above it, 2 usage or ruleset error, 3 input error. Messages go to `err`; stdout outputs to
/// `out`. `env` supplies GitHub Actions variables and the token. `stdout_is_tty` decides colour
/// in "auto" mode. Never throws.
int run_review(const ReviewOptions& opts, const Environment& env, std::ostream& out, std::ostream& err,
               bool stdout_is_tty);

}  // namespace review::cli
