#include "dsl/schedule.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

namespace review::dsl {

using ast::Expr;

bool list_domain(const ProgramImpl& p, const ast::Domain& d) {
  if (!d.list) return false;
  if (!d.bare) return true;
  for (const auto& s : p.schema)
    if (s.name == d.source) return false;
  return true;
}

void collect_tags(const ast::Rule& r, std::set<std::string>& tags) {
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e.kind == Expr::Kind::Findings) tags.insert(e.text);
    if (e.domain && e.domain->findings) tags.insert(e.domain->source);
    if (e.domain && e.domain->list && !e.domain->bare) walk(*e.domain->list);
    for (const auto& k : e.kids) walk(*k);
  };
  if (r.when) walk(*r.when);
  auto body = [&](const ast::Rule& b) {
    for (const auto& f : b.fors) {
      if (f.domain.findings) tags.insert(f.domain.source);
      if (f.domain.list && !f.domain.bare) walk(*f.domain.list);
      if (f.where) walk(*f.where);
    }
    for (const auto& w : b.wheres) walk(*w);
    for (const auto& u : b.unlesses) walk(*u);
    if (b.at) walk(*b.at);
    for (const auto* t : {&b.problem, &b.impact, &b.action})
      for (const auto& part : t->parts)
        if (part.hole) walk(*part.hole);
  };
  body(r);
  for (const auto& a : r.alsos) body(a);
}

namespace {

void domain_sources(const ProgramImpl& p, const ast::Domain& d, const std::function<void(const std::string&)>& add) {
  if (!d.findings && !d.source.empty() && !list_domain(p, d)) add(d.source);
  if (d.list && !d.bare) sources_read(p, *d.list, add);
  if (d.scope.expr) sources_read(p, *d.scope.expr, add);
}

}  // namespace

void sources_read(const ProgramImpl& p, const Expr& e, const std::function<void(const std::string&)>& add) {
  if (e.domain) domain_sources(p, *e.domain, add);
  for (const auto& k : e.kids) sources_read(p, *k, add);
}

void for_each_source(const ProgramImpl& p, const ast::Rule& r, const std::function<void(const std::string&)>& add) {
  if (r.when) sources_read(p, *r.when, add);
  auto body = [&](const ast::Rule& b) {
    for (const auto& f : b.fors) {
      domain_sources(p, f.domain, add);
      if (f.where) sources_read(p, *f.where, add);
    }
    for (const auto& w : b.wheres) sources_read(p, *w, add);
    for (const auto& u : b.unlesses) sources_read(p, *u, add);
    if (b.at) sources_read(p, *b.at, add);
    for (const auto* t : {&b.problem, &b.impact, &b.action})
      for (const auto& part : t->parts)
        if (part.hole) sources_read(p, *part.hole, add);
  };
  body(r);
  for (const auto& a : r.alsos) body(a);
}

namespace {

/// Calls link(a, b) for every `a.file == b.file` among the `and`-conjuncts of `e` (null: none).
void file_equalities(const Expr* e, const std::function<void(const std::string&, const std::string&)>& link) {
  if (!e) return;
  if (e->kind == Expr::Kind::And) {
    for (const auto& k : e->kids) file_equalities(k.get(), link);
    return;
  }
  if (e->kind != Expr::Kind::Compare || e->text != "==" || e->kids.size() != 2) return;
  auto file_of = [](const Expr& x) -> const std::string* {
    return x.kind == Expr::Kind::Var && x.path.size() == 1 && x.path[0] == "file" ? &x.text : nullptr;
  };
  const std::string* a = file_of(*e->kids[0]);
  const std::string* b = file_of(*e->kids[1]);
  if (a && b) link(*a, *b);
}

/// Whether every binder of a rule body only meets facts of the file of its first `for`.
class PerFileCheck {
 public:
  PerFileCheck(const ProgramImpl& p, Facts& facts) : p_(p), facts_(facts) {}

