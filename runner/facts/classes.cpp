// Sources `classes`, `methods`, `overrides`, `subclasses` and `attributes`: the Python class
// model (runner/lang/python/classes.hpp) over every Python file of the repository, reported for
// the classes of the scope's files.
#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
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

// The class model of the repository's Python head files, built once per context and set of
// scope files (every source shares it) and kept with the models it points into.
struct RepoClasses {
  std::vector<std::shared_ptr<const lang::SourceModel>> models;
  lang::ClassModel cm;
};

// The Python head files of the repository whose classes the facts of the classes in `seeds` can
// depend on (every file when `seeds` is null), parsed: demand-driven, from the seed files' classes
// down to every file that may hold a subclass (files holding the class's name) and up to every
// file that may define a class a base names (files where the name follows `class`), and on
// from each class found that way. A class of any other file is neither a resolved base, nor a
// subclass, of a class reported, so the model gives the facts of the seed files' classes that a
// model of every file would. Models are added in repository file order, as a whole model adds them.
std::shared_ptr<RepoClasses> build_classes(SourceContext& ctx, const std::set<std::string>* seeds) {
  auto rc = std::make_shared<RepoClasses>();
  std::vector<FileRef> refs;
  dsl::Scope repo;
  repo.kind = dsl::Scope::Kind::Repo;
  for (const auto& r : ctx.files(repo))
    if (lang::language_of(r.path) == lang::Language::Python) refs.push_back(r);
  std::vector<std::shared_ptr<const lang::SourceModel>> models(refs.size());
  if (!seeds) {
    ctx.prefetch(refs, false);
    for (size_t i = 0; i < refs.size(); ++i) models[i] = ctx.model(refs[i].path, false);
  } else {
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < refs.size(); ++i) at.emplace(refs[i].path, i);
    std::vector<char> loaded(refs.size(), 0);
    using Item = std::pair<const lang::SourceModel*, size_t>;  // a class of a loaded model
    std::vector<Item> down, up;
    std::set<Item> down_seen, up_seen;
    std::set<std::string> names_down, names_up;
    auto load = [&](const std::vector<std::string>& paths) {
      std::vector<FileRef> todo;
      for (const auto& p : paths) {
        auto it = at.find(p);
        if (it == at.end() || loaded[it->second]) continue;
        loaded[it->second] = 1;
        todo.push_back(refs[it->second]);
      }
      ctx.prefetch(todo, false);
      for (const auto& r : todo) models[at[r.path]] = ctx.model(r.path, false);
    };
    // every class of the loaded models that `pred` accepts, queued once on `q`
    auto each_loaded = [&](auto&& pred, std::vector<Item>& q, std::set<Item>& seen) {
      for (size_t i = 0; i < refs.size(); ++i)
        if (models[i])
          for (size_t k = 0; k < models[i]->classes.size(); ++k)
            if (pred(models[i]->classes[k]) && seen.insert({models[i].get(), k}).second) q.push_back({models[i].get(), k});
    };
    load(std::vector<std::string>(seeds->begin(), seeds->end()));
    for (const auto& p : *seeds) {
      auto it = at.find(p);
      if (it == at.end() || !models[it->second]) continue;
      const auto* m = models[it->second].get();
      for (size_t k = 0; k < m->classes.size(); ++k) {
        if (down_seen.insert({m, k}).second) down.push_back({m, k});
        if (up_seen.insert({m, k}).second) up.push_back({m, k});
      }
    }
    while (!down.empty() || !up.empty()) {
      if (!down.empty()) {
        // subclasses: a class deriving from it names it in a base, so its file holds the name
        // in a class statement's head
        Item c = down.back();
        down.pop_back();
        const std::string name = c.first->classes[c.second].name;
        if (!names_down.insert(name).second) continue;
        load(ctx.files_holding(name, SourceContext::Holding::ClassHead));
        auto derives = [&](const lang::Class& k) {
          return std::any_of(k.bases.begin(), k.bases.end(), [&](const std::string& b) { return lang::base_name(b) == name; });
        };
        std::vector<Item> found;
        std::set<Item> none;
        each_loaded(derives, found, none);
        for (const auto& f : found) {
          if (down_seen.insert(f).second) down.push_back(f);
          if (up_seen.insert(f).second) up.push_back(f);
        }
        continue;
      }
      // bases: every class a base's name may resolve to, and on up from those
      Item c = up.back();
      up.pop_back();
      for (const auto& b : c.first->classes[c.second].bases) {
        std::string name = lang::base_name(b);
        if (name.empty() || !names_up.insert(name).second) continue;
        load(ctx.files_holding(name, SourceContext::Holding::ClassName));
        each_loaded([&](const lang::Class& k) { return k.name == name; }, up, up_seen);
      }
    }
  }
  for (auto& m : models)
    if (m) rc->models.push_back(std::move(m));
  for (const auto& m : rc->models) rc->cm.add(*m);
  rc->cm.resolve();
  return rc;
}

