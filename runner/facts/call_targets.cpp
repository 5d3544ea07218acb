// Source `call_targets`: call resolution for Python. One fact per call of a Python file, naming
// the definition of the repository the call runs when the resolver can tell which one it is, and
// whether the call's arguments bind to that definition's parameters (Python's binding rules, as
// far as the call's text and the signature show them).
//
// What resolves (head side only; every other call is reported with `unresolved` saying why):
//   - a bare name `f(...)`: a def nested in an enclosing function, else the module's own def or
//     class, else what a `from m import f [as g]` (module level, or in an enclosing function)
//     binds, followed through the repository's modules (relative and absolute imports,
//     re-exports and `from m import *`, cycles cut, at most kMaxHops modules);
//   - `m.f(...)` / `pkg.mod.f(...)` where `m` is bound by `import` or names a module of the
//     repository, walked part by part (submodule or name);
//   - `self.f(...)` in a method whose first parameter is `self`: the method of the enclosing
//     class or of the nearest base (bases resolved as names, left to right, depth first);
//     `super().f(...)` the same from the bases;
//   - a class `Cls(...)`: its `__init__`, found the same way (a constructor).
// A module is a file counted from the top of its package tree; under a namespace package (PEP
// 420: a folder with no `__init__.py` below a package) it is also found by its full dotted path
// (`from pkg.ops.routing.bits import Packed`, `import pkg.ops.gemm as g`); a walk through such a
// folder by attributes (`pkg.ops.gemm.f(...)` after `import pkg.ops.gemm`) stays unresolved.
// A name bound more than once in the scope that decides (a def and an import, two defs under
// `if`/`try`, an assignment) is ambiguous and stays unresolved; so is a name that a local
// variable, parameter, loop or `with` target may bind, a method found past a base that is not a
// class of the repository (`nn.Module`: it may define the method), an attribute that some class
// of the chain assigns (`self.f = …`), and a class with `__new__`, a metaclass, or a decorator
// (`@dataclass` writes the constructor) on the way to its `__init__`. Missing modules, external
// packages, star imports that do not define the name and import cycles leave a call unresolved;
// the resolver never throws on them.
//
// Memory: a file's facts keep a copy of its calls (without their text) and a summary of what the
// resolver reads of it (Module), never the model; the modules followed are read through
// SourceContext::read_model (not cached) and kept as summaries, shared by the context's files.
// A read by key therefore leaves no model of the files it read (Source::keeps_models is false).
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

/// Modules followed for one name before giving up (re-export chains are short in practice).
constexpr int kMaxHops = 12;

std::string dir_of(const std::string& path) {
  size_t s = path.rfind('/');
  return s == std::string::npos ? std::string() : path.substr(0, s + 1);
}

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> out;
  size_t a = 0;
  while (true) {
    size_t b = s.find('.', a);
    out.emplace_back(s.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
    if (b == std::string_view::npos) break;
    a = b + 1;
  }
  return out;
}

bool all_identifiers(const std::vector<std::string>& parts) {
  return !parts.empty() && std::all_of(parts.begin(), parts.end(), [](const std::string& p) { return util::is_identifier(p); });
}

// The repository's Python modules: each head `.py` file under its dotted name, counted from the
// top of its package tree (the first folder up that has no `__init__.py`).
struct ModuleIndex {
  std::set<std::string> files;                                  // every tracked path
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> by_name;  // dotted -> (path, root)
  std::set<std::string> package_roots;                          // roots holding a package ("" always)

  explicit ModuleIndex(const std::vector<std::string>& paths) {
    std::set<std::string> pkg_dirs;
    for (const auto& p : paths) {
      files.insert(p);
      if (p == "__init__.py" || (p.size() > 12 && p.compare(p.size() - 12, 12, "/__init__.py") == 0)) pkg_dirs.insert(dir_of(p));
    }
    package_roots.insert("");
    for (const auto& p : paths) {
      if (p.size() < 4 || p.compare(p.size() - 3, 3, ".py") != 0) continue;
      std::string stem = p.substr(0, p.size() - 3);
      bool init = stem == "__init__" || (stem.size() > 9 && stem.compare(stem.size() - 9, 9, "/__init__") == 0);
      std::string d = dir_of(p);
      std::string root = d;
      while (!root.empty() && pkg_dirs.count(root)) root = dir_of(root.substr(0, root.size() - 1));
      std::string rel = init ? d.substr(root.size()) : stem.substr(root.size());
      if (!rel.empty() && rel.back() == '/') rel.pop_back();
      if (rel.empty()) continue;  // a top-level __init__.py of a non-package folder
      std::string dotted = rel;
      std::replace(dotted.begin(), dotted.end(), '/', '.');
      if (!all_identifiers(split_dots(dotted))) continue;
      by_name[dotted].push_back({p, root});
      if (dotted.find('.') != std::string::npos) package_roots.insert(root);
    }
  }

  // The file of absolute module `dotted` imported from `from`: a module of a package root, or a
  // sibling module of a script folder. "" when none or more than one qualifies.
  std::string absolute(const std::string& dotted, const std::string& from) const {
    auto it = by_name.find(dotted);
    if (it == by_name.end()) return namespace_module(dotted);
    std::string found;
    int n = 0;
    std::string here = dir_of(from);
    for (const auto& [path, root] : it->second)
      if (package_roots.count(root) || root == here) {
        found = path;
        ++n;
      }
    return n == 1 ? found : "";
  }

  // The file of absolute module `dotted` under a namespace package (PEP 420: a folder on the
  // import path with no `__init__.py`, `aiter/ops/moe_routing/bitmatrix.py` imported as
  // `aiter.ops.moe_routing.bitmatrix`): the module's path under a package root whose first
  // folder is a package (has `__init__.py`), so that a folder of scripts named like another
  // package is not taken for it. "" when none or more than one root has it.
  std::string namespace_module(const std::string& dotted) const {
    auto parts = split_dots(dotted);
    if (parts.size() < 2 || !all_identifiers(parts)) return "";
    std::string rel = dotted;
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::string found;
    int n = 0;
    for (const auto& root : package_roots) {
      if (!files.count(root + parts[0] + "/__init__.py")) continue;
      for (const auto& f : {root + rel + ".py", root + rel + "/__init__.py"})
        if (files.count(f)) {
          found = f;
          ++n;
          break;
        }
    }
    return n == 1 ? found : "";
  }