  /// True when body `b` is per file: its first `for` reads a source built file by file over a
  /// fixed scope, and every other binder of a source is joined to it on the file.
  bool body(const ast::Rule& b) {
    if (b.fors.empty()) return false;
    const ast::ForClause& first = b.fors[0];
    if (!scoped_source(first.domain) || !facts_.builds_per_file(first.domain.source)) return false;
    if (!first_scope(first.domain)) return false;
    std::set<std::string> linked{first.var};
    std::vector<std::pair<std::string, std::string>> equal;  // `a.file == b.file` of the body's wheres
    auto add = [&](const std::string& x, const std::string& y) { equal.emplace_back(x, y); };
    for (const auto& f : b.fors) file_equalities(f.where.get(), add);
    for (const auto& w : b.wheres) file_equalities(w.get(), add);
    // the `for`s joined to a linked one on the file, through any chain of joins
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 1; i < b.fors.size(); ++i) {
        const ast::ForClause& f = b.fors[i];
        if (linked.count(f.var) || !scoped_source(f.domain)) continue;
        bool join = scope_linked(f.domain, linked);
        for (const auto& [x, y] : equal) join = join || (x == f.var && linked.count(y)) || (y == f.var && linked.count(x));
        if (join) grew = linked.insert(f.var).second;
      }
    }
    ok_ = true;
    for (size_t i = 0; i < b.fors.size(); ++i) {
      const ast::ForClause& f = b.fors[i];
      if (f.domain.findings) return false;
      if (i > 0 && scoped_source(f.domain) && !linked.count(f.var)) return false;
      if (f.domain.list && !f.domain.bare) expr(*f.domain.list, linked);
      if (f.domain.scope.expr) expr(*f.domain.scope.expr, linked);
      if (f.where) expr(*f.where, linked);
    }
    for (const auto& w : b.wheres) expr(*w, linked);
    for (const auto& u : b.unlesses) expr(*u, linked);
    if (b.at) expr(*b.at, linked);
    for (const auto* t : {&b.problem, &b.impact, &b.action})
      for (const auto& part : t->parts)
        if (part.hole) expr(*part.hole, linked);
    return ok_;
  }

 private:
  const ProgramImpl& p_;
  Facts& facts_;
  bool ok_ = true;

  /// A fact source that takes a scope (not a list, not findings, not `pr`).
  bool scoped_source(const ast::Domain& d) const {
    if (d.findings || d.source.empty() || list_domain(p_, d)) return false;
    for (const auto& s : p_.schema)
      if (s.name == d.source) return s.takes_scope;
    return false;
  }
  /// The first `for`'s scope is known before any variable is bound (its files can be listed).
  static bool first_scope(const ast::Domain& d) { return d.scope.kind != ast::ScopeExpr::Kind::Expr; }
  /// `SOURCE(x.file)` with x linked.
  static bool scope_linked(const ast::Domain& d, const std::set<std::string>& linked) {
    if (d.scope.kind != ast::ScopeExpr::Kind::Expr || !d.scope.expr) return false;
    const Expr& x = *d.scope.expr;
    return x.kind == Expr::Kind::Var && x.path.size() == 1 && x.path[0] == "file" && linked.count(x.text);
  }
  /// Every exists/count binder in `e` over a source is joined on the file to a linked variable.
  void expr(const Expr& e, std::set<std::string> linked) {
    if (!ok_) return;
    if (e.kind == Expr::Kind::Findings) {
      ok_ = false;
      return;
    }
    if (e.domain) {
      const ast::Domain& d = *e.domain;
      if (d.findings) {
        ok_ = false;
        return;
      }
      if (d.list && !d.bare) expr(*d.list, linked);
      if (d.scope.expr) expr(*d.scope.expr, linked);
      if (scoped_source(d)) {
        bool join = scope_linked(d, linked);
        if (!e.kids.empty())
          file_equalities(e.kids[0].get(), [&](const std::string& x, const std::string& y) {
            join = join || (x == e.binder && linked.count(y)) || (y == e.binder && linked.count(x));
          });
        if (!join) {
          ok_ = false;
          return;
        }
        linked.insert(e.binder);
      }
    }
    for (const auto& k : e.kids) expr(*k, linked);
  }
};

/// The scope of a first `for` (PerFileCheck::first_scope holds).
Scope fixed_scope(const ast::ScopeExpr& s) {
  Scope out;
  switch (s.kind) {
    case ast::ScopeExpr::Kind::Default:
    case ast::ScopeExpr::Kind::Changed:
    case ast::ScopeExpr::Kind::Expr: out.kind = Scope::Kind::Changed; break;
    case ast::ScopeExpr::Kind::Base: out.kind = Scope::Kind::Base; break;
    case ast::ScopeExpr::Kind::Repo: out.kind = Scope::Kind::Repo; break;
    case ast::ScopeExpr::Kind::Globs:
      out.kind = Scope::Kind::Globs;
      out.patterns = s.globs;
      break;
  }
  return out;
}

}  // namespace

bool per_file_rule(const ProgramImpl& p, const ast::Rule& r, Facts& facts, const std::set<std::string>& read_tags) {
  if (r.when) {
    bool reads = false;
    sources_read(p, *r.when, [&](const std::string&) { reads = true; });
    if (reads) return false;
  }
  std::set<std::string> tags;
  collect_tags(r, tags);
  if (!tags.empty()) return false;
  for (const auto& t : r.tags)
    if (read_tags.count(t)) return false;
  PerFileCheck check(p, facts);
  if (!check.body(r)) return false;
  for (const auto& a : r.alsos)
    if (!check.body(a)) return false;
  return true;
}

