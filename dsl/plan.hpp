// The planned form of a ruleset: ASTs of every loaded file kept alive, compiled regexes keyed by
// their literal, lets as values, rules in evaluation order. Built by dsl/ruleset.cpp from the
// checker's output; read only by the evaluator.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/checker.hpp"
#include "dsl/facts.hpp"
#include "dsl/finding.hpp"
#include "dsl/regex.hpp"

namespace review::dsl {

struct PlannedRule {
  const ast::Rule* rule = nullptr;
  RuleMeta meta;
  Severity severity = Severity::Warn;
};

struct ProgramImpl {
  std::vector<std::unique_ptr<ast::File>> files;  ///< main file first
  std::string name, title;
  int version = 0;
  RulesetData data;
  std::map<std::string, const ast::Let*> lets;    ///< first declaration wins
  std::vector<const ast::KindDecl*> kinds;
  std::vector<PlannedRule> rules;                 ///< evaluation order
  std::vector<RuleMeta> metas;                    ///< same order
  CheckedRegexes regexes;
  std::vector<SourceSchema> schema;
};

/// Orders `rules` so that every rule reading findings("t") runs after every other rule tagged
/// "t"; declaration order otherwise. Returns false and fills `diag_message`/`at` on a cycle.
bool order_rules(std::vector<PlannedRule>& rules, const std::map<const ast::Rule*, std::vector<std::pair<std::string, ast::Span>>>& reads,
                 std::string& diag_message, const ast::Rule*& at_rule, ast::Span& at);

/// Returns the value of a `let` (String, Int, List; regexes as their pattern string).
Value let_value(const ast::Expr& e);

}  // namespace review::dsl