// The class model for the classes of `files` (null = of every file): cached per change under
// review and set of files. When every Python head file is changed (an audit), the files a few
// seeds' classes lead to are read by the change's own facts anyway, and the model of every file
// gives the facts of the seeds' classes that theirs does (build_classes): one model then, not one
// per set of files asked (`methods(att.file)` over ROCm/ATOM: 3.3% of its audit's CPU).
std::shared_ptr<const RepoClasses> repo_classes(SourceContext& ctx, const std::set<std::string>* files) {
  // The cache is keyed by the change (a weak reference, so a later change at the same address is
  // never mistaken for it).
  static std::mutex mu;
  static std::weak_ptr<const change::Change> owner;
  static std::map<std::string, std::shared_ptr<const RepoClasses>> cached;
  static std::optional<bool> every_python_file_changed;
  std::lock_guard lock(mu);
  auto change = ctx.change_ptr();
  if (owner.lock() != change) {
    cached.clear();
    every_python_file_changed.reset();
  }
  owner = change;
  if (files && !every_python_file_changed) {
    dsl::Scope repo;
    repo.kind = dsl::Scope::Kind::Repo;
    const auto refs = ctx.files(repo);
    every_python_file_changed = std::none_of(refs.begin(), refs.end(), [](const FileRef& r) {
      return !r.base && !r.changed && lang::language_of(r.path) == lang::Language::Python;
    });
  }
  if (files && *every_python_file_changed) files = nullptr;
  std::string key = files ? "" : "*";
  if (files)
    for (const auto& f : *files) key += f + '\n';
  auto it = cached.find(key);
  if (it != cached.end()) return it->second;
  return cached[key] = build_classes(ctx, files);
}

std::vector<std::string> qualified_of(const lang::ClassModel& cm, const std::vector<size_t>& ks) {
  std::vector<std::string> out;
  for (size_t k : ks) out.push_back(cm.classes()[k].qualified);
  return out;
}

// The repository's class model, with the paths of `scope`'s files in `files`; null for a scope of
// base files (the model is of the head side).
std::shared_ptr<const RepoClasses> head_classes(SourceContext& ctx, const dsl::Scope& scope,
                                                std::set<std::string>& files) {
  files.clear();
  for (const auto& r : ctx.files(scope)) {
    if (r.base) return nullptr;
    files.insert(r.path);
  }
  // the changed files or listed files: follow their classes' names; a repo or glob scope:
  // every file
  bool few = scope.kind == dsl::Scope::Kind::Changed || scope.kind == dsl::Scope::Kind::Files;
  return repo_classes(ctx, few ? &files : nullptr);
}

const change::ChangedFile* changed_file(SourceContext& ctx, const std::string& path) {
  return ctx.change().find(path);
}

// The first head line in [a, b] that the change touches: an added line, or the head line standing
// at the place of a removed line (strictly after `a`, so a deletion just above the `def` does not
// count); 0 when none.
int first_changed(const change::ChangedFile* cf, int a, int b) {
  if (cf == nullptr) return 0;
  int best = 0;
  auto it = cf->added_lines.lower_bound(a);
  if (it != cf->added_lines.end() && *it <= b) best = *it;
  for (int old : cf->removed_lines) {
    int h = cf->head_line_of(old);
    if (h > a && h <= b && (best == 0 || h < best)) best = h;
  }
  return best;
}

