// Derives each rule's execution plan (dsl/plan.hpp) from the checked AST: which conditions move
// down to an earlier `for`, and which binders look up an index instead of scanning.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <set>

#include "dsl/plan.hpp"
#include "dsl/schedule.hpp"

namespace review::dsl {

using ast::Expr;

namespace {

/// Whether an escaped atom `\c` can only match a character that is not a word character
/// ([A-Za-z0-9_]).
bool nonword_escape(char c) {
  if (c == 's' || c == 'W') return true;
  return !std::isalnum(static_cast<unsigned char>(c)) && c != '_';
}

/// Literal characters outside a class that match themselves and are not word characters.
bool nonword_literal(char c) { return c != '\0' && std::strchr(" =,:;'\"<>/!@#%&-~`", c) != nullptr; }

/// Whether the class starting at `p[i]` ('[') matches only non-word characters; sets `end` to
/// the index after its ']'.
bool nonword_class(const std::string& p, size_t i, size_t& end) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') return false;
  bool ok = true;
  bool first = true;
  for (; j < p.size(); ++j) {
    char c = p[j];
    if (c == ']' && !first) {
      end = j + 1;
      return ok;
    }
    first = false;
    if (c == '\\') {
      if (j + 1 >= p.size()) return false;
      char e = p[++j];
      if (!(e == 's' || (!std::isalnum(static_cast<unsigned char>(e)) && e != '_'))) ok = false;
      continue;
    }
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[') ok = false;
    if (c == '-' && j + 1 < p.size() && p[j + 1] != ']' && p[j - 1] != '[') ok = false;
  }
  return false;
}

/// Whether the atom ending at `end` (exclusive) of `p` puts a non-word character or the start of
/// the text right before what follows it: `\b`, `^`, `\s`, `\s+`, an escaped punctuation
/// character or a literal punctuation character, or one of those before `\s*` / `\s?`.
bool bounded_before(const std::string& p, size_t end) {
  if (end == 0) return false;
  auto escaped = [&](size_t at) {  // p[at] is preceded by an odd number of backslashes
    size_t n = 0;
    while (at > n && p[at - 1 - n] == '\\') ++n;
    return n % 2 == 1;
  };
  char c = p[end - 1];
  if (end >= 2 && escaped(end - 1)) return c == 'b' || nonword_escape(c);
  if (c == '^') return true;
  // `\s+` puts a space right before; after `\s*` / `\s?` it is a space or what precedes them
  if ((c == '+' || c == '*' || c == '?') && end >= 3 && p[end - 2] == 's' && escaped(end - 2))
    return c == '+' || bounded_before(p, end - 3);
  return nonword_literal(c);
}

/// Whether what follows position `at` of `p` puts a non-word character or the end of the text
/// right after what precedes it: `\b`, `$`, or (after optional `\s*` / `\s?`) a non-word atom
/// that is not optional.
bool bounded_after(const std::string& p, size_t at) {
  auto optional_q = [&](size_t q) { return q < p.size() && (p[q] == '?' || p[q] == '*' || p[q] == '{'); };
  while (at < p.size()) {
    size_t next = at;
    bool ok = false;
    if (p[at] == '\\' && at + 1 < p.size()) {
      char e = p[at + 1];
      if (e == 'b') return true;
      next = at + 2;
      ok = nonword_escape(e);
      if (e == 's' && optional_q(next) && p[next] != '{') {  // `\s*` / `\s?`: look past it
        at = next + 1;
        if (at < p.size() && (p[at] == '?' || p[at] == '+')) ++at;  // lazy/possessive marks
        continue;
      }
    } else if (p[at] == '$') {
      return true;
    } else if (p[at] == '[') {
      ok = nonword_class(p, at, next);
    } else {
      next = at + 1;
      ok = nonword_literal(p[at]);
    }
    return ok && !optional_q(next);
  }
  return false;
}

/// The top-level alternatives of `p` (the parts between `|` outside every group and class) as
/// [begin, end) offsets; one part when it has no such `|`. A pattern that is one group as a
/// whole (`(A|B)`, `(?:A|B)`, `(?P<x>A|B)`) gives the alternatives inside it.
std::vector<std::pair<size_t, size_t>> top_alternatives(const std::string& p, const std::vector<RegexHole>& holes) {
  const std::vector<int> depth = dsl::group_depths(p, holes);
  size_t begin = 0, end = p.size();
  int base = 0;  // the depth whose `|` separate alternatives: 1 inside a whole-pattern group
  if (p.size() >= 2 && depth[0] == 0 && p.front() == '(' && depth.back() == 0 && p.back() == ')' &&
      (p.size() < 3 || p[1] != '?' || p[2] == ':' || p[2] == 'P')) {
    bool closes_last = true;  // no `)` back at depth 0 before the last byte
    for (size_t i = 1; i + 1 < p.size() && closes_last; ++i) closes_last = !(p[i] == ')' && depth[i] == 0);
    if (closes_last) {
      base = 1;
      begin = p[1] != '?' ? 1 : p[2] == ':' ? 3 : p.find('>') + 1;
      end = p.size() - 1;
    }
  }
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = begin; i < end; ++i)
    if (p[i] == '|' && depth[i] == base) {
      out.emplace_back(begin, i);
      begin = i + 1;
    }
  out.emplace_back(begin, end);
  return out;
}

/// The holes of `cr` whose inserted text every match must contain (CompiledRegex::required;
/// with `grouped_alternation`, also when an alternation inside a group is next to the hole,
/// `(^|\.){X}`: dsl::required_holes), with whether the regex bounds each on either side.
/// With `alternatives` too, a regex whose top level is an alternation (`A{v}B|C{v}D`) gives
/// the names every alternative requires (each alternative read as a pattern of its own): any
/// match holds that name's value, bounded on a side only where every alternative bounds it.
std::vector<Probe::WordHole> required_holes(const CompiledRegex& cr, bool grouped_alternation = false,
                                            bool alternatives = false) {
  const std::string& p = cr.pattern;
  std::vector<Probe::WordHole> out;
  auto word_hole = [&](size_t k) {
    const RegexHole& h = cr.holes[k];
    size_t after = h.offset + h.length;
    bool next_is_hole = false;
    for (const auto& o : cr.holes) next_is_hole = next_is_hole || o.offset == after;
    Probe::WordHole w;
    w.hole = k;
    w.before = bounded_before(p, h.offset);
    w.after = !next_is_hole && bounded_after(p, after);
    return w;
  };
  const auto alts = alternatives && grouped_alternation ? top_alternatives(p, cr.holes)
                                                         : std::vector<std::pair<size_t, size_t>>{};
  if (alts.size() < 2) {
    const std::vector<size_t> required =
        grouped_alternation ? dsl::required_holes(cr.pattern, cr.holes, true) : cr.required;
    for (size_t k : required) out.push_back(word_hole(k));
    return out;
  }
  // per alternative, its required holes by the name (and field path) they insert
  std::vector<std::map<std::string, Probe::WordHole>> by_name;
  for (auto [begin, end] : alts) {
    std::vector<RegexHole> inside;
    std::vector<size_t> index;  // inside[i] is cr.holes[index[i]]
    for (size_t k = 0; k < cr.holes.size(); ++k)
      if (cr.holes[k].offset >= begin && cr.holes[k].offset + cr.holes[k].length <= end) {
        RegexHole h = cr.holes[k];
        h.offset -= begin;
        inside.push_back(std::move(h));
        index.push_back(k);
      }
    auto& names = by_name.emplace_back();
    for (size_t i : dsl::required_holes(p.substr(begin, end - begin), inside, true))
      names.emplace(cr.holes[index[i]].text(), word_hole(index[i]));  // the first of a name
  }
  for (const auto& [name, first] : by_name[0]) {
    Probe::WordHole w = first;
    bool everywhere = true;
    for (size_t a = 1; a < by_name.size() && everywhere; ++a) {
      auto it = by_name[a].find(name);
      everywhere = it != by_name[a].end();
      if (everywhere) {
        w.before = w.before && it->second.before;
        w.after = w.after && it->second.after;
      }
    }
    if (everywhere) out.push_back(w);
  }
  return out;
}

/// Whether scope `sc` covers a repository's files as a whole: `repo`, globs, a `let` scope, or
/// (when `other_repos`) the name of a declared repository.
bool wide_scope(const ProgramImpl& prog, const ast::ScopeExpr& sc, bool other_repos) {
  using K = ast::ScopeExpr::Kind;
  if (sc.kind == K::Repo || sc.kind == K::Globs) return true;
  if (sc.kind != K::Expr || !sc.expr || sc.expr->kind != Expr::Kind::Var || !sc.expr->path.empty()) return false;
  bool repo = false;
  for (const auto& r : prog.data.repos) repo = repo || r.name == sc.expr->text;
  if (repo) return other_repos;
  return prog.lets.count(sc.expr->text) > 0;
}

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