  // The file of module `rel` (dots then an optional dotted name) relative to file `from`; "" when
  // it is not a file of the repository.
  std::string relative(const std::string& rel, const std::string& from) const {
    size_t dots = rel.find_first_not_of('.');
    if (dots == std::string::npos) dots = rel.size();
    std::string base = dir_of(from);
    for (size_t i = 1; i < dots; ++i) {
      if (base.empty()) return "";
      base = dir_of(base.substr(0, base.size() - 1));
    }
    std::string rest = rel.substr(dots);
    std::replace(rest.begin(), rest.end(), '.', '/');
    if (rest.empty()) return files.count(base + "__init__.py") ? base + "__init__.py" : "";
    if (files.count(base + rest + ".py")) return base + rest + ".py";
    if (files.count(base + rest + "/__init__.py")) return base + rest + "/__init__.py";
    return "";
  }

  std::string module_file(const std::string& module, const std::string& from) const {
    if (module.empty()) return "";
    return module[0] == '.' ? relative(module, from) : absolute(module, from);
  }

  // The submodule `name` of the package whose `__init__.py` is `init`; "" when none.
  std::string submodule(const std::string& init, const std::string& name) const {
    if (init.size() < 11 || init.compare(init.size() - 11, 11, "__init__.py") != 0) return "";
    std::string d = dir_of(init);
    if (files.count(d + name + ".py")) return d + name + ".py";
    if (files.count(d + name + "/__init__.py")) return d + name + "/__init__.py";
    return "";
  }
};

bool has_decorator(const lang::Function& f, std::string_view d) {
  return std::any_of(f.decorators.begin(), f.decorators.end(), [&](const std::string& x) {
    std::string n = util::trim(x);
    return n == d || (n.size() > d.size() && n.compare(n.size() - d.size(), d.size(), d) == 0 && n[n.size() - d.size() - 1] == '.');
  });
}

// Whether the body of `f` only passes, has `...`, or raises NotImplementedError (docstrings blank).
bool abstract_body(const lang::SourceModel& m, const lang::Function& f) {
  if (has_decorator(f, "abstractmethod")) return true;
  bool header = true;
  for (int l = f.start_line; l <= f.end_line && l <= static_cast<int>(m.lines.size()); ++l) {
    std::string c = util::trim(m.code(static_cast<size_t>(l - 1)));
    if (header) {
      // the signature runs to the line whose code ends with ':' (comments are blanked)
      size_t colon = c.rfind(':');
      if (colon != std::string::npos && util::trim(c.substr(colon + 1)).empty()) header = false;
      else if (colon != std::string::npos && l == f.start_line && c.find(")") != std::string::npos) {
        // `def f(x): ...` on one line
        std::string rest = util::trim(c.substr(colon + 1));
        return rest == "..." || rest == "pass" || rest.rfind("raise NotImplementedError", 0) == 0;
      }
      continue;
    }
    if (c.empty()) continue;
    bool only_string = std::all_of(c.begin(), c.end(), [](char ch) { return ch == '"' || ch == '\'' || ch == ' ' || ch == 'r' || ch == 'b' || ch == 'f' || ch == 'u'; });
    if (only_string) continue;
    if (c == "..." || c == "pass" || c.rfind("raise NotImplementedError", 0) == 0) continue;
    return false;
  }
  return true;
}

// What the resolver reads of one Python file, copied out of its model so that the model itself
// (lines, statements, calls, text: most of its size) is freed once read: the module-level
// bindings (defs, classes, imports, assignments), each def's signature, decorators and abstract
// flag, each class's bases and the decorator line above it, which function each import is in,
// and the code of the lines that may rebind a name (loops, `with`, `lambda`, ...). The resolver
// answers from this exactly what it answered from the whole model.
struct Module {
  std::string path;
  std::vector<lang::Function> functions;  // the model's, in its order; signature and calls left empty
  std::vector<char> abstract;             // per function: abstract_body
  std::vector<lang::Class> classes;       // the model's
  std::vector<std::string> decorated;     // per class: the trimmed line above it when it starts with '@', else ""
  std::vector<lang::Import> imports;      // the model's
  std::vector<char> import_top;           // per import: at module level (module_level)
  std::vector<int> import_function;       // per import: index of its innermost enclosing function, -1 when none
  std::vector<lang::Assignment> assignments;  // target, function and cls only (copied field by field: a whole copy then trimmed
                                              // fragments the heap; 042e8f1c02 peaked 5 MiB higher)
  std::shared_ptr<std::deque<std::string>> function_names;  // the model's: what assignments' `function` views
  std::map<int, std::string> binder_lines;    // line -> code, for lines holding a binder keyword (maybe_rebound)
};

bool module_level(const lang::SourceModel& m, int line) {
  if (line < 1 || line > static_cast<int>(m.lines.size())) return false;
  const auto& li = m.lines[static_cast<size_t>(line - 1)];
  return li.function < 0 && li.cls < 0;
}

// Whether a line's code holds a keyword that may bind a name (Resolver::maybe_rebound).
bool binder_line(std::string_view code) {
  return code.find("for ") != std::string::npos || code.find(" as ") != std::string::npos ||
         code.find("lambda") != std::string::npos || code.find("global") != std::string::npos ||
         code.find("nonlocal") != std::string::npos || code.find(":=") != std::string::npos ||
         code.find("del ") != std::string::npos || code.find("except") != std::string::npos;
}

