// Source `unbound_reads`: one fact per read of a local that some path, or every path, leaves unbound (Python).
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class UnboundReadsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"unbound_reads", "one fact per read of a local that some path, or every path, leaves unbound (Python); a later read that every such path reaches through an earlier one is left out (that read raises first)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the read"),
                field("column", T::Int, "column of the read"),
                field("name", T::String, "the variable"),
                field("read", T::Fact, "where it is read (file, line, column, added, text)", "location"),
                field("branch", T::Fact, "the construct whose arms bind it (line, kind)", "construct"),
                field("bound_in", T::String, "which arms bind it (\"the if and elif arms\")"),
                field("unbound_path", T::String, "one path that leaves it unbound (\"else\")"),
                field("cause", T::String, "branch, loop, try, match, with or del; before_binding for a read above every binding"),
                field("certainty", T::String, "definite (unbound on every path: UnboundLocalError) or possibly (some path)"),
                field("function", T::String, "enclosing function, \"\" at module level"),
                field("scope_kind", T::String, "function, module or class"),
                field("guarded", T::Bool, "the tests around the read rule out every path that leaves it unbound (correlated conditions)"),
                field("guard", T::String, "that test as written (\"`not mla`\"), \"\" when not guarded"),
                field("added", T::Bool, "the read's line is added (same as read.added)"),
            }};
  }
  bool uses_analyses() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    // A file the analysis could not take is reported, never silently clean.
    if (const std::string& why = m->analysis_note(); !why.empty()) ctx.note(r.path + ": not analysed (" + why + ")");
    for (const auto& u : m->unbound_reads()) {
      bool added = r.added(u.read_line);
      auto read = dsl::make_fact("location", r.path, u.read_line);
      read->column = u.read_column;
      read->set("added", Value(added));
      read->set("text", Value(util::line_text(m->text_lines, u.read_line)));
      auto branch = dsl::make_fact("construct", r.path, u.branch_line);
      branch->set("kind", Value(u.branch_kind));
      auto f = dsl::make_fact("unbound_reads", r.path, u.read_line);
      f->column = u.read_column;
      f->set("name", Value(u.name));
      f->set("read", Value(FactPtr(read)));
      f->set("branch", Value(FactPtr(branch)));
      f->set("bound_in", Value(u.bound_in));
      f->set("unbound_path", Value(u.unbound_path));
      f->set("cause", Value(u.cause));
      f->set("certainty", Value(std::string(u.definite ? "definite" : "possibly")));
      f->set("function", Value(util::normalise_function(u.function)));
      f->set("scope_kind", Value(u.scope_kind));
      f->set("guarded", Value(u.guarded));
      f->set("guard", Value(u.guard));
      f->set("added", Value(added));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_unbound_reads_source() { return std::make_unique<UnboundReadsSource>(); }

}  // namespace review::facts
