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

// The fields of one file side's branch chains, read on demand from the model's chains (record
// i is branch_chains()[i]); only whether some arm is added is kept per chain. Stored per fact,
// an audit's chains of ROCm/aiter and their dispatch cases took about 110 MiB.
class BranchFields final : public dsl::FieldProvider {
 public:
  BranchFields(std::shared_ptr<const lang::SourceModel> m, std::vector<char> added)
      : m_(std::move(m)), added_(std::move(added)) {}

  Value field(int index, std::string_view name) const override {
    const auto& chains = m_->branch_chains();
    if (index < 0 || static_cast<size_t>(index) >= chains.size()) return {};
    const analysis::BranchChain& c = chains[static_cast<size_t>(index)];
    if (name == "added") return Value(added_[static_cast<size_t>(index)] != 0);
    if (name == "arms") return Value(static_cast<int>(c.arms.size()) + (c.has_else ? 1 : 0));
    if (name == "conditions") {
      std::vector<std::string> conds;
      for (const auto& a : c.arms) conds.push_back(a.condition);
      if (c.has_else) conds.emplace_back();
      return util::str_list(conds);
    }
    if (name == "else_kind") return Value(c.else_kind);
    if (name == "else_raises") return Value(c.else_raises);
    if (name == "function") return Value(util::normalise_function(c.function));
    if (name == "has_else") return Value(c.has_else);
    if (name == "kind") return Value(c.kind);
    if (name == "subject") return Value(c.subject);
    return {};
  }
  std::vector<std::string> names() const override {
    return {"added", "arms", "conditions", "else_kind", "else_raises", "function", "has_else", "kind", "subject"};
  }

 private:
  std::shared_ptr<const lang::SourceModel> m_;
  std::vector<char> added_;  // per chain: some arm's first line is added
};

// The fields of one file side's dispatch cases: record r is (chain, arm, comparison) of the
// model's branch chains; `dispatch` is the chain's `branches` fact.
class DispatchFields final : public dsl::FieldProvider {
 public:
  struct Record {
    uint32_t chain = 0, arm = 0, compare = 0;
    bool added = false;
  };

  DispatchFields(std::shared_ptr<const lang::SourceModel> m, std::vector<FactPtr> chains, std::vector<Record> records)
      : m_(std::move(m)), chains_(std::move(chains)), records_(std::move(records)) {}

  Value field(int index, std::string_view name) const override {
    if (index < 0 || static_cast<size_t>(index) >= records_.size()) return {};
    const Record& r = records_[static_cast<size_t>(index)];
    const analysis::BranchChain& c = m_->branch_chains()[r.chain];
    const analysis::BranchArm& arm = c.arms[r.arm];
    if (name == "added") return Value(r.added);
    if (name == "dispatch") return Value(chains_[r.chain]);
    if (name == "function") return Value(util::normalise_function(c.function));
    if (name == "op") return Value(r.compare < arm.ops.size() ? arm.ops[r.compare] : std::string());
    if (name == "subject") return Value(arm.compares[r.compare].first);
    if (name == "value") return Value(arm.compares[r.compare].second);
    return {};
  }
  std::vector<std::string> names() const override { return {"added", "dispatch", "function", "op", "subject", "value"}; }
  size_t size() const { return records_.size(); }
  /// The line of record `i`'s arm.
  int line(size_t i) const { return m_->branch_chains()[records_[i].chain].arms[records_[i].arm].line; }

 private:
  std::shared_ptr<const lang::SourceModel> m_;
  std::vector<FactPtr> chains_;  // the file side's `branches` facts, by chain
  std::vector<Record> records_;
};

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
    const auto& chains = m->branch_chains();
    std::vector<char> added(chains.size(), 0);
    for (size_t i = 0; i < chains.size(); ++i)
      for (const auto& a : chains[i].arms) added[i] = added[i] || r.added(a.line);
    static const dsl::Interned source("branches");
    util::FactBlock block(source, dsl::Interned(r.path), std::make_shared<const BranchFields>(m, std::move(added)),
                          chains.size());
    for (size_t i = 0; i < chains.size(); ++i) block.add(chains[i].line, static_cast<int>(i), chains[i].end_line);
    block.share(out);
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
    std::vector<DispatchFields::Record> records;
    for (size_t i = 0; i < chains.size() && i < m->branch_chains().size(); ++i) {
      const auto& c = m->branch_chains()[i];
      for (size_t j = 0; j < c.arms.size(); ++j)
        for (size_t k = 0; k < c.arms[j].compares.size(); ++k)
          records.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j), static_cast<uint32_t>(k),
                             r.added(c.arms[j].line)});
    }
    static const dsl::Interned source("dispatch_cases");
    auto fields = std::make_shared<const DispatchFields>(m, chains, std::move(records));
    util::FactBlock block(source, dsl::Interned(r.path), fields, fields->size());
    for (size_t i = 0; i < fields->size(); ++i) block.add(fields->line(i), static_cast<int>(i));
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_branches_source() { return std::make_unique<BranchesSource>(); }
std::unique_ptr<Source> make_dispatch_cases_source() { return std::make_unique<DispatchCasesSource>(); }

}  // namespace review::facts
