#include "dsl/evaluator.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

#include "dsl/plan.hpp"

namespace review::dsl {

using ast::Expr;
using Clock = std::chrono::steady_clock;

namespace {

struct BudgetExceeded {};

/// Longest string `+` builds (bytes); a longer result is null, so hostile facts cannot blow up
/// memory through a chain of joins.
constexpr size_t kMaxJoinedString = size_t{1} << 20;

struct Binding {
  std::string_view name;
  Value value;
  bool capture = false;
};

class Evaluator {
 public:
  Evaluator(const ProgramImpl& p, Facts& facts, const EvalOptions& opts) : p_(p), facts_(facts), opts_(opts) {}

  EvalResult run() {
    EvalResult out;
    facts_.configure(p_.data);
    for (const auto* k : p_.kinds) {
      env_.clear();
      bool hit = false;
      deadline_ = Clock::now() + opts_.rule_budget;
      try {
        hit = k->when && eval(*k->when).truthy();
      } catch (const FactsError& e) {
        out.internal_diagnostics.push_back("kind `" + k->name + "`: " + e.message);
      } catch (const BudgetExceeded&) {
        out.internal_diagnostics.push_back("kind `" + k->name + "` stopped: it ran longer than its time budget of " +
                                           std::to_string(opts_.rule_budget.count()) + " ms");
      }
      kinds_[k->name] = hit;
      if (hit) out.kinds.push_back({k->name, k->label});
    }
    std::set<std::string> wanted(opts_.only_rules.begin(), opts_.only_rules.end());
    std::set<std::string> needed_tags;
    if (!wanted.empty()) {
      // rules whose findings a wanted rule reads must still run (readers run after writers, so
      // walk the order backwards)
      for (auto it = p_.rules.rbegin(); it != p_.rules.rend(); ++it) {
        bool run = wanted.count(it->rule->id) > 0;
        for (const auto& t : it->rule->tags) run = run || needed_tags.count(t);
        if (run) collect_tags(*it->rule, needed_tags);
      }
    }
    for (const auto& pr : p_.rules) {
      const ast::Rule& r = *pr.rule;
      bool report = wanted.empty() || wanted.count(r.id);
      bool feeds = false;
      for (const auto& t : r.tags) feeds = feeds || needed_tags.count(t);
      if (!report && !feeds) continue;
      rule_ = &pr;
      env_.clear();
      std::vector<Finding> found;
      found_ = &found;
      deadline_ = Clock::now() + opts_.rule_budget;
      try {
        run_rule(r);
      } catch (const BudgetExceeded&) {
        out.internal_diagnostics.push_back("rule `" + r.id + "` stopped: it ran longer than its time budget of " +
                                           std::to_string(opts_.rule_budget.count()) +
                                           " ms; its findings are dropped");
        continue;
      } catch (const FactsError& e) {
        out.internal_diagnostics.push_back("rule `" + r.id + "`: " + e.message);
        continue;
      }
      for (const auto& f : found) {
        auto fact = make_fact("findings", f.file, f.line);
        fact->set("rule", Value(f.rule_id));
        fact->set("title", Value(f.rule_title));
        fact->set("text", Value(f.rule_title));
        fact->set("severity", Value(std::string(severity_name(f.severity))));
        fact->set("problem", Value(f.problem));
        fact->set("impact", Value(f.impact));
        fact->set("action", Value(f.action));
        Value::List tags;
        for (const auto& t : f.tags) tags.emplace_back(t);
        fact->set("tags", Value(std::move(tags)));
        FactPtr shared = fact;
        for (const auto& t : f.tags) by_tag_[t].push_back(Value(shared));
        if (report) out.findings.push_back(f);
      }
    }
    return out;
  }

 private:
  const ProgramImpl& p_;
  Facts& facts_;
  const EvalOptions& opts_;
  Clock::time_point deadline_;
  const PlannedRule* rule_ = nullptr;
  std::vector<Finding>* found_ = nullptr;
  std::vector<Binding> env_;
  std::map<std::string, bool> kinds_;
  std::map<std::string, Value::List> by_tag_;
  std::map<std::string, const std::vector<FactPtr>*> cache_;
  bool pr_loaded_ = false;
  Value pr_;

