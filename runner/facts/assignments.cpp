// Source `assignments`: one fact per assignment target.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class AssignmentsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"assignments", "one fact per assignment target (tuple unpacking gives one per name)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the assignment"),
                field("target", T::String, "one target as written (\"x\", \"self.w\", \"a[i]\")"),
                field("value", T::String, "right-hand side text, \"\" for a bare annotation"),
                field("op", T::String, "\"=\", an augmented operator (\"+=\"), \":\" (annotation only), \":=\", or \"decl\" (C++ initialised declaration)"),
                field("function", T::String, "qualified name of the enclosing function"),
                field("class", T::String, "innermost enclosing class"),
                field("added", T::Bool, "the assignment's line is added"),
                field("text", T::String, "the whole assignment"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& a : m->assignments) {
      auto f = dsl::make_fact("assignments", r.path, a.line);
      f->set("target", Value(a.target));
      f->set("value", Value(a.value));
      f->set("op", Value(a.op));
      f->set("function", Value(a.function));
      f->set("class", Value(a.cls));
      f->set("added", Value(r.added(a.line)));
      f->set("text", Value(a.text));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_assignments_source() { return std::make_unique<AssignmentsSource>(); }

}  // namespace review::facts