  /// The names `e` reads with the field path after each (refs, path-precise): a Var `k.file`
  /// gives {"k", {"file"}}, a regex hole `{a.target}` {"a", {"target"}}; a nested binder's own
  /// variable is left out.
  void path_refs(const Expr& e, std::set<Read>& out) const {
    switch (e.kind) {
      case Expr::Kind::Var: out.insert({e.text, e.path}); break;
      case Expr::Kind::Compare:
        if (e.text == "~" || e.text == "!~") {
          if (const CompiledRegex* cr = regex(e))
            for (const auto& h : cr->holes) out.insert({h.name, h.path});
        }
        break;
      case Expr::Kind::Count:
      case Expr::Kind::Exists:
        if (e.domain) {
          std::set<Read> inner;
          if (e.domain->list) path_refs(*e.domain->list, inner);
          if (e.domain->scope.expr) path_refs(*e.domain->scope.expr, inner);
          for (const auto& k : e.kids) path_refs(*k, inner);
          for (const auto& r : inner)
            if (r.name != e.binder) out.insert(r);
          return;
        }
        break;
      default: break;
    }
    for (const auto& k : e.kids) path_refs(*k, out);
  }

  static bool reads_findings(const Expr& e) {
    if (e.kind == Expr::Kind::Findings || (e.domain && e.domain->findings)) return true;
    if (e.domain && e.domain->list && reads_findings(*e.domain->list)) return true;
    for (const auto& k : e.kids)
      if (reads_findings(*k)) return true;
    return false;
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
  /// reads another variable (a join), else a word lookup, else the first with a constant key,
  /// else a range. Any of the first four also carries the range of the same `where` (if it
  /// has one) in `fallback`: it narrows the key's candidates, and serves alone when the key
  /// gives nothing to look up.
  std::optional<Probe> probe(const std::string& v, const ast::Domain& d, const Expr* where) const {
    if (!where || !source_domain(d)) return std::nullopt;
    std::set<std::string> caps;
    captures(*where, caps);
    std::vector<const Expr*> cs;
    conjuncts(*where, cs);
    std::optional<Probe> join, constant, word, range, rx;
    // the conjuncts that are a regex, or an `or` of regexes, on v's fields (Probe::terms)
    std::vector<std::vector<Probe>> terms;
    const bool whole_tree = d.scope.kind != ast::ScopeExpr::Kind::Expr;
    for (size_t i = 0; i < cs.size(); ++i) {
      const Expr* c = cs[i];
      if (whole_tree)
        if (auto t = regex_term(*c, v)) terms.push_back(std::move(*t));
      auto pr = join ? std::nullopt : probe_of(*c, v, caps);
      if (!pr && !join) pr = capture_probe(cs, i, v, caps);
      if (!pr) {
        if (!word) word = word_probe(*c, v, caps, true, true);
        if (!rx && whole_tree) rx = regex_probe(*c, v);
        range_bound(*c, v, caps, range);
        continue;
      }
      std::set<std::string> names;
      if (pr->key) refs(*pr->key, names);
      if (pr->kind == Probe::Kind::DottedTail || !names.empty()) join = pr;
      else if (!constant) constant = pr;
    }
    // no single regex to look up: an `or` of regexes (the facts any of them matches)
    std::optional<Probe> any;
    for (const auto& t : terms)
      if (!any && t.size() > 1) {
        any = t[0];
        any->alts.assign(t.begin() + 1, t.end());
      }
    std::optional<Probe> out = join ? join : word ? word : constant ? constant : rx ? rx : any ? any : range;
    if (out && !join && !word && (out->kind == Probe::Kind::Equal || out->kind == Probe::Kind::Regex))
      for (auto& t : terms)
        if (t[0].conjunct != out->conjunct) out->terms.push_back(std::move(t));
    if (out && out->kind == Probe::Kind::Equal) {
      // the other equalities of the `where` make a composite key
      for (const Expr* c : cs) {
        if (c == out->conjunct) continue;
        auto pr = probe_of(*c, v, caps);
        if (!pr || pr->kind != Probe::Kind::Equal || pr->path == out->path) continue;
        bool dup = false;
        for (const auto& a : out->also) dup = dup || a.path == pr->path;
        if (!dup) out->also.push_back({pr->path, pr->key});
      }
    }
    if (out && range && out->kind != Probe::Kind::Range) out->fallback = std::make_shared<const Probe>(*range);
    if (out && join && word) out->narrow = std::make_shared<const Probe>(*word);
    return out;
  }

  /// `v.f OP X` or `X OP v.f` with OP one of < <= > >= and X a key: adds it to `range` as its
  /// lower or upper bound (the first of each, on the field of the first bound found).
  void range_bound(const Expr& c, const std::string& v, const std::set<std::string>& caps,
                   std::optional<Probe>& range) const {
    if (c.kind != Expr::Kind::Compare || c.kids.size() != 2) return;
    const std::string& op = c.text;
    if (op != "<" && op != "<=" && op != ">" && op != ">=") return;
    bool less = op[0] == '<', strict = op.size() == 1;
    std::optional<std::vector<std::string>> f;
    const Expr* x = nullptr;
    if ((f = field_of(*c.kids[0], v)) && key_ok(*c.kids[1], v, caps)) {
      x = c.kids[1].get();          // v.f < X: X is an upper bound
    } else if ((f = field_of(*c.kids[1], v)) && key_ok(*c.kids[0], v, caps)) {
      x = c.kids[0].get();          // X < v.f: X is a lower bound
      less = !less;
    } else {
      return;
    }
    if (!range) {
      range = Probe{};
      range->kind = Probe::Kind::Range;
      range->path = *f;
      range->conjunct = &c;
    } else if (range->path != *f) {
      return;
    }
    if (less && !range->upper) {
      range->upper = x;
      range->upper_strict = strict;
    } else if (!less && !range->lower) {
      range->lower = x;
      range->lower_strict = strict;
    }
  }

  /// `X == g` / `g == X` at cs[i], where g is captured by exactly one earlier conjunct
  /// `v.f ~ /re/` (no holes) and by no other conjunct: a Capture probe.
  std::optional<Probe> capture_probe(const std::vector<const Expr*>& cs, size_t i, const std::string& v,
                                     const std::set<std::string>& caps) const {
    const Expr& c = *cs[i];
    if (c.kind != Expr::Kind::Compare || c.text != "==" || c.kids.size() != 2) return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      const Expr& g = *c.kids[side];
      const Expr& x = *c.kids[1 - side];
      if (g.kind != Expr::Kind::Var || !g.path.empty() || !caps.count(g.text) || g.text == v) continue;
      if (!key_ok(x, v, caps)) continue;
      const Expr* source = nullptr;
      size_t source_at = 0;
      int binders = 0;
      for (size_t j = 0; j < cs.size(); ++j) {
        std::set<std::string> cj;
        captures(*cs[j], cj);
        if (!cj.count(g.text)) continue;
        ++binders;
        source = cs[j];
        source_at = j;
      }
      if (binders != 1 || source_at >= i || source->kind != Expr::Kind::Compare || source->text != "~") continue;
      auto f = field_of(*source->kids[0], v);
      const CompiledRegex* cr = regex(*source);
      if (!f || !cr || !cr->holes.empty()) continue;
      size_t group = 0;
      for (size_t k = 1; k < cr->group_names.size(); ++k)
        if (cr->group_names[k] == g.text) group = group ? SIZE_MAX : k;  // a name used twice: no
      if (group == 0 || group == SIZE_MAX) continue;
      Probe pr;
      pr.kind = Probe::Kind::Capture;
      pr.path = *f;
      pr.key = &x;
      pr.regex = cr;
      pr.group = group;
      pr.conjunct = &c;
      return pr;
    }
    return std::nullopt;
  }