  void collect_tags(const ast::Rule& r, std::set<std::string>& tags) {
    std::function<void(const Expr&)> walk = [&](const Expr& e) {
      if (e.kind == Expr::Kind::Findings) tags.insert(e.text);
      if (e.domain && e.domain->findings) tags.insert(e.domain->source);
      if (e.domain && e.domain->list && !e.domain->bare) walk(*e.domain->list);
      for (const auto& k : e.kids) walk(*k);
    };
    if (r.when) walk(*r.when);
    for (const auto& f : r.fors) {
      if (f.domain.findings) tags.insert(f.domain.source);
      if (f.domain.list && !f.domain.bare) walk(*f.domain.list);
      if (f.where) walk(*f.where);
    }
    for (const auto& w : r.wheres) walk(*w);
    for (const auto& u : r.unlesses) walk(*u);
    for (const auto* t : {&r.problem, &r.impact, &r.action})
      for (const auto& part : t->parts)
        if (part.hole) walk(*part.hole);
  }

  void tick() const {
    if (Clock::now() > deadline_) throw BudgetExceeded{};
  }

  const Value* lookup(std::string_view name) const {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->name == name) return &it->value;
    return nullptr;
  }

  const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) {
    std::string key = source + '\0' + std::to_string(static_cast<int>(scope.kind));
    for (const auto& p : scope.patterns) key += '\0' + p;
    auto it = cache_.find(key);
    if (it != cache_.end()) return *it->second;
    // Building facts (parsing files, running analyses) is shared by every rule that reads them
    // and is cached: it does not count against the budget of the rule that happens to ask first.
    auto started = Clock::now();
    const auto& facts = facts_.query(source, scope);
    deadline_ += Clock::now() - started;
    cache_[key] = &facts;
    return facts;
  }

  Value pr() {
    if (!pr_loaded_) {
      pr_loaded_ = true;
      const auto& f = query("pr", Scope{});
      if (!f.empty()) pr_ = Value(f.front());
    }
    return pr_;
  }

  static void add_strings(const Value& v, std::vector<std::string>& out) {
    if (v.is_string()) out.push_back(v.as_string());
    for (const auto& x : v.as_list()) add_strings(x, out);
  }

  Scope scope_of(const ast::ScopeExpr& s) {
    Scope out;
    switch (s.kind) {
      case ast::ScopeExpr::Kind::Default:
      case ast::ScopeExpr::Kind::Changed: out.kind = Scope::Kind::Changed; break;
      case ast::ScopeExpr::Kind::Base: out.kind = Scope::Kind::Base; break;
      case ast::ScopeExpr::Kind::Repo: out.kind = Scope::Kind::Repo; break;
      case ast::ScopeExpr::Kind::Globs:
        out.kind = Scope::Kind::Globs;
        out.patterns = s.globs;
        break;
      case ast::ScopeExpr::Kind::Expr: {
        const Expr& x = *s.expr;
        if (x.kind == Expr::Kind::Var && x.path.empty() && !lookup(x.text)) {
          out.kind = Scope::Kind::Globs;
          add_strings(p_.data.let(x.text), out.patterns);
        } else {
          out.kind = Scope::Kind::Files;
          add_strings(eval(x), out.patterns);
        }
        break;
      }
    }
    return out;
  }

  /// Same decision as the checker's: a bare name is a source when the schema has one.
  bool list_domain(const ast::Domain& d) const {
    if (!d.list) return false;
    if (!d.bare) return true;
    for (const auto& s : p_.schema)
      if (s.name == d.source) return false;
    return true;
  }

  Value::List domain(const ast::Domain& d) {
    if (list_domain(d)) {
      Value v = eval(*d.list);
      return v.is_list() ? v.as_list() : Value::List{};
    }
    if (d.findings) {
      auto it = by_tag_.find(d.source);
      return it == by_tag_.end() ? Value::List{} : it->second;
    }
    Value::List out;
    if (d.source == "pr") {
      Value v = pr();
      if (!v.is_null()) out.push_back(v);
      return out;
    }
    for (const auto& f : query(d.source, scope_of(d.scope))) out.emplace_back(f);
    return out;
  }

  /// The value of `name.path[0].path[1]...`: a binding, else a let, else `pr`; null when a link
  /// of the chain is not a fact.
  Value resolve(const std::string& name, const std::vector<std::string>& path) {
    Value v;
    if (const Value* b = lookup(name)) {
      v = *b;
    } else if (auto it = p_.lets.find(name); it != p_.lets.end()) {
      v = p_.data.let(name);
    } else if (name == "pr") {
      v = pr();
    }
    for (const auto& f : path) {
      const FactPtr& fact = v.as_fact();
      if (!fact) return {};
      v = fact->get(f);
    }
    return v;
  }

