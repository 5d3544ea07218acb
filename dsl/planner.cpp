// Derives each rule's execution plan (dsl/plan.hpp) from the checked AST: which conditions move
// down to an earlier `for`, and which binders look up an index instead of scanning.
#include <algorithm>
#include <functional>
#include <set>

#include "dsl/plan.hpp"

namespace review::dsl {

using ast::Expr;

namespace {

class Planner {
 public:
  explicit Planner(const ProgramImpl& p) : p_(p) {}

  /// Names an expression reads: variables, regex holes, and names read inside binders (their
  /// own binder excluded). Conservative: a name may be a let, `pr` or a source.
  void refs(const Expr& e, std::set<std::string>& out) const {
    switch (e.kind) {
      case Expr::Kind::Var: out.insert(e.text); break;
      case Expr::Kind::Compare:
        if (e.text == "~" || e.text == "!~") {
          if (const CompiledRegex* cr = regex(e))
            for (const auto& h : cr->holes) out.insert(h.name);
        }
        break;
      case Expr::Kind::Count:
      case Expr::Kind::Exists:
        if (e.domain) {
          std::set<std::string> inner;
          domain_refs(*e.domain, inner);
          for (const auto& k : e.kids) refs(*k, inner);
          inner.erase(e.binder);
          out.insert(inner.begin(), inner.end());
          return;
        }
        break;
      default: break;
    }
    for (const auto& k : e.kids) refs(*k, out);
  }

  void domain_refs(const ast::Domain& d, std::set<std::string>& out) const {
    if (d.list) refs(*d.list, out);
    if (d.scope.expr) refs(*d.scope.expr, out);
  }

  /// Names a `~` binds (named groups) when `e` is evaluated, outside nested binders (whose
  /// bindings are dropped after each element).
  void captures(const Expr& e, std::set<std::string>& out) const {
    if (e.kind == Expr::Kind::Compare && e.text == "~")
      if (const CompiledRegex* cr = regex(e))
        for (const auto& g : cr->group_names)
          if (!g.empty()) out.insert(g);
    if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) return;
    for (const auto& k : e.kids) captures(*k, out);
  }

  static bool has_binder(const Expr& e) {
    if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) return true;
    for (const auto& k : e.kids)
      if (has_binder(*k)) return true;
    return false;
  }

  /// A condition that may be checked earlier: it binds nothing and scans nothing.
  bool movable(const Expr& e) const {
    std::set<std::string> c;
    captures(e, c);
    return c.empty() && !has_binder(e);
  }

  static void conjuncts(const Expr& e, std::vector<const Expr*>& out) {
    if (e.kind == Expr::Kind::And) {
      for (const auto& k : e.kids) conjuncts(*k, out);
      return;
    }
    out.push_back(&e);
  }

  const CompiledRegex* regex(const Expr& e) const {
    if (e.kids.size() < 2) return nullptr;
    auto it = p_.regexes.find(e.kids[1].get());
    return it == p_.regexes.end() ? nullptr : it->second.get();
  }

  /// Same decision as the evaluator's: a bare name is a source when the schema has one.
  bool source_domain(const ast::Domain& d) const {
    if (d.findings || d.source == "pr") return false;
    if (!d.list) return true;
    if (!d.bare) return false;
    for (const auto& s : p_.schema)
      if (s.name == d.source) return true;
    return false;
  }

  /// `v.a.b` -> {"a", "b"}; nullopt when `e` is not a field path on variable `v`.
  static std::optional<std::vector<std::string>> field_of(const Expr& e, const std::string& v) {
    if (e.kind != Expr::Kind::Var || e.text != v || e.path.empty()) return std::nullopt;
    return e.path;
  }

  /// A key expression: evaluated before the binder is bound, it must give what it gives after.
  bool key_ok(const Expr& x, const std::string& v, const std::set<std::string>& where_captures) const {
    if (!movable(x)) return false;
    std::set<std::string> r;
    refs(x, r);
    if (r.count(v)) return false;
    for (const auto& n : r)
      if (where_captures.count(n)) return false;
    return true;
  }

  /// The conjunct of `where` that an index of the binder's source answers: the first whose key
  /// reads another variable (a join), else the first with a constant key.
  std::optional<Probe> probe(const std::string& v, const ast::Domain& d, const Expr* where) const {
    if (!where || !source_domain(d)) return std::nullopt;
    std::set<std::string> caps;
    captures(*where, caps);
    std::vector<const Expr*> cs;
    conjuncts(*where, cs);
    std::optional<Probe> constant;
    for (const Expr* c : cs) {
      auto pr = probe_of(*c, v, caps);
      if (!pr) continue;
      std::set<std::string> names;
      if (pr->key) refs(*pr->key, names);
      if (pr->kind == Probe::Kind::DottedTail || !names.empty()) return pr;
      if (!constant) constant = pr;
    }
    return constant;
  }

