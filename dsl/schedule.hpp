// The rule-scheduling driver of evaluate(): which rules run (EvalOptions::only_rules and the
// rules whose findings they read), in what order, when each fact source's cached results are
// released, and how the per-rule results are put back in the ruleset's order. Evaluating one
// kind or one rule (joins, conditions, templates, budgets) is the evaluator's (dsl/evaluator.cpp),
// reached through the RuleEngine interface below.
#pragma once

#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dsl/plan.hpp"
#include "dsl/ruleset.hpp"

namespace review::dsl {

/// One rule's evaluation across the parts it is run in: the whole repository at once, or one
/// file at a time. The budget is the rule's, across its parts.
struct RulePart {
  enum class End { Running, Budget, Memory, Error };
  std::vector<Finding> found;              ///< findings so far, in part then fact order
  /// The evaluator's de-duplication of `found`: the position in `found` of each finding by the
  /// hash of its file, line, problem and label (an equal finding is not added twice). Positions,
  /// not copies of the text: an audit's rule can make tens of thousands of findings.
  std::unordered_multimap<size_t, uint32_t> seen;
  std::chrono::nanoseconds spent{0};       ///< CPU charged to the rule's budget so far
  double own_s = 0, sources_s = 0;         ///< EvalTimings of the parts so far
  End end = End::Running;                  ///< why the rule stopped (its findings are then dropped)
  bool when_false = false;                 ///< the rule's `when` did not hold: no body ran
  std::string error;                       ///< End::Error: the FactsError message
};

/// What the driver asks of the evaluator of single rules.
class RuleEngine {
 public:
  virtual ~RuleEngine() = default;
  /// Passes the ruleset's data to the Facts, then evaluates every kind in declaration order:
  /// fills out.kinds and the kinds' diagnostics, stops and memory stops.
  virtual void run_kinds(EvalResult& out) = 0;
  /// Evaluates rule `pr` over the facts the Facts answer now, adding to `part` (findings,
  /// budget spent); does nothing once `part.end` is not Running. Never throws.
  virtual void run_rule_part(const PlannedRule& pr, RulePart& part) = 0;
  /// Reports rule `pr` once all its parts ran: its findings go to res.findings when `report`;
  /// those carrying a tag of `read_tags` become `findings` facts for later readers. A rule
  /// stopped (budget, memory, FactsError) leaves its findings out and says why in `res`.
  virtual void finish_rule(const PlannedRule& pr, bool report, const std::set<std::string>& read_tags, RulePart& part,
                           EvalResult& res) = 0;
  /// Drops the engine's own cached results of `source` and the indexes over them (the Facts
  /// keep theirs).
  virtual void forget(const std::string& source) = 0;
  /// Drops the cached results of `source` and the indexes over them, here and in the Facts.
  virtual void release(const std::string& source) = 0;
  /// Drops the cached results of `source` over `scope` and the indexes over them, here and in
  /// the Facts (Facts::release_scope).
  virtual void release_scope(const std::string& source, const Scope& scope) = 0;
  /// Passes Facts::will_read on: called before run_kinds, once per (source, scope).
  virtual void will_read(const std::string& source, const Scope& scope) = 0;
};

/// Evaluates `p` through `engine`: the kinds, then every rule that runs, in an order that keeps
/// the sources they share together; each source is released after its last reader. Findings,
/// diagnostics and stops are returned in p.rules' order. opts.on_rule is called before each rule.
EvalResult run_program(const ProgramImpl& p, const EvalOptions& opts, RuleEngine& engine);

/// The key of one read of `source` over `scope`: the evaluator's cache and indexes start with
/// it, and the driver names a scope read by it (distinct (source, scope) pairs, distinct keys).
std::string query_key(const std::string& source, const Scope& scope);

/// Same decision as the checker's: a domain is a list (not a fact source) when it has a list
/// expression that is not a bare name, or a bare name the schema has no source of.
bool list_domain(const ProgramImpl& p, const ast::Domain& d);

/// Adds to `tags` every tag rule `r` reads through findings("t") (its `when` and every body).
void collect_tags(const ast::Rule& r, std::set<std::string>& tags);

/// Calls `add(domain)` for every domain over a fact source that rule `r` (its `when` and every
/// body) reads: `for` domains and those of `exists`, `count` and the like, nested ones included.
void for_each_domain(const ProgramImpl& p, const ast::Rule& r, const std::function<void(const ast::Domain&)>& add);

/// Calls `add(source)` for every fact source rule `r` (its `when` and every body) queries.
void for_each_source(const ProgramImpl& p, const ast::Rule& r, const std::function<void(const std::string&)>& add);

/// Calls `add(source)` for every fact source expression `e` (and the expressions in it) queries.
void sources_read(const ProgramImpl& p, const ast::Expr& e, const std::function<void(const std::string&)>& add);

}  // namespace review::dsl