std::shared_ptr<const Module> summarise(const lang::SourceModel& m) {
  auto out = std::make_shared<Module>();
  out->path = m.path;
  out->functions.reserve(m.functions.size());
  for (const auto& f : m.functions) {
    lang::Function g;
    g.name = f.name;
    g.qualified = f.qualified;
    g.cls = f.cls;
    g.params = f.params;
    g.decorators = f.decorators;
    g.start_line = f.start_line;
    g.end_line = f.end_line;
    out->functions.push_back(std::move(g));
    out->abstract.push_back(abstract_body(m, f) ? 1 : 0);
  }
  out->classes = m.classes;
  for (const auto& c : m.classes) {
    std::string prev;
    if (c.start_line >= 2 && static_cast<size_t>(c.start_line - 2) < m.text_lines.size())
      prev = util::trim(m.text_lines[static_cast<size_t>(c.start_line - 2)]);
    out->decorated.push_back(!prev.empty() && prev[0] == '@' ? prev : std::string());
  }
  out->imports = m.imports;
  for (const auto& imp : m.imports) {
    out->import_top.push_back(module_level(m, imp.line) ? 1 : 0);
    bool in = imp.line >= 1 && imp.line <= static_cast<int>(m.lines.size());
    out->import_function.push_back(in ? m.lines[static_cast<size_t>(imp.line - 1)].function : -1);
  }
  out->function_names = m.function_names;
  out->assignments.reserve(m.assignments.size());
  for (const auto& a : m.assignments) {
    lang::Assignment b;
    b.target = a.target;
    b.function = a.function;
    b.cls = a.cls;
    out->assignments.push_back(std::move(b));
  }
  for (size_t i = 0; i < m.lines.size(); ++i)
    if (binder_line(m.code(i))) out->binder_lines.emplace(static_cast<int>(i + 1), std::string(m.code(i)));
  return out;
}

// What the resolvers of one context share: the module index, and the summaries of the Python files
// they opened (null for files without text, skipped or of another language). Read through
// SourceContext::read_model, so a file parsed only to resolve calls is not kept whole.
struct Shared {
  explicit Shared(const std::vector<std::string>& paths) : idx(paths) {}
  const ModuleIndex idx;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Module>> modules;

  // The summary of head file `path`, from `m` when given (its model at hand), else read.
  std::shared_ptr<const Module> module(SourceContext& ctx, const std::string& path,
                                       const std::shared_ptr<const lang::SourceModel>& m = nullptr) {
    {
      std::lock_guard lock(mu);
      if (auto it = modules.find(path); it != modules.end()) return it->second;
    }
    auto model = m ? m : ctx.read_model(path, false);
    std::shared_ptr<const Module> out;
    if (model && !model->skipped && model->language == lang::Language::Python) out = summarise(*model);
    std::lock_guard lock(mu);
    return modules.emplace(path, std::move(out)).first->second;
  }
};

// The shared state of the context's change, built on first use and kept in the context.
std::shared_ptr<Shared> shared_state(SourceContext& ctx) {
  auto& slot = ctx.state("call_targets");
  if (!slot) slot = std::make_shared<Shared>(ctx.repo_files());
  return std::static_pointer_cast<Shared>(slot);
}

// What a name or dotted path resolved to.
struct Target {
  enum class Kind { None, Function, Class, Module } kind = Kind::None;
  std::shared_ptr<const Module> model;  // the file that defines it
  const lang::Function* fn = nullptr;
  const lang::Class* cls = nullptr;
  std::string why;  // for None: why not resolved
  bool absent = false;  // for None: the name is defined nowhere the search looked (not unknown)
  bool external = false;  // for None: bound to another package's module, or to no name of the repository
};

Target external(std::string why) {
  Target t;
  t.why = std::move(why);
  t.external = true;
  return t;
}

Target none(std::string why) {
  Target t;
  t.why = std::move(why);
  return t;
}

// One binding of a name in a scope.
struct Binding {
  enum class Kind { Def, Class, Import, ImportModule, Assign, Star } kind;
  const lang::Function* fn = nullptr;
  const lang::Class* cls = nullptr;
  std::string module;  // Import: the module; ImportModule: the module imported
  std::string orig;    // Import: the imported name
};

// `import a.b.c` binds `a` (module "a"); `import a.b as x` binds `x` (module "a.b");
// `from m import f as g` binds `g` (module m, name f); `from m import *` binds whatever m exports.
void import_bindings(const lang::Import& imp, const std::string& name, std::vector<Binding>& out, bool stars) {
  if (imp.names.empty()) {
    std::string top = imp.module.substr(0, imp.module.find('.'));
    if (top == name) out.push_back({Binding::Kind::ImportModule, nullptr, nullptr, top, ""});
    return;
  }
  bool plain = imp.names.size() == 1 && imp.names[0].rfind(imp.module + " as ", 0) == 0;
  for (const auto& n : imp.names) {
    size_t as = n.find(" as ");
    std::string bound = util::trim(as == std::string::npos ? n : n.substr(as + 4));
    std::string orig = util::trim(as == std::string::npos ? n : n.substr(0, as));
    if (orig == "*") {
      if (stars) out.push_back({Binding::Kind::Star, nullptr, nullptr, imp.module, ""});
      continue;
    }
    if (bound != name) continue;
    if (plain) out.push_back({Binding::Kind::ImportModule, nullptr, nullptr, imp.module, ""});
    else out.push_back({Binding::Kind::Import, nullptr, nullptr, imp.module, orig});
  }
}

class Resolver {
 public:
  Resolver(SourceContext& ctx, Shared& shared) : ctx_(ctx), shared_(shared), idx_(shared.idx) {}

  std::shared_ptr<const Module> model(const std::string& path) { return shared_.module(ctx_, path); }

  // The module-level bindings of `name` in `m` (stars: `from x import *` lines too).
  std::vector<Binding> module_bindings(const Module& m, const std::string& name, bool stars) {
    std::vector<Binding> out;
    for (const auto& f : m.functions)
      if (f.cls.empty() && f.qualified == f.name && f.name == name) out.push_back({Binding::Kind::Def, &f, nullptr, "", ""});
    for (const auto& c : m.classes)
      if (c.qualified == c.name && c.name == name) out.push_back({Binding::Kind::Class, nullptr, &c, "", ""});
    for (size_t i = 0; i < m.imports.size(); ++i)
      if (m.import_top[i]) import_bindings(m.imports[i], name, out, stars);
    for (const auto& a : m.assignments)
      if (a.function.empty() && a.cls.empty() && a.target == name) out.push_back({Binding::Kind::Assign, nullptr, nullptr, "", ""});
    return out;
  }

  // An import of a module that is no file of the repository: another package's when absolute and
  // its top-level name is no module of the repository either.
  Target missing_module(const std::string& module) {
    std::string why = "module `" + module + "` is not a module of the repository";
    if (module.empty() || module[0] == '.') return none(why);
    std::string top = module.substr(0, module.find('.'));
    if (idx_.by_name.count(top)) return none(why);
    return external(why);
  }

