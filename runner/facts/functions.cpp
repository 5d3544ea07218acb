// Source `functions`: one fact per Python def or C/C++ function definition.
#include <set>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::FileStatus;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

class FunctionsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"functions", "one fact per Python def or C/C++ function definition", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the def / definition line (same as start)"),
                field("end_line", T::Int, "last line (same as end)"),
                in_text(field("name", T::String, "function name (\"forward\", \"operator()\")")),
                in_text(field("qualified", T::String, "Python Cls.method / outer.inner; C++ ns::Cls::f")),
                field("class", T::String, "class whose body defines it (C++ out-of-line: the qualifier), \"\" for free functions"),
                in_text(field("params", T::List, "parameter names in order (list of strings, self included)")),
                field("kwargs", T::String, "name of the `**` parameter that takes any keyword (Python), \"\" when none"),
                field("defaults", T::List, "\"name=default\" for each parameter with a default (list of strings)"),
                field("decorators", T::List, "decorator texts without '@' (list of strings)"),
                field("start", T::Int, "first line (decorators excluded)"),
                field("end", T::Int, "last line"),
                field("changed", T::Bool, "an added line lies inside, or a removed line lay inside its base version"),
                field("added", T::Bool, "the def line itself is added"),
                field("calls", T::List, "callee texts of the calls directly inside (list of strings)"),
                field("text", T::String, "the def line, trimmed"),
            }};
  }

  bool builds_per_file() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    // Functions of the other side touched by removed lines (base side) mark same-named head
    // functions as changed.
    std::set<std::string> removed_in;
    if (r.changed && !r.changed->removed_lines.empty() && r.changed->status != FileStatus::Added) {
      auto bm = r.base ? m : ctx.model(util::base_path(*r.changed), true);
      if (bm)
        for (int line : r.changed->removed_lines) {
          const std::string& fn = bm->function_at(line);
          if (!fn.empty()) removed_in.insert(fn);
        }
    }
    if (!m) return out;
    for (const auto& fn : m->functions) {
      auto f = dsl::make_fact("functions", r.path, fn.start_line);
      f->end_line = fn.end_line;
      f->set("name", Value(fn.name));
      f->set("qualified", Value(fn.qualified));
      f->set("class", Value(fn.cls));
      std::vector<std::string> params, defaults;
      std::string kwargs;
      for (const auto& p : fn.params) {
        if (p.text.rfind("**", 0) == 0) kwargs = p.name;
        params.push_back(p.name);
        if (!p.default_value.empty()) defaults.push_back(p.name + "=" + p.default_value);
      }
      f->set("params", util::str_list(params));
      f->set("kwargs", Value(kwargs));
      f->set("defaults", util::str_list(defaults));
      f->set("decorators", util::str_list(fn.decorators));
      f->set("start", Value(fn.start_line));
      f->set("end", Value(fn.end_line));
      bool changed = r.added_range(fn.start_line, fn.end_line) || removed_in.count(fn.qualified);
      f->set("changed", Value(changed));
      f->set("added", Value(r.added(fn.start_line)));
      f->set("calls", util::str_list(fn.calls));
      f->set("text", Value(fn.signature));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_functions_source() { return std::make_unique<FunctionsSource>(); }

}  // namespace review::facts
