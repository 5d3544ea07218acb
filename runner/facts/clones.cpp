// Source `clones`: one fact per pair of similar added blocks in two different files.
#include <algorithm>
#include <cmath>

#include "runner/analysis/clones.hpp"
#include "runner/lang/python/tokens.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;

class ClonesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"clones",
            "one fact per clone between added blocks of two different files (identifiers abstracted; imports, "
            "docstrings and constant tables never count); minimum size from `let clone_min_lines` (5), "
            "`clone_min_tokens` (50), `clone_min_similarity` (80, percent)",
            true,
            {
                field("file", T::String, "path of the first block"),
                field("line", T::Int, "first line of the first block"),
                field("a", T::Fact, "first block (file, line, end_line, text)", "location"),
                field("b", T::Fact, "second block (file, line, end_line, text)", "location"),
                field("similarity", T::Int, "token similarity after renaming identifiers, percent"),
                field("lines", T::Int, "number of lines of the first block"),
                field("tokens", T::Int, "tokens of the shorter side (imports and docstrings not counted)"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<FactPtr> out;
    analysis::CloneOptions opts;  // jscpd's defaults unless the ruleset says otherwise
    auto setting = [&](const char* name, int fallback) {
      Value v = ctx.data().let(name);
      return v.is_int() && v.as_int() >= 0 && v.as_int() <= 1000000 ? static_cast<int>(v.as_int()) : fallback;
    };
    opts.min_lines = std::max(1, setting("clone_min_lines", opts.min_lines));
    opts.min_tokens = setting("clone_min_tokens", opts.min_tokens);
    opts.min_similarity = std::min(100, setting("clone_min_similarity", 80)) / 100.0;
    std::vector<analysis::CodeBlock> blocks;
    for (const auto& r : ctx.files(scope)) {
      if (r.base || !r.changed || r.changed->added_lines.empty()) continue;
      auto m = ctx.model(r.path, false);
      if (!m) continue;
      int n = static_cast<int>(m->text_lines.size());
      const auto& added = r.changed->added_lines;
      for (auto it = added.begin(); it != added.end();) {
        int a = *it, b = a;
        auto jt = std::next(it);
        while (jt != added.end() && *jt == b + 1) b = *jt++;
        it = jt;
        if (b - a + 1 < opts.min_lines || b > n) continue;
        std::string text;
        for (int l = a; l <= b; ++l) text += m->text_lines[l - 1] + "\n";
        auto tokens = m->language == lang::Language::Python ? lang::python::clone_tokens(text)
                                                           : analysis::generic_clone_tokens(text);
        blocks.push_back({r.path, a, b, std::move(text), std::move(tokens)});
      }
    }
    for (const auto& p : analysis::find_clones(std::move(blocks), opts)) {
      if (p.a.file == p.b.file) continue;
      auto loc = [&](const analysis::CodeBlock& b) {
        auto f = dsl::make_fact("location", b.file, b.start_line);
        f->end_line = b.end_line;
        f->set("added", Value(true));
        f->set("text", Value(b.text));
        return FactPtr(f);
      };
      auto f = dsl::make_fact("clones", p.a.file, p.a.start_line);
      f->end_line = p.a.end_line;
      f->set("a", Value(loc(p.a)));
      f->set("b", Value(loc(p.b)));
      f->set("similarity", Value(static_cast<int>(std::lround(p.similarity * 100))));
      f->set("lines", Value(p.a.end_line - p.a.start_line + 1));
      f->set("tokens", Value(p.tokens));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_clones_source() { return std::make_unique<ClonesSource>(); }

}  // namespace review::facts