  // Follows one binding found in file `path` (model `m`).
  Target follow(const Binding& b, const std::shared_ptr<const Module>& m, int hops) {
    switch (b.kind) {
      case Binding::Kind::Def: {
        Target t;
        t.kind = Target::Kind::Function;
        t.model = m;
        t.fn = b.fn;
        return t;
      }
      case Binding::Kind::Class: {
        Target t;
        t.kind = Target::Kind::Class;
        t.model = m;
        t.cls = b.cls;
        return t;
      }
      case Binding::Kind::Assign: return none("assigned, not defined");
      case Binding::Kind::Star: return none("star import");
      case Binding::Kind::ImportModule: {
        std::string f = idx_.module_file(b.module, m->path);
        if (f.empty()) return missing_module(b.module);
        Target t;
        t.kind = Target::Kind::Module;
        t.model = model(f);
        if (!t.model) return none("module `" + b.module + "` could not be read");
        return t;
      }
      case Binding::Kind::Import: {
        std::string f = idx_.module_file(b.module, m->path);
        if (f.empty()) return missing_module(b.module);
        return in_module(f, b.orig, hops + 1);
      }
    }
    return none("unknown binding");
  }

  // What `name` is in module file `path`: its own binding, a submodule of a package, or what a
  // star import brings.
  Target in_module(const std::string& path, const std::string& name, int hops) {
    std::string memo_key = path + '\n' + name;
    auto hit = module_memo_.find(memo_key);
    if (hit != module_memo_.end()) return hit->second;
    Target t = in_module_uncached(path, name, hops);
    if (visiting_.empty()) module_memo_[memo_key] = t;
    return t;
  }

  Target in_module_uncached(const std::string& path, const std::string& name, int hops) {
    if (hops > kMaxHops) return none("import chain longer than " + std::to_string(kMaxHops) + " modules");
    std::string key = path + '\n' + name;
    if (!visiting_.insert(key).second) return none("import cycle");
    struct Leave {
      std::set<std::string>& s;
      std::string k;
      ~Leave() { s.erase(k); }
    } leave{visiting_, key};
    auto m = model(path);
    if (!m) return none("`" + path + "` could not be read");
    auto bs = module_bindings(*m, name, false);
    if (bs.size() > 1) return none("`" + name + "` is bound more than once in `" + path + "`");
    if (bs.size() == 1) return follow(bs[0], m, hops);
    std::string sub = idx_.submodule(path, name);
    if (!sub.empty()) {
      Target t;
      t.kind = Target::Kind::Module;
      t.model = model(sub);
      if (t.model) return t;
    }
    for (const auto& f : m->functions)
      if (f.cls.empty() && f.qualified == "__getattr__") return none("`" + path + "` defines module `__getattr__`");
    // star imports: the name must come from exactly one of them
    std::vector<Binding> stars;
    for (size_t i = 0; i < m->imports.size(); ++i)
      if (m->import_top[i]) import_bindings(m->imports[i], "", stars, true);
    Target found = none("`" + name + "` is not defined in `" + path + "`");
    int n = 0;
    for (const auto& s : stars) {
      std::string f = idx_.module_file(s.module, path);
      if (f.empty()) {
        found = none("`" + name + "` may come from `from " + s.module + " import *`");
        n = 2;
        break;
      }
      Target t = in_module(f, name, hops + 1);
      if (t.kind != Target::Kind::None) {
        found = t;
        ++n;
      }
    }
    if (n > 1 && found.kind != Target::Kind::None) return none("`" + name + "` comes from more than one star import");
    return found;
  }

  // Walks `parts` from a resolved module.
  Target walk(Target t, const std::vector<std::string>& parts, size_t from) {
    for (size_t i = from; i < parts.size(); ++i) {
      if (t.kind != Target::Kind::Module) return none("`" + parts[i] + "` is read from a " + (t.kind == Target::Kind::Class ? "class" : "function") + ", not followed");
      t = in_module(t.model->path, parts[i], 0);
      if (t.kind == Target::Kind::None) return t;
    }
    return t;
  }

  // Names a loop, `with`, `lambda`, `global`/`nonlocal`, `del` or walrus may bind in lines [a, b].
  static bool maybe_rebound(const Module& m, int a, int b, const std::string& name) {
    for (auto it = m.binder_lines.lower_bound(a); it != m.binder_lines.end() && it->first <= b; ++it) {
      const std::string& code = it->second;
      if (code.find(name) == std::string::npos) continue;
      // a whole-token occurrence
      for (size_t p = code.find(name); p != std::string::npos; p = code.find(name, p + 1)) {
        bool l_ok = p == 0 || !(std::isalnum(static_cast<unsigned char>(code[p - 1])) || code[p - 1] == '_' || code[p - 1] == '.');
        size_t e = p + name.size();
        bool r_ok = e >= code.size() || !(std::isalnum(static_cast<unsigned char>(code[e])) || code[e] == '_');
        if (l_ok && r_ok) return true;
      }
    }
    return false;
  }

  // What the bare name `name` means at a call inside function `fq` ("" at module level) of `m`.
  Target name_at(const std::shared_ptr<const Module>& m, const std::string& fq, const std::string& name) {
    std::string memo_key = m->path + '\n' + fq + '\n' + name;
    auto hit = name_memo_.find(memo_key);
    if (hit != name_memo_.end()) return hit->second;
    Target t = name_at_uncached(m, fq, name);
    if (visiting_.empty()) name_memo_[memo_key] = t;
    return t;
  }

