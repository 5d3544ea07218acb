// Source `pr`: the pull request itself, one fact written without a scope.
#include "runner/change/pr_meta.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::Value;
using T = dsl::Type;
using util::field;

class PrSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"pr", "the pull request (one fact; written without a scope)", false,
            {
                field("number", T::Int, "pull-request number, 0 for a local run"),
                field("title", T::String, "title"),
                field("body", T::String, "description as written"),
                field("text", T::String, "title + blank line + body, with HTML comments removed"),
                field("labels", T::List, "label names (list of strings)"),
                field("base", T::String, "base branch name"),
                field("head", T::String, "head branch name"),
                field("author", T::String, "author login"),
                field("commits", T::Int, "number of commits"),
                field("audit", T::Bool,
                      "true in an audit (--all): every file is added against an empty tree, so no value, "
                      "name or file is new to a change; a rule about what a change adds says `when not pr.audit`"),
            }};
  }

  std::vector<dsl::FactPtr> build(SourceContext& ctx, const dsl::Scope&) const override {
    const auto& pr = ctx.change().pr;
    auto f = dsl::make_fact("pr");
    f->set("number", Value(pr.number));
    f->set("title", Value(pr.title));
    f->set("body", Value(pr.body));
    f->set("text", Value(pr.title + "\n\n" + change::strip_html_comments(pr.body)));
    f->set("labels", util::str_list(pr.labels));
    f->set("base", Value(pr.base_ref));
    f->set("head", Value(pr.head_ref));
    f->set("author", Value(pr.author));
    f->set("commits", Value(pr.commits));
    f->set("audit", Value(ctx.change().audit));
    return {f};
  }
};

}  // namespace

std::unique_ptr<Source> make_pr_source() { return std::make_unique<PrSource>(); }

}  // namespace review::facts