  /// `v.f ~ /R/` with R a regex without holes: a Regex probe (its set is filled by plan_program).
  std::optional<Probe> regex_probe(const Expr& c, const std::string& v) const {
    if (c.kind != Expr::Kind::Compare || c.text != "~" || c.kids.size() != 2) return std::nullopt;
    auto f = field_of(*c.kids[0], v);
    const CompiledRegex* cr = regex(c);
    if (!f || !cr || !cr->holes.empty()) return std::nullopt;
    Probe pr;
    pr.kind = Probe::Kind::Regex;
    pr.path = *f;
    pr.regex = cr;
    pr.conjunct = &c;
    return pr;
  }

  /// `v.f ~ /R/` (R without holes), or an `or` of such on v's fields (nested `or`s flattened):
  /// the Regex probe of each regex, every one with `c` as its conjunct; nullopt otherwise.
  std::optional<std::vector<Probe>> regex_term(const Expr& c, const std::string& v) const {
    std::vector<const Expr*> alts;
    std::function<bool(const Expr&)> flatten = [&](const Expr& e) {
      if (e.kind != Expr::Kind::Or) {
        alts.push_back(&e);
        return true;
      }
      for (const auto& k : e.kids)
        if (!flatten(*k)) return false;
      return true;
    };
    flatten(c);
    std::vector<Probe> out;
    for (const Expr* a : alts) {
      auto pr = regex_probe(*a, v);
      if (!pr) return std::nullopt;
      pr->conjunct = &c;
      out.push_back(std::move(*pr));
    }
    return out;
  }