std::string method_name(const lang::ClassModel& cm, size_t k, const std::string& m) {
  return cm.classes()[k].qualified + "." + m;
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
                field("inherited_methods", T::List, "names of the methods it inherits from repository ancestors and does not define (list of strings)"),
                field("added", T::Bool, "the `class` line is added"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    std::set<std::string> files;
    auto rc = head_classes(ctx, scope, files);
    if (!rc) return out;
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
      std::vector<std::string> inh;
      std::set<std::string> seen(ms.begin(), ms.end());
      for (size_t a : cm.ancestors(i))
        for (const auto* m : cm.classes()[a].methods)
          if (seen.insert(m->name).second) inh.push_back(m->name);
      f->set("inherited_methods", util::str_list(inh));
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
    std::set<std::string> files;
    auto rc = head_classes(ctx, scope, files);
    if (!rc) return out;
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
        f->set("assigned_in", util::str_list(ain));
        f->set("read_in", util::str_list(rin));
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

class MethodsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"methods", "one fact per method of a Python class of the scope, with what overrides or inherits it", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the `def` line"),
                field("end_line", T::Int, "last line of the method"),
                field("class", T::String, "qualified name of the class that defines it"),
                field("name", T::String, "method name"),
                field("qualified", T::String, "Class.method (Outer.Inner.method for a nested class)"),
                field("params", T::List, "parameter names, `self` included (list of strings)"),
                field("decorators", T::List, "decorator texts without '@' (list of strings)"),
                field("added", T::Bool, "the `def` line is added"),
                field("changed", T::Bool, "a line of the method is added, or a line inside it removed"),
                field("changed_line", T::Int, "the first head line of the method the change touches (0 when unchanged)"),
                field("overrides", T::String, "Class.method of the repository ancestor method it overrides (nearest first), \"\" when none"),
                field("overridden_by", T::List, "qualified names of the subclasses (transitive) that define it again (list of strings)"),
                field("inherited_by", T::List, "qualified names of the subclasses (transitive) that run this very method unmodified (list of strings)"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    std::set<std::string> files;
    auto rc = head_classes(ctx, scope, files);
    if (!rc) return out;
    const auto& cm = rc->cm;
    for (size_t i = 0; i < cm.classes().size(); ++i) {
      const auto& c = cm.classes()[i];
      if (!files.count(c.file)) continue;
      const auto* cf = changed_file(ctx, c.file);
      auto anc = cm.ancestors(i);
      for (const auto* m : c.methods) {
        auto f = dsl::make_fact("methods", c.file, m->start_line);
        f->end_line = m->end_line;
        f->set("class", Value(c.qualified));
        f->set("name", Value(m->name));
        f->set("qualified", Value(method_name(cm, i, m->name)));
        std::vector<std::string> ps, ds(m->decorators.begin(), m->decorators.end());
        for (const auto& p : m->params) ps.push_back(p.name);
        f->set("params", util::str_list(ps));
        f->set("decorators", util::str_list(ds));
        f->set("added", Value(cf != nullptr && cf->added_lines.count(m->start_line) > 0));
        int ch = first_changed(cf, m->start_line, m->end_line);
        f->set("changed", Value(ch > 0));
        f->set("changed_line", Value(ch));
        std::string over;
        for (size_t a : anc)
          if (cm.method(a, m->name)) {
            over = method_name(cm, a, m->name);
            break;
          }
        f->set("overrides", Value(over));
        f->set("overridden_by", util::str_list(qualified_of(cm, cm.overridden_by(i, m->name))));
        f->set("inherited_by", util::str_list(qualified_of(cm, cm.inherited_by(i, m->name))));
        out.push_back(f);
      }
    }
    return out;
  }
};

class OverridesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"overrides", "one fact per (repository method, subclass method that overrides it) with either side in the scope; located at the override", true,
            {
                field("file", T::String, "path of the overriding method"),
                field("line", T::Int, "`def` line of the overriding method"),
                field("end_line", T::Int, "last line of the overriding method"),
                field("name", T::String, "method name"),
                field("class", T::String, "qualified name of the subclass that overrides"),
                field("qualified", T::String, "Subclass.method"),
                field("base_class", T::String, "qualified name of the ancestor whose method is overridden"),
                field("base_qualified", T::String, "Ancestor.method"),
                field("base_file", T::String, "path of the overridden method"),
                field("base_line", T::Int, "`def` line of the overridden method"),
                field("direct", T::Bool, "the overridden method is the nearest one up the ancestry (what `super().name` reaches first)"),
                field("added", T::Bool, "the override's `def` line is added"),
                field("changed", T::Bool, "the override has an added line or a removed line inside it"),
                field("base_changed", T::Bool, "the overridden method has an added line or a removed line inside it"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    std::set<std::string> files;
    auto rc = head_classes(ctx, scope, files);
    if (!rc) return out;
    const auto& cm = rc->cm;
    for (size_t i = 0; i < cm.classes().size(); ++i) {
      const auto& sc = cm.classes()[i];
      auto anc = cm.ancestors(i);
      const auto* scf = changed_file(ctx, sc.file);
      for (const auto* m : sc.methods) {
        bool first = true;
        for (size_t a : anc) {
          const auto* bm = cm.method(a, m->name);
          if (bm == nullptr) continue;
          const auto& bc = cm.classes()[a];
          bool direct = first;
          first = false;
          if (!files.count(sc.file) && !files.count(bc.file)) continue;
          auto f = dsl::make_fact("overrides", sc.file, m->start_line);
          f->end_line = m->end_line;
          f->set("name", Value(m->name));
          f->set("class", Value(sc.qualified));
          f->set("qualified", Value(method_name(cm, i, m->name)));
          f->set("base_class", Value(bc.qualified));
          f->set("base_qualified", Value(method_name(cm, a, m->name)));
          f->set("base_file", Value(bc.file));
          f->set("base_line", Value(bm->start_line));
          f->set("direct", Value(direct));
          f->set("added", Value(scf != nullptr && scf->added_lines.count(m->start_line) > 0));
          f->set("changed", Value(first_changed(scf, m->start_line, m->end_line) > 0));
          f->set("base_changed", Value(first_changed(changed_file(ctx, bc.file), bm->start_line, bm->end_line) > 0));
          out.push_back(f);
        }
      }
    }
    return out;
  }
};

class SubclassesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"subclasses", "one fact per (Python class of the scope, repository class deriving from it directly or not); located at the subclass", true,
            {
                field("file", T::String, "path of the subclass"),
                field("line", T::Int, "`class` line of the subclass"),
                field("end_line", T::Int, "last line of the subclass"),
                field("class", T::String, "qualified name of the ancestor (the class of the scope)"),
                field("class_file", T::String, "path of the ancestor"),
                field("class_line", T::Int, "`class` line of the ancestor"),
                field("subclass", T::String, "qualified name of the subclass"),
                field("depth", T::Int, "1 for a direct subclass, 2 for a subclass of one, …"),
                field("methods", T::List, "names of the methods the subclass defines (list of strings)"),
                field("added", T::Bool, "the subclass's `class` line is added"),
            }};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const override {
    std::vector<FactPtr> out;
    std::set<std::string> files;
    auto rc = head_classes(ctx, scope, files);
    if (!rc) return out;
    const auto& cm = rc->cm;
    for (size_t i = 0; i < cm.classes().size(); ++i) {
      const auto& c = cm.classes()[i];
      if (!files.count(c.file)) continue;
      for (size_t s : cm.subclasses(i)) {
        const auto& sc = cm.classes()[s];
        // Depth: the shortest chain of resolved bases from the subclass up to `c`.
        int depth = 0;
        std::vector<size_t> level{s};
        std::set<size_t> seen{s};
        while (!level.empty() && depth < 64) {
          ++depth;
          std::vector<size_t> next;
          bool hit = false;
          for (size_t k : level)
            for (int r : cm.classes()[k].resolved)
              if (r >= 0) {
                if (static_cast<size_t>(r) == i) hit = true;
                if (seen.insert(static_cast<size_t>(r)).second) next.push_back(static_cast<size_t>(r));
              }
          if (hit) break;
          level = std::move(next);
        }
        auto f = dsl::make_fact("subclasses", sc.file, sc.line);
        f->end_line = sc.end_line;
        f->set("class", Value(c.qualified));
        f->set("class_file", Value(c.file));
        f->set("class_line", Value(c.line));
        f->set("subclass", Value(sc.qualified));
        f->set("depth", Value(depth));
        std::vector<std::string> ms;
        for (const auto* m : sc.methods) ms.push_back(m->name);
        f->set("methods", util::str_list(ms));
        const auto* cf = changed_file(ctx, sc.file);
        f->set("added", Value(cf != nullptr && cf->added_lines.count(sc.line) > 0));
        out.push_back(f);
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_methods_source() { return std::make_unique<MethodsSource>(); }
std::unique_ptr<Source> make_overrides_source() { return std::make_unique<OverridesSource>(); }
std::unique_ptr<Source> make_subclasses_source() { return std::make_unique<SubclassesSource>(); }
std::unique_ptr<Source> make_classes_source() { return std::make_unique<ClassesSource>(); }
std::unique_ptr<Source> make_attributes_source() { return std::make_unique<AttributesSource>(); }

}  // namespace review::facts
