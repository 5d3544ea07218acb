// Source `statements`: one fact per statement, fields read from the model on demand.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

// The fields of the `statements` facts of one file side, read from the model on `get`. Record
// `index` is the position in the model's `statements`.
class StatementFields final : public dsl::FieldProvider {
 public:
  StatementFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
                  const ChangedFile* cf, bool base)
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base) {}

  Value field(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->statements.size())) return {};
    const auto& s = m_->statements[index];
    if (name == "kind") return Value(std::string(s.kind));
    if (name == "text") return Value(std::string(s.text));
    if (name == "code") return Value(lang::statement_code(*m_, s));
    if (name == "function") return Value(std::string(s.function));
    if (name == "added") return Value(!base_ && cf_ && cf_->added_lines.count(s.line) > 0);
    return {};
  }

  std::vector<std::string> names() const override { return {"added", "code", "function", "kind", "text"}; }

 private:
  std::shared_ptr<const change::Change> keep_;  // owns `cf_`
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
};

class StatementsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"statements", "one fact per statement (module, block and C++ compound-statement level)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "first line"),
                field("end_line", T::Int, "last line, body included"),
                field("kind", T::String, "tree-sitter node type (\"expression_statement\", \"if_statement\", \"delete_statement\")"),
                field("text", T::String, "simple statements: the whole text; compound ones: the header up to the body"),
                field("code", T::String, "text with comments and string contents blanked"),
                field("function", T::String, "qualified name of the enclosing function"),
                field("added", T::Bool, "the statement's first line is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    static const dsl::Interned source("statements");
    util::FactBlock block(source, dsl::Interned(r.path),
                          std::make_shared<const StatementFields>(ctx.change_ptr(), m, r.changed, r.base),
                          m->statements.size());
    for (size_t i = 0; i < m->statements.size(); ++i) {
      const auto& s = m->statements[i];
      block.add(s.line, static_cast<int>(i), s.end_line);
    }
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_statements_source() { return std::make_unique<StatementsSource>(); }

}  // namespace review::facts