  /// `v.f ~ /..{X}../` with a required hole that reads neither v nor a capture of the `where`
  /// (`grouped_alternation`: see required_holes).
  std::optional<Probe> word_probe(const Expr& c, const std::string& v, const std::set<std::string>& caps,
                                  bool grouped_alternation = false, bool alternatives = false) const {
    if (c.kind != Expr::Kind::Compare || c.text != "~" || c.kids.size() != 2) return std::nullopt;
    auto f = field_of(*c.kids[0], v);
    const CompiledRegex* cr = regex(c);
    if (!f || !cr || cr->holes.empty()) return std::nullopt;
    Probe pr;
    pr.kind = Probe::Kind::Word;
    pr.path = *f;
    pr.regex = cr;
    pr.conjunct = &c;
    for (const auto& w : required_holes(*cr, grouped_alternation, alternatives)) {
      const RegexHole& h = cr->holes[w.hole];
      if (h.name == v || caps.count(h.name)) continue;
      pr.word_holes.push_back(w);
    }
    if (pr.word_holes.empty()) return std::nullopt;
    return pr;
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
    for (int i = 0; i < n; ++i)
      if (auto& pr = out.fors[i].probe) pr->file_keys = file_keys(r, i, *pr, bound);
    for (int i = 1; i < n; ++i) out.fors[i].by_files = by_files(r.fors[i].domain, out.fors[i].probe);
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
    // Loop-invariant binders: a condition that scans, checked inside the loop of the `for` at
    // `inner` (its own position; the last `for` for `after`) but reading only names bound
    // before it, is memoised per binding of the last `for` it reads.
    auto memoise = [&](std::vector<Filter>& fs, int inner) {
      for (auto& f : fs) {
        if (!has_binder(*f.expr)) continue;
        std::set<std::string> c;
        captures(*f.expr, c);
        if (!c.empty()) continue;
        int s = stage(*f.expr);
        if (s >= inner) {
          // Not loop-invariant: tabled by the values of what it reads (the binder's own
          // variable is not among them; lets, `pr` and sources are, harmlessly), when it leaves
          // out one of the `for` variables bound where it is checked: reading them all, its key
          // would be new at every binding.
          std::set<std::string> names;
          refs(*f.expr, names);
          bool all = true;
          for (int k = 0; k <= inner && k < n; ++k) all = all && names.count(r.fors[static_cast<size_t>(k)].var) > 0;
          if (all) continue;
          f.reads.assign(names.begin(), names.end());
          f.table = static_cast<int>(out.tables++);
          continue;
        }
        f.stage = s;
        f.memo = static_cast<int>(out.memos++);
      }
    };
    for (int i = 0; i < n; ++i) memoise(out.fors[i].filters, i);
    memoise(out.after, n - 1);
    // The conjunct a regex-set probe answers (Filter::served).
    auto binds = [](const Probe& pr) { return pr.regex->named; };
    for (auto& fp : out.fors) {
      if (!fp.probe) continue;
      std::vector<const Expr*> met;  // conjuncts the lookup answers exactly
      auto term = [&](const Probe& first, const std::vector<Probe>& rest) {
        if (binds(first)) return;
        for (const auto& a : rest)
          if (binds(a)) return;
        met.push_back(first.conjunct);
      };
      if (fp.probe->kind == Probe::Kind::Regex) term(*fp.probe, fp.probe->alts);
      for (const auto& t : fp.probe->terms) term(t[0], {t.begin() + 1, t.end()});
      for (auto& f : fp.filters)
        if (std::find(met.begin(), met.end(), f.expr) != met.end() && !f.negate && f.memo < 0 && f.table < 0)
          f.served = true;
    }
    // Binders inside conditions evaluated every time: tabled by the paths they read
    // (TabledBinder). The outermost ones only: a nested binder runs once per element of its
    // parent, which a hit on the parent's table skips anyway.
    std::set<std::string> for_vars;
    for (const auto& f : r.fors) for_vars.insert(f.var);
    std::function<void(const Expr&)> binders = [&](const Expr& e) {
      if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) {
        if (reads_findings(e)) return;
        std::set<Read> reads;
        path_refs(e, reads);
        for (const auto& rd : reads)
          if (rd.path.empty() && for_vars.count(rd.name)) return;
        out.binders[&e] = {static_cast<int>(out.tables++), std::vector<Read>(reads.begin(), reads.end())};
        return;
      }
      for (const auto& k : e.kids) binders(*k);
    };
    auto table_binders = [&](const std::vector<Filter>& fs) {
      for (const auto& f : fs)
        if (f.memo < 0 && f.table < 0) binders(*f.expr);
    };
    table_binders(out.before);
    for (const auto& fp : out.fors) table_binders(fp.filters);
    table_binders(out.after);
    // Conditions of a later `for` that read only its own variable (ForPlan::own), for a `for`
    // over a fact source and a scope known before the rule runs.
    using K = ast::ScopeExpr::Kind;
    auto known_source = [&](const ast::Domain& d) {
      return !d.findings && !d.source.empty() && d.source != "pr" && !list_domain(p_, d) && d.scope.kind != K::Expr;
    };
    for (int i = 1; i < n; ++i) {
      const ast::Domain& d = r.fors[i].domain;
      if (!known_source(d)) continue;
      auto& fp = out.fors[static_cast<size_t>(i)];
      for (size_t j = 0; j < fp.filters.size(); ++j) {
        const Filter& f = fp.filters[j];
        if (f.memo >= 0 || f.table >= 0 || !movable(*f.expr)) continue;
        std::set<std::string> names;
        refs(*f.expr, names);
        bool own = names.count(r.fors[static_cast<size_t>(i)].var) > 0;
        for (const auto& name : names)
          if (name != r.fors[static_cast<size_t>(i)].var)
            if (auto it = bound.find(name); it != bound.end() && it->second >= 0) own = false;
        if (own) fp.own.push_back(j);
      }
    }
    // A `for` read for a few files whose facts a later `for` looks up by their partner's file
    // (ForPlan::partner): that later `for` is over a source and a known scope (its `own`
    // conditions were found above), looked up by `w.f == v.P.file`.
    for (int k = 1; k < n; ++k) {
      auto& fk = out.fors[static_cast<size_t>(k)];
      if (!fk.by_files) continue;
      std::string partner;
      for (const auto& s : p_.schema)
        if (s.name == r.fors[static_cast<size_t>(k)].domain.source) partner = s.partner;
      if (partner.empty()) continue;
      const std::vector<std::string> path{partner, "file"};
      for (int j = k + 1; j < n && fk.partner < 0; ++j) {
        if (!known_source(r.fors[static_cast<size_t>(j)].domain)) continue;
        const auto& pj = out.fors[static_cast<size_t>(j)].probe;
        if (!pj || pj->kind != Probe::Kind::Equal || pj->path.size() != 1 || !pj->key) continue;
        const Expr& x = *pj->key;
        if (x.kind == Expr::Kind::Var && x.text == r.fors[static_cast<size_t>(k)].var && x.path == path) fk.partner = j;
      }
    }
    return out;
  }

  /// ForPlan::by_files of a `for` after the first over `d`, looked up by `pr`.
  bool by_files(const ast::Domain& d, const std::optional<Probe>& pr) const {
    using K = ast::ScopeExpr::Kind;
    if (!pr || pr->kind != Probe::Kind::Equal || pr->path != std::vector<std::string>{"file"}) return false;
    if (!source_domain(d)) return false;
    const K k = d.scope.kind;
    if (k != K::Default && k != K::Changed && k != K::Repo && k != K::Globs &&
        !(k == K::Expr && wide_scope(p_, d.scope, false)))
      return false;
    for (const auto& s : p_.schema)
      if (s.name == d.source) return s.by_files;
    return false;
  }

  /// Probe::file_keys of the i-th `for` of `r` (looked up by `pr`): when that `for` reads a
  /// source of the current repository by key (repo, glob or `let` scope), the lookups on an
  /// in_text field by the other conjuncts of its own `where` (`u.name == n and u.qualified ~
  /// /(^|\.){stem}\.{n}$/`: a fact it binds satisfies them all) and by later `for`s over its
  /// variable's file (`calls(u.file)`), whose key reads only names bound before the i-th `for`
  /// (`bound`: the last position binding each name).
  std::vector<Probe> file_keys(const ast::Rule& r, int i, const Probe& pr, const std::map<std::string, int>& bound) const {
    std::vector<Probe> out;
    const auto& d = r.fors[static_cast<size_t>(i)].domain;
    using K = ast::ScopeExpr::Kind;
    if (!wide_scope(p_, d.scope, false) || pr.kind == Probe::Kind::Range || !probe_in_text(p_, d.source, pr)) return out;
    const std::string& v = r.fors[static_cast<size_t>(i)].var;
    auto early = [&](const Expr& c, const std::string& var) {
      std::set<std::string> names;
      refs(c, names);
      names.erase(var);
      for (const auto& name : names)
        if (auto it = bound.find(name); it != bound.end() && it->second >= i) return false;
      return true;
    };
    if (const Expr* w = r.fors[static_cast<size_t>(i)].where.get()) {
      std::set<std::string> caps;
      captures(*w, caps);
      std::vector<const Expr*> cs;
      conjuncts(*w, cs);
      for (const Expr* c : cs) {
        if (c == pr.conjunct) continue;
        // only the files are chosen by these keys, never the facts: a hole every match holds
        // will do, an alternation in a group around it (`(^|\.){stem}`) too
        auto k = probe_of(*c, v, caps);
        if (!k) k = word_probe(*c, v, caps, true);
        if (k && probe_in_text(p_, d.source, *k) && early(*c, v)) out.push_back(std::move(*k));
      }
    }
    for (size_t j = static_cast<size_t>(i) + 1; j < r.fors.size(); ++j) {
      const auto& f = r.fors[j];
      const Expr* sc = f.domain.scope.expr.get();
      if (!f.where || !source_domain(f.domain) || f.domain.scope.kind != K::Expr || !sc || sc->kind != Expr::Kind::Var ||
          sc->text != v || sc->path != std::vector<std::string>{"file"})
        continue;
      std::set<std::string> caps;
      captures(*f.where, caps);
      std::vector<const Expr*> cs;
      conjuncts(*f.where, cs);
      for (const Expr* c : cs) {
        auto k = probe_of(*c, f.var, caps);
        if (!k) k = word_probe(*c, f.var, caps);
        if (k && probe_in_text(p_, f.domain.source, *k) && early(*c, f.var)) out.push_back(std::move(*k));
      }
    }
    return out;
  }

 private:
  const ProgramImpl& p_;
};