  Target name_at_uncached(const std::shared_ptr<const Module>& m, const std::string& fq, const std::string& name) {
    // enclosing functions, innermost first
    std::vector<const lang::Function*> chain;
    if (!fq.empty()) {
      std::string q = fq;
      while (true) {
        for (const auto& f : m->functions)
          if (f.qualified == q) {
            chain.push_back(&f);
            break;
          }
        size_t dot = q.rfind('.');
        if (dot == std::string::npos) break;
        q = q.substr(0, dot);
      }
    }
    std::string nested;  // f's qualified name and "." and `name`: a def or class nested in f
    for (const auto* f : chain) {
      std::vector<Binding> bs;
      nested.assign(f->qualified).append(1, '.').append(name);
      for (const auto& g : m->functions)
        if (g.qualified == nested) bs.push_back({Binding::Kind::Def, &g, nullptr, "", ""});
      for (const auto& c : m->classes)
        if (c.qualified == nested) bs.push_back({Binding::Kind::Class, nullptr, &c, "", ""});
      for (const auto& p : f->params)
        if (p.name == name) return none("`" + name + "` is a parameter of `" + f->qualified + "`");
      for (const auto& a : m->assignments)
        if (a.target == name && a.function == f->qualified) bs.push_back({Binding::Kind::Assign, nullptr, nullptr, "", ""});
      for (size_t i = 0; i < m->imports.size(); ++i) {
        const auto& imp = m->imports[i];
        int fi = m->import_function[i];
        if (imp.line >= f->start_line && imp.line <= f->end_line && fi >= 0 && &m->functions[static_cast<size_t>(fi)] == f)
          import_bindings(imp, name, bs, false);
      }
      if (maybe_rebound(*m, f->start_line, f->end_line, name)) return none("`" + name + "` may be rebound in `" + f->qualified + "`");
      if (bs.size() > 1) return none("`" + name + "` is bound more than once in `" + f->qualified + "`");
      if (bs.size() == 1) return follow(bs[0], m, 0);
    }
    auto bs = module_bindings(*m, name, false);
    if (bs.size() > 1) return none("`" + name + "` is bound more than once in `" + m->path + "`");
    if (bs.size() == 1) return follow(bs[0], m, 0);
    std::vector<Binding> stars;
    for (size_t i = 0; i < m->imports.size(); ++i)
      if (m->import_top[i]) import_bindings(m->imports[i], "", stars, true);
    if (!stars.empty()) return in_module(m->path, name, 0);
    return external("`" + name + "` is not defined in the repository (a builtin or undefined)");
  }

  // The class a base text names, from the scope of the class's file.
  Target base_class(const std::shared_ptr<const Module>& m, const std::string& base) {
    if (base.find('=') != std::string::npos) return none("metaclass or class keyword");
    std::string b = util::trim(base);
    size_t br = b.find('[');
    if (br != std::string::npos) b = b.substr(0, br);
    auto parts = split_dots(b);
    if (!all_identifiers(parts)) return none("base `" + base + "` is not a name");
    Target t = name_at(m, "", parts[0]);
    if (t.kind == Target::Kind::None) return t;
    t = walk(t, parts, 1);
    if (t.kind != Target::Kind::Class) return none("base `" + base + "` is not a class of the repository");
    return t;
  }

  // The method `name` that an instance of class `c` (in model `m`) runs, searched in `c` itself
  // unless `skip_self`, then in its bases left to right, depth first.
  Target method_of(const std::shared_ptr<const Module>& m, const lang::Class* c, const std::string& name,
                   bool skip_self, int depth, bool constructor) {
    if (depth > kMaxHops) return none("class hierarchy deeper than " + std::to_string(kMaxHops));
    std::string key = "class\n" + m->path + '\n' + c->qualified;
    if (!visiting_.insert(key).second) return none("class hierarchy cycle");
    struct Leave {
      std::set<std::string>& s;
      std::string k;
      ~Leave() { s.erase(k); }
    } leave{visiting_, key};
    if (!skip_self) {
      if (constructor) {
        const std::string& prev = m->decorated[static_cast<size_t>(c - m->classes.data())];
        if (!prev.empty()) return none("class `" + c->qualified + "` is decorated (`" + prev + "`)");
        const std::string new_method = c->qualified + ".__new__";
        for (const auto& f : m->functions)
          if (f.qualified == new_method) return none("class `" + c->qualified + "` defines `__new__`");
      }
      const lang::Function* found = nullptr;
      int n = 0;
      const std::string method = c->qualified + "." + name, attribute = "self." + name;
      for (const auto& f : m->functions)
        if (f.qualified == method) {
          found = &f;
          ++n;
        }
      for (const auto& a : m->assignments)
        if ((a.target == name || a.target == attribute) && a.cls == c->name)
          return none("`" + name + "` is assigned as an attribute of `" + c->qualified + "`");
      if (n > 1) return none("`" + c->qualified + "` defines `" + name + "` more than once");
      if (n == 1) {
        Target t;
        t.kind = Target::Kind::Function;
        t.model = m;
        t.fn = found;
        return t;
      }
    }
    for (const auto& b : c->bases) {
      if (b.find('=') != std::string::npos) return none("class `" + c->qualified + "` has a class keyword (`" + b + "`)");
      std::string bn = util::trim(b);
      if (bn == "object") continue;
      Target bt = base_class(m, b);
      if (bt.kind != Target::Kind::Class) return none("base `" + b + "` of `" + c->qualified + "` is not a class of the repository");
      Target t = method_of(bt.model, bt.cls, name, false, depth + 1, constructor);
      if (t.kind != Target::Kind::None || !t.absent) return t;
    }
    Target t = none("`" + name + "` is not defined in `" + c->qualified + "` or its bases");
    // a class that answers unknown attributes itself (`__getattr__`) may still have it
    t.absent = true;
    for (const auto& f : m->functions)
      if (f.qualified == c->qualified + ".__getattr__" || f.qualified == c->qualified + ".__getattribute__") {
        t = none("`" + c->qualified + "` answers unknown attributes (`" + f.name + "`)");
        break;
      }
    return t;
  }

