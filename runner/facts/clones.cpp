// Source `clones`: one fact per pair of similar added blocks in two different files.
#include <cmath>

#include "runner/analysis/clones.hpp"
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
    return {"clones", "one fact per pair of similar added blocks (>= 5 lines) in two different files", true,
            {
                field("file", T::String, "path of the first block"),
                field("line", T::Int, "first line of the first block"),
                field("a", T::Fact, "first block (file, line, end_line, text)", "location"),
                field("b", T::Fact, "second block (file, line, end_line, text)", "location"),
                field("similarity", T::Int, "token similarity after renaming identifiers, percent"),
                field("lines", T::Int, "number of lines of the first block"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<FactPtr> out;
    constexpr int kMinLines = 5;
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
        if (b - a + 1 < kMinLines || b > n) continue;
        std::string text;
        for (int l = a; l <= b; ++l) text += m->text_lines[l - 1] + "\n";
        blocks.push_back({r.path, a, b, std::move(text)});
      }
    }
    for (const auto& p : analysis::find_clones(blocks, kMinLines, 0.8)) {
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
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_clones_source() { return std::make_unique<ClonesSource>(); }

}  // namespace review::facts
