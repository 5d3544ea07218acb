// Source `repos`: one fact per repository the ruleset declares (`let NAME = repo …`), saying
// whether it was loaded as a scope and at which revision, so a rule can tell "not in aiter" from
// "aiter not loaded".
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class ReposSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"repos", "one fact per repository the ruleset declares (`let NAME = repo …`), loaded or not", false,
            {
                field("name", T::String, "the let name (`aiter`), also the scope: functions(aiter)"),
                field("loaded", T::Bool, "loaded with --with NAME=PATH[@REV] or `repos:` in .github/review.yml"),
                field("path", T::String, "folder it was read from (\"\" when not loaded)"),
                field("rev", T::String, "full commit id it was read at (\"\" for a plain folder or when not loaded)"),
                field("rev_from", T::String, "where the revision came from: \"--with\", \"review.yml\", the pin file, or \"HEAD\""),
                field("pin_file", T::String, "the file of the reviewed repository that pins its revision (\"\" = not declared)"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope&) const override {
    std::vector<FactPtr> out;
    for (const auto& d : ctx.data().repos) {
      auto f = dsl::make_fact("repos", "", 0);
      f->set("name", Value(d.name));
      f->set("pin_file", Value(d.pin_file));
      const Repository* r = nullptr;
      for (const auto& x : ctx.repositories())
        if (x.name == d.name && x.facts) r = &x;
      f->set("loaded", Value(r != nullptr));
      f->set("path", Value(r ? r->path : std::string()));
      f->set("rev", Value(r ? r->rev : std::string()));
      f->set("rev_from", Value(r ? r->rev_from : std::string()));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_repos_source() { return std::make_unique<ReposSource>(); }

}  // namespace review::facts