  // A class deriving (directly or not, bases matched by name: an over-approximation) from the
  // class named `cls` that defines method `name` itself: its qualified name, "" when none. For
  // `self.name(…)`, whose instance may be of such a subclass. At most kMaxSubclasses classes.
  std::string overridden_below(const std::string& cls, const std::string& name) {
    constexpr size_t kMaxSubclasses = 500;
    std::vector<std::string> todo{cls};
    std::set<std::string> seen{cls};
    while (!todo.empty() && seen.size() < kMaxSubclasses) {
      std::string n = todo.back();
      todo.pop_back();
      for (const auto& path : ctx_.files_holding(n, SourceContext::Holding::ClassHead)) {
        if (lang::language_of(path) != lang::Language::Python) continue;
        auto m = model(path);
        if (!m) continue;
        for (const auto& k : m->classes) {
          bool derives = std::any_of(k.bases.begin(), k.bases.end(), [&](const std::string& b) {
            std::string t = util::trim(b);
            size_t br = t.find('[');
            if (br != std::string::npos) t = t.substr(0, br);
            size_t dot = t.rfind('.');
            return (dot == std::string::npos ? t : t.substr(dot + 1)) == n;
          });
          if (!derives) continue;
          for (const auto& f : m->functions)
            if (f.qualified == k.qualified + "." + name) return k.qualified;
          if (seen.insert(k.name).second) todo.push_back(k.name);
        }
      }
    }
    return seen.size() >= kMaxSubclasses ? cls + " (too many subclasses to check)" : "";
  }

 private:
  SourceContext& ctx_;
  Shared& shared_;
  const ModuleIndex& idx_;
  std::set<std::string> visiting_;
  std::map<std::string, Target> module_memo_, name_memo_;
};

// The binding of a call's arguments to `params` (the bound parameter already dropped): the first
// mismatch in Python's TypeError wording, "" when they bind or the call's `*`/`**` arguments hide it.
struct Bound {
  std::string error;
  std::vector<std::string> unknown;  // keyword names the signature does not take
};

Bound bind_arguments(const lang::Call& c, const std::vector<lang::Param>& params, const std::string& fname) {
  Bound out;
  bool has_kwargs = false, has_varargs = false;
  size_t slots = 0;  // parameters that can take a positional argument
  std::set<std::string> names;
  for (const auto& p : params) {
    bool star2 = p.text.rfind("**", 0) == 0, star1 = !star2 && p.text.rfind("*", 0) == 0;
    if (star2) has_kwargs = true;
    else if (star1) has_varargs = true;
    else {
      names.insert(p.name);
      if (!has_varargs) ++slots;
    }
  }
  bool call_star = false, call_star2 = false;
  size_t positional = 0;
  for (const auto& a : c.args) {
    std::string t = util::trim(a);
    if (t.rfind("**", 0) == 0) call_star2 = true;
    else if (t.rfind("*", 0) == 0) call_star = true;
    else ++positional;
  }
  std::set<std::string> given;
  for (const auto& [k, v] : c.kwargs) {
    given.emplace(k);
    if (!has_kwargs && !names.count(std::string(k))) out.unknown.emplace_back(k);
  }
  if (!out.unknown.empty()) {
    out.error = fname + "() got an unexpected keyword argument '" + out.unknown[0] + "'";
    return out;
  }
  if (call_star) return out;
  if (!has_varargs && positional > slots) {
    out.error = fname + "() takes " + std::to_string(slots) + " positional argument" + (slots == 1 ? "" : "s") + " but " +
                std::to_string(positional) + (positional == 1 ? " was" : " were") + " given";
    return out;
  }
  if (call_star2) return out;
  size_t i = 0;
  bool after_star = false;
  for (const auto& p : params) {
    bool starred = p.text.rfind("*", 0) == 0;
    if (starred) {
      after_star = true;
      continue;
    }
    bool filled = (!after_star && i < positional) || given.count(p.name);
    if (!after_star) ++i;
    if (!filled && p.default_value.empty()) {
      out.error = fname + "() missing a required argument: '" + p.name + "'";
      return out;
    }
  }
  return out;
}

// Resolves one call: sets `t`, `via` and `kind`.
void resolve(Resolver& res, const std::shared_ptr<const Module>& m, const lang::Call& c, Target& t,
                    std::string& via, std::string& kind) {
  std::string callee(c.callee);
  bool sup = callee.rfind("super().", 0) == 0;
  if (sup || callee.rfind("self.", 0) == 0) {
    std::string name = callee.substr(sup ? 8 : 5);
    if (!util::is_identifier(name)) {
      t = none("`" + callee + "` is not a method name");
      return;
    }
    // the enclosing method and its class
    const lang::Function* fn = nullptr;
    for (const auto& f : m->functions)
      if (f.qualified == c.function) fn = &f;
    if (!fn || fn->cls.empty() || fn->params.empty() || fn->params[0].name != "self" ||
        has_decorator(*fn, "staticmethod") || has_decorator(*fn, "classmethod")) {
      t = none("`self` is not the instance of an enclosing method");
      return;
    }
    const lang::Class* cls = nullptr;
    std::string cq(c.function.substr(0, c.function.size() - fn->name.size() - 1));
    for (const auto& k : m->classes)
      if (k.qualified == cq) cls = &k;
    if (!cls) {
      t = none("enclosing class not found");
      return;
    }
    t = res.method_of(m, cls, name, sup, 0, false);
    via = sup ? "super" : "self";
    kind = "method";
    return;
  }
  auto parts = split_dots(callee);
  if (!all_identifiers(parts)) {
    t = none("`" + callee + "` is not a name or dotted name");
    return;
  }
  Target head = res.name_at(m, std::string(c.function), parts[0]);
  if (head.kind == Target::Kind::None) {
    t = head;
    return;
  }
  if (parts.size() == 1) {
    via = head.model && head.model->path == m->path ? "scope" : "import";
    t = head;
  } else {
    via = "module";
    t = res.walk(head, parts, 1);
  }
  if (t.kind == Target::Kind::Class) {
    Target init = res.method_of(t.model, t.cls, "__init__", false, 0, true);
    if (init.kind == Target::Kind::None) {
      t = none(init.absent ? "class `" + t.cls->qualified + "` has no `__init__` in the repository" : init.why);
      return;
    }
    t = init;
    kind = "constructor";
  }
}

// The resolution of one call, as the lazily computed fields of its fact (CallTargetFields' cache,
// one per call read): typed members, read into a Value on demand. The target is a view into its
// module summary, which the shared state keeps for as long as any call fact lives
// (Shared::modules only grows): its name, file, line, parameters and decorators are read from
// there, not copied per call (an audit of ROCm/aiter resolves some 130,000 calls in B5b).
struct Resolved {
  const Module* module = nullptr;     // the target's file; null when unresolved
  const lang::Function* fn = nullptr;  // the target
  bool external = false, target_abstract = false, target_kwargs = false;
  bool drop_first = false;  // the target's first parameter (self or cls) is not passed
  std::string_view kind, via;  // static strings: "function", "method", "constructor"; "self", "scope", ...
  std::string binding_error, unresolved;
  std::vector<std::string> unknown_keywords;

