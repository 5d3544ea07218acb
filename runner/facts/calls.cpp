// Source `calls`: one fact per call expression.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

class CallsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"calls", "one fact per call expression", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the call's first character"),
                field("column", T::Int, "1-based byte column"),
                in_text(field("callee", T::String, "the called expression as written, whitespace collapsed (\"torch.empty\")")),
                field("args", T::List, "positional argument texts (list of strings; *a and **kw included as written)"),
                field("kwargs", T::List, "keyword arguments as \"name=value\" (list of strings)"),
                in_text(field("kwarg_names", T::List, "keyword argument names (list of strings)")),
                field("function", T::String, "qualified name of the enclosing function, \"\" at module level"),
                field("in_loop", T::Bool, "inside a loop body or comprehension of the same function"),
                field("added", T::Bool, "the call's first line is added"),
                field("text", T::String, "the whole call expression"),
            }};
  }

  bool builds_per_file() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& c : m->calls) {
      auto f = dsl::make_fact("calls", r.path, c.line);
      f->column = c.column;
      f->end_line = c.end_line;
      f->set("callee", Value(c.callee));
      f->set("args", util::str_list(c.args));
      std::vector<std::string> kw, names;
      for (const auto& [k, v] : c.kwargs) {
        kw.push_back(k + "=" + v);
        names.push_back(k);
      }
      f->set("kwargs", util::str_list(kw));
      f->set("kwarg_names", util::str_list(names));
      f->set("function", Value(c.function));
      f->set("in_loop", Value(c.in_loop));
      f->set("added", Value(r.added(c.line)));
      f->set("text", Value(c.text));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_calls_source() { return std::make_unique<CallsSource>(); }

}  // namespace review::facts