std::string filter_text(const ast::Rule& r, const Filter& f) {
  std::string s = (f.negate ? "unless " : "") + ast::dump(*f.expr);
  if (f.memo >= 0) s += f.stage < 0 ? "  (once)" : "  (once per " + r.fors[static_cast<size_t>(f.stage)].var + ")";
  if (f.table >= 0) {
    std::string names;
    for (const auto& n : f.reads) names += (names.empty() ? "" : ", ") + n;
    s += "  (once per value of " + names + ")";
  }
  if (f.served) s += "  (met by the index)";
  return f.moved ? s + "  (moved)" : s;
}

/// A field path as written after a variable: {"dispatch", "subject"} -> "dispatch.subject".
std::string dotted(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& f : path) s += (s.empty() ? "" : ".") + f;
  return s;
}

/// ", matched by .f /A/ [or .g /B/]" for each of `p.terms` ("" when none).
std::string terms_text(const Probe& p) {
  std::string s;
  for (const auto& t : p.terms) {
    s += ", matched by";
    for (size_t k = 0; k < t.size(); ++k) {
      s += (k ? " or ." : " .") + dotted(t[k].path) + " /" + t[k].regex->pattern + "/";
    }
  }
  return s;
}

std::string index_text(const ast::Domain& d, const Probe& p) {
  std::string s = "index " + ast::dump(d) + " by ." + dotted(p.path);
  switch (p.kind) {
    case Probe::Kind::Equal: {
      s += " = " + ast::dump(*p.key);
      for (const auto& a : p.also) {
        s += " and ." + dotted(a.path) + " = " + ast::dump(*a.key);
      }
      return s + terms_text(p);
    }
    case Probe::Kind::Member: return s + " holding " + ast::dump(*p.key);
    case Probe::Kind::DottedTail: {
      const RegexHole& h = p.regex->holes[0];
      return s + " after its last '.' = " + p.regex->pattern.substr(h.offset + 1, h.length - 2);
    }
    case Probe::Kind::Capture:
      return s + " capturing " + p.regex->group_names[p.group] + " = " + ast::dump(*p.key);
    case Probe::Kind::Word: {
      std::string out = s + " word";
      for (size_t i = 0; i < p.word_holes.size(); ++i) {
        const auto& w = p.word_holes[i];
        const RegexHole& h = p.regex->holes[w.hole];
        out += (i ? " or " : " ");
        out += w.before && w.after ? "= " : w.before ? "starting " : w.after ? "ending " : "containing ";
        out += p.regex->pattern.substr(h.offset + 1, h.length - 2);
      }
      return out;
    }
    case Probe::Kind::Regex: {
      s += " matching /" + p.regex->pattern + "/";
      for (const auto& a : p.alts) {
        s += " or ." + dotted(a.path) + " matching /" + a.regex->pattern + "/";
      }
      return s + " (regex set)" + terms_text(p);
    }
    case Probe::Kind::Range:
      return s + " in " + (p.lower ? std::string(p.lower_strict ? "(" : "[") + ast::dump(*p.lower) : std::string("(-inf")) +
             ", " + (p.upper ? ast::dump(*p.upper) + (p.upper_strict ? ")" : "]") : std::string("+inf)"));
  }
  return s;
}