  std::optional<Probe> probe_of(const Expr& c, const std::string& v, const std::set<std::string>& caps) const {
    if (c.kind != Expr::Kind::Compare || c.kids.size() != 2) return std::nullopt;
    const Expr& l = *c.kids[0];
    const Expr& r = *c.kids[1];
    Probe pr;
    pr.conjunct = &c;
    if (c.text == "==") {
      if (auto f = field_of(l, v); f && key_ok(r, v, caps)) {
        pr.path = *f;
        pr.key = &r;
        return pr;
      }
      if (auto f = field_of(r, v); f && key_ok(l, v, caps)) {
        pr.path = *f;
        pr.key = &l;
        return pr;
      }
    } else if (c.text == "in") {
      if (auto f = field_of(r, v); f && key_ok(l, v, caps)) {
        pr.kind = Probe::Kind::Member;
        pr.path = *f;
        pr.key = &l;
        return pr;
      }
    } else if (c.text == "~") {
      auto f = field_of(l, v);
      const CompiledRegex* cr = regex(c);
      if (!f || !cr || cr->holes.size() != 1) return std::nullopt;
      const RegexHole& h = cr->holes[0];
      const std::string head = "(^|\\.)";
      if (h.offset != head.size() || cr->pattern.compare(0, head.size(), head) != 0 ||
          cr->pattern.size() != h.offset + h.length + 1 || cr->pattern.back() != '$')
        return std::nullopt;
      if (h.name == v || caps.count(h.name)) return std::nullopt;
      pr.kind = Probe::Kind::DottedTail;
      pr.path = *f;
      pr.key = &r;
      pr.regex = cr;
      return pr;
    }
    return std::nullopt;
  }

  /// Records a probe for every exists/count binder inside `e`.
  void walk(const Expr& e, std::map<const Expr*, Probe>& out) const {
    if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) {
      if (auto pr = probe(e.binder, *e.domain, e.kids.empty() ? nullptr : e.kids[0].get())) out[&e] = *pr;
      if (e.domain->list) walk(*e.domain->list, out);
      if (e.domain->scope.expr) walk(*e.domain->scope.expr, out);
    }
    for (const auto& k : e.kids) walk(*k, out);
  }

  void walk(const ast::Rule& r, std::map<const Expr*, Probe>& out) const {
    std::vector<const Expr*> all;
    if (r.when) all.push_back(r.when.get());
    for (const auto& f : r.fors) {
      if (f.where) all.push_back(f.where.get());
      if (f.domain.list) all.push_back(f.domain.list.get());
      if (f.domain.scope.expr) all.push_back(f.domain.scope.expr.get());
    }
    for (const auto& w : r.wheres) all.push_back(w.get());
    for (const auto& u : r.unlesses) all.push_back(u.get());
    if (r.at) all.push_back(r.at.get());
    for (const auto* t : {&r.problem, &r.impact, &r.action})
      for (const auto& part : t->parts)
        if (part.hole) all.push_back(part.hole.get());
    for (const Expr* e : all) walk(*e, out);
  }

  RulePlan plan(const ast::Rule& r) const {
    const int n = static_cast<int>(r.fors.size());
    // The last position at which each name is bound: -1 in `when`, i by the i-th `for` (its
    // variable or a capture of its `where`), n by a rule-level `where`/`unless`.
    std::map<std::string, int> bound;
    auto bind = [&](const std::string& name, int at) {
      auto [it, fresh] = bound.emplace(name, at);
      if (!fresh) it->second = std::max(it->second, at);
    };
    std::set<std::string> caps;
    if (r.when) captures(*r.when, caps);
    for (const auto& c : caps) bind(c, -1);
    for (int i = 0; i < n; ++i) {
      bind(r.fors[i].var, i);
      caps.clear();
      if (r.fors[i].where) captures(*r.fors[i].where, caps);
      for (const auto& c : caps) bind(c, i);
    }
    caps.clear();
    for (const auto& w : r.wheres) captures(*w, caps);
    for (const auto& u : r.unlesses) captures(*u, caps);
    for (const auto& c : caps) bind(c, n);
    // The earliest position after which `e` reads what it read where it was written.
    auto stage = [&](const Expr& e) {
      std::set<std::string> names;
      refs(e, names);
      int s = -1;
      for (const auto& name : names)
        if (auto it = bound.find(name); it != bound.end()) s = std::max(s, it->second);
      return s;
    };

    RulePlan out;
    out.fors.resize(r.fors.size());
    auto place = [&](int s, Filter f) {
      f.moved = true;
      (s < 0 ? out.before : out.fors[static_cast<size_t>(s)].filters).push_back(f);
    };
    for (int i = 0; i < n; ++i) {
      const auto& f = r.fors[i];
      out.fors[i].probe = probe(f.var, f.domain, f.where.get());
      if (!f.where) continue;
      std::vector<const Expr*> cs;
      conjuncts(*f.where, cs);
      for (const Expr* c : cs) {
        int s = movable(*c) ? stage(*c) : i;
        if (s < i) place(s, {c, false, true});
        else out.fors[i].filters.push_back({c, false, false});
      }
    }
    for (const auto& w : r.wheres) {
      std::vector<const Expr*> cs;
      conjuncts(*w, cs);
      for (const Expr* c : cs) {
        int s = movable(*c) ? stage(*c) : n;
        if (s < n - 1) place(s, {c, false, true});
        else out.after.push_back({c, false, false});
      }
    }
    for (const auto& u : r.unlesses) {
      int s = movable(*u) ? stage(*u) : n;
      if (s < n - 1) place(s, {u.get(), true, true});
      else out.after.push_back({u.get(), true, false});
    }
    return out;
  }

 private:
  const ProgramImpl& p_;
};

