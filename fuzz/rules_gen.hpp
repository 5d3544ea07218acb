// A structure-aware generator of rulesets for fuzzing: turns fuzz bytes into a ruleset that is
// well typed against the fact schema (sources, fields and their types, nested facts, list fields,
// regex captures, `let`s, kinds, tags read through findings(), tiers, `also` bodies), so that nearly every input
// passes the parser and the load-time checker and reaches the planner and the evaluator. The
// bytes choose every branch (FuzzedDataProvider), so libFuzzer's mutations become structural ones.
// Used by fuzz/fuzz_rules_gen.cpp.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <string>
#include <vector>

#include "dsl/facts.hpp"

namespace review::fuzz {

class RulesetGenerator {
 public:
  /// `schema`: the sources rules may query (facts::fact_schema()); must outlive the generator.
  RulesetGenerator(FuzzedDataProvider& in, const std::vector<dsl::SourceSchema>& schema);

  /// One ruleset text: a header, some lets, kinds and a tier table, then 1–6 rules.
  std::string ruleset();

 private:
  struct Var {
    std::string name;
    const dsl::SourceSchema* source = nullptr;  ///< nullptr: a string (an element of a list field)
  };
  struct Field {
    std::string path;  ///< "v.read.line"
    dsl::Type type;
    const dsl::SourceSchema* fact = nullptr;  ///< the fact's schema (Type::Fact) or list elements' (List of facts)
  };

  size_t pick(size_t n);
  bool chance(int percent);
  template <class T>
  const T& one(const std::vector<T>& v) { return v[pick(v.size())]; }

  const dsl::SourceSchema* find(const std::string& name) const;
  std::vector<Field> fields(dsl::Type type, bool list_of_facts = false) const;
  std::string text();
  std::string scope();
  std::string regex(bool capture);
  std::string domain(Var& bound, bool& binds_fact);

  std::string str(int depth);
  std::string integer(int depth);
  std::string list(int depth);
  std::string boolean(int depth, bool top = false);
  std::string quantified(int depth, bool count);
  std::string hole();
  std::string rule(int index);
  /// One query body (fors, wheres, unless, at, templates), each line indented by `indent`: a
  /// rule's main body or an `also` block's. `fors` = 0 makes a pull-request-level body.
  std::string body(const std::string& indent, int fors);
  std::string kind(int index);

  FuzzedDataProvider& in_;
  const std::vector<dsl::SourceSchema>& schema_;
  std::vector<const dsl::SourceSchema*> sources_;
  const dsl::SourceSchema* pr_ = nullptr;
  const dsl::SourceSchema* findings_ = nullptr;  ///< the shape of findings("tag") facts

  std::vector<Var> vars_;
  std::vector<std::string> captures_;
  std::vector<std::string> lets_str_, lets_list_, lets_re_, lets_int_, kinds_, tags_;
  int fresh_ = 0;
  int nodes_ = 0;  ///< expression nodes left for the current rule
};

}  // namespace review::fuzz
