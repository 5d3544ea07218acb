#include "dsl/checker.hpp"

#include <algorithm>
#include <set>

#include "dsl/parser.hpp"

namespace review::dsl {

using ast::Expr;
using ast::Span;

const std::vector<std::string>& default_action_prefixes() {
  static const std::vector<std::string> p = {"Author must", "Author should", "Reviewer should ask",
                                             "Reviewer should"};
  return p;
}

const SourceSchema& findings_schema() {
  static const SourceSchema s = [] {
    SourceSchema f;
    f.name = "findings";
    f.doc = "findings of rules evaluated earlier";
    for (const char* n : {"rule", "title", "severity", "problem", "impact", "action", "text"})
      f.fields.push_back({n, Type::String, "", ""});
    f.fields.push_back({"tags", Type::List, "", ""});
    return f;
  }();
  return s;
}

namespace {

struct SType {
  Type type = Type::Any;
  std::string source;   ///< fact source of a Fact (or of the elements of a List of facts)
  bool regex = false;   ///< a regex `let`
};

struct Binding {
  std::string name;
  SType type;
  bool capture = false;
};

const char* const kBuiltinFields[] = {"file", "line", "end_line", "column"};

class Checker {
 public:
  Checker(const std::map<std::string, std::string>& texts, const std::vector<SourceSchema>& schema,
          bool strict, const std::vector<std::string>& example_languages)
      : texts_(texts), schema_(schema), strict_(strict), example_languages_(example_languages) {}

  CheckResult out;

  void error(const Span& s, std::string msg) { add(Diagnostic::Level::Error, s, std::move(msg)); }
  void warning(const Span& s, std::string msg) {
    add(strict_ ? Diagnostic::Level::Error : Diagnostic::Level::Warning, s, std::move(msg));
  }

  // An example in a language `runner test` cannot run would fail obscurely there: say so at load.
  void check_example_language(const ast::Example& x) {
    const auto& langs = example_languages_;
    if (langs.empty() || std::find(langs.begin(), langs.end(), x.language) != langs.end()) return;
    std::string known;
    for (const auto& l : langs) known += (known.empty() ? "" : ", ") + l;
    error(x.language_span, "unknown example language `" + x.language + "`" + did_you_mean(x.language, langs) + " (known: " +
                      known + ")");
  }

  void run(const std::vector<const ast::File*>& files, const std::vector<std::string>& prefixes) {
    // global names first: lets, kinds, rule ids
    std::map<std::string, std::pair<const ast::File*, Span>> rule_ids;
    for (const auto* f : files) {
      file_ = f;
      for (const auto& l : f->lets) {
        if (lets_.count(l.name)) {
          error(l.span, "duplicate let `" + l.name + "`");
          continue;
        }
        lets_[l.name] = &l;
        if (l.value && l.value->kind == Expr::Kind::Regex) compile(*l.value, {});
        if (l.repo && l.pin) {
          std::string err;
          auto c = compile_regex(l.pin->text, err);
          if (!c) error(l.pin->span, "bad pin regex: " + err);
          else if (!c->holes.empty()) error(l.pin->span, "a pin regex cannot have `{holes}`");
          else if (c->re->NumberOfCapturingGroups() < 1)
            error(l.pin->span, "the pin regex needs a group: `(?P<rev>…)` (or a first group) is the pinned revision");
        }
      }
      for (const auto& k : f->kinds) {
        if (kinds_.count(k.name)) error(k.span, "duplicate kind `" + k.name + "`");
        kinds_.insert(k.name);
        kind_order_.push_back(k.name);
      }
    }
    for (const auto* f : files) {
      file_ = f;
      declared_kinds_.clear();
      for (const auto& k : f->kinds) {
        env_.clear();
        current_kind_ = &k;
        if (k.when) check(*k.when);
        current_kind_ = nullptr;
        declared_kinds_.insert(k.name);
      }
      for (const auto& r : f->rules) {
        auto [it, fresh] = rule_ids.emplace(r.id, std::make_pair(f, r.id_span));
        if (!fresh) {
          const auto& [ff, sp] = it->second;
          error(r.id_span, "duplicate rule id `" + r.id + "` (first declared at " + ff->name + ":" +
                               std::to_string(sp.line) + ":" + std::to_string(sp.column) + ")");
        }
        check_rule(r, prefixes);
      }
    }
  }