  // The target's parameters as the call binds them (without the first when drop_first).
  std::vector<std::string> params() const {
    std::vector<std::string> out;
    if (!fn) return out;
    for (size_t i = drop_first ? 1 : 0; i < fn->params.size(); ++i) out.push_back(fn->params[i].text);
    return out;
  }

  // The field `name` (one of the names CallTargetFields::names() lists past the call's own);
  // null for any other name.
  Value get(std::string_view name) const {
    if (name == "binding_error") return Value(binding_error);
    if (name == "external") return Value(external);
    if (name == "kind") return Value(std::string(kind));
    if (name == "target") return Value(fn ? fn->qualified : std::string());
    if (name == "target_abstract") return Value(target_abstract);
    if (name == "target_decorators") return util::str_list(fn ? fn->decorators : std::vector<std::string>());
    if (name == "target_file") return Value(module ? module->path : std::string());
    if (name == "target_kwargs") return Value(target_kwargs);
    if (name == "target_line") return Value(static_cast<int64_t>(fn ? fn->start_line : 0));
    if (name == "target_params") return util::str_list(params());
    if (name == "unknown_keywords") return util::str_list(unknown_keywords);
    if (name == "unresolved") return Value(unresolved);
    if (name == "via") return Value(std::string(via));
    return {};
  }
};

// `s` as a view of a static string: the kinds and ways of a resolution ("method", "self", ...)
// are a handful of literals; any other text gives "".
std::string_view stable_name(const std::string& s) {
  static constexpr std::string_view kNames[] = {"function", "method", "constructor", "super", "self",
                                                "scope",    "import", "module"};
  for (std::string_view n : kNames)
    if (s == n) return n;
  return {};
}

// The resolution of a call that runs no definition of the repository: `why` says why.
Resolved unresolved_call(bool external, const std::string& why) {
  Resolved r;
  r.external = external;
  r.unresolved = why;
  return r;
}

Resolved compute(Resolver& res, const std::shared_ptr<const Module>& m, const lang::Call& c, bool base) {
  Target t;
  std::string via, kind;
  bool drop_first = false;
  if (base) t = none("calls of the base side are not resolved");
  else resolve(res, m, c, t, via, kind);
  if (t.kind == Target::Kind::Function) {
    const auto& fn = *t.fn;
    if (has_decorator(fn, "property") || has_decorator(fn, "setter")) {
      t = none("`" + fn.qualified + "` is a property");
    } else {
      if (kind.empty()) kind = fn.cls.empty() ? "function" : "method";
      // an instance or class method called through its instance, class or constructor
      drop_first = !fn.cls.empty() && !has_decorator(fn, "staticmethod");
    }
  } else if (t.kind != Target::Kind::None) {
    t = none(t.kind == Target::Kind::Module ? "the callee is a module" : "class without an `__init__` found");
  }
  if (t.kind != Target::Kind::Function) return unresolved_call(t.external, t.why.empty() ? std::string("not resolved") : t.why);
  const auto& fn = *t.fn;
  std::vector<lang::Param> ps(fn.params.begin(), fn.params.end());
  Resolved out;
  out.drop_first = drop_first && !ps.empty() && ps[0].text.rfind("*", 0) != 0;
  if (out.drop_first) ps.erase(ps.begin());
  for (const auto& p : ps)
    if (p.text.rfind("**", 0) == 0) out.target_kwargs = true;
  Bound b = bind_arguments(c, ps, kind == "constructor" ? fn.cls : fn.name);
  if (!b.error.empty() && via == "self") {
    // the instance may be of a subclass whose override takes these arguments
    std::string cq(c.function.substr(0, c.function.rfind('.')));
    std::string cls = cq.substr(cq.rfind('.') == std::string::npos ? 0 : cq.rfind('.') + 1);
    std::string by = res.overridden_below(cls, fn.name);
    if (!by.empty()) {
      b = Bound{};
      t.why = "`" + fn.name + "` is overridden in `" + by + "`, which the instance may be";
    }
  }
  if (!t.why.empty()) return unresolved_call(false, t.why);
  out.binding_error = std::move(b.error);
  out.kind = stable_name(kind);
  out.module = t.model.get();  // kept by the shared state's summaries (Shared::modules)
  out.fn = t.fn;
  out.target_abstract = t.model->abstract[static_cast<size_t>(t.fn - t.model->functions.data())] != 0;
  out.unknown_keywords = std::move(b.unknown);
  out.via = stable_name(via);
  return out;
}

// The resolution fields of the call facts of one file side, computed on first read of any of
// them, per call (a rule that first filters on `added` or `name` resolves only the calls it keeps).
// Holds the context: call facts are read while their ChangeFacts lives (like every query result).
// Keeps the file's summary and its calls (their text left out), not its model. Thread-safe (one
// lock per file).
class CallTargetFields final : public dsl::FieldProvider {
 public:
  CallTargetFields(SourceContext& ctx, std::shared_ptr<Shared> shared, std::shared_ptr<const Module> m,
                   std::shared_ptr<const std::vector<lang::Call>> calls, std::vector<char> added, bool base)
      : shared_(std::move(shared)), m_(std::move(m)), calls_(std::move(calls)), added_(std::move(added)), base_(base),
        res_(ctx, *shared_), cache_(calls_->size()) {}

  Value field(int index, std::string_view name) const override {
    if (index < 0 || index >= static_cast<int>(cache_.size())) return {};
    // the call's own fields, from the call (read-only: no lock, no resolution)
    const lang::Call& c = (*calls_)[static_cast<size_t>(index)];
    if (name == "callee") return Value(std::string(c.callee));
    if (name == "name") {
      size_t dot = c.callee.rfind('.');
      return Value(std::string(dot == std::string_view::npos ? c.callee : c.callee.substr(dot + 1)));
    }
    if (name == "function") return Value(std::string(c.function));
    if (name == "added") return Value(added_[static_cast<size_t>(index)] != 0);
    if (name == "kwarg_names") {
      std::vector<std::string> names;
      for (const auto& [k, v] : c.kwargs) names.emplace_back(k);
      return util::str_list(names);
    }
    std::lock_guard lock(mu_);
    auto& slot = cache_[static_cast<size_t>(index)];
    if (!slot) slot = std::make_unique<Resolved>(compute(res_, m_, c, base_));
    return slot->get(name);
  }