  Value var(const Expr& e) { return resolve(e.text, e.path); }

  bool match(const Expr& e, const Value& lhs, bool bind) {
    auto it = p_.regexes.find(e.kids[1].get());
    if (it == p_.regexes.end()) return false;
    const CompiledRegex& cr = *it->second;
    std::vector<std::string> holes;
    for (const auto& h : cr.holes) {
      Value v = resolve(h.name, h.path);
      // A capture of an alternative that did not run inserts "" (`{kw}{kw2}` after `a ~ /(?P<kw>..)/
      // or b ~ /(?P<kw2>..)/`); a field chain that ends in null has nothing to insert: no match.
      if (v.is_null() && !h.path.empty()) return false;
      holes.push_back(v.to_text());
    }
    std::shared_ptr<const re2::RE2> re = cr.instance(holes);
    if (!re) return false;
    std::vector<std::string> groups;
    auto try_one = [&](const Value& v) {
      if (!v.is_string()) return false;
      return regex_search(*re, v.as_string(), bind ? &groups : nullptr);
    };
    bool hit = false;
    if (lhs.is_list()) {
      for (const auto& v : lhs.as_list())
        if ((hit = try_one(v))) break;
    } else {
      hit = try_one(lhs);
    }
    if (hit && bind) {
      for (size_t i = 1; i < cr.group_names.size() && i < groups.size(); ++i)
        if (!cr.group_names[i].empty()) env_.push_back({cr.group_names[i], Value(groups[i]), true});
    }
    return hit;
  }

  Value compare(const Expr& e) {
    const std::string& op = e.text;
    Value l = eval(*e.kids[0]);
    if (op == "~") return Value(match(e, l, true));
    if (op == "!~") return Value(!l.is_null() && !match(e, l, false));
    Value r = eval(*e.kids[1]);
    if (op == "==") return Value(l == r);
    if (op == "!=") return Value(!(l == r));
    // `not like` / `not in` negate, except that a null left side (a missing field) makes both
    // forms false, as it does for `~` and `!~`
    if (op == "like" || op == "not like") {
      if (!l.is_string()) return Value(false);
      bool hit = false;
      if (r.is_string()) hit = glob_match(r.as_string(), l.as_string());
      for (const auto& g : r.as_list())
        if (!hit && g.is_string() && glob_match(g.as_string(), l.as_string())) hit = true;
      return Value(hit != (op == "not like"));
    }
    if (op == "in" || op == "not in") {
      if (l.is_null()) return Value(false);
      bool hit = false;
      if (r.is_string()) hit = l.is_string() && r.as_string().find(l.as_string()) != std::string::npos;
      for (const auto& x : r.as_list())
        if (!hit && x == l) hit = true;
      return Value(hit != (op == "not in"));
    }
    if (!l.is_int() || !r.is_int()) return Value(false);
    int64_t a = l.as_int(), b = r.as_int();
    if (op == "<") return Value(a < b);
    if (op == "<=") return Value(a <= b);
    if (op == ">") return Value(a > b);
    return Value(a >= b);
  }

  /// Integer `+ - *` saturate at the int64 limits (never wrap); `+` joins two strings (null past
  /// kMaxJoinedString); any other mix (a null side from a missing field included) gives null.
  Value arith(const Expr& e) {
    Value l = eval(*e.kids[0]);
    Value r = eval(*e.kids[1]);
    const char op = e.text.empty() ? '+' : e.text[0];
    if (op == '+' && l.is_string() && r.is_string()) {
      if (l.as_string().size() + r.as_string().size() > kMaxJoinedString) return {};
      return Value(l.as_string() + r.as_string());
    }
    if (!l.is_int() || !r.is_int()) return {};
    int64_t a = l.as_int(), b = r.as_int(), out = 0;
    bool overflow = op == '+'   ? __builtin_add_overflow(a, b, &out)
                    : op == '-' ? __builtin_sub_overflow(a, b, &out)
                                : __builtin_mul_overflow(a, b, &out);
    if (!overflow) return Value(out);
    bool negative = op == '+' ? a < 0 : op == '-' ? a < b : (a < 0) != (b < 0);
    return Value(negative ? INT64_MIN : INT64_MAX);
  }

