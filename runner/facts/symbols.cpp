// Source `symbols`: definitions, imports, module/class-level assignments and references by name.
#include <algorithm>
#include <cstdint>

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

// The fields of one file's symbols: name and qualified name stored once in a pool per file,
// the line's text read from the model on demand (stored per fact, the fields of an audit's
// 217,026 symbols of ROCm/aiter took about 110 MiB).
class SymbolFields final : public dsl::FieldProvider {
 public:
  enum class Kind : uint8_t { Def, Class, Import, Assign, Reference };

  explicit SymbolFields(std::shared_ptr<const lang::SourceModel> m) : m_(std::move(m)) {}

  void add(std::string_view name, Kind kind, std::string_view qualified, int line) {
    Record rec;
    rec.name = put(name);
    rec.qualified = qualified == name ? rec.name : put(qualified);
    rec.kind = kind;
    rec.line = line;
    records_.push_back(rec);
  }
  /// Frees the spare capacity once every record is added.
  void shrink() {
    pool_.shrink_to_fit();
    records_.shrink_to_fit();
  }
  int line(int index) const { return records_[static_cast<size_t>(index)].line; }
  /// The record positions in line order (stable: records of one line keep the order they were added in).
  std::vector<int> by_line() const {
    std::vector<int> order(records_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return line(a) < line(b); });
    return order;
  }

  Value field(int index, std::string_view name) const override {
    if (index < 0 || index >= static_cast<int>(records_.size())) return {};
    const Record& rec = records_[static_cast<size_t>(index)];
    if (name == "name") return Value(std::string(text(rec.name)));
    if (name == "qualified") return Value(std::string(text(rec.qualified)));
    if (name == "kind") return Value(kind_name(rec.kind));
    if (name == "text") return Value(util::line_text(m_->text_lines, rec.line));
    return {};
  }
  std::vector<std::string> names() const override { return {"kind", "name", "qualified", "text"}; }

 private:
  struct Span {
    uint32_t at = 0, size = 0;
  };
  struct Record {
    Span name, qualified;
    Kind kind = Kind::Def;
    int line = 0;
  };
  Span put(std::string_view s) {
    Span sp{static_cast<uint32_t>(pool_.size()), static_cast<uint32_t>(s.size())};
    pool_.append(s);
    return sp;
  }
  std::string_view text(Span s) const { return std::string_view(pool_).substr(s.at, s.size); }
  static const char* kind_name(Kind k) {
    switch (k) {
      case Kind::Def: return "def";
      case Kind::Class: return "class";
      case Kind::Import: return "import";
      case Kind::Assign: return "assign";
      case Kind::Reference: return "reference";
    }
    return "";
  }

  std::shared_ptr<const lang::SourceModel> m_;
  std::string pool_;
  std::vector<Record> records_;
};

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
    auto p = std::make_shared<SymbolFields>(m);
    auto add = [&](std::string_view name, SymbolFields::Kind kind, std::string_view qualified, int line) {
      if (!name.empty()) p->add(name, kind, qualified, line);
    };
    using K = SymbolFields::Kind;
    for (const auto& fn : m->functions) add(fn.name, K::Def, fn.qualified, fn.start_line);
    for (const auto& c : m->classes) {
      add(c.name, K::Class, c.qualified, c.start_line);
      for (const auto& b : c.bases)
        if (b.find('=') == std::string::npos) add(last_name(b), K::Reference, b, c.start_line);
    }
    for (const auto& fn : m->functions)
      for (const auto& d : fn.decorators) add(last_name(d), K::Reference, d, fn.start_line - 1);
    for (const auto& imp : m->imports) {
      if (m->language == lang::Language::Cpp) {
        add(imp.module, K::Import, imp.module, imp.line);
        continue;
      }
      if (imp.names.empty()) {
        add(std::string_view(imp.module).substr(0, imp.module.find('.')), K::Import, imp.module, imp.line);
        continue;
      }
      for (const auto& n : imp.names) {
        size_t as = n.find(" as ");
        std::string_view nv(n);
        std::string_view bound = as == std::string::npos ? nv : nv.substr(as + 4);
        std::string_view orig = as == std::string::npos ? nv : nv.substr(0, as);
        bool plain_import = imp.names.size() == 1 && orig == imp.module;  // import m as n
        add(bound, K::Import, plain_import ? imp.module : imp.module + "." + std::string(orig), imp.line);
      }
    }
    for (const auto& a : m->assignments)
      if (a.function.empty() && util::is_identifier(a.target))
        add(a.target, K::Assign, a.cls.empty() ? a.target : std::string(a.cls) + "." + a.target, a.line);
    for (const auto& c : m->calls) add(last_name(c.callee), K::Reference, c.callee, c.line);
    p->shrink();
    std::vector<int> order = p->by_line();
    static const dsl::Interned source("symbols");
    util::FactBlock block(source, dsl::Interned(r.path), p, order.size());
    for (int i : order) block.add(p->line(i), i);
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_symbols_source() { return std::make_unique<SymbolsSource>(); }

}  // namespace review::facts