 private:
  const std::map<std::string, std::string>& texts_;
  const std::vector<SourceSchema>& schema_;
  bool strict_;
  const std::vector<std::string>& example_languages_;
  const ast::File* file_ = nullptr;
  const ast::Rule* rule_ = nullptr;
  const ast::KindDecl* current_kind_ = nullptr;
  std::map<std::string, const ast::Let*> lets_;
  std::set<std::string> kinds_, declared_kinds_;
  std::vector<std::string> kind_order_;
  std::vector<Binding> env_;

  void add(Diagnostic::Level level, const Span& s, std::string msg) {
    Diagnostic d;
    d.level = level;
    d.file = file_ ? file_->name : "";
    d.line = s.line;
    d.column = s.column;
    d.caret_len = s.length;
    d.message = std::move(msg);
    if (auto it = texts_.find(d.file); it != texts_.end()) d.source_line = source_line_at(it->second, s.line);
    out.diagnostics.push_back(std::move(d));
  }

  const SourceSchema* source(const std::string& name) const {
    if (name == "findings") return &findings_schema();
    for (const auto& s : schema_)
      if (s.name == name) return &s;
    return nullptr;
  }

  const Binding* lookup(const std::string& name) const {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }

  std::vector<std::string> visible_names() const {
    std::vector<std::string> names;
    for (const auto& b : env_) names.push_back(b.name);
    for (const auto& [n, l] : lets_) names.push_back(n);
    if (source("pr")) names.push_back("pr");
    return names;
  }

  SType let_type(const ast::Let& l) const {
    if (!l.value) return {};
    switch (l.value->kind) {
      case Expr::Kind::String: return {Type::String, "", false};
      case Expr::Kind::Int: return {Type::Int, "", false};
      case Expr::Kind::List: return {Type::List, "", false};
      case Expr::Kind::Regex: return {Type::String, "", true};
      default: return {};
    }
  }

  void compile(const Expr& re, const Expr* key_override) {
    std::string err;
    auto c = compile_regex(re.text, err);
    if (!c) {
      error(re.span, "invalid regex: " + err);
      return;
    }
    for (const auto& h : c->holes) check_hole(re, h);
    std::shared_ptr<const CompiledRegex> shared(std::move(c));
    out.regexes[&re] = shared;
    if (key_override) out.regexes[key_override] = shared;
  }

  /// Returns the byte offset in the regex token as written (`/` included) of offset `decoded` of
  /// its decoded pattern (`\/` is one byte shorter once decoded).
  static size_t raw_offset(const Expr& re, size_t decoded) {
    size_t i = 1, k = 0;
    const std::string& raw = re.raw;
    while (k < decoded && i < raw.size()) {
      if (raw[i] == '\\' && i + 1 < raw.size()) {
        k += raw[i + 1] == '/' ? 1 : 2;
        i += 2;
      } else {
        ++i;
        ++k;
      }
    }
    return raw.empty() ? decoded + 1 : i;
  }

