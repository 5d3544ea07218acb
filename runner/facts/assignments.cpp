// Source `assignments`: one fact per assignment target, fields read from the model on demand
// (the value kinds, which look into other files, are computed when the file's facts are built).
#include <algorithm>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"
#include "runner/lang/python/value_kind.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

// Repository paths of the modules `m` (at `path`) imports names from: `from a.b import c` ->
// a/b.py, a/b/__init__.py, a/b/c.py; relative imports against the file's folder. At most 40.
std::vector<std::string> imported_module_paths(const std::string& path, const lang::SourceModel& m) {
  std::vector<std::string> out;
  std::string dir = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/'));
  for (const auto& imp : m.imports) {
    if (imp.names.empty() || imp.module.empty()) continue;
    std::string mod = imp.module, base;
    size_t dots = 0;
    while (dots < mod.size() && mod[dots] == '.') ++dots;
    if (dots > 0) {
      base = dir;
      for (size_t k = 1; k < dots && !base.empty(); ++k)
        base = base.find('/') == std::string::npos ? "" : base.substr(0, base.rfind('/'));
      mod = mod.substr(dots);
    }
    std::string rel = mod;
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::string stem = base.empty() ? rel : (rel.empty() ? base : base + "/" + rel);
    if (stem.empty()) continue;
    out.push_back(stem + ".py");
    out.push_back(stem + "/__init__.py");
    for (const auto& n : imp.names) {
      std::string name = n.substr(0, n.find(' '));
      if (!name.empty() && name != "*") out.push_back(stem + "/" + name + ".py");
    }
    if (out.size() >= 40) break;
  }
  return out;
}

// The fields of the `assignments` facts of one file side: record `index` is the position in the
// model's `assignments`; `kinds` holds each one's value kind and why. Stored per fact, the eleven
// named values took about a kilobyte an assignment.
class AssignmentFields final : public dsl::FieldProvider {
 public:
  AssignmentFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
                   const ChangedFile* cf, bool base, std::vector<lang::ValueKind> kinds)
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base), kinds_(std::move(kinds)) {}

  Value field(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->assignments.size())) return {};
    const auto& a = m_->assignments[index];
    if (name == "target") return Value(a.target);
    if (name == "value") return Value(std::string(a.value));
    if (name == "op") return Value(std::string(a.op));
    if (name == "value_kind") return Value(kinds_[index].kind);
    if (name == "value_why") return Value(kinds_[index].why);
    if (name == "function") return Value(std::string(a.function));
    if (name == "class") return Value(std::string(a.cls));
    if (name == "added") return Value(!base_ && cf_ && cf_->added_lines.count(a.line) > 0);
    if (name == "text") return Value(std::string(a.text));
    return {};
  }

  std::vector<std::string> names() const override {
    return {"added", "class", "function", "op", "target", "text", "value", "value_kind", "value_why"};
  }

 private:
  std::shared_ptr<const change::Change> keep_;  // owns `cf_`
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
  std::vector<lang::ValueKind> kinds_;
};

class AssignmentsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"assignments", "one fact per assignment target (tuple unpacking gives one per name)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the assignment"),
                field("target", T::String, "one target as written (\"x\", \"self.w\", \"a[i]\")"),
                field("value", T::String, "right-hand side text, \"\" for a bare annotation"),
                field("op", T::String, "\"=\", an augmented operator (\"+=\"), \":\" (annotation only), \":=\", or \"decl\" (C++ initialised declaration)"),
                field("value_kind", T::String, "Python: copy (new storage), view (shares an existing value's storage) or unknown, from the value and one call into a repository function; unknown elsewhere"),
                field("value_why", T::String, "the step that decided value_kind (\"`.clone()`\", \"`shuffle` returns ...\")"),
                field("function", T::String, "qualified name of the enclosing function"),
                field("class", T::String, "innermost enclosing class"),
                field("added", T::Bool, "the assignment's line is added"),
                field("text", T::String, "the whole assignment"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    // Value kinds look one call deep into the file's own functions and those of the
    // repository modules it imports from.
    lang::FunctionIndex index;
    std::vector<std::shared_ptr<const lang::SourceModel>> imported;
    bool python = m->language == lang::Language::Python;
    if (python) {
      index.add(*m);
      const auto& files = ctx.repo_files();
      for (const auto& path : imported_module_paths(r.path, *m)) {
        if (!std::binary_search(files.begin(), files.end(), path)) continue;
        if (auto im = ctx.model(path, r.base)) {
          index.add(*im);
          imported.push_back(std::move(im));
        }
      }
    }
    std::vector<lang::ValueKind> kinds(m->assignments.size());
    for (size_t i = 0; i < m->assignments.size(); ++i) {
      const auto& a = m->assignments[i];
      if (python && (a.op == "=" || a.op == ":=")) kinds[i] = lang::value_kind(*m, a.function, a.line, a.value, &index);
    }
    static const dsl::Interned source("assignments");
    util::FactBlock block(source, dsl::Interned(r.path),
                          std::make_shared<const AssignmentFields>(ctx.change_ptr(), m, r.changed, r.base, std::move(kinds)),
                          m->assignments.size());
    for (size_t i = 0; i < m->assignments.size(); ++i) block.add(m->assignments[i].line, static_cast<int>(i));
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_assignments_source() { return std::make_unique<AssignmentsSource>(); }

}  // namespace review::facts
