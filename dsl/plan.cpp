#include "dsl/plan.hpp"

#include <algorithm>
#include <functional>

namespace review::dsl {

Value let_value(const ast::Expr& e) {
  switch (e.kind) {
    case ast::Expr::Kind::String:
    case ast::Expr::Kind::Regex: return Value(e.text);
    case ast::Expr::Kind::Int: return Value(e.integer);
    case ast::Expr::Kind::Bool: return Value(e.boolean);
    case ast::Expr::Kind::List: {
      Value::List l;
      for (const auto& k : e.kids) l.push_back(let_value(*k));
      return Value(std::move(l));
    }
    default: return {};
  }
}

bool order_rules(std::vector<PlannedRule>& rules,
                 const std::map<const ast::Rule*, std::vector<std::pair<std::string, ast::Span>>>& reads,
                 std::string& message, const ast::Rule*& at_rule, ast::Span& at) {
  const size_t n = rules.size();
  // deps[i] = rules that must run before i (they carry a tag that i reads)
  std::vector<std::vector<size_t>> deps(n);
  std::vector<std::vector<ast::Span>> dep_span(n);
  for (size_t i = 0; i < n; ++i) {
    auto it = reads.find(rules[i].rule);
    if (it == reads.end()) continue;
    for (const auto& [tag, span] : it->second)
      for (size_t j = 0; j < n; ++j)
        if (std::find(rules[j].rule->tags.begin(), rules[j].rule->tags.end(), tag) != rules[j].rule->tags.end()) {
          deps[i].push_back(j);
          dep_span[i].push_back(span);
        }
  }
  // depth-first, declaration order; 0 = new, 1 = on the stack, 2 = placed
  std::vector<int> state(n, 0);
  std::vector<size_t> order, stack;
  std::function<bool(size_t)> visit = [&](size_t i) -> bool {
    if (state[i] == 2) return true;
    if (state[i] == 1) {
      auto from = std::find(stack.begin(), stack.end(), i);
      message = "rules read each other's findings in a cycle: ";
      for (auto s = from; s != stack.end(); ++s) message += rules[*s].rule->id + " -> ";
      message += rules[i].rule->id;
      at_rule = rules[i].rule;
      size_t next = from + 1 != stack.end() ? *(from + 1) : i;
      for (size_t k = 0; k < deps[i].size(); ++k)
        if (deps[i][k] == next) at = dep_span[i][k];
      return false;
    }
    state[i] = 1;
    stack.push_back(i);
    for (size_t d : deps[i])
      if (!visit(d)) return false;
    stack.pop_back();
    state[i] = 2;
    order.push_back(i);
    return true;
  };
  for (size_t i = 0; i < n; ++i)
    if (!visit(i)) return false;
  std::vector<PlannedRule> sorted;
  for (size_t i : order) sorted.push_back(std::move(rules[i]));
  rules = std::move(sorted);
  return true;
}

}  // namespace review::dsl
