// Source `handlers`: one fact per C/C++ catch clause.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class HandlersSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"handlers", "one fact per C/C++ catch clause", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the `catch` line"),
                field("end_line", T::Int, "the line of the body's closing brace"),
                field("type", T::String, "the caught declaration as written (\"const std::exception& e\"), \"...\" for a catch-all"),
                field("name", T::String, "the variable holding the exception, \"\" when unnamed"),
                field("catches_all", T::Bool, "`catch (...)`"),
                field("rethrows", T::Bool, "the body passes the exception on: `throw;`, `throw NAME;`, std::rethrow_exception, rethrow_if_nested or throw_with_nested"),
                field("throws", T::Bool, "the body throws something other than the caught exception"),
                field("returns", T::Bool, "the body has a return statement"),
                field("uses_cause", T::Bool, "the body names the caught variable or calls std::current_exception"),
                field("body", T::String, "code between the braces, comments and string contents blanked, whitespace collapsed"),
                field("body_start", T::Int, "line of the body's opening brace"),
                field("body_end", T::Int, "line of the body's closing brace"),
                field("function", T::String, "qualified name of the enclosing function, \"\" outside functions"),
                field("added", T::Bool, "some line of the clause is added"),
                field("header_added", T::Bool, "the `catch` line itself is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& h : m->handlers) {
      auto f = dsl::make_fact("handlers", r.path, h.line);
      f->end_line = h.end_line;
      f->set("type", Value(h.type));
      f->set("name", Value(h.name));
      f->set("catches_all", Value(h.catches_all));
      f->set("rethrows", Value(h.rethrows));
      f->set("throws", Value(h.throws));
      f->set("returns", Value(h.returns));
      f->set("uses_cause", Value(h.uses_cause));
      f->set("body", Value(h.body));
      f->set("body_start", Value(h.body_start));
      f->set("body_end", Value(h.body_end));
      f->set("function", Value(h.function));
      f->set("added", Value(r.added_range(h.line, h.end_line)));
      f->set("header_added", Value(r.added(h.line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_handlers_source() { return std::make_unique<HandlersSource>(); }

}  // namespace review::facts
