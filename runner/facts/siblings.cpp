// Source `siblings`: one fact per (changed function, unchanged name-variant in the same file).
// The suffix list is analysis::default_sibling_suffixes(), or the ruleset's
// `let sibling_suffixes = [...]`.
#include "runner/analysis/siblings.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;

class SiblingsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"siblings", "one fact per (changed function, unchanged name-variant in the same file)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "def line of the changed function"),
                field("function", T::Fact, "the changed function", "functions"),
                field("sibling", T::Fact, "the unchanged variant", "functions"),
                field("suffix", T::String, "the suffix that tells them apart (\"_opt\", \"_v2\")"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<std::string> suffixes = analysis::default_sibling_suffixes();
    Value v = ctx.data().let("sibling_suffixes");
    if (v.is_list()) {
      suffixes.clear();
      for (const auto& x : v.as_list())
        if (x.is_string()) suffixes.push_back(x.as_string());
    }
    std::vector<FactPtr> out;
    for (const auto& r : ctx.files(scope)) {
      if (r.base || !r.changed) continue;
      const auto& fns = ctx.file_facts("functions", r);
      for (const auto& c : fns) {
        if (!c->get("changed").as_bool()) continue;
        for (const auto& o : fns) {
          if (o == c || o->get("changed").as_bool()) continue;
          auto suffix = analysis::variant_suffix(c->get("name").as_string(), o->get("name").as_string(), suffixes);
          if (!suffix) continue;
          auto f = dsl::make_fact("siblings", r.path, c->line);
          f->set("function", Value(c));
          f->set("sibling", Value(o));
          f->set("suffix", Value(*suffix));
          out.push_back(f);
        }
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_siblings_source() { return std::make_unique<SiblingsSource>(); }

}  // namespace review::facts