std::string filter_text(const Filter& f) {
  std::string s = (f.negate ? "unless " : "") + ast::dump(*f.expr);
  return f.moved ? s + "  (moved)" : s;
}

std::string probe_text(const ast::Domain& d, const Probe& p) {
  std::string field;
  for (const auto& x : p.path) field += "." + x;
  std::string s = "index " + ast::dump(d) + " by " + field;
  switch (p.kind) {
    case Probe::Kind::Equal: return s + " = " + ast::dump(*p.key);
    case Probe::Kind::Member: return s + " holding " + ast::dump(*p.key);
    case Probe::Kind::DottedTail: {
      const RegexHole& h = p.regex->holes[0];
      return s + " after its last '.' = " + p.regex->pattern.substr(h.offset + 1, h.length - 2);
    }
  }
  return s;
}

}  // namespace

void plan_program(ProgramImpl& p) {
  Planner planner(p);
  for (const auto& pr : p.rules) {
    p.plans[pr.rule] = planner.plan(*pr.rule);
    planner.walk(*pr.rule, p.probes);
  }
  for (const auto* k : p.kinds)
    if (k->when) planner.walk(*k->when, p.probes);
}

RulePlan naive_plan(const ast::Rule& r) {
  RulePlan out;
  for (const auto& f : r.fors) {
    ForPlan fp;
    if (f.where) fp.filters.push_back({f.where.get(), false, false});
    out.fors.push_back(std::move(fp));
  }
  for (const auto& w : r.wheres) out.after.push_back({w.get(), false, false});
  for (const auto& u : r.unlesses) out.after.push_back({u.get(), true, false});
  return out;
}

std::string describe_plan(const ProgramImpl& p, const PlannedRule& pr) {
  const ast::Rule& r = *pr.rule;
  auto it = p.plans.find(&r);
  if (it == p.plans.end()) return "";
  const RulePlan& plan = it->second;
  std::string out = "plan " + r.id + "\n";
  if (r.when) out += "  when " + ast::dump(*r.when) + "\n";
  for (const auto& f : plan.before) out += "  check " + filter_text(f) + "\n";
  for (size_t i = 0; i < r.fors.size(); ++i) {
    const auto& f = r.fors[i];
    const auto& fp = plan.fors[i];
    out += "  for " + f.var + " in " + ast::dump(f.domain) + ": " +
           (fp.probe ? probe_text(f.domain, *fp.probe) : std::string("scan")) + "\n";
    for (const auto& x : fp.filters) out += "    check " + filter_text(x) + "\n";
  }
  if (!plan.after.empty()) out += "  then\n";
  for (const auto& x : plan.after) out += "    check " + filter_text(x) + "\n";
  // every exists/count binder of the rule, in source order
  std::vector<std::pair<size_t, std::string>> binders;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) {
      auto pi = p.probes.find(&e);
      std::string kind = e.kind == Expr::Kind::Count ? "count " : "exists ";
      binders.emplace_back(e.span.offset, kind + e.binder + " in " + ast::dump(*e.domain) + ": " +
                                              (pi != p.probes.end() ? probe_text(*e.domain, pi->second) : "scan"));
    }
    for (const auto& k : e.kids) walk(*k);
  };
  if (r.when) walk(*r.when);
  for (const auto& f : r.fors)
    if (f.where) walk(*f.where);
  for (const auto& w : r.wheres) walk(*w);
  for (const auto& u : r.unlesses) walk(*u);
  if (r.at) walk(*r.at);
  std::sort(binders.begin(), binders.end());
  if (!binders.empty()) out += "  binders\n";
  for (const auto& [at, text] : binders) out += "    " + text + "\n";
  return out;
}

}  // namespace review::dsl
