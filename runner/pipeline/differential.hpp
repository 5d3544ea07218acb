// Differential review: which findings of a pull-request run the base already has.
//
// A located finding whose line is not an added line, in a changed file that has a base version,
// is a candidate. The rules with a candidate (and only those) are evaluated again over the base
// versions of the candidates' files, read as a change whose added lines are the base lines the
// change's hunks cover (what those rules would report had the same region of the base been the
// change). A candidate is pre-existing when the
// same rule reports the same fingerprint there (report::line_hash: rule id, path, line text with
// whitespace removed; each base finding matches one candidate). Pre-existing findings get SARIF
// baselineState "unchanged" and never set the verdict or the exit code (Semgrep's
// --baseline-commit and code scanning's "alerts introduced by this pull request" are the anchors).
//
//   auto stats = pipeline::mark_pre_existing(change, programs, {}, findings);
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include "dsl/finding.hpp"
#include "dsl/ruleset.hpp"
#include "runner/change/change.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/facts/source.hpp"

namespace review::pipeline {

struct DifferentialOptions {
  std::chrono::milliseconds rule_budget{2000};  ///< per rule, as in the head evaluation
  int jobs = 0;                                 ///< parser threads (0 = cores)
  std::size_t max_file_bytes = 2 * 1024 * 1024; ///< larger base files are skipped
  /// The run's memory-ceiling flag (dsl::EvalOptions::memory_exceeded): once set, the base
  /// evaluation stops, and the findings it did not reach stay new (never pre-existing).
  const std::atomic<bool>* memory_exceeded = nullptr;
  std::vector<facts::Repository> repositories;  ///< the head run's named scopes, the same for the base
  /// The head run's facts, if still alive: the base run reuses the head models it parsed and
  /// its word index for the files whose text is the same on both sides (ContentSource::
  /// same_text; ChangeFacts::Options::donor). nullptr = the base run parses what it reads.
  facts::ChangeFacts* head_facts = nullptr;
};

/// What the step did (for the run's notes and the benchmarks).
struct DifferentialStats {
  bool ran = false;               ///< the base was consulted (a run with base texts)
  std::size_t candidates = 0;     ///< findings off the added lines, in files with a base version
  std::size_t rules = 0;          ///< rules evaluated on the base
  std::size_t files = 0;          ///< base files they were evaluated over
  std::size_t pre_existing = 0;   ///< findings marked pre-existing
  double seconds = 0;             ///< wall time of the base evaluation
};

/// Sets Finding::pre_existing on the findings of `findings` that the base already has. Does
/// nothing (ran = false) when `change` has no base texts (hunks_only). Suppressed findings are
/// left as they are. Never throws for bad input: a rule that fails on the base marks nothing.
DifferentialStats mark_pre_existing(const std::shared_ptr<const change::Change>& change,
                                    const std::vector<std::shared_ptr<const dsl::Program>>& programs,
                                    const DifferentialOptions& options, std::vector<dsl::Finding>& findings);

}  // namespace review::pipeline