  /// A `{name}` / `{name.field...}` hole of a regex: the name must be a bound variable, a capture
  /// of an earlier `~`, a `let` or `pr`; the fields must exist; the value must be text.
  void check_hole(const Expr& re, const RegexHole& h) {
    Span s = re.span;
    size_t at = raw_offset(re, h.offset);
    s.column += static_cast<int>(at);
    s.offset += at;
    s.length = static_cast<int>(h.length);
    const std::string shown = "{" + h.text() + "}";
    const bool known = lookup(h.name) || lets_.count(h.name) || (h.name == "pr" && source("pr"));
    if (!known) {
      error(s, "unknown variable `" + h.name + "` in the regex hole `" + shown + "`" +
                   did_you_mean(h.name, visible_names()));
      return;
    }
    Expr v;
    v.kind = Expr::Kind::Var;
    v.text = h.name;
    v.span = s;
    v.path = h.path;
    size_t col = 1 + h.name.size();  // offset of the `.` before the first field, from `{`
    for (const auto& f : h.path) {
      Span fs = s;
      fs.column += static_cast<int>(col + 1);
      fs.offset += col + 1;
      fs.length = static_cast<int>(f.size());
      v.path_spans.push_back(fs);
      col += 1 + f.size();
    }
    size_t before = out.diagnostics.size();
    SType t = check_var(v);
    if (out.diagnostics.size() != before) return;
    if (t.regex) {
      error(s, "the regex hole `" + shown + "` names a regex let; a hole inserts text, quoted");
    } else if (t.type == Type::List || t.type == Type::Bool) {
      error(s, "the regex hole `" + shown + "` must give a string or an integer, got " +
                   std::string(type_name(t.type)));
    }
  }

  SType check_var(const Expr& e) {
    SType t;
    if (const Binding* b = lookup(e.text)) {
      t = b->type;
    } else if (auto it = lets_.find(e.text); it != lets_.end()) {
      t = let_type(*it->second);
    } else if (e.text == "pr" && source("pr")) {
      t = {Type::Fact, "pr", false};
    } else {
      Span s = e.span;
      s.length = static_cast<int>(e.text.size());
      error(s, "unknown variable `" + e.text + "`" + did_you_mean(e.text, visible_names()));
      return {};
    }
    std::string shown = e.text;
    for (size_t i = 0; i < e.path.size(); ++i) {
      const std::string& f = e.path[i];
      if (t.type == Type::Any) return {};
      if (t.type != Type::Fact) {
        error(e.path_spans[i], "`" + shown + "` has no fields (it is " +
                                   (t.type == Type::Int ? "an " : "a ") + std::string(type_name(t.type)) + ")");
        return {};
      }
      const SourceSchema* src = source(t.source);
      if (!src) return {};  // nested fact of an undeclared source: unchecked
      bool builtin = false;
      for (const char* b : kBuiltinFields) builtin = builtin || f == b;
      const FieldSchema* fs = src->field(f);
      if (!fs && builtin) {
        t = {f == "file" ? Type::String : Type::Int, "", false};
      } else if (!fs) {
        std::vector<std::string> names;
        for (const auto& x : src->fields) names.push_back(x.name);
        for (const char* b : kBuiltinFields) names.push_back(b);
        error(e.path_spans[i], "unknown field `" + f + "` of `" + src->name + "`" + did_you_mean(f, names));
        return {};
      } else {
        t = {fs->type, fs->fact_source, false};
      }
      shown += "." + f;
    }
    return t;
  }

  /// True when `d` ranges over a list expression rather than a fact source.
  bool list_domain(const ast::Domain& d) const {
    if (!d.list) return false;
    if (!d.bare) return true;
    return !source(d.source) && (lookup(d.source) || lets_.count(d.source));
  }

  /// The element type of a list domain: facts of the list field's source, the common type of a
  /// [literal]'s items, else unknown (strings or facts, checked at evaluation).
  SType check_list_domain(const ast::Domain& d) {
    const Expr& x = *d.list;
    if (x.kind == Expr::Kind::List) {
      SType common;
      bool first = true, same = true;
      for (const auto& k : x.kids) {
        SType t = check(*k);
        if (first) common = t;
        else same = same && t.type == common.type && t.source == common.source;
        first = false;
      }
      return same ? common : SType{};
    }
    SType t = check(x);
    if (concrete(t.type) && t.type != Type::List) {
      error(x.span, "cannot iterate over " + std::string(t.type == Type::Int ? "an " : "a ") +
                        std::string(type_name(t.type)) + ": write a list or a fact source after `in`");
      return {};
    }
    if (t.type == Type::List && !t.source.empty()) return {Type::Fact, t.source, false};
    return {};
  }

