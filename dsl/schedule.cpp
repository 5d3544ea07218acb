#include "dsl/schedule.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
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

std::string query_key(const std::string& source, const Scope& scope) {
  std::string key = source + '\0' + std::to_string(static_cast<int>(scope.kind));
  for (const auto& p : scope.patterns) key += '\0' + p;
  return key;
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

using DomainFn = std::function<void(const ast::Domain&)>;

void domains_in(const ProgramImpl& p, const Expr& e, const DomainFn& add);

void domain_and_inner(const ProgramImpl& p, const ast::Domain& d, const DomainFn& add) {
  if (!d.findings && !d.source.empty() && !list_domain(p, d)) add(d);
  if (d.list && !d.bare) domains_in(p, *d.list, add);
  if (d.scope.expr) domains_in(p, *d.scope.expr, add);
}

void domains_in(const ProgramImpl& p, const Expr& e, const DomainFn& add) {
  if (e.domain) domain_and_inner(p, *e.domain, add);
  for (const auto& k : e.kids) domains_in(p, *k, add);
}

}  // namespace

void sources_read(const ProgramImpl& p, const Expr& e, const std::function<void(const std::string&)>& add) {
  domains_in(p, e, [&](const ast::Domain& d) { add(d.source); });
}

void for_each_domain(const ProgramImpl& p, const ast::Rule& r, const std::function<void(const ast::Domain&)>& add) {
  if (r.when) domains_in(p, *r.when, add);
  auto body = [&](const ast::Rule& b) {
    for (const auto& f : b.fors) {
      domain_and_inner(p, f.domain, add);
      if (f.where) domains_in(p, *f.where, add);
    }
    for (const auto& w : b.wheres) domains_in(p, *w, add);
    for (const auto& u : b.unlesses) domains_in(p, *u, add);
    if (b.at) domains_in(p, *b.at, add);
    for (const auto* t : {&b.problem, &b.impact, &b.action})
      for (const auto& part : t->parts)
        if (part.hole) domains_in(p, *part.hole, add);
  };
  body(r);
  for (const auto& a : r.alsos) body(a);
}

void for_each_source(const ProgramImpl& p, const ast::Rule& r, const std::function<void(const std::string&)>& add) {
  for_each_domain(p, r, [&](const ast::Domain& d) { add(d.source); });
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

/// The scope of a domain when it is known before anything runs (changed, base, repo or globs);
/// nullopt for a scope computed from facts or names (`lines(l.file)`, a repository by name).
std::optional<Scope> static_scope(const ast::ScopeExpr& s) {
  using K = ast::ScopeExpr::Kind;
  switch (s.kind) {
    case K::Default:
    case K::Changed: return Scope{Scope::Kind::Changed, {}};
    case K::Base: return Scope{Scope::Kind::Base, {}};
    case K::Repo: return Scope{Scope::Kind::Repo, {}};
    case K::Globs: return Scope{Scope::Kind::Globs, s.globs};
    case K::Expr: return std::nullopt;
  }
  return std::nullopt;
}

/// One (source, scope known in advance) and the position in the run order of its last reader.
struct ScopeRead {
  std::string source;
  Scope scope;
  long last = -1;
};

/// Releases (through the engine) every scope read whose last reader is before rule `position`
/// while its source is still read later (a source read by no later rule is released whole by
/// release_before), once.
void release_scopes_before(RuleEngine& engine, std::map<std::string, ScopeRead>& reads,
                           const std::map<std::string, long>& last_reader, long position) {
  for (auto it = reads.begin(); it != reads.end();) {
    const ScopeRead& r = it->second;
    auto whole = last_reader.find(r.source);
    if (r.last >= position || r.source == "pr" || whole == last_reader.end() || whole->second < position) {
      ++it;
      continue;
    }
    engine.release_scope(r.source, r.scope);
    it = reads.erase(it);
  }
}

}  // namespace