namespace {

/// The positions in p.rules of the rules that run (`runs(rule, report)`), in the order they
/// run: greedily, the next is the ready rule that reads the fewest sources not open yet (open:
/// queried by an earlier rule or a kind and not released), the first in p.rules on a tie. So
/// rules sharing a source run together and its results can be released early. Rules that have
/// tags or read findings keep their relative order (p.rules puts writers before readers, and
/// findings("t") then lists its facts in the same order).
template <class Runs>
std::vector<size_t> run_order(const ProgramImpl& p, Runs&& runs, const std::set<std::string>& kind_sources) {
  std::vector<size_t> todo;
  std::vector<std::set<std::string>> reads(p.rules.size());
  std::vector<bool> chained(p.rules.size(), false);
  std::map<std::string, int> readers_left;
  for (size_t i = 0; i < p.rules.size(); ++i) {
    const ast::Rule& r = *p.rules[i].rule;
    bool report = false;
    if (!runs(r, report)) continue;
    todo.push_back(i);
    for_each_source(p, r, [&](const std::string& s) { reads[i].insert(s); });
    for (const auto& s : reads[i]) ++readers_left[s];
    std::set<std::string> tags;
    collect_tags(r, tags);
    chained[i] = !r.tags.empty() || !tags.empty();
  }
  std::set<std::string> open;
  for (const auto& s : kind_sources)
    if (readers_left.count(s)) open.insert(s);
  std::vector<size_t> order;
  order.reserve(todo.size());
  std::vector<bool> done(p.rules.size(), false);
  while (order.size() < todo.size()) {
    size_t best = 0, best_new = SIZE_MAX;
    bool chain_blocked = false;  // an earlier chained rule has not run
    for (size_t i : todo) {
      if (done[i]) continue;
      if (chained[i] && chain_blocked) continue;
      size_t fresh = 0;
      for (const auto& s : reads[i]) fresh += !open.count(s);
      if (fresh < best_new) best = i, best_new = fresh;
      if (chained[i]) chain_blocked = true;
    }
    done[best] = true;
    order.push_back(best);
    for (const auto& s : reads[best]) {
      open.insert(s);
      if (--readers_left[s] == 0) open.erase(s);
    }
  }
  return order;
}

/// Releases (through the engine) every source whose last reader is before rule `position`,
/// once. `pr` stays (one fact, held by the engine).
void release_before(RuleEngine& engine, std::map<std::string, long>& last_reader, long position) {
  for (auto it = last_reader.begin(); it != last_reader.end();) {
    if (it->second >= position || it->first == "pr") {
      ++it;
      continue;
    }
    engine.release(it->first);
    it = last_reader.erase(it);
  }
}

}  // namespace

namespace {

/// Runs the per-file rules `rules` (positions in p.rules, in order) file by file through
/// `focus`; each rule's result goes to its slot. Returns the sources they read.
template <class Runs>
std::set<std::string> run_per_file(const ProgramImpl& p, const EvalOptions& opts, RuleEngine& engine, FileFocus& focus,
                  const std::vector<size_t>& rules, Runs&& runs, const std::set<std::string>& read_tags, size_t& index,
                  size_t total, std::vector<EvalResult>& slots) {
  std::set<std::string> sources;  // every source they read
  std::vector<std::string> files;  // the files of their first `for`s' scopes, first seen first
  std::set<std::string> listed, scopes;
  for (size_t i : rules) {
    const ast::Rule& r = *p.rules[i].rule;
    for_each_source(p, r, [&](const std::string& s) { sources.insert(s); });
    auto add_files = [&](const ast::Rule& b) {
      Scope scope = fixed_scope(b.fors[0].domain.scope);
      std::string key = std::to_string(static_cast<int>(scope.kind));
      for (const auto& g : scope.patterns) key += '\0' + g;
      if (!scopes.insert(key).second) return;
      for (auto& f : focus.scope_files(scope))
        if (listed.insert(f).second) files.push_back(std::move(f));
    };
    add_files(r);
    for (const auto& a : r.alsos) add_files(a);
    if (opts.on_rule) opts.on_rule(r.id, index, total);
    ++index;
  }
  // results the engine holds for the whole repository (the kinds') must not answer a file's query
  for (const auto& s : sources) engine.forget(s);
  std::vector<RulePart> parts(rules.size());
  for (const auto& file : files) {
    focus.focus(file);
    for (size_t k = 0; k < rules.size(); ++k) engine.run_rule_part(p.rules[rules[k]], parts[k]);
    for (const auto& s : sources) engine.forget(s);
  }
  focus.unfocus();
  for (size_t k = 0; k < rules.size(); ++k) {
    const PlannedRule& pr = p.rules[rules[k]];
    bool report = false;
    runs(*pr.rule, report);
    engine.finish_rule(pr, report, read_tags, parts[k], slots[rules[k]]);
  }
  return sources;
}

}  // namespace