  SType check_domain(const ast::Domain& d) {
    if (list_domain(d)) return check_list_domain(d);
    if (d.findings) {
      if (rule_) out.reads[rule_].emplace_back(d.source, d.span);
      return {Type::Fact, "findings", false};
    }
    const SourceSchema* src = d.source == "findings" ? nullptr : source(d.source);
    if (!src && d.bare) {
      std::vector<std::string> names;
      for (const auto& s : schema_) names.push_back(s.name);
      for (const auto& n : visible_names()) names.push_back(n);
      error(d.span, "unknown source or list `" + d.source + "`" + did_you_mean(d.source, names));
      return {};
    }
    if (!src) {
      std::vector<std::string> names;
      for (const auto& s : schema_) names.push_back(s.name);
      Span s = d.span;
      error(s, "unknown source `" + d.source + "`" + did_you_mean(d.source, names));
      return {};
    }
    const auto& sc = d.scope;
    if (!src->takes_scope && sc.kind != ast::ScopeExpr::Kind::Default) {
      error(sc.span, "`" + src->name + "` takes no scope");
    }
    if (sc.kind == ast::ScopeExpr::Kind::Expr && sc.expr) {
      const Expr& x = *sc.expr;
      bool bound = x.kind == Expr::Kind::Var && lookup(x.text);
      auto let = x.kind == Expr::Kind::Var ? lets_.find(x.text) : lets_.end();
      if (!bound && x.path.empty() && let != lets_.end()) {
        SType lt = let_type(*let->second);
        if (lt.regex || lt.type == Type::Int)
          error(x.span, "scope `" + x.text + "` must be a glob string or a list of globs");
      } else if (bound) {
        SType t = check(x);
        if (t.type != Type::Any && t.type != Type::String && t.type != Type::List && t.type != Type::Null)
          error(x.span, "a scope expression must give a path or a list of paths, got " +
                            std::string(type_name(t.type)));
      } else {
        std::vector<std::string> names = {"changed", "base", "repo"};
        for (const auto& [n, l] : lets_) names.push_back(n);
        for (const auto& b : env_) names.push_back(b.name);
        error(x.span, "unknown scope `" + x.text + "`" + did_you_mean(x.text, names));
      }
    }
    return {Type::Fact, src->name, false};
  }

  static bool concrete(Type t) { return t != Type::Any && t != Type::Null; }

  SType check(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Bool: return {Type::Bool};
      case Expr::Kind::Int: return {Type::Int};
      case Expr::Kind::String: return {Type::String};
      case Expr::Kind::Regex:
        error(e.span, "a regex can only stand on the right of `~` or `!~`");
        return {};
      case Expr::Kind::List:
        for (const auto& k : e.kids) check(*k);
        return {Type::List};
      case Expr::Kind::Var: return check_var(e);
      case Expr::Kind::Not: check(*e.kids[0]); return {Type::Bool};
      case Expr::Kind::And:
      case Expr::Kind::Or:
        for (const auto& k : e.kids) check(*k);
        return {Type::Bool};
      case Expr::Kind::Compare: return check_compare(e);
      case Expr::Kind::Arith: return check_arith(e);
      case Expr::Kind::Count:
      case Expr::Kind::Exists: {
        if (!e.domain) {
          SType t = check(*e.kids[0]);
          if (concrete(t.type) && t.type != Type::List)
            error(e.kids[0]->span, "count() needs a list or `X in SOURCE(SCOPE)`, got " +
                                       std::string(type_name(t.type)));
          return {Type::Int};
        }
        size_t mark = env_.size();
        SType dt = check_domain(*e.domain);
        env_.push_back({e.binder, dt, list_domain(*e.domain)});
        if (!e.kids.empty()) check(*e.kids[0]);
        env_.resize(mark);
        return {e.kind == Expr::Kind::Count ? Type::Int : Type::Bool};
      }
      case Expr::Kind::Findings:
        if (rule_) out.reads[rule_].emplace_back(e.text, e.span);
        return {Type::List, "findings", false};
      case Expr::Kind::Call: return check_call(e);
      case Expr::Kind::KindRef: {
        if (!kinds_.count(e.text)) {
          error(e.span, "unknown kind `" + e.text + "`" + did_you_mean(e.text, kind_order_));
        } else if (current_kind_ && !declared_kinds_.count(e.text)) {
          error(e.span, "kind `" + e.text + "` is used before it is declared");
        }
        return {Type::Bool};
      }
    }
    return {};
  }