EvalResult run_program(const ProgramImpl& p, const EvalOptions& opts, RuleEngine& engine) {
  EvalResult out;
  std::set<std::string> wanted(opts.only_rules.begin(), opts.only_rules.end());
  std::set<std::string> skipped(opts.skip_rules.begin(), opts.skip_rules.end());
  auto reports = [&](const ast::Rule& r) { return (wanted.empty() || wanted.count(r.id)) && !skipped.count(r.id); };
  std::set<std::string> needed_tags;
  if (!wanted.empty() || !skipped.empty()) {
    // rules whose findings a reported rule reads must still run (readers run after writers, so
    // walk the order backwards)
    for (auto it = p.rules.rbegin(); it != p.rules.rend(); ++it) {
      bool run = reports(*it->rule);
      for (const auto& t : it->rule->tags) run = run || needed_tags.count(t);
      if (run) collect_tags(*it->rule, needed_tags);
    }
  }
  auto runs = [&](const ast::Rule& r, bool& report) {
    report = reports(r);
    bool feeds = false;
    for (const auto& t : r.tags) feeds = feeds || needed_tags.count(t);
    return report || feeds;
  };
  size_t total = 0, index = 0;
  for (const auto& pr : p.rules) {
    bool report = false;
    total += runs(*pr.rule, report);
  }
  // What the kinds and the rules that run read over the change (`changed` or `base`, a scope
  // known before anything runs), told to the Facts before the kinds run: the first parse of a
  // file can then make what a later rule reads of it (Facts::will_read).
  std::set<std::pair<std::string, Scope::Kind>> known;
  auto note_read = [&](const ast::Domain& d) {
    using K = ast::ScopeExpr::Kind;
    if (d.scope.kind == K::Default || d.scope.kind == K::Changed) known.emplace(d.source, Scope::Kind::Changed);
    else if (d.scope.kind == K::Base) known.emplace(d.source, Scope::Kind::Base);
  };
  for (const auto* k : p.kinds)
    if (k->when) domains_in(p, *k->when, note_read);
  for (const auto& pr : p.rules) {
    bool report = false;
    if (runs(*pr.rule, report)) for_each_domain(p, *pr.rule, note_read);
  }
  for (const auto& [source, kind] : known) engine.will_read(source, Scope{kind, {}});
  engine.run_kinds(out);
  // Rules run in an order that keeps the sources they share together (run_order), and a
  // source's results are released once its last reader in that order is done: no later rule
  // asks for them. Their results are reported in p.rules' order all the same.
  std::set<std::string> kind_sources;
  for (const auto* k : p.kinds)
    if (k->when) sources_read(p, *k->when, [&](const std::string& s) { kind_sources.insert(s); });
  std::vector<size_t> order = run_order(p, runs, kind_sources);
  std::map<std::string, long> last_reader;  // position in `order`; -1 = kinds only
  for (const auto& s : kind_sources) last_reader[s] = -1;
  for (size_t pos = 0; pos < order.size(); ++pos)
    for_each_source(p, *p.rules[order[pos]].rule, [&](const std::string& s) { last_reader[s] = static_cast<long>(pos); });
  // The same per scope known in advance: an audit's `lines(changed)` (every line of the tree)
  // is freed after its last reader although later rules still read `lines(f.file)`.
  std::map<std::string, ScopeRead> scope_reads;
  auto note_scope = [&](const ast::Domain& d, long pos) {
    if (auto s = static_scope(d.scope)) {
      ScopeRead& r = scope_reads[query_key(d.source, *s)];
      r.source = d.source;
      r.scope = *s;
      r.last = pos;
    }
  };
  for (const auto* k : p.kinds)
    if (k->when) domains_in(p, *k->when, [&](const ast::Domain& d) { note_scope(d, -1); });
  for (size_t pos = 0; pos < order.size(); ++pos)
    for_each_domain(p, *p.rules[order[pos]].rule, [&](const ast::Domain& d) { note_scope(d, static_cast<long>(pos)); });
  // Tags some rule reads through findings("t"): findings facts are made only for those (an
  // audit's 30,875 B6 notes were each copied into a fact that no rule reads).
  std::set<std::string> read_tags;
  for (const auto& pr : p.rules) collect_tags(*pr.rule, read_tags);  // kinds run before any finding
  std::vector<EvalResult> slots(p.rules.size());
  // Regexes with `{name}` holes: their instances (one RE2 per hole value) are dropped after
  // each rule rather than held for the rest of the run.
  std::set<const CompiledRegex*> holed;
  for (const auto& [expr, cr] : p.regexes)
    if (cr && !cr->holes.empty()) holed.insert(cr.get());
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const auto& pr = p.rules[order[pos]];
    bool report = false;
    runs(*pr.rule, report);
    release_scopes_before(engine, scope_reads, last_reader, static_cast<long>(pos));
    release_before(engine, last_reader, static_cast<long>(pos));
    if (opts.on_rule) opts.on_rule(pr.rule->id, index, total);
    ++index;
    RulePart part;
    engine.run_rule_part(pr, part);
    engine.finish_rule(pr, report, read_tags, part, slots[order[pos]]);
    for (const auto* cr : holed) cr->clear_instances();  // the next rule compiles what it needs
  }
  release_before(engine, last_reader, static_cast<long>(order.size()));
  for (auto& one : slots) {
    auto append = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
    append(out.findings, one.findings);
    append(out.internal_diagnostics, one.internal_diagnostics);
    append(out.stopped, one.stopped);
    append(out.not_run, one.not_run);
    append(out.memory_stopped, one.memory_stopped);
  }
  return out;
}

}  // namespace review::dsl