/// Whether the evaluator may read `d` by key: a repository-wide, glob or named scope (a `let`
/// or repository name) and a probe on an in_text field.
bool by_key(const ProgramImpl& prog, const ast::Domain& d, const Probe& p) {
  return wide_scope(prog, d.scope, true) && p.kind != Probe::Kind::Range && probe_in_text(prog, d.source, p);
}

std::string probe_text(const ProgramImpl& prog, const ast::Domain& d, const Probe& p) {
  std::string s = index_text(d, p);
  if (by_key(prog, d, p)) {
    s += "  (read by key: only files whose text holds it";
    for (const auto& k : p.file_keys) s += " and the key of `" + ast::dump(*k.conjunct) + "`";
    s += " are parsed)";
  }
  if (p.narrow) {
    std::string word = index_text(d, *p.narrow);
    s += ", narrowed by ." + word.substr(word.find(" by .") + 5) + " when many";
  }
  if (p.fallback) {
    std::string range = index_text(d, *p.fallback);
    s += ", within " + range.substr(range.find(" by ") + 4);
  }
  return s;
}

}  // namespace

void plan_program(ProgramImpl& p) {
  Planner planner(p);
  for (const auto& pr : p.rules) {
    p.plans[pr.rule] = planner.plan(*pr.rule);
    planner.walk(*pr.rule, p.probes);
    for (const auto& a : pr.rule->alsos) {  // each `also` body has its own plan
      p.plans[&a] = planner.plan(a);
      planner.walk(a, p.probes);
    }
  }
  for (const auto* k : p.kinds)
    if (k->when) planner.walk(*k->when, p.probes);
  // Regex probes: one set per (source, field) of every such regex of the program (the same
  // pattern once), so that one RE2::Set pass over a fact answers them all
  std::vector<std::pair<std::string, Probe*>> rx;
  // a probe's own regex, its `or` alternatives and its terms' regexes
  std::function<void(const std::string&, Probe&)> note_probe = [&](const std::string& source, Probe& pr) {
    if (pr.kind == Probe::Kind::Regex) rx.emplace_back(source, &pr);
    for (auto& a : pr.alts) note_probe(source, a);
    for (auto& t : pr.terms)
      for (auto& a : t) note_probe(source, a);
  };
  auto note = [&](const std::string& source, std::optional<Probe>& pr) {
    if (pr) note_probe(source, *pr);
  };
  auto note_body = [&](const ast::Rule& r) {
    auto it = p.plans.find(&r);
    if (it == p.plans.end()) return;
    for (size_t i = 0; i < r.fors.size() && i < it->second.fors.size(); ++i) note(r.fors[i].domain.source, it->second.fors[i].probe);
  };
  for (const auto& pr : p.rules) {
    note_body(*pr.rule);
    for (const auto& a : pr.rule->alsos) note_body(a);
  }
  for (auto& [e, pr] : p.probes)
    if (e->domain) note_probe(e->domain->source, pr);
  std::map<std::string, std::vector<Probe*>> by_field;
  for (auto& [source, pr] : rx) {
    std::string key = source;
    for (const auto& f : pr->path) key += '\0' + f;
    by_field[key].push_back(pr);
  }
  for (auto& [key, probes] : by_field) {
    auto set = std::make_shared<std::vector<const CompiledRegex*>>();
    std::map<std::string, size_t> at;
    for (Probe* pr : probes) {
      auto [it, fresh] = at.emplace(pr->regex->pattern, set->size());
      if (fresh) set->push_back(pr->regex);
      pr->set_at = it->second;
    }
    for (Probe* pr : probes) pr->set = set;
  }
}