  /// `+` on two ints or two strings; `-` and `*` on ints. Unknown (null/any) sides pass.
  SType check_arith(const Expr& e) {
    SType lt = check(*e.kids[0]);
    SType rt = check(*e.kids[1]);
    const std::string& op = e.text;
    auto name = [](Type t) { return std::string(type_name(t)); };
    if (op == "+") {
      bool ok_l = !concrete(lt.type) || lt.type == Type::Int || lt.type == Type::String;
      bool ok_r = !concrete(rt.type) || rt.type == Type::Int || rt.type == Type::String;
      if (!ok_l || !ok_r || (concrete(lt.type) && concrete(rt.type) && lt.type != rt.type)) {
        error(e.span, "`+` adds two integers or joins two strings, got " + name(lt.type) + " and " + name(rt.type));
        return {};
      }
      if (lt.type == Type::String || rt.type == Type::String) return {Type::String};
      if (lt.type == Type::Int || rt.type == Type::Int) return {Type::Int};
      return {};
    }
    for (const SType* t : {&lt, &rt}) {
      if (concrete(t->type) && t->type != Type::Int) {
        error(e.span, "`" + op + "` needs integers, got " + name(lt.type) + " and " + name(rt.type));
        return {Type::Int};
      }
    }
    return {Type::Int};
  }

  /// Built-in functions: lower(string) -> string, trim(string) -> string, oneline(string) -> string,
  /// len(string or list) -> int,
  /// int(string) -> int, version(string) -> int.
  SType check_call(const Expr& e) {
    std::vector<SType> args;
    for (const auto& k : e.kids) args.push_back(check(*k));
    const bool lower = e.text == "lower" || e.text == "trim" || e.text == "oneline", len = e.text == "len";
    const bool number = e.text == "int" || e.text == "version";
    if (!lower && !len && !number) {
      error(e.span, "unknown function `" + e.text + "`" +
                        did_you_mean(e.text, {"lower", "trim", "oneline", "len", "int", "version"}));
      return {};
    }
    if (number) {
      if (args.size() != 1) {
        error(e.span, "`" + e.text + "` takes 1 argument, got " + std::to_string(args.size()));
      } else if (concrete(args[0].type) && args[0].type != Type::String) {
        error(e.kids[0]->span, "`" + e.text + "` needs a string, got " + std::string(type_name(args[0].type)));
      }
      return {Type::Int};
    }
    if (args.size() != 1) {
      error(e.span, "`" + e.text + "` takes 1 argument, got " + std::to_string(args.size()));
      return {lower ? Type::String : Type::Int};
    }
    Type t = args[0].type;
    if (lower && concrete(t) && t != Type::String)
      error(e.kids[0]->span, "`" + e.text + "` needs a string, got " + std::string(type_name(t)));
    if (len && concrete(t) && t != Type::String && t != Type::List)
      error(e.kids[0]->span, "`len` needs a string or a list, got " + std::string(type_name(t)));
    return {lower ? Type::String : Type::Int};
  }