  /// int(s): the decimal integer s starts with (after blanks, an optional '-'); version(s): a dotted
  /// version "M[.m[.p]]" (an optional leading 'v') as M*1000000 + m*1000 + p, each part below 1000.
  /// Null when s is not a string, has no digits where they are needed, or a part is out of range.
  static Value number(bool version, const Value& v) {
    if (!v.is_string()) return {};
    const std::string& s = v.as_string();
    size_t i = s.find_first_not_of(" \t");
    if (i == std::string::npos) return {};
    bool too_big = false;
    auto digits = [&](int64_t limit) -> std::optional<int64_t> {
      size_t start = i;
      int64_t n = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        n = n * 10 + (s[i] - '0');
        if (n >= limit) {
          too_big = true;
          return std::nullopt;
        }
        ++i;
      }
      if (i == start) return std::nullopt;
      return n;
    };
    if (!version) {
      bool neg = s[i] == '-';
      if (neg) ++i;
      auto n = digits(INT64_MAX / 10);
      if (!n) return {};
      return Value(neg ? -*n : *n);
    }
    if (s[i] == 'v' || s[i] == 'V') ++i;
    int64_t out = 0, scale = 1000000;
    for (int part = 0; part < 3; ++part) {
      auto n = digits(1000);
      if (!n) {
        if (part == 0 || too_big) return {};
        break;
      }
      out += *n * scale;
      scale /= 1000;
      if (i + 1 < s.size() && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') ++i;
      else break;
    }
    return Value(out);
  }

