// The review pipeline: everything between "the change and its facts are ready" and "the findings
// are ready to report". One function, `review()`, used by `runner review` (runner/cli/review.cpp)
// and by `runner test` (runner/cli/examples.cpp), so an example checks a rule the way a pull
// request is checked. Stages, in order:
//
//   1. evaluate   every program over one set of facts (dsl::evaluate); RunInfo gets the rulesets,
//                 rules, kinds, internal diagnostics, and one `incomplete` sentence per rule
//                 stopped by its time budget, per changed file skipped for its size and per file
//                 the fact sources gave up on;
//   2. configure  excludes (globs) and severity overrides (block|warn|note|off);
//   3. audit      drop the pull-request findings (no file) and the kinds of an audit (there is no
//                 pull request: every kind would describe the whole tree, not a change; the kinds
//                 still gate the rules in stage 1);
//   4. shard      keep the findings this shard owns (change::in_shard);
//   5. filter     report::apply_filter with the diff of the change;
//   6. suppress   inline `review: ignore[ID]` comments (report::apply_inline_suppressions);
//   7. baseline   fingerprints of accepted findings (report::apply_baseline);
//   8. extra      the caller's own findings are appended (the CLI's policy-edit findings);
//   9. differential  findings the base already has become pre-existing (differential.hpp);
//  10. sort       report::sort_and_dedup.
//
// Outputs (reporters), the exit code, GitHub publishing and reading files (rulesets, baseline)
// stay with the caller.
//
//   pipeline::ReviewOptions o;
//   o.eval.only_rules = {"RULE1"};   // --rule: report only these ids
//   report::RunInfo run;
//   auto r = pipeline::review(change, programs, facts, o, run);   // r.findings, sorted
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dsl/finding.hpp"
#include "dsl/ruleset.hpp"
#include "runner/change/change.hpp"
#include "runner/change/shard.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/pipeline/differential.hpp"
#include "runner/report/filter.hpp"
#include "runner/report/reporter.hpp"

namespace review::pipeline {

struct ReviewOptions {
  /// Options of every dsl::evaluate call (budget, --rule, progress hook, memory flag).
  dsl::EvalOptions eval;
  /// Called once right after the last program was evaluated, before any other stage, with the
  /// rules and kinds the memory ceiling stopped or never started (EvalResult::memory_stopped of
  /// every program, in order). The CLI ends its progress line and adds its memory-ceiling
  /// sentence to `run.incomplete` here. May be empty.
  std::function<void(const std::vector<std::string>& memory_stopped, report::RunInfo& run)> on_evaluated;
  /// Findings whose file matches one of these globs (dsl::glob_match) are dropped.
  std::vector<std::string> exclude;
  /// Rule id -> "block", "warn", "note" or "off" (dropped). Ids are not checked here.
  std::map<std::string, std::string> severity_overrides;
  /// An audit (every file, no pull request): findings without a file are dropped, with a note.
  bool audit = false;
  /// --shard: keep a finding only when this shard owns it (cli::ReviewOptions::shard says which).
  std::optional<change::Shard> shard;
  /// Every changed path before change::keep_shard (used with `shard` only).
  std::set<std::string> all_changed;
  report::FilterMode filter = report::FilterMode::Added;
  /// false (configuration `inline-suppressions: base-only`): ignore comments the change adds are
  /// not honoured (report::InlineOptions::honour_added).
  bool honour_added_suppressions = true;
  /// Fingerprints of a baseline (report::read_baseline); nullopt = no baseline.
  std::optional<std::set<std::string>> baseline;
  /// Findings the caller adds after the baseline and before the differential review.
  std::vector<dsl::Finding> extra_findings;
  /// Run the differential review (skipped for an audit, and after the memory ceiling was reached,
  /// with a note). `differential_options` are handed to mark_pre_existing.
  bool differential = false;
  DifferentialOptions differential_options;
  /// Where the stages' notes go ("note: …" lines: the fact sources' notes, the audit note, the
  /// count of pre-existing findings), nullptr = nowhere.
  std::ostream* notes = nullptr;
  /// Where warnings go ("internal: …" lines of the evaluator, "warning: …" lines of inline
  /// suppressions, the note that the differential review was skipped), nullptr = nowhere; they
  /// are in the result and RunInfo either way.
  std::ostream* warnings = nullptr;
};

struct ReviewResult {
  /// The findings to report, sorted and de-duplicated (report::sort_and_dedup); suppressed and
  /// pre-existing ones included, marked.
  std::vector<dsl::Finding> findings;
  /// Internal diagnostics of the evaluator ("rule `X`: …"), of every program in order.
  std::vector<std::string> internal_diagnostics;
  /// Rules and kinds the memory ceiling stopped or never started.
  std::vector<std::string> memory_stopped;
  /// Rules whose `when` did not hold (EvalResult::not_run of every program); an audit says which.
  std::vector<std::string> not_run;
  /// Notes of RunInfo::notes already printed to ReviewOptions::notes (a text report on the same
  /// terminal leaves them out).
  std::vector<std::string> printed_notes;
  /// The memory ceiling was reached (the flag is set, or a rule was stopped by it).
  bool over_memory = false;
  /// Warnings of the inline suppressions (report::apply_inline_suppressions), then one per
  /// ignore comment naming a rule id no program has (report::unknown_ignore_ids).
  std::vector<std::string> suppression_warnings;
  /// Pull-request findings dropped because the run is an audit.
  std::size_t audit_dropped = 0;
  /// What the differential review did (ran = false when it did not run).
  DifferentialStats differential;
};

/// Runs the stages above over `change` with `facts` (built by the caller over the same change,
/// with the options it wants: jobs, file size limit, memory flag) for every program of
/// `programs`, in order. Fills `run`: rulesets, rules, kinds, diagnostics, incomplete, notes
/// (the fact sources' "not analysed (unbound variables: …)" notes as "incomplete review: …",
/// then the change's notes, then each inline-suppression warning about a comment not honoured)
/// and differential. Returns the findings and what each stage did. Never throws for bad input:
/// a rule that fails becomes an internal diagnostic, a rule over its budget an `incomplete`
/// sentence ("rule ID stopped by its time budget of N ms, …"); errors of reading the baseline
/// belong to the caller, who passes the parsed fingerprints. May throw std::bad_alloc.
ReviewResult review(const std::shared_ptr<const change::Change>& change,
                    const std::vector<std::shared_ptr<const dsl::Program>>& programs, facts::ChangeFacts& facts,
                    const ReviewOptions& options, report::RunInfo& run);

/// Prints `notes` to `out` as "note: …" lines (report::terminal_safe). After the first 20 notes
/// about one skipped file ("PATH: not analysed (…)", "PATH: skipped: …"), one line says how many
/// more there are; every other note is printed.
void print_notes(const std::vector<std::string>& notes, std::ostream& out);

}  // namespace review::pipeline