  SType check_compare(const Expr& e) {
    const std::string& op = e.text;
    const Expr& lhs = *e.kids[0];
    const Expr& rhs = *e.kids[1];
    SType lt = check(lhs);
    if (op == "~" || op == "!~") {
      if (lt.type == Type::Int || lt.type == Type::Bool)
        error(lhs.span, "regex match needs a string on the left, got " + std::string(type_name(lt.type)));
      std::shared_ptr<const CompiledRegex> re;
      if (rhs.kind == Expr::Kind::Regex) {
        compile(rhs, nullptr);
      } else if (rhs.kind == Expr::Kind::Var && rhs.path.empty() && !lookup(rhs.text) &&
                 lets_.count(rhs.text) && lets_[rhs.text]->value &&
                 lets_[rhs.text]->value->kind == Expr::Kind::Regex) {
        auto it = out.regexes.find(lets_[rhs.text]->value.get());
        if (it != out.regexes.end()) out.regexes[&rhs] = it->second;
      } else {
        if (rhs.kind == Expr::Kind::Var) check(rhs);
        error(rhs.span, "the right side of `" + op + "` must be a /regex/ or a let that holds one");
      }
      auto it = out.regexes.find(&rhs);
      if (op == "~" && it != out.regexes.end()) {
        for (const auto& n : it->second->group_names) {
          if (n.empty()) continue;
          if (is_reserved_word(n))
            error(rhs.span, "the regex's group `" + n + "` is named by a keyword of the rule language, so no " +
                                "condition or template could read it; rename the group");
          env_.push_back({n, {Type::String}, true});
        }
      }
      return {Type::Bool};
    }
    SType rt = check(rhs);
    if (op == "like" || op == "not like") {
      if (concrete(lt.type) && lt.type != Type::String)
        error(lhs.span, "`" + op + "` needs a string on the left, got " + std::string(type_name(lt.type)));
      if (concrete(rt.type) && rt.type != Type::String && rt.type != Type::List)
        error(rhs.span, "`" + op + "` needs a glob or a list of globs on the right, got " +
                            std::string(type_name(rt.type)));
    } else if (op == "in" || op == "not in") {
      if (concrete(rt.type) && rt.type != Type::List && rt.type != Type::String)
        error(rhs.span, "`" + op + "` needs a list or a string on the right, got " + std::string(type_name(rt.type)));
    } else if (op == "==" || op == "!=") {
      if (concrete(lt.type) && concrete(rt.type) && lt.type != rt.type)
        error(e.span, "cannot compare " + std::string(type_name(lt.type)) + " with " +
                          std::string(type_name(rt.type)));
    } else {
      for (const SType* t : {&lt, &rt}) {
        if (concrete(t->type) && t->type != Type::Int) {
          error(e.span, "`" + op + "` compares integers, got " + std::string(type_name(t->type)));
          break;
        }
      }
    }
    return {Type::Bool};
  }

  bool names_trigger(const Expr& e) const {
    if (e.kind == Expr::Kind::Var) {
      if (!e.path.empty()) return true;
      const Binding* b = lookup(e.text);
      return b && b->capture;
    }
    for (const auto& k : e.kids)
      if (names_trigger(*k)) return true;
    return false;
  }

  void check_template(const ast::Template& t) {
    for (const auto& p : t.parts)
      if (p.hole) check(*p.hole);
  }

