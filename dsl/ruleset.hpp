// The public face of the rule language: load a .rules file (parse + check + plan) and evaluate
// the result against a Facts implementation. Callers (runner/cli) need only this header plus
// dsl/facts.hpp and dsl/finding.hpp.
//
//   LoadResult r = load_ruleset("atom.rules", text, facts.schema(), resolver, {});
//   for (const auto& d : r.diagnostics) std::cerr << format_diagnostic(d);
//   if (!r.ok()) return 2;
//   EvalResult out = evaluate(*r.program, facts);   // calls facts.configure(program.data())
//
// Load-time checks (each a Diagnostic with position and caret): syntax; unknown source, field,
// variable, scope or kind (with "did you mean"); type errors; RE2 errors at the regex literal;
// duplicate rule ids across `use`d files; findings() cycles; the red-finding gate; `action`
// prefixes; missing problem/impact/action; a rule without a `bad` example (warning; an error
// with LoadOptions::strict). The exact texts are pinned in tests/dsl/checker_test.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "dsl/facts.hpp"
#include "dsl/finding.hpp"

namespace review::dsl {

struct LoadOptions {
  bool strict = false;                      ///< warnings become errors (`runner check --strict`)
  /// Accepted starts of `action` templates; empty = the default list:
  /// "Author must", "Author should", "Reviewer should ask", "Reviewer should" (RULES.md §4.2).
  std::vector<std::string> action_prefixes;
  /// The languages an `example` may be written in (`runner test`'s table, runner/cli/examples.hpp);
  /// an example in another language is an error at its `example` line, with a suggestion. Empty =
  /// not checked (a review never runs the examples).
  std::vector<std::string> example_languages;
};

/// Returns (resolved_name, text) for `use "x"` written in `from_file`, or nullopt if not found.
/// The resolved name identifies the file (a second `use` of the same name is skipped) and
/// appears in diagnostics.
using Resolver = std::function<std::optional<std::pair<std::string, std::string>>(
    const std::string& use, const std::string& from_file)>;

struct KindHit {
  std::string name, label;
};

struct ProgramImpl;

/// A checked and planned ruleset (the main file plus every file it `use`s). Immutable; share it
/// with shared_ptr. evaluate() may be called on it from one thread at a time per Facts object
/// (the regex cache inside is locked, so several threads are safe too).
class Program {
 public:
  explicit Program(std::unique_ptr<ProgramImpl> impl);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  /// Rules in evaluation order (readers of findings() after the rules they read), with examples.
  const std::vector<RuleMeta>& rules() const;
  /// Tier table, test globs and `let` values of all loaded files (main file first).
  const RulesetData& data() const;
  const std::string& name() const;     ///< the main file's `ruleset NAME` ("" when absent)
  const std::string& title() const;    ///< the main file's ruleset title
  int version() const;
  /// Every `kind` declared, in declaration order.
  std::vector<KindHit> kinds() const;
  /// Returns the execution plan of rule `id` as text (dsl/plan.hpp: which `for` scans and which
  /// looks up an index, which conditions moved earlier), one clause per line; "" when the
  /// program has no rule `id`.
  std::string plan(std::string_view id) const;

  const ProgramImpl& impl() const { return *impl_; }

