// Source `throws`: one fact per C/C++ throw statement.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class ThrowsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"throws", "one fact per C/C++ throw statement", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of `throw`"),
                field("end_line", T::Int, "last line of the statement"),
                field("expr", T::String, "the operand as written, whitespace collapsed; \"\" for a bare `throw;`"),
                field("type", T::String, "the constructed type of `T(...)`, `T{...}` or `new T(...)` operands (\"std::runtime_error\"), else \"\""),
                field("rethrow", T::Bool, "a bare `throw;`"),
                field("in_handler", T::Bool, "inside a catch body (not in a lambda there)"),
                field("handler_line", T::Int, "line of the innermost enclosing `catch`, 0 outside one"),
                field("in_destructor", T::Bool, "the enclosing function is a destructor (`~Name`)"),
                field("function", T::String, "qualified name of the enclosing function, \"\" outside functions"),
                field("added", T::Bool, "the statement's first line is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& t : m->throws) {
      auto f = dsl::make_fact("throws", r.path, t.line);
      f->end_line = t.end_line;
      f->set("expr", Value(t.expr));
      f->set("type", Value(t.type));
      f->set("rethrow", Value(t.expr.empty()));
      bool in = t.handler >= 0 && t.handler < static_cast<int>(m->handlers.size());
      f->set("in_handler", Value(in));
      f->set("handler_line", Value(in ? m->handlers[t.handler].line : 0));
      std::string last = t.function.substr(t.function.rfind("::") == std::string::npos ? 0 : t.function.rfind("::") + 2);
      f->set("in_destructor", Value(!last.empty() && last[0] == '~'));
      f->set("function", Value(t.function));
      f->set("added", Value(r.added(t.line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_throws_source() { return std::make_unique<ThrowsSource>(); }

}  // namespace review::facts
