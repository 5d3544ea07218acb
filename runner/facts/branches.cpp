// Sources `branches` (one fact per if/elif/else chain, match, switch or ternary chain) and
// `dispatch_cases` (one fact per compared value of such a chain, pointing at its `branches` fact).
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class BranchesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"branches", "one fact per if/elif/else chain, match, switch or conditional-expression chain", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the first arm"),
                field("end_line", T::Int, "last line of the chain"),
                field("kind", T::String, "if, match, switch or ternary"),
                field("arms", T::Int, "number of arms, the else arm included"),
                field("has_else", T::Bool, "has a final else / case _ / default"),
                field("else_raises", T::Bool, "the else arm raises, asserts, warns or returns None"),
                field("else_kind", T::String, "what the else arm does: raise, assert, warn, return_none, or \"\""),
                field("subject", T::String, "the expression every arm compares (whitespace removed), \"\" when none"),
                field("function", T::String, "qualified name of the enclosing function"),
                field("added", T::Bool, "some arm's first line is added"),
                field("conditions", T::List, "each arm's condition text in order, \"\" for else (list of strings)"),
            }};
  }
  bool uses_analyses() const override { return true; }

  // Fact i is the model's branch_chains()[i] (dispatch_cases relies on it).
  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& c : m->branch_chains()) {
      auto f = dsl::make_fact("branches", r.path, c.line);
      f->end_line = c.end_line;
      f->set("kind", Value(c.kind));
      f->set("arms", Value(static_cast<int>(c.arms.size()) + (c.has_else ? 1 : 0)));
      f->set("has_else", Value(c.has_else));
      f->set("else_raises", Value(c.else_raises));
      f->set("else_kind", Value(c.else_kind));
      f->set("subject", Value(c.subject));
      f->set("function", Value(util::normalise_function(c.function)));
      bool added = false;
      std::vector<std::string> conds;
      for (const auto& a : c.arms) {
        added = added || r.added(a.line);
        conds.push_back(a.condition);
      }
      if (c.has_else) conds.emplace_back();
      f->set("added", Value(added));
      f->set("conditions", util::str_list(conds));
      out.push_back(f);
    }
    return out;
  }
};

class DispatchCasesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"dispatch_cases", "one fact per (arm, compared value) of a chain that compares one subject", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the arm"),
                field("subject", T::String, "the compared expression (\"dtype\", \"self.arch\")"),
                field("value", T::String, "the compared value: string literals re-quoted with \", others without whitespace"),
                field("op", T::String, "how: ==, !=, in, not in, is, is not, isinstance, startswith, endswith, case, is_same"),
                field("dispatch", T::Fact, "the whole chain", "branches"),
                field("function", T::String, "qualified name of the enclosing function"),
                field("added", T::Bool, "the arm's line is added"),
            }};
  }
  bool uses_analyses() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    const auto& chains = ctx.file_facts("branches", r);
    for (size_t i = 0; i < chains.size() && i < m->branch_chains().size(); ++i) {
      const auto& c = m->branch_chains()[i];
      for (const auto& arm : c.arms)
        for (size_t k = 0; k < arm.compares.size(); ++k) {
          const auto& [subject, value] = arm.compares[k];
          auto f = dsl::make_fact("dispatch_cases", r.path, arm.line);
          f->set("op", Value(k < arm.ops.size() ? arm.ops[k] : std::string()));
          f->set("subject", Value(subject));
          f->set("value", Value(value));
          f->set("dispatch", Value(chains[i]));
          f->set("function", Value(util::normalise_function(c.function)));
          f->set("added", Value(r.added(arm.line)));
          out.push_back(f);
        }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_branches_source() { return std::make_unique<BranchesSource>(); }
std::unique_ptr<Source> make_dispatch_cases_source() { return std::make_unique<DispatchCasesSource>(); }

}  // namespace review::facts