  /// lower(s): ASCII letters lowered; trim(s): ASCII white space cut at both ends; oneline(s): trim, and
  /// every inner run of white space (line breaks included) made one space; len(s): UTF-8 code points; len(list): items. Any other
  /// argument (null included) gives null.
  Value call(const Expr& e) {
    if (e.kids.size() != 1) return {};
    Value v = eval(*e.kids[0]);
    if (e.text == "lower") {
      if (!v.is_string()) return {};
      std::string s = v.as_string();
      for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      return Value(std::move(s));
    }
    if (e.text == "trim") {
      if (!v.is_string()) return {};
      const std::string& s = v.as_string();
      size_t a = s.find_first_not_of(" \t\r\n\f\v");
      if (a == std::string::npos) return Value(std::string());
      size_t b = s.find_last_not_of(" \t\r\n\f\v");
      return Value(s.substr(a, b - a + 1));
    }
    if (e.text == "int" || e.text == "version") return number(e.text == "version", v);
    if (e.text == "oneline") {  // every run of white space (line breaks included) becomes one space
      if (!v.is_string()) return {};
      std::string out;
      bool space = false;
      for (char c : v.as_string()) {
        bool ws = c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
        if (ws) {
          space = !out.empty();
          continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
      }
      return Value(std::move(out));
    }
    if (e.text == "len") {
      if (v.is_list()) return Value(static_cast<int64_t>(v.as_list().size()));
      if (!v.is_string()) return {};
      int64_t n = 0;
      for (char c : v.as_string()) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      return Value(n);
    }
    return {};
  }

  Value eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Bool: return Value(e.boolean);
      case Expr::Kind::Int: return Value(e.integer);
      case Expr::Kind::String:
      case Expr::Kind::Regex: return Value(e.text);
      case Expr::Kind::List: {
        Value::List l;
        for (const auto& k : e.kids) l.push_back(eval(*k));
        return Value(std::move(l));
      }
      case Expr::Kind::Var: return var(e);
      case Expr::Kind::Not: return Value(!eval(*e.kids[0]).truthy());
      case Expr::Kind::And:
        for (const auto& k : e.kids)
          if (!eval(*k).truthy()) return Value(false);
        return Value(true);
      case Expr::Kind::Or:
        for (const auto& k : e.kids)
          if (eval(*k).truthy()) return Value(true);
        return Value(false);
      case Expr::Kind::Compare: return compare(e);
      case Expr::Kind::Arith: return arith(e);
      case Expr::Kind::Count:
      case Expr::Kind::Exists: {
        bool count = e.kind == Expr::Kind::Count;
        if (!e.domain) {
          Value v = eval(*e.kids[0]);
          return Value(static_cast<int64_t>(v.is_list() ? v.as_list().size() : 0));
        }
        int64_t n = 0;
        size_t mark = env_.size();
        for (const auto& f : domain(*e.domain)) {
          tick();
          env_.push_back({e.binder, f, false});
          bool ok = e.kids.empty() || eval(*e.kids[0]).truthy();
          env_.resize(mark);
          if (ok) {
            if (!count) return Value(true);
            ++n;
          }
        }
        return count ? Value(n) : Value(false);
      }
      case Expr::Kind::Findings: {
        auto it = by_tag_.find(e.text);
        return it == by_tag_.end() ? Value(Value::List{}) : Value(it->second);
      }
      case Expr::Kind::Call: return call(e);
      case Expr::Kind::KindRef: {
        auto it = kinds_.find(e.text);
        return Value(it != kinds_.end() && it->second);
      }
    }
    return {};
  }

  void run_rule(const ast::Rule& r) {
    if (r.when && !eval(*r.when).truthy()) return;
    join(r, 0, nullptr);
  }

  void join(const ast::Rule& r, size_t i, FactPtr first) {
    if (i == r.fors.size()) {
      for (const auto& w : r.wheres)
        if (!eval(*w).truthy()) return;
      for (const auto& u : r.unlesses)
        if (eval(*u).truthy()) return;
      if (r.at) {
        Value v = eval(*r.at);
        if (v.is_fact()) first = v.as_fact();
      }
      emit(r, first);
      return;
    }
    const auto& f = r.fors[i];
    size_t mark = env_.size();
    for (const auto& v : domain(f.domain)) {
      tick();
      env_.push_back({f.var, v, false});
      if (!f.where || eval(*f.where).truthy()) join(r, i + 1, i == 0 ? v.as_fact() : first);
      env_.resize(mark);
    }
  }

  std::string render(const ast::Template& t, std::map<std::string, std::string>* witness) {
    std::string out;
    for (const auto& part : t.parts) {
      if (!part.hole) {
        out += part.text;
        continue;
      }
      std::string v = eval(*part.hole).to_text();
      if (witness) (*witness)[part.text] = v;
      out += v;
    }
    return out;
  }

  void emit(const ast::Rule& r, const FactPtr& at) {
    const RuleMeta& m = rule_->meta;
    Finding f;
    f.rule_id = m.id;
    f.rule_title = m.title;
    f.severity = m.severity;
    f.evidence = m.evidence;
    f.tags = m.tags;
    if (at) {
      f.file = at->file;
      f.line = at->line;
      f.end_line = at->end_line;
      f.column = at->column;
      Value text = at->get("text");
      if (text.is_string()) f.snippet = text.as_string();
    }
    for (const auto& b : env_)
      if (b.capture) f.witness[std::string(b.name)] = b.value.to_text();
    if (at) {
      // Does the change touch this finding? Its own fact, every fact bound in the rule, and the
      // facts those reference directly, when they lie on an added line or are a removed line (in
      // any file: a caller in an unchanged file that still passes a removed parameter, or a kept
      // comment whose statement was deleted, is touched by the change).
      auto on_added = [&](const FactPtr& x) {
        if (!x || x->file.empty() || x->line <= 0) return false;
        if (facts_.is_added(x->file, x->line)) return true;
        Value kind = x->get("kind");  // line facts: "removed" for a removed line, in any scope
        return kind.is_string() && kind.as_string() == "removed";
      };
      auto touches = [&](const FactPtr& x) {
        if (on_added(x)) return true;
        if (x)
          for (const auto& [name, v] : x->fields)
            if (v.is_fact() && on_added(v.as_fact())) return true;
        return false;
      };
      f.touches_change = touches(at);
      for (const auto& b : env_)
        if (!f.touches_change && b.value.is_fact()) f.touches_change = touches(b.value.as_fact());
    }
    if (at && !r.fors.empty()) {
      f.witness[r.fors[0].var + ".file"] = at->file;
      f.witness[r.fors[0].var + ".line"] = std::to_string(at->line);
    }
    f.problem = render(r.problem, &f.witness);
    f.impact = render(r.impact, nullptr);
    f.action = render(r.action, nullptr);
    if (!f.file.empty()) {
      int best = 0;
      for (const auto& t : p_.data.tiers)
        if (glob_match(t.glob, f.file) && (best == 0 || t.tier < best)) best = t.tier;
      if (best > 0) f.tier = std::to_string(best);
    }
    for (const auto& g : *found_)
      if (g.file == f.file && g.line == f.line && g.problem == f.problem) return;
    found_->push_back(std::move(f));
  }
};

}  // namespace

EvalResult evaluate(const Program& program, Facts& facts, const EvalOptions& opts) {
  Evaluator e(program.impl(), facts, opts);
  return e.run();
}

}  // namespace review::dsl
