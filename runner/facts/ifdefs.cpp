// Source `ifdefs`: one fact per branch of a C/C++ preprocessor conditional.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class IfdefsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"ifdefs", "one fact per branch of a C/C++ #if/#ifdef/#ifndef chain (#elif and #else are branches too)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "directive line (span start)"),
                field("end_line", T::Int, "last line of the branch (span end: before the next #elif/#else/#endif)"),
                field("directive", T::String, "if, ifdef, ifndef, elif, elifdef, elifndef or else"),
                field("condition", T::String, "as written after the directive (the macro name for ifdef), \"\" for else"),
                field("expr", T::String, "when the branch compiles: \"defined(X)\", \"!defined(X)\", \"!(c1 || c2) && (c3)\" for elif/else"),
                field("guard", T::String, "the enclosing branches' exprs joined by \" && \" (include guards left out)"),
                field("depth", T::Int, "number of enclosing conditionals"),
                field("endif_line", T::Int, "line of the chain's #endif, 0 when the file ends first"),
                field("include_guard", T::Bool, "`#ifndef X` + `#define X` wrapping the whole file"),
                field("body", T::String, "the branch's lines after the directive, comments and string contents blanked, newline-joined (\"\" for include guards)"),
                field("added", T::Bool, "some line of the branch (directive included) is added"),
                field("directive_added", T::Bool, "the directive line is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& b : m->ifdefs) {
      auto f = dsl::make_fact("ifdefs", r.path, b.line);
      f->end_line = b.end_line;
      f->set("directive", Value(b.directive));
      f->set("condition", Value(b.condition));
      f->set("expr", Value(b.expr));
      f->set("guard", Value(b.guard));
      f->set("depth", Value(b.depth));
      f->set("endif_line", Value(b.endif_line));
      f->set("include_guard", Value(b.include_guard));
      f->set("body", Value(b.body));
      f->set("added", Value(r.added_range(b.line, b.end_line)));
      f->set("directive_added", Value(r.added(b.line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_ifdefs_source() { return std::make_unique<IfdefsSource>(); }

}  // namespace review::facts
