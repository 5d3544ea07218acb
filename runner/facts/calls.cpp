// Source `calls`: one fact per call expression, fields read from the model on demand.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

// The fields of the `calls` facts of one file side, read from the model on `get`. Record `index`
// is the position in the model's `calls`. Stored per fact, the fields (eight named values, three
// of them lists of strings) took about 1.5 KB a call: 370 MiB of an aiter audit's peak.
class CallFields final : public dsl::FieldProvider {
 public:
  CallFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
             const ChangedFile* cf, bool base)
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base) {}

  Value field(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->calls.size())) return {};
    if (auto t = text(index, name)) return Value(std::string(*t));
    const auto& c = m_->calls[index];
    if (name == "args") return util::str_list(c.args);
    if (name == "kwargs") {
      Value::List l;
      l.reserve(c.kwargs.size());
      for (const auto& [k, v] : c.kwargs) l.emplace_back(std::string(k).append("=").append(v));
      return Value(std::move(l));
    }
    if (name == "kwarg_names") {
      Value::List l;
      l.reserve(c.kwargs.size());
      for (const auto& kv : c.kwargs) l.emplace_back(std::string(kv.first));
      return Value(std::move(l));
    }
    if (name == "in_loop") return Value(c.in_loop);
    if (name == "added") return Value(!base_ && cf_ && cf_->added_lines.count(c.line) > 0);
    return {};
  }

  /// The string fields kept by the model (callee, function, text), as views.
  std::optional<std::string_view> text(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->calls.size())) return std::nullopt;
    const auto& c = m_->calls[index];
    if (name == "callee") return std::string_view(c.callee);
    if (name == "function") return c.function;
    if (name == "text") return c.text;
    return std::nullopt;
  }

  std::vector<std::string> names() const override {
    return {"added", "args", "callee", "function", "in_loop", "kwarg_names", "kwargs", "text"};
  }

 private:
  std::shared_ptr<const change::Change> keep_;  // owns `cf_`
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
};

class CallsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"calls", "one fact per call expression", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the call's first character"),
                field("column", T::Int, "1-based byte column"),
                in_text(field("callee", T::String, "the called expression as written, whitespace collapsed (\"torch.empty\")")),
                field("args", T::List, "positional argument texts (list of strings; *a and **kw included as written)"),
                field("kwargs", T::List, "keyword arguments as \"name=value\" (list of strings)"),
                in_text(field("kwarg_names", T::List, "keyword argument names (list of strings)")),
                field("function", T::String, "qualified name of the enclosing function, \"\" at module level"),
                field("in_loop", T::Bool, "inside a loop body or comprehension of the same function"),
                field("added", T::Bool, "the call's first line is added"),
                field("text", T::String, "the whole call expression"),
            }};
  }

  bool builds_per_file() const override { return true; }
  // the model holds functions, classes, imports, assignments and calls for these only
  bool reads(lang::Language l) const override { return l == lang::Language::Python || l == lang::Language::Cpp; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    static const dsl::Interned source("calls");
    util::FactBlock block(source, dsl::Interned(r.path),
                          std::make_shared<const CallFields>(ctx.change_ptr(), m, r.changed, r.base), m->calls.size());
    for (size_t i = 0; i < m->calls.size(); ++i) {
      const auto& c = m->calls[i];
      block.add(c.line, static_cast<int>(i), c.end_line, c.column);
    }
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_calls_source() { return std::make_unique<CallsSource>(); }

}  // namespace review::facts