  /// Checks one query body (the rule's own, or an `also` block): its `for`s, conditions, `at` and
  /// templates, with `env_` holding what the rule's `when` bound. Names bound here stay here.
  void check_body(const ast::Rule& r, const std::vector<std::string>& prefixes, bool also) {
    const std::string who = body_name(r, also);
    const Span& where = also ? r.label_span : r.id_span;
    for (const auto& [name, span] : r.duplicate_clauses)
      error(span, "duplicate `" + name + "` in " + who);
    for (const auto& f : r.fors) {
      SType dt = check_domain(f.domain);
      env_.push_back({f.var, dt, list_domain(f.domain)});
      if (f.where) check(*f.where);
    }
    for (const auto& w : r.wheres) check(*w);
    for (const auto& u : r.unlesses) check(*u);
    for (const auto& s : r.severity_ifs) check(*s.cond);
    if (r.at) {
      SType t = check(*r.at);
      if (t.type != Type::Fact && t.type != Type::Any)
        error(r.at->span, std::string("`at` takes a fact (a variable bound by `for`, or a fact field), not ") +
                              (t.type == Type::Int ? "an " : "a ") + std::string(type_name(t.type)) +
                              ": it sets the finding's file and line");
    }
    check_template(r.problem);
    check_template(r.impact);
    check_template(r.action);
    for (const auto& [t, name] : {std::pair{&r.problem, "problem"}, std::pair{&r.impact, "impact"},
                                  std::pair{&r.action, "action"}}) {
      if (!t->present) error(where, who + " has no `" + name + "`");
    }
    const bool may_block = r.severity == "block" || std::any_of(r.severity_ifs.begin(), r.severity_ifs.end(),
                                                                [](const auto& s) { return s.severity == "block"; });
    if (may_block && r.problem.present) {
      bool named = false;
      for (const auto& p : r.problem.parts) named = named || (p.hole && names_trigger(*p.hole));
      if (!named)
        error(r.problem.span, "a blocking finding must name its concrete trigger: the `problem` of " +
                                  std::string(r.severity == "block" ? "block " : "") + who +
                                  (r.severity == "block" ? "" : ", which blocks where its `severity block if` holds,") +
                                  " has no {hole} that uses a captured value or a fact field");
    }
    // the red-finding gate on evidence: the unconditional severity, and each `severity block if`
    if (r.evidence == "inferred") {
      auto inferred_block = [&](const Span& at, const char* instead) {
        error(at, "block " + who + " has `evidence inferred`: an inferred finding is at most a warning "
                                   "(the red-finding gate); make it `" + instead + "`, or verify its evidence");
      };
      if (r.severity == "block") inferred_block(where, "severity warn");
      for (const auto& s : r.severity_ifs)
        if (s.severity == "block") inferred_block(s.span, "severity warn if …");
    }
    if (r.action.present) {
      bool ok = false;
      for (const auto& p : prefixes) ok = ok || r.action.raw.compare(0, p.size(), p) == 0;
      if (!ok) {
        std::string list;
        for (size_t i = 0; i < prefixes.size(); ++i) {
          if (i) list += i + 1 == prefixes.size() ? " or " : ", ";
          list += "\"" + prefixes[i] + "\"";
        }
        error(r.action.span, "`action` must start with a verb phrase addressed to a person: " + list);
      }
    }
  }

  /// How diagnostics name a body: "rule `X`" or "`also "L"` of rule `X`".
  static std::string body_name(const ast::Rule& b, bool also) {
    return also ? "`also \"" + b.label + "\"` of rule `" + b.id + "`" : "rule `" + b.id + "`";
  }

  void check_rule(const ast::Rule& r, const std::vector<std::string>& prefixes) {
    rule_ = &r;  // `also` bodies too: their findings() reads order the rule
    env_.clear();
    if (r.when) check(*r.when);
    const std::vector<Binding> after_when = env_;  // each body starts from the `when`'s captures
    check_body(r, prefixes, false);
    std::map<std::string, const ast::Rule*> labels;
    for (const auto& a : r.alsos) {
      if (a.label.empty())
        error(a.label_span, "an `also` body needs a label: it tells its findings from the rule's main body's");
      else if (auto [it, fresh] = labels.emplace(a.label, &a); !fresh)
        error(a.label_span, "duplicate `also` label \"" + a.label + "\" in rule `" + r.id + "` (first at line " +
                                std::to_string(it->second->label_span.line) + ")");
      env_ = after_when;
      check_body(a, prefixes, true);
    }
    bool has_bad = false;
    for (const auto& x : r.examples) has_bad = has_bad || x.kind == "bad";
    if (!has_bad) warning(r.id_span, "rule `" + r.id + "` has no `bad` example");
    for (const auto& x : r.examples) check_example_language(x);
    rule_ = nullptr;
  }
};

}  // namespace

CheckResult check_files(const std::vector<const ast::File*>& files,
                        const std::map<std::string, std::string>& texts,
                        const std::vector<SourceSchema>& schema, bool strict,
                        const std::vector<std::string>& action_prefixes,
                        const std::vector<std::string>& example_languages) {
  Checker c(texts, schema, strict, example_languages);
  c.run(files, action_prefixes.empty() ? default_action_prefixes() : action_prefixes);
  return std::move(c.out);
}

}  // namespace review::dsl
