// Sources `classes` and `attributes`: the Python class model (runner/lang/python/classes.hpp)
// over every Python file of the repository, reported for the classes of the scope's files.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"
#include "runner/lang/python/classes.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

// The class model of the repository's Python head files, built once per context (both sources
// share it) and kept with the models it points into.
struct RepoClasses {
  std::vector<std::shared_ptr<const lang::SourceModel>> models;
  lang::ClassModel cm;
};

std::shared_ptr<const RepoClasses> repo_classes(SourceContext& ctx) {
  // One model per change under review: the cache is keyed by the change (a weak reference, so a
  // later change at the same address is never mistaken for it).
  static std::mutex mu;
  static std::weak_ptr<const change::Change> owner;
  static std::shared_ptr<const RepoClasses> cached;
  std::lock_guard lock(mu);
  auto change = ctx.change_ptr();
  if (cached && owner.lock() == change) return cached;
  auto rc = std::make_shared<RepoClasses>();
  std::vector<FileRef> refs;
  dsl::Scope repo;
  repo.kind = dsl::Scope::Kind::Repo;
  for (const auto& r : ctx.files(repo))
    if (lang::language_of(r.path) == lang::Language::Python) refs.push_back(r);
  ctx.prefetch(refs, false);
  for (const auto& r : refs)
    if (auto m = ctx.model(r.path, false)) rc->models.push_back(std::move(m));
  for (const auto& m : rc->models) rc->cm.add(*m);
  rc->cm.resolve();
  owner = change;
  cached = rc;
  return cached;
}

std::vector<std::string> qualified_of(const lang::ClassModel& cm, const std::vector<size_t>& ks) {
  std::vector<std::string> out;
  for (size_t k : ks) out.push_back(cm.classes()[k].qualified);
  return out;
}

std::set<std::string> scope_files(SourceContext& ctx, const dsl::Scope& scope, bool& base) {
  std::set<std::string> out;
  base = false;
  for (const auto& r : ctx.files(scope)) {
    if (r.base) base = true;
    out.insert(r.path);
  }
  return out;
}

const change::ChangedFile* changed_file(SourceContext& ctx, const std::string& path) {
  return ctx.change().find(path);
}

class ClassesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"classes", "one fact per Python class of the scope, with bases resolved over the whole repository", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the `class` line"),
                field("end_line", T::Int, "last line of the class"),
                field("name", T::String, "class name"),
                field("qualified", T::String, "Outer.Inner for a nested class"),
                field("bases", T::List, "base texts as written (list of strings)"),
                field("base_classes", T::List, "qualified names of the bases that are classes of the repository (list of strings)"),
                field("ancestors", T::List, "qualified names of every repository class it derives from, nearest first (list of strings)"),
                field("subclasses", T::List, "qualified names of every repository class deriving from it, directly or not (list of strings)"),
                field("methods", T::List, "names of the methods its body defines (list of strings)"),
                field("added", T::Bool, "the `class` line is added"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    bool base = false;
    auto files = scope_files(ctx, scope, base);
    if (base) return out;  // the model is of the head side
    auto rc = repo_classes(ctx);
    const auto& cm = rc->cm;
    for (size_t i = 0; i < cm.classes().size(); ++i) {
      const auto& c = cm.classes()[i];
      if (!files.count(c.file)) continue;
      auto f = dsl::make_fact("classes", c.file, c.line);
      f->end_line = c.end_line;
      f->set("name", Value(c.name));
      f->set("qualified", Value(c.qualified));
      f->set("bases", util::str_list(c.bases));
      std::vector<std::string> rb;
      for (int r : c.resolved)
        if (r >= 0) rb.push_back(cm.classes()[static_cast<size_t>(r)].qualified);
      f->set("base_classes", util::str_list(rb));
      f->set("ancestors", util::str_list(qualified_of(cm, cm.ancestors(i))));
      f->set("subclasses", util::str_list(qualified_of(cm, cm.subclasses(i))));
      std::vector<std::string> ms;
      for (const auto* m : c.methods) ms.push_back(m->name);
      f->set("methods", util::str_list(ms));
      const auto* cf = changed_file(ctx, c.file);
      f->set("added", Value(cf != nullptr && cf->added_lines.count(c.line) > 0));
      out.push_back(f);
    }
    return out;
  }
};

class AttributesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"attributes", "one fact per (Python class of the scope, `self.NAME` it assigns or reads)", true,
            {
                field("file", T::String, "path of the class"),
                field("line", T::Int, "first line that uses it in the class"),
                field("class", T::String, "qualified class name"),
                field("name", T::String, "the attribute"),
                field("assigned_in", T::List, "methods of the class that assign it (\"\" = the class body) (list of strings)"),
                field("read_in", T::List, "methods of the class that read it (list of strings)"),
                field("read_lines", T::List, "lines that read it (list of ints)"),
                field("provided", T::Bool, "the class or a repository ancestor assigns it, or defines a method or class-body name of that name"),
                field("provided_by", T::List, "subclasses (qualified) that provide it themselves when the class does not (list of strings)"),
                field("missing_in", T::List, "subclasses (qualified) on which reading it raises AttributeError: neither they nor their ancestors provide it (list of strings)"),
                field("added", T::Bool, "a line that uses it is added"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    bool base = false;
    auto files = scope_files(ctx, scope, base);
    if (base) return out;
    auto rc = repo_classes(ctx);
    const auto& cm = rc->cm;
    for (size_t i = 0; i < cm.classes().size(); ++i) {
      const auto& c = cm.classes()[i];
      if (!files.count(c.file)) continue;
      const auto* cf = changed_file(ctx, c.file);
      std::map<std::string, int> first;
      for (const auto& [n, uses] : c.assigns)
        for (const auto& u : uses) first[n] = first.count(n) ? std::min(first[n], u.line) : u.line;
      for (const auto& [n, uses] : c.reads)
        for (const auto& u : uses) first[n] = first.count(n) ? std::min(first[n], u.line) : u.line;
      auto subs = cm.subclasses(i);
      for (const auto& [n, line] : first) {
        auto f = dsl::make_fact("attributes", c.file, line);
        f->set("class", Value(c.qualified));
        f->set("name", Value(n));
        std::set<std::string> ain, rin;
        std::vector<Value> rlines;
        bool added = false;
        if (auto it = c.assigns.find(n); it != c.assigns.end())
          for (const auto& u : it->second) {
            ain.insert(u.method);
            added = added || (cf && cf->added_lines.count(u.line));
          }
        if (auto it = c.reads.find(n); it != c.reads.end())
          for (const auto& u : it->second) {
            rin.insert(u.method);
            rlines.push_back(Value(u.line));
            added = added || (cf && cf->added_lines.count(u.line));
          }
        f->set("assigned_in", util::str_list({ain.begin(), ain.end()}));
        f->set("read_in", util::str_list({rin.begin(), rin.end()}));
        f->set("read_lines", Value(std::move(rlines)));
        bool provided = cm.provides(i, n);
        f->set("provided", Value(provided));
        std::vector<std::string> by, missing;
        if (!provided)
          for (size_t s : subs) {
            const auto& sc = cm.classes()[s];
            if (sc.assigns.count(n) || cm.method(s, n)) by.push_back(sc.qualified);
            else if (!cm.provides(s, n)) missing.push_back(sc.qualified);
          }
        f->set("provided_by", util::str_list(by));
        f->set("missing_in", util::str_list(missing));
        f->set("added", Value(added));
        out.push_back(f);
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_classes_source() { return std::make_unique<ClassesSource>(); }
std::unique_ptr<Source> make_attributes_source() { return std::make_unique<AttributesSource>(); }

}  // namespace review::facts