EvalResult run_program(const ProgramImpl& p, const EvalOptions& opts, RuleEngine& engine, FileFocus& focus) {
  EvalResult out;
  engine.run_kinds(out);
  std::set<std::string> wanted(opts.only_rules.begin(), opts.only_rules.end());
  std::set<std::string> needed_tags;
  if (!wanted.empty()) {
    // rules whose findings a wanted rule reads must still run (readers run after writers, so
    // walk the order backwards)
    for (auto it = p.rules.rbegin(); it != p.rules.rend(); ++it) {
      bool run = wanted.count(it->rule->id) > 0;
      for (const auto& t : it->rule->tags) run = run || needed_tags.count(t);
      if (run) collect_tags(*it->rule, needed_tags);
    }
  }
  auto runs = [&](const ast::Rule& r, bool& report) {
    report = wanted.empty() || wanted.count(r.id);
    bool feeds = false;
    for (const auto& t : r.tags) feeds = feeds || needed_tags.count(t);
    return report || feeds;
  };
  size_t total = 0, index = 0;
  for (const auto& pr : p.rules) {
    bool report = false;
    total += runs(*pr.rule, report);
  }
  // Tags some rule reads through findings("t"): findings facts are made only for those (an
  // audit's 30,875 B6 notes were each copied into a fact that no rule reads).
  std::set<std::string> read_tags;
  for (const auto& pr : p.rules) collect_tags(*pr.rule, read_tags);  // kinds run before any finding
  // Per-file rules (see the header) run file by file, before the others; the rest in run_order.
  std::vector<size_t> per_file;
  std::set<const ast::Rule*> in_per_file;
  for (size_t i = 0; i < p.rules.size(); ++i) {
    bool report = false;
    if (runs(*p.rules[i].rule, report) && per_file_rule(p, *p.rules[i].rule, focus, read_tags)) {
      per_file.push_back(i);
      in_per_file.insert(p.rules[i].rule);
    }
  }
  auto runs_whole = [&](const ast::Rule& r, bool& report) {
    return !in_per_file.count(&r) && runs(r, report);
  };
  // Rules run in an order that keeps the sources they share together (run_order), and a
  // source's results are released once its last reader in that order is done: no later rule
  // asks for them. Their results are reported in p.rules' order all the same.
  std::set<std::string> kind_sources;
  for (const auto* k : p.kinds)
    if (k->when) sources_read(p, *k->when, [&](const std::string& s) { kind_sources.insert(s); });
  std::vector<size_t> order = run_order(p, runs_whole, kind_sources);
  std::map<std::string, long> last_reader;  // position in `order`; -1 = kinds only
  for (const auto& s : kind_sources) last_reader[s] = -1;
  for (size_t pos = 0; pos < order.size(); ++pos)
    for_each_source(p, *p.rules[order[pos]].rule, [&](const std::string& s) { last_reader[s] = static_cast<long>(pos); });
  std::vector<EvalResult> slots(p.rules.size());
  // Sources only the kinds read are released before the per-file rules run.
  release_before(engine, last_reader, 0);
  if (!per_file.empty()) {
    // then their sources that no later rule reads
    for (const auto& s : run_per_file(p, opts, engine, focus, per_file, runs, read_tags, index, total, slots))
      if (!last_reader.count(s) && s != "pr") engine.release(s);
  }
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const auto& pr = p.rules[order[pos]];
    bool report = false;
    runs(*pr.rule, report);
    release_before(engine, last_reader, static_cast<long>(pos));
    if (opts.on_rule) opts.on_rule(pr.rule->id, index, total);
    ++index;
    RulePart part;
    engine.run_rule_part(pr, part);
    engine.finish_rule(pr, report, read_tags, part, slots[order[pos]]);
  }
  release_before(engine, last_reader, static_cast<long>(order.size()));
  for (auto& one : slots) {
    auto append = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
    append(out.findings, one.findings);
    append(out.internal_diagnostics, one.internal_diagnostics);
    append(out.stopped, one.stopped);
    append(out.memory_stopped, one.memory_stopped);
  }
  return out;
}

}  // namespace review::dsl
