// Source `sections`: one fact per Markdown section of .md files; the changed scope adds the
// pull-request body's sections.
#include "runner/change/pr_meta.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"
#include "runner/lang/markdown/markdown.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;

class SectionsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"sections", "one fact per Markdown section of .md files; changed scope adds the PR body's", true,
            {
                field("file", T::String, "path, \"\" for the PR body"),
                field("line", T::Int, "heading line (same as start)"),
                field("heading", T::String, "heading text without '#' marks, \"\" before the first heading"),
                field("level", T::Int, "1..6, 0 for text before the first heading"),
                field("text", T::String, "body text up to the next heading (PR body: HTML comments removed)"),
                field("start", T::Int, "heading line"),
                field("end", T::Int, "last line of the section"),
                field("pr_body", T::Bool, "the section comes from the pull-request body"),
                field("added", T::Bool, "some line of the section is added"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<FactPtr> out;
    auto emit = [&](const lang::Section& s, const std::string& file, bool pr_body, const FileRef* r) {
      auto f = dsl::make_fact("sections", file, s.start);
      f->end_line = s.end;
      f->set("heading", Value(s.heading));
      f->set("level", Value(s.level));
      f->set("text", Value(s.text));
      f->set("start", Value(s.start));
      f->set("end", Value(s.end));
      f->set("pr_body", Value(pr_body));
      f->set("added", Value(r && r->added_range(s.start, s.end)));
      out.push_back(f);
    };
    const auto& pr = ctx.change().pr;
    if (scope.kind == Scope::Kind::Changed && !pr.body.empty())
      for (const auto& s : lang::markdown_sections(change::strip_html_comments(pr.body))) emit(s, "", true, nullptr);
    for (const auto& r : ctx.files(scope)) {
      if (lang::language_of(r.path) != lang::Language::Markdown) continue;
      auto m = ctx.model(r.path, r.base);
      if (!m) continue;
      for (const auto& s : m->sections) emit(s, r.path, false, &r);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_sections_source() { return std::make_unique<SectionsSource>(); }

}  // namespace review::facts
