// Source `includes`: one fact per C/C++ #include directive.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class IncludesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"includes", "one fact per C/C++ #include directive", true,
            {
                field("file", T::String, "path of the including file"),
                field("line", T::Int, "directive line"),
                field("path", T::String, "the included path as written between < > or \" \" (a macro include: its name)"),
                field("system", T::Bool, "written with < >"),
                field("guard", T::String, "enclosing preprocessor conditions (`ifdefs` expr joined by \" && \", include guards left out), \"\" when none"),
                field("added", T::Bool, "the directive line is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& i : m->includes) {
      auto f = dsl::make_fact("includes", r.path, i.line);
      f->set("path", Value(i.path));
      f->set("system", Value(i.system));
      f->set("guard", Value(i.guard));
      f->set("added", Value(r.added(i.line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_includes_source() { return std::make_unique<IncludesSource>(); }

}  // namespace review::facts
