// Source `functions`: one fact per Python def or C/C++ function definition, fields read from the
// model on demand.
#include <set>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using change::FileStatus;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

// The fields of the `functions` facts of one file side: record `index` is the position in the
// model's `functions`; `changed` holds each one's `changed` field (it reads the other side).
// Stored per fact, the thirteen named values (four of them lists) took over a kilobyte a function.
class FunctionFields final : public dsl::FieldProvider {
 public:
  FunctionFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
                 const ChangedFile* cf, bool base, std::vector<char> changed)
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base), changed_(std::move(changed)) {}

  Value field(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->functions.size())) return {};
    if (auto t = text(index, name)) return Value(std::string(*t));
    const auto& fn = m_->functions[index];
    if (name == "params") {
      Value::List l;
      l.reserve(fn.params.size());
      for (const auto& p : fn.params) l.emplace_back(p.name);
      return Value(std::move(l));
    }
    if (name == "kwargs") {
      std::string kwargs;
      for (const auto& p : fn.params)
        if (p.text.rfind("**", 0) == 0) kwargs = p.name;
      return Value(kwargs);
    }
    if (name == "defaults") {
      Value::List l;
      for (const auto& p : fn.params)
        if (!p.default_value.empty()) l.emplace_back(p.name + "=" + p.default_value);
      return Value(std::move(l));
    }
    if (name == "decorators") return util::str_list(fn.decorators);
    if (name == "start") return Value(fn.start_line);
    if (name == "end") return Value(fn.end_line);
    if (name == "changed") return Value(changed_[index] != 0);
    if (name == "added") return Value(!base_ && cf_ && cf_->added_lines.count(fn.start_line) > 0);
    if (name == "calls") return util::str_list(fn.calls);
    return {};
  }

  /// The string fields kept by the model (name, qualified, class, text), as views.
  std::optional<std::string_view> text(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->functions.size())) return std::nullopt;
    const auto& fn = m_->functions[index];
    if (name == "name") return fn.name;
    if (name == "qualified") return fn.qualified;
    if (name == "class") return fn.cls;
    if (name == "text") return fn.signature;
    return std::nullopt;
  }

  std::vector<std::string> names() const override {
    return {"added", "calls", "changed", "class", "decorators", "defaults", "end",
            "kwargs", "name", "params", "qualified", "start", "text"};
  }

 private:
  std::shared_ptr<const change::Change> keep_;  // owns `cf_`
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
  std::vector<char> changed_;
};

class FunctionsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"functions", "one fact per Python def or C/C++ function definition", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the def / definition line (same as start)"),
                field("end_line", T::Int, "last line (same as end)"),
                in_text(field("name", T::String, "function name (\"forward\", \"operator()\")")),
                in_text(field("qualified", T::String, "Python Cls.method / outer.inner; C++ ns::Cls::f")),
                field("class", T::String, "class whose body defines it (C++ out-of-line: the qualifier), \"\" for free functions"),
                in_text(field("params", T::List, "parameter names in order (list of strings, self included)")),
                field("kwargs", T::String, "name of the `**` parameter that takes any keyword (Python), \"\" when none"),
                field("defaults", T::List, "\"name=default\" for each parameter with a default (list of strings)"),
                field("decorators", T::List, "decorator texts without '@' (list of strings)"),
                field("start", T::Int, "first line (decorators excluded)"),
                field("end", T::Int, "last line"),
                field("changed", T::Bool, "an added line lies inside, or a removed line lay inside its base version"),
                field("added", T::Bool, "the def line itself is added"),
                field("calls", T::List, "callee texts of the calls directly inside (list of strings)"),
                field("text", T::String, "the def line, trimmed"),
            }};
  }

  bool builds_per_file() const override { return true; }
  // the model holds functions, classes, imports, assignments and calls for these only
  bool reads(lang::Language l) const override { return l == lang::Language::Python || l == lang::Language::Cpp; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    // Functions of the other side touched by removed lines (base side) mark same-named head
    // functions as changed.
    std::set<std::string> removed_in;
    if (r.changed && !r.changed->removed_lines.empty() && r.changed->status != FileStatus::Added) {
      auto bm = r.base ? m : ctx.model(util::base_path(*r.changed), true);
      if (bm)
        for (int line : r.changed->removed_lines) {
          const std::string& fn = bm->function_at(line);
          if (!fn.empty()) removed_in.insert(fn);
        }
    }
    if (!m) return out;
    std::vector<char> changed(m->functions.size());
    for (size_t i = 0; i < m->functions.size(); ++i) {
      const auto& fn = m->functions[i];
      changed[i] = r.added_range(fn.start_line, fn.end_line) || removed_in.count(fn.qualified);
    }
    static const dsl::Interned source("functions");
    util::FactBlock block(source, dsl::Interned(r.path),
                          std::make_shared<const FunctionFields>(ctx.change_ptr(), m, r.changed, r.base, std::move(changed)),
                          m->functions.size());
    for (size_t i = 0; i < m->functions.size(); ++i)
      block.add(m->functions[i].start_line, static_cast<int>(i), m->functions[i].end_line);
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_functions_source() { return std::make_unique<FunctionsSource>(); }

}  // namespace review::facts