bool probe_in_text(const ProgramImpl& p, const std::string& source, const Probe& probe) {
  if (probe.path.size() != 1 || probe.kind == Probe::Kind::Range || probe.kind == Probe::Kind::Regex) return false;
  for (const auto& s : p.schema)
    if (s.name == source) {
      const FieldSchema* f = s.field(probe.path[0]);
      return f && f->in_text;
    }
  return false;
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

namespace {

/// The plan of one body (the rule's, or an `also` block's, with `when` = the rule's), indented.
std::string describe_body(const ProgramImpl& p, const ast::Rule& r, const ast::Expr* when) {
  auto it = p.plans.find(&r);
  if (it == p.plans.end()) return "";
  const RulePlan& plan = it->second;
  std::string out;
  if (when && r.label.empty()) out += "  when " + ast::dump(*when) + "\n";
  for (const auto& f : plan.before) out += "  check " + filter_text(r, f) + "\n";
  for (size_t i = 0; i < r.fors.size(); ++i) {
    const auto& f = r.fors[i];
    const auto& fp = plan.fors[i];
    out += "  for " + f.var + " in " + ast::dump(f.domain) + ": " +
           (fp.probe ? probe_text(p, f.domain, *fp.probe) : std::string("scan")) +
           (fp.by_files ? "  (built for the files the earlier `for`s name" +
                              (fp.partner >= 0 ? ", paired with the files `for " + r.fors[static_cast<size_t>(fp.partner)].var + "` admits" : std::string()) + ")"
                        : "") + "\n";
    for (size_t j = 0; j < fp.filters.size(); ++j) {
      bool first = std::find(fp.own.begin(), fp.own.end(), j) != fp.own.end();
      out += "    check " + filter_text(r, fp.filters[j]) + (first ? "  (some fact first)" : "") + "\n";
    }
  }
  if (!plan.after.empty()) out += "  then\n";
  for (const auto& x : plan.after) out += "    check " + filter_text(r, x) + "\n";
  // every exists/count binder of the body, in source order
  std::vector<std::pair<size_t, std::string>> binders;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if ((e.kind == Expr::Kind::Count || e.kind == Expr::Kind::Exists) && e.domain) {
      auto pi = p.probes.find(&e);
      std::string kind = e.kind == Expr::Kind::Count ? "count " : "exists ";
      std::string text = kind + e.binder + " in " + ast::dump(*e.domain) + ": " +
                         (pi != p.probes.end() ? probe_text(p, *e.domain, pi->second) : "scan");
      if (auto tb = plan.binders.find(&e); tb != plan.binders.end()) {
        std::string reads;
        for (const auto& rd : tb->second.reads)
          reads += (reads.empty() ? "" : ", ") + rd.name + (rd.path.empty() ? "" : "." + dotted(rd.path));
        text += "  (once per value of " + (reads.empty() ? std::string("nothing") : reads) + ")";
      }
      binders.emplace_back(e.span.offset, std::move(text));
    }
    for (const auto& k : e.kids) walk(*k);
  };
  if (when && r.label.empty()) walk(*when);
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

}  // namespace

std::string describe_plan(const ProgramImpl& p, const PlannedRule& pr) {
  const ast::Rule& r = *pr.rule;
  if (!p.plans.count(&r)) return "";
  std::string out = "plan " + r.id + "\n" + describe_body(p, r, r.when.get());
  for (const auto& a : r.alsos) {
    // the rule's `when` runs before each body too; it is printed once, above
    std::string body = describe_body(p, a, r.when.get());
    out += "also \"" + a.label + "\"\n" + body;
  }
  return out;
}

}  // namespace review::dsl
