// Source `symbols`: definitions, imports, module/class-level assignments and references by name.
#include <algorithm>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::Fact;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;
using util::last_name;

class SymbolsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"symbols", "definitions, imports, assignments and references by name (usually over repo)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line"),
                in_text(field("name", T::String, "the bare name (\"forward\", \"np\")")),
                field("kind", T::String, "def, class, import, assign (module or class level) or reference (call, base class, decorator)"),
                in_text(field("qualified", T::String, "qualified name for def/class, module for import, callee for reference")),
                in_text(field("text", T::String, "the line, trimmed")),
            }};
  }

  bool builds_per_file() const override { return true; }
  // the model holds functions, classes, imports, assignments and calls for these only
  bool reads(lang::Language l) const override { return l == lang::Language::Python || l == lang::Language::Cpp; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    std::vector<std::shared_ptr<Fact>> syms;
    auto add = [&](const std::string& name, const char* kind, const std::string& qualified, int line) {
      if (name.empty()) return;
      auto f = dsl::make_fact("symbols", r.path, line);
      f->set("name", Value(name));
      f->set("kind", Value(kind));
      f->set("qualified", Value(qualified));
      f->set("text", Value(util::line_text(m->text_lines, line)));
      syms.push_back(f);
    };
    for (const auto& fn : m->functions) add(fn.name, "def", fn.qualified, fn.start_line);
    for (const auto& c : m->classes) {
      add(c.name, "class", c.qualified, c.start_line);
      for (const auto& b : c.bases)
        if (b.find('=') == std::string::npos) add(last_name(b), "reference", b, c.start_line);
    }
    for (const auto& fn : m->functions)
      for (const auto& d : fn.decorators) add(last_name(d), "reference", d, fn.start_line - 1);
    for (const auto& imp : m->imports) {
      if (m->language == lang::Language::Cpp) {
        add(imp.module, "import", imp.module, imp.line);
        continue;
      }
      if (imp.names.empty()) {
        add(imp.module.substr(0, imp.module.find('.')), "import", imp.module, imp.line);
        continue;
      }
      for (const auto& n : imp.names) {
        size_t as = n.find(" as ");
        std::string bound = as == std::string::npos ? n : n.substr(as + 4);
        std::string orig = as == std::string::npos ? n : n.substr(0, as);
        bool plain_import = imp.names.size() == 1 && orig == imp.module;  // import m as n
        add(bound, "import", plain_import ? imp.module : imp.module + "." + orig, imp.line);
      }
    }
    for (const auto& a : m->assignments)
      if (a.function.empty() && util::is_identifier(a.target))
        add(a.target, "assign", a.cls.empty() ? a.target : a.cls + "." + a.target, a.line);
    for (const auto& c : m->calls) add(last_name(c.callee), "reference", c.callee, c.line);
    std::stable_sort(syms.begin(), syms.end(), [](const auto& a, const auto& b) { return a->line < b->line; });
    out.insert(out.end(), syms.begin(), syms.end());
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_symbols_source() { return std::make_unique<SymbolsSource>(); }

}  // namespace review::facts