 private:
  std::unique_ptr<ProgramImpl> impl_;
};

struct LoadResult {
  std::shared_ptr<const Program> program;   ///< null when any error was reported
  std::vector<Diagnostic> diagnostics;      ///< errors and warnings, in file then source order
  bool ok() const { return program != nullptr; }
};

/// Parses, checks and plans `text` (named `file_name`) against `schema` (Facts::schema()).
/// `use` declarations are loaded through `resolver` (may be empty: then every `use` is an error).
/// Never throws on bad input; every problem is a Diagnostic. `program` is null if any diagnostic
/// is an error (with opts.strict, warnings count as errors).
LoadResult load_ruleset(const std::string& file_name, const std::string& text,
                        const std::vector<SourceSchema>& schema, const Resolver& resolver,
                        const LoadOptions& opts);

/// Where an evaluate() call spent its CPU time (`runner --timings`; like Semgrep's `--time`).
/// Seconds are the process's CPU time (every thread: parser threads a query starts count too).
struct EvalTimings {
  struct Rule {
    std::string id;
    double own_s = 0;      ///< joins, conditions and templates of the rule itself
    double sources_s = 0;  ///< facts and indexes this rule was the first to ask for (shared work)
    size_t findings = 0;   ///< findings it made (before filters)
    /// The process's peak resident memory (getrusage ru_maxrss) once the rule ended, in KiB:
    /// the first rule whose figure equals the run's peak is where that peak was reached.
    long peak_rss_kib = 0;
  };
  std::vector<Rule> rules;                  ///< in evaluation order; kinds as "kind NAME"
  /// Per fact source: building its facts (Facts::query / query_containing) and the hash indexes
  /// over them, whichever rule asked first.
  std::map<std::string, double> sources;
};

struct EvalOptions {
  /// CPU-time budget per rule (the evaluating thread's CPU time, so a loaded machine does not
  /// stop a rule), checked inside every loop; a rule over budget is stopped, its
  /// findings dropped and an internal diagnostic names it; the other rules still run. Time spent
  /// in Facts::query (building shared, cached facts) is not charged to the rule.
  std::chrono::milliseconds rule_budget{2000};
  /// When non-empty, only these rule ids report findings (rules whose findings they read still
  /// run, silently).
  std::vector<std::string> only_rules;
  /// Rules that do not run and report nothing (`--exclude-rule`, a configuration's `severity:
  /// off`), unless a rule that runs reads their findings through `findings("tag")`: then they run
  /// silently, as with only_rules. Applied after only_rules.
  std::vector<std::string> skip_rules;
  /// Test-only: false evaluates every rule as written (nested loops over whole fact lists, no
  /// index, no condition moved), the reference that planned evaluation must equal.
  bool use_plan = true;
  /// Test-only: every key of a key index (dsl/key_index.hpp) hashes alike, so a lookup's
  /// candidates are every fact with any key: the findings must be those of distinct hashes
  /// (every condition is checked on each candidate).
  bool colliding_keys = false;
  /// Test-only: every regex set with a literal to filter on is prefiltered by its literals
  /// (RE2's FilteredRE2), not only those where that saves passes over the values: the findings
  /// must be those without a prefilter.
  bool always_prefilter = false;
  /// Test-only: false builds every repository-wide source whole before looking a key up in it,
  /// instead of asking Facts::query_containing for the facts of the files whose text holds the
  /// key, or Facts::query_in_files for the facts of the files earlier `for`s name
  /// (ForPlan::by_files): the reference the demand-driven reads must equal.
  bool read_by_key = true;
  /// Called before each rule runs with its id, its 0-based position and the number of rules
  /// that will run (progress output of long runs). May be empty.
  std::function<void(const std::string& rule_id, size_t index, size_t total)> on_rule;
  /// Set (by a watcher of the process's memory, runner/cli/memory_ceiling.hpp) once the run is
  /// over its memory ceiling; checked on every loop iteration. The rule running then is stopped,
  /// its findings dropped, and no later rule or kind starts: all are listed in
  /// EvalResult::memory_stopped. nullptr = no ceiling.
  const std::atomic<bool>* memory_exceeded = nullptr;
  /// When set, each rule's and each source's CPU time is added to it (entries are appended; one
  /// object may collect several evaluate() calls). nullptr = not measured.
  EvalTimings* timings = nullptr;
};

struct EvalResult {
  std::vector<Finding> findings;                 ///< in rule evaluation order, then fact order
  std::vector<KindHit> kinds;                    ///< kinds whose `when` held
  std::vector<std::string> internal_diagnostics; ///< "rule `X`: ..." (budget, FactsError)
  /// Rules (and kinds, as "kind NAME") stopped by their time budget, in evaluation order: their
  /// findings are missing, so the review is incomplete.
  std::vector<std::string> stopped;
  /// Rules (and kinds, as "kind NAME") stopped, or never started, because the memory ceiling
  /// was reached (EvalOptions::memory_exceeded, or an allocation that failed), in evaluation
  /// order: their findings are missing, so the review is incomplete.
  std::vector<std::string> memory_stopped;
  /// Rules whose `when` did not hold (no body ran), in evaluation order.
  std::vector<std::string> not_run;
};

/// Evaluates `program` against `facts`: calls facts.configure(program.data()), then evaluates
/// the kinds, then each rule in order. Facts::query is called at most once per (source, scope)
/// per call. Finding location = the fact bound by the rule's first `for` (none: PR-level);
/// Finding::tier = the lowest tier whose glob matches the file; Finding::snippet = that fact's
/// `text` field; Finding::witness = the regex captures in scope, `<var>.file`/`<var>.line` of
/// the first `for`'s fact, and the value of every hole of `problem`, keyed by the hole as written. Does not throw (FactsError becomes a diagnostic).
EvalResult evaluate(const Program& program, Facts& facts, const EvalOptions& opts = {});


}  // namespace review::dsl