  std::vector<std::string> names() const override {
    return {"added",          "binding_error", "callee",      "external",          "function",
            "kind",           "kwarg_names",   "name",        "target",            "target_abstract",
            "target_decorators", "target_file", "target_kwargs", "target_line",     "target_params",
            "unknown_keywords", "unresolved",  "via"};
  }

 private:
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<const Module> m_;  // null on the base side (its calls are not resolved)
  /// The file's calls: the cached model's own (an aliasing pointer that keeps the model), or a
  /// copy when the model is not kept (a read by key of this source parses without caching).
  std::shared_ptr<const std::vector<lang::Call>> calls_;
  std::vector<char> added_;  // per call: its first line is added
  bool base_;
  mutable std::mutex mu_;
  mutable Resolver res_;
  mutable std::vector<std::unique_ptr<Resolved>> cache_;
};

class CallTargetsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"call_targets",
            "one fact per Python call: the repository definition it calls (through scopes, imports, self and "
            "the class's bases, constructors) and whether its arguments bind to that definition's parameters",
            true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the call's first character"),
                field("column", T::Int, "1-based byte column"),
                in_text(field("callee", T::String, "the called expression as written, whitespace collapsed (\"self.plan\")")),
                in_text(field("name", T::String, "the callee's last dotted part (\"plan\"): a read by key needs only the files holding it")),
                field("function", T::String, "qualified name of the enclosing function, \"\" at module level"),
                field("added", T::Bool, "the call's first line is added"),
                in_text(field("kwarg_names", T::List, "keyword argument names (list of strings)")),
                field("target", T::String, "qualified name of the def the call runs (\"Cls.__init__\" for a constructor); \"\" when unresolved"),
                field("target_file", T::String, "path of that def; \"\" when unresolved"),
                field("target_line", T::Int, "its `def` line; 0 when unresolved"),
                field("kind", T::String, "function, method or constructor; \"\" when unresolved"),
                field("via", T::String, "how the callee was found: scope (a def of the caller's module or enclosing function), import, module (an attribute of an imported module), self, super; \"\" when unresolved"),
                field("unresolved", T::String, "why the call was not resolved (\"module `torch` is not a module of the repository\"); \"\" when resolved"),
                field("external", T::Bool, "unresolved because the callee's first name is another package's (an import of a module that is no file of the repository) or no name of the repository (a builtin): the call runs no definition of the repository"),
                field("target_params", T::List, "the target's parameters as written, the bound `self`/`cls` left out (list of strings)"),
                field("target_kwargs", T::Bool, "the target takes `**kwargs`"),
                field("target_decorators", T::List, "the target's decorators without '@' (list of strings)"),
                field("target_abstract", T::Bool, "the target's body only passes, is `...` or raises NotImplementedError, or it is an abstractmethod"),
                field("binding_error", T::String, "the first argument that does not bind, in Python's TypeError words (\"f() got an unexpected keyword argument 'x'\", \"… missing a required argument: 'y'\", \"… takes 2 positional arguments but 3 were given\"); \"\" when the arguments bind, the call is unresolved, or `*`/`**` arguments hide it"),
                field("unknown_keywords", T::List, "keyword names the target does not take (empty when it takes **kwargs) (list of strings)"),
            }};
  }

  bool builds_per_file() const override { return true; }
  bool reads(lang::Language l) const override { return l == lang::Language::Python; }
  bool keeps_models() const override { return false; }  // the facts hold a summary (Module)

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    if (lang::language_of(r.path) != lang::Language::Python) return out;
    auto m = ctx.model(r.path, r.base);
    if (!m || m->skipped) return out;
    // the base side resolves nothing: an empty index, and no summary
    auto shared = r.base ? std::make_shared<Shared>(std::vector<std::string>{}) : shared_state(ctx);
    auto summary = r.base ? nullptr : shared->module(ctx, r.path, m);
    // every field, the call's own ones too, is answered by the provider from the calls: a fact
    // is its location and an index. The cached model's calls are read in place (an audit's
    // whole-repository read had copied every call of the repository); a model parsed only for
    // this read is not kept, so its calls are copied (their text left out: read by no field, and
    // a view into that model; their function names are views into the model's pool, kept; their
    // callees and arguments, views into that model's text too, are copied into a pool of their
    // own).
    std::shared_ptr<const std::vector<lang::Call>> calls;
    if (ctx.model_cached(r.path, r.base)) {
      calls = std::shared_ptr<const std::vector<lang::Call>>(m, &m->calls);
    } else {
      struct Copy {
        std::shared_ptr<std::deque<std::string>> names;  // what the calls' `function` views
        std::deque<std::string> texts;                    // what their callees and arguments view
        std::vector<lang::Call> calls;
      };
      auto copy = std::make_shared<Copy>(Copy{m->function_names, {}, m->calls});
      auto own = [&copy](std::string_view& v) { v = copy->texts.emplace_back(v); };
      for (auto& c : copy->calls) {
        c.text = {};
        own(c.callee);
        for (auto& a : c.args) own(a);
        for (auto& [k, v] : c.kwargs) {
          own(k);
          own(v);
        }
      }
      calls = std::shared_ptr<const std::vector<lang::Call>>(copy, &copy->calls);
    }
    std::vector<char> added;
    added.reserve(m->calls.size());
    for (const auto& c : m->calls) added.push_back(r.added(c.line) ? 1 : 0);
    static const dsl::Interned source("call_targets");
    util::FactBlock block(source, dsl::Interned(r.path),
                          std::make_shared<const CallTargetFields>(ctx, shared, summary, std::move(calls), std::move(added), r.base),
                          m->calls.size());
    for (size_t i = 0; i < m->calls.size(); ++i) {
      const auto& c = m->calls[i];
      block.add(c.line, static_cast<int>(i), c.end_line, c.column);
    }
    block.share(out);
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_call_targets_source() { return std::make_unique<CallTargetsSource>(); }

}  // namespace review::facts
