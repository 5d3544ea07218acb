#include "dsl/parser.hpp"


#include <charconv>
#include <set>
#include <sstream>

#include <tao/pegtl.hpp>

#include "dsl/grammar.hpp"
#include "dsl/grammar_errors.hpp"
#include "dsl/template.hpp"

namespace review::dsl {

namespace pegtl = tao::pegtl;
namespace g = grammar;
using ast::Expr;
using ast::ExprPtr;
using ast::Span;

namespace {

std::string trim(std::string_view s) {
  size_t e = s.size();
  while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(0, e));
}

template <typename Input>
Span span_of(const Input& in, size_t len) {
  auto p = in.position();
  return Span{static_cast<int>(p.line), static_cast<int>(p.column), p.byte,
              static_cast<int>(std::max<size_t>(1, len))};
}

ExprPtr make(Expr::Kind k, Span s) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->span = s;
  return e;
}

/// Parser state: stacks the actions push to and pop from, plus the declaration in progress.
struct Builder {
  ast::File* file = nullptr;
  std::string_view full_text;
  std::vector<Diagnostic>* diagnostics = nullptr;
  int depth = 0;

  std::vector<ExprPtr> exprs;
  std::vector<std::pair<std::string, Span>> ops;
  std::vector<size_t> marks;
  std::vector<std::pair<std::string, Span>> calls;  ///< function name of each open call
  std::vector<ast::Domain> domains;
  std::vector<std::pair<std::string, Span>> binders;
  std::vector<bool> where_flags;
  std::vector<ExprPtr> tmp_strings;
  std::string title, tmp_text, let_name, example_kind, example_lang;
  Span example_lang_span;
  Span let_span;
  // `let NAME = repo "FILE" /PIN/`: set by the let_repo actions, read by let_decl's.
  bool let_is_repo = false;
  size_t repo_mark = 0;
  std::string let_pin_file;
  ExprPtr let_pin;
  ast::Tier tier;
  ast::KindDecl kind;
  ast::Rule rule;
  std::set<std::string> rule_clauses;
  bool in_also = false;                 ///< inside an `also` block: clauses go to rule.alsos.back()
  std::set<std::string> also_clauses;

  /// The query body clauses are written to: the rule's, or its open `also` block's.
  ast::Rule& body() { return in_also && !rule.alsos.empty() ? rule.alsos.back() : rule; }

  ExprPtr pop() {
    if (exprs.empty()) return make(Expr::Kind::Bool, {});  // cannot happen for a well-formed grammar
    ExprPtr e = std::move(exprs.back());
    exprs.pop_back();
    return e;
  }
  std::string pop_string() { return pop()->text; }
  void reset() {
    exprs.clear(); ops.clear(); marks.clear(); calls.clear(); domains.clear(); binders.clear();
    where_flags.clear(); tmp_strings.clear(); depth = 0;
  }
  void clause(const std::string& name, const Span& s) {
    if (!(in_also ? also_clauses : rule_clauses).insert(name).second) body().duplicate_clauses.emplace_back(name, s);
  }
};

ast::Template build_template(Builder& b, ExprPtr str);

// A condition as written, for `runner explain`: its lines without the comment lines among and
// after them, a run of white space as one space.
std::string condition_text(const std::string& written) {
  std::string text, kept;
  std::istringstream lines(written);
  for (std::string l; std::getline(lines, l);) {
    const size_t first = l.find_first_not_of(" \t\r");
    if (first != std::string::npos && l[first] != '#') kept += l + "\n";
  }
  for (char c : kept) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (text.empty() || text.back() == ' ')) continue;
    text += space ? ' ' : c;
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// ---- literals and names
template <> struct action<g::string_lit> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::String, span_of(in, in.size()));
    e->raw = in.string();
    e->text = decode_string_literal(e->raw);
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::regex_lit> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Regex, span_of(in, in.size()));
    e->raw = in.string();
    e->text = decode_regex_literal(e->raw);
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::int_lit> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Int, span_of(in, in.size()));
    std::string s = in.string();
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), e->integer);
    if (ec != std::errc() || p != s.data() + s.size())
      throw pegtl::parse_error("integer literal out of range", in);
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::true_tok> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Bool, span_of(in, 4));
    e->boolean = true;
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::false_tok> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.exprs.push_back(make(Expr::Kind::Bool, span_of(in, 5)));
  }
};
template <> struct action<g::var_head> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Var, span_of(in, in.size()));
    e->text = in.string();
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::field_name> {
  template <typename In> static void apply(const In& in, Builder& b) {
    if (b.exprs.empty() || b.exprs.back()->kind != Expr::Kind::Var) return;
    Expr& v = *b.exprs.back();
    v.path.push_back(in.string());
    v.path_spans.push_back(span_of(in, in.size()));
    v.span.length = static_cast<int>(v.path_spans.back().offset + in.size() - v.span.offset);
  }
};
template <> struct action<g::list_open> {
  template <typename In> static void apply(const In&, Builder& b) { b.marks.push_back(b.exprs.size()); }
};
template <> struct action<g::list_lit> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::List, span_of(in, 1));
    size_t mark = b.marks.empty() ? b.exprs.size() : b.marks.back();
    if (!b.marks.empty()) b.marks.pop_back();
    for (size_t i = mark; i < b.exprs.size(); ++i) e->kids.push_back(std::move(b.exprs[i]));
    b.exprs.resize(std::min(mark, b.exprs.size()));
    b.exprs.push_back(std::move(e));
  }
};

template <> struct action<g::call_name> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.calls.emplace_back(in.string(), span_of(in, in.size()));
    b.marks.push_back(b.exprs.size());
  }
};
template <> struct action<g::call_expr> {
  template <typename In> static void apply(const In&, Builder& b) {
    if (b.calls.empty() || b.marks.empty()) return;
    auto e = make(Expr::Kind::Call, b.calls.back().second);
    e->text = b.calls.back().first;
    b.calls.pop_back();
    size_t mark = b.marks.back();
    b.marks.pop_back();
    for (size_t i = mark; i < b.exprs.size(); ++i) e->kids.push_back(std::move(b.exprs[i]));
    b.exprs.resize(std::min(mark, b.exprs.size()));
    b.exprs.push_back(std::move(e));
  }
};

// ---- domains
template <> struct action<g::source_name> {
  template <typename In> static void apply(const In& in, Builder& b) {
    ast::Domain d;
    d.source = in.string();
    d.span = span_of(in, in.size());
    b.domains.push_back(std::move(d));
  }
};
template <> struct action<g::scope> {
  template <typename In> static void apply(const In& in, Builder& b) {
    if (!b.domains.empty()) b.domains.back().scope.span = span_of(in, trim(in.string()).size());
  }
};
template <> struct action<g::scope_changed> {
  template <typename In> static void apply(const In&, Builder& b) { b.domains.back().scope.kind = ast::ScopeExpr::Kind::Changed; }
};
template <> struct action<g::scope_base> {
  template <typename In> static void apply(const In&, Builder& b) { b.domains.back().scope.kind = ast::ScopeExpr::Kind::Base; }
};
template <> struct action<g::scope_repo> {
  template <typename In> static void apply(const In&, Builder& b) { b.domains.back().scope.kind = ast::ScopeExpr::Kind::Repo; }
};
template <> struct action<g::scope_glob> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.domains.back().scope.kind = ast::ScopeExpr::Kind::Globs;
    b.domains.back().scope.globs.push_back(b.pop_string());
  }
};
template <> struct action<g::scope_expr> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.domains.back().scope.kind = ast::ScopeExpr::Kind::Expr;
    b.domains.back().scope.expr = b.pop();
  }
};
inline void push_list_domain(Builder& b) {
  ast::Domain d;
  d.list = b.pop();
  d.span = d.list->span;
  b.domains.push_back(std::move(d));
}
template <> struct action<g::list_domain> {
  template <typename In> static void apply(const In&, Builder& b) { push_list_domain(b); }
};
template <> struct action<g::list_lit_domain> {
  template <typename In> static void apply(const In&, Builder& b) { push_list_domain(b); }
};
template <> struct action<g::source_ref> {
  template <typename In> static void apply(const In&, Builder& b) {
    if (b.domains.empty() || b.domains.back().scope.kind != ast::ScopeExpr::Kind::Default) return;
    ast::Domain& d = b.domains.back();
    d.bare = true;
    d.list = std::make_unique<Expr>();
    d.list->kind = Expr::Kind::Var;
    d.list->text = d.source;
    d.list->span = d.span;
  }
};
template <> struct action<g::findings_call> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Findings, span_of(in, 8));
    e->text = b.pop_string();
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::findings_domain> {
  template <typename In> static void apply(const In&, Builder& b) {
    ExprPtr f = b.pop();
    ast::Domain d;
    d.findings = true;
    d.source = f->text;
    d.span = f->span;
    b.domains.push_back(std::move(d));
  }
};

// ---- count / exists / kind
template <> struct action<g::binder_name> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.binders.emplace_back(in.string(), span_of(in, in.size()));
    b.where_flags.push_back(false);
  }
};
template <> struct action<g::binder_where> {
  template <typename In> static void apply(const In&, Builder& b) {
    if (!b.where_flags.empty()) b.where_flags.back() = true;
  }
};
inline ExprPtr build_binder_form(Builder& b, Expr::Kind k, Span s) {
  auto e = make(k, s);
  if (!b.where_flags.empty() && b.where_flags.back()) e->kids.push_back(b.pop());
  if (!b.where_flags.empty()) b.where_flags.pop_back();
  if (!b.domains.empty()) {
    e->domain = std::make_unique<ast::Domain>(std::move(b.domains.back()));
    b.domains.pop_back();
  }
  if (!b.binders.empty()) {
    e->binder = b.binders.back().first;
    e->binder_span = b.binders.back().second;
    b.binders.pop_back();
  }
  return e;
}
template <> struct action<g::count_binder_form> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.exprs.push_back(build_binder_form(b, Expr::Kind::Count, span_of(in, 5)));
  }
};
template <> struct action<g::count_list_form> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Count, span_of(in, 5));
    e->kids.push_back(b.pop());
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::count_expr> {
  template <typename In> static void apply(const In& in, Builder& b) {
    if (!b.exprs.empty()) b.exprs.back()->span = span_of(in, 5);
  }
};
template <> struct action<g::exists_expr> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.exprs.push_back(build_binder_form(b, Expr::Kind::Exists, span_of(in, 6)));
  }
};
template <> struct action<g::kind_ref_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::KindRef, span_of(in, in.size()));
    e->text = in.string();
    b.exprs.push_back(std::move(e));
  }
};

// ---- operators
template <> struct action<g::cmp_op> {
  template <typename In> static void apply(const In& in, Builder& b) {
    std::string op = in.string();
    if (op.compare(0, 3, "not") == 0) op = op.back() == 'n' ? "not in" : "not like";  // one blank
    b.ops.emplace_back(op, span_of(in, in.size()));
  }
};
template <> struct action<g::cmp_tail> {
  template <typename In> static void apply(const In&, Builder& b) {
    ExprPtr rhs = b.pop();
    ExprPtr lhs = b.pop();
    auto [op, span] = b.ops.back();
    b.ops.pop_back();
    auto e = make(Expr::Kind::Compare, span);
    e->text = op;
    e->kids.push_back(std::move(lhs));
    e->kids.push_back(std::move(rhs));
    b.exprs.push_back(std::move(e));
  }
};
// `a + b`, `a - b`, `a * b`: the operator token, then the tail folds the two top operands.
template <> struct action<g::mul_op> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.ops.emplace_back(in.string(), span_of(in, in.size()));
  }
};
template <> struct action<g::add_op> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.ops.emplace_back(in.string(), span_of(in, in.size()));
  }
};
inline int arith_depth(const Expr& e) {
  int d = 0;
  for (const Expr* x = &e; x->kind == Expr::Kind::Arith && !x->kids.empty(); x = x->kids[0].get()) ++d;
  return d;
}
struct arith_fold {
  template <typename In> static void apply(const In& in, Builder& b) {
    ExprPtr rhs = b.pop();
    ExprPtr lhs = b.pop();
    auto [op, span] = b.ops.back();
    b.ops.pop_back();
    // a chain `1+1+...` builds a left-deep tree: bound it like any other nesting
    if (arith_depth(*lhs) + 1 + b.depth > kMaxExprNesting)
      throw pegtl::parse_error("expression nested too deeply (more than " + std::to_string(kMaxExprNesting) +
                                   " levels)", in);
    auto e = make(Expr::Kind::Arith, span);
    e->text = op;
    e->kids.push_back(std::move(lhs));
    e->kids.push_back(std::move(rhs));
    b.exprs.push_back(std::move(e));
  }
};
template <> struct action<g::mul_tail> : arith_fold {};
template <> struct action<g::add_tail> : arith_fold {};
template <> struct action<g::not_expr> {
  template <typename In> static void apply(const In& in, Builder& b) {
    auto e = make(Expr::Kind::Not, span_of(in, 3));
    e->kids.push_back(b.pop());
    b.exprs.push_back(std::move(e));
  }
};
inline void merge(Builder& b, Expr::Kind k) {
  ExprPtr rhs = b.pop();
  ExprPtr lhs = b.pop();
  if (lhs->kind == k) {
    lhs->kids.push_back(std::move(rhs));
    b.exprs.push_back(std::move(lhs));
    return;
  }
  auto e = make(k, lhs->span);
  e->kids.push_back(std::move(lhs));
  e->kids.push_back(std::move(rhs));
  b.exprs.push_back(std::move(e));
}
template <> struct action<g::and_tail> {
  template <typename In> static void apply(const In&, Builder& b) { merge(b, Expr::Kind::And); }
};
template <> struct action<g::or_tail> {
  template <typename In> static void apply(const In&, Builder& b) { merge(b, Expr::Kind::Or); }
};
// Bounds recursion: every nested expression passes through `unary`.
template <> struct action<g::unary> : pegtl::maybe_nothing {
  template <typename Rule, pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename In>
  static bool match(In& in, Builder& b) {
    if (b.depth >= kMaxExprNesting)
      throw pegtl::parse_error("expression nested too deeply (more than " +
                                   std::to_string(kMaxExprNesting) + " levels)", in);
    ++b.depth;
    struct Guard { int& d; ~Guard() { --d; } } guard{b.depth};
    return pegtl::match<Rule, A, M, Action, Control>(in, b);
  }
};

// ---- ruleset / use / let / tier / kind
template <> struct action<g::title_string> {
  template <typename In> static void apply(const In&, Builder& b) { b.title = b.pop_string(); }
};
template <> struct action<g::decl_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.file->ruleset_name = in.string();
    b.file->ruleset_span = span_of(in, in.size());
  }
};
template <> struct action<g::ruleset_decl> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.file->has_ruleset = true;
    b.file->ruleset_title = b.title;
  }
};
template <> struct action<g::version_number> {
  template <typename In> static void apply(const In&, Builder& b) { b.file->version = b.pop()->integer; }
};
template <> struct action<g::test_glob> {
  template <typename In> static void apply(const In&, Builder& b) { b.file->test_globs.push_back(b.pop_string()); }
};
template <> struct action<g::use_path> {
  template <typename In> static void apply(const In&, Builder& b) {
    ExprPtr s = b.pop();
    b.file->uses.push_back({s->text, s->span});
  }
};
template <> struct action<g::let_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.let_name = in.string();
    b.let_span = span_of(in, in.size());
  }
};
template <> struct action<g::let_string> {
  template <typename In> static void apply(const In&, Builder& b) { b.tmp_strings.push_back(b.pop()); }
};
template <> struct action<g::let_strings> {
  template <typename In> static void apply(const In&, Builder& b) {
    if (b.tmp_strings.size() == 1) {
      b.exprs.push_back(std::move(b.tmp_strings.front()));
    } else {
      auto e = make(Expr::Kind::List, b.tmp_strings.front()->span);
      for (auto& s : b.tmp_strings) e->kids.push_back(std::move(s));
      b.exprs.push_back(std::move(e));
    }
    b.tmp_strings.clear();
  }
};
template <> struct action<g::let_repo_kw> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.repo_mark = b.exprs.size();
    b.let_is_repo = true;
  }
};
template <> struct action<g::let_repo> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.let_pin.reset();
    b.let_pin_file.clear();
    if (b.exprs.size() >= b.repo_mark + 2) {
      b.let_pin = b.pop();
      b.let_pin_file = b.pop_string();
    }
    auto name = make(Expr::Kind::String, span_of(in, in.size()));
    name->text = b.let_name;
    b.exprs.push_back(std::move(name));
  }
};
template <> struct action<g::let_decl> {
  template <typename In> static void apply(const In&, Builder& b) {
    ast::Let l;
    l.name = b.let_name;
    l.span = b.let_span;
    l.value = b.pop();
    if (b.let_is_repo) {
      l.repo = true;
      l.pin_file = std::move(b.let_pin_file);
      l.pin = std::move(b.let_pin);
    }
    b.let_is_repo = false;
    b.file->lets.push_back(std::move(l));
  }
};
template <> struct action<g::tier_number> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.tier = ast::Tier{};
    b.tier.tier = b.pop()->integer;
    b.tier.span = span_of(in, 1);
  }
};
template <> struct action<g::tier_label> {
  template <typename In> static void apply(const In&, Builder& b) { b.tier.label = b.pop_string(); }
};
template <> struct action<g::tier_glob> {
  template <typename In> static void apply(const In&, Builder& b) {
    ExprPtr s = b.pop();
    b.tier.entries.push_back({s->text, "", "", s->span});
  }
};
template <> struct action<g::tier_text> {
  template <typename In> static void apply(const In&, Builder& b) { b.tmp_text = b.pop_string(); }
};
template <> struct action<g::tier_blast> {
  template <typename In> static void apply(const In&, Builder& b) { b.tier.entries.back().blast = b.tmp_text; }
};
template <> struct action<g::tier_fails> {
  template <typename In> static void apply(const In&, Builder& b) { b.tier.entries.back().fails = b.tmp_text; }
};
template <> struct action<g::tier_decl> {
  template <typename In> static void apply(const In&, Builder& b) { b.file->tiers.push_back(std::move(b.tier)); }
};
template <> struct action<g::kind_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.kind = ast::KindDecl{};
    b.kind.name = in.string();
    b.kind.span = span_of(in, in.size());
  }
};
template <> struct action<g::kind_decl> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.kind.label = b.title;
    b.kind.when = b.pop();
    b.file->kinds.push_back(std::move(b.kind));
  }
};

// ---- rules
template <> struct action<g::rule_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.rule = ast::Rule{};
    b.rule_clauses.clear();
    b.in_also = false;
    b.rule.id = in.string();
    b.rule.id_span = span_of(in, in.size());
  }
};
template <> struct action<g::severity_word> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("severity", span_of(in, in.size()));
    b.body().severity = in.string();
    b.body().severity_span = span_of(in, in.size());
  }
};
template <> struct action<g::severity_if_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    // the word after `severity`, read back from the clause's text (its own rule has no action,
    // so that a `severity warn` with no `if` leaves nothing behind)
    const std::string text = in.string();
    size_t at = text.find_first_of(" \t\r\n", 0);
    at = text.find_first_not_of(" \t\r\n", at);
    const size_t end = text.find_first_of(" \t\r\n", at);
    ast::Rule::SeverityIf s;
    s.severity = text.substr(at, end - at);
    s.cond = b.pop();
    const size_t cond_at = text.find("if", end);
    s.cond_text = condition_text(cond_at == std::string::npos ? std::string() : text.substr(cond_at + 2));
    s.span = span_of(in, in.size());
    b.body().severity_ifs.push_back(std::move(s));
  }
};
template <> struct action<g::evidence_word> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("evidence", span_of(in, in.size()));
    b.body().evidence = in.string();
  }
};
template <> struct action<g::tag_item> {
  template <typename In> static void apply(const In&, Builder& b) { b.rule.tags.push_back(b.pop_string()); }
};
template <> struct action<g::when_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("when", span_of(in, 4));
    b.rule.when = b.pop();
    b.rule.when_text = condition_text(in.string().substr(4));
  }
};
template <> struct action<g::for_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    ast::ForClause f;
    f.var = in.string();
    f.var_span = span_of(in, in.size());
    b.body().fors.push_back(std::move(f));
  }
};
template <> struct action<g::for_where> {
  template <typename In> static void apply(const In&, Builder& b) { b.body().fors.back().where = b.pop(); }
};
template <> struct action<g::for_clause> {
  template <typename In> static void apply(const In&, Builder& b) {
    if (b.domains.empty()) return;
    b.body().fors.back().domain = std::move(b.domains.back());
    b.domains.pop_back();
  }
};
template <> struct action<g::where_clause> {
  template <typename In> static void apply(const In&, Builder& b) { b.body().wheres.push_back(b.pop()); }
};
template <> struct action<g::unless_clause> {
  template <typename In> static void apply(const In&, Builder& b) { b.body().unlesses.push_back(b.pop()); }
};
template <> struct action<g::at_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("at", span_of(in, 2));
    b.body().at = b.pop();
  }
};
template <> struct action<g::problem_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("problem", span_of(in, 7));
    b.body().problem = build_template(b, b.pop());
  }
};
template <> struct action<g::impact_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("impact", span_of(in, 6));
    b.body().impact = build_template(b, b.pop());
  }
};
template <> struct action<g::action_clause> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("action", span_of(in, 6));
    b.body().action = build_template(b, b.pop());
  }
};
template <> struct action<g::help_string> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.clause("help", span_of(in, 4));
    b.rule.help = b.pop_string();
  }
};
template <> struct action<g::example_word> {
  template <typename In> static void apply(const In& in, Builder& b) { b.example_kind = in.string(); }
};
template <> struct action<g::example_lang_ident> {
  template <typename In> static void apply(const In& in, Builder& b) {
    b.example_lang = in.string();
    b.example_lang_span = span_of(in, in.size());
  }
};
template <> struct action<g::example_code> {
  template <typename In> static void apply(const In&, Builder& b) {
    ExprPtr s = b.pop();
    b.rule.examples.push_back({b.example_kind, b.example_lang, s->text, s->span, b.example_lang_span});
  }
};
template <> struct action<g::also_label> {
  template <typename In> static void apply(const In&, Builder& b) {
    ast::Rule body;
    ExprPtr label = b.pop();
    body.label = label->text;
    body.label_span = label->span;
    body.severity.clear();  // "" = not set in the block: the rule's (filled in by rule_decl)
    body.evidence.clear();
    b.rule.alsos.push_back(std::move(body));
    b.in_also = true;
    b.also_clauses.clear();
  }
};
template <> struct action<g::also_block> {
  template <typename In> static void apply(const In&, Builder& b) { b.in_also = false; }
};
template <> struct action<g::rule_decl> {
  template <typename In> static void apply(const In&, Builder& b) {
    b.rule.title = b.title;
    for (auto& a : b.rule.alsos) {
      a.id = b.rule.id;
      a.id_span = b.rule.id_span;
      a.title = b.rule.title;
      a.tags = b.rule.tags;
      if (a.severity.empty()) {
        a.severity = b.rule.severity;
        a.severity_span = b.rule.severity_span;
      }
      if (a.evidence.empty()) a.evidence = b.rule.evidence;
    }
    b.file->rules.push_back(std::move(b.rule));
  }
};

Diagnostic error_at(std::string_view text, const std::string& file, const pegtl::position& p, std::string msg) {
  Diagnostic d;
  d.file = file;
  d.line = static_cast<int>(p.line);
  d.column = static_cast<int>(p.column);
  d.message = std::move(msg);
  d.source_line = source_line_at(text, d.line);
  return d;
}

/// Parses `text` (which starts at `at` in the file) as a lone expression.
ExprPtr parse_expr_at(std::string_view text, const pegtl::position& at, const std::string& file,
                      std::string_view full_text, std::vector<Diagnostic>& diags) {
  ast::File scratch;
  Builder b;
  b.file = &scratch;
  b.full_text = full_text;
  b.diagnostics = &diags;
  pegtl::memory_input in(text.data(), text.data() + text.size(), file, at.byte, at.line, at.column);
  try {
    pegtl::parse<g::expr_only, action, g::control>(in, b);
  } catch (const pegtl::parse_error& e) {
    const auto& p = e.positions().front();
    diags.push_back(error_at(full_text, file, p, std::string(e.message())));
    return nullptr;
  }
  if (b.exprs.size() != 1) return nullptr;
  return std::move(b.exprs.back());
}

ast::Template build_template(Builder& b, ExprPtr str) {
  ast::Template t;
  t.present = true;
  t.raw = str->text;
  t.span = str->span;
  const bool triple = str->raw.size() >= 6 && str->raw.compare(0, 3, "\"\"\"") == 0;
  // Plain strings: scan the token as written so hole positions are exact. Triple-quoted ones:
  // scan the dedented value; holes then report the position of the string.
  std::string_view body = triple ? std::string_view(str->text)
                                 : std::string_view(str->raw).substr(1, str->raw.size() - 2);
  auto decode = [&](std::string_view piece) {
    return triple ? std::string(piece) : decode_string_literal("\"" + std::string(piece) + "\"");
  };
  std::string lit;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (!triple && c == '\\' && i + 1 < body.size()) {
      lit += decode(body.substr(i, 2));
      ++i;
      continue;
    }
    if ((c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) {
      lit += c;
      ++i;
      continue;
    }
    if (c != '{') {
      lit += c;
      continue;
    }
    // a hole: find the matching '}' (braces inside string literals of the hole do not count)
    size_t j = template_hole_end(body, i, !triple);
    if (j == std::string_view::npos) j = body.size();
    pegtl::position at(str->span.offset + (triple ? 0 : 1 + i + 1), static_cast<size_t>(str->span.line),
                       static_cast<size_t>(str->span.column) + (triple ? 0 : 1 + i + 1), "");
    if (j >= body.size()) {
      at.column -= triple ? 0 : 1;
      b.diagnostics->push_back(error_at(b.full_text, b.file->name, at,
                                        "unterminated `{` in the template; write `{{` for a literal brace"));
      break;
    }
    if (!lit.empty()) t.parts.push_back({std::move(lit), nullptr});
    lit.clear();
    std::string hole_src = triple ? std::string(body.substr(i + 1, j - i - 1))
                                  : decode_string_literal("\"" + std::string(body.substr(i + 1, j - i - 1)) + "\"");
    std::vector<Diagnostic> hole_diags;
    ExprPtr e = parse_expr_at(hole_src, at, b.file->name, b.full_text, hole_diags);
    for (auto& d : hole_diags) b.diagnostics->push_back(std::move(d));
    if (e) t.parts.push_back({hole_src, std::move(e)});
    i = j;
  }
  if (!lit.empty()) t.parts.push_back({std::move(lit), nullptr});
  return t;
}

/// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
size_t invalid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : -1;
    if (n < 0 || (n == 1 && c < 0xc2) || (n == 3 && c > 0xf4)) return i;
    for (int k = 1; k <= n; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return i;
    }
    i += n + 1;
  }
  return std::string_view::npos;
}

bool starts_decl(std::string_view line) {
  for (std::string_view kw : {"ruleset", "use", "let", "tier", "kind", "rule"}) {
    if (line.substr(0, kw.size()) == kw && (line.size() == kw.size() || line[kw.size()] == ' ' ||
                                            line[kw.size()] == '\t' || line[kw.size()] == '\r'))
      return true;
  }
  return false;
}

}  // namespace

bool is_reserved_word(std::string_view word) {
  if (word.empty()) return false;
  pegtl::memory_input in(word.data(), word.size(), "word");
  return pegtl::parse<pegtl::seq<g::reserved, pegtl::eof>>(in);
}

std::string source_line_at(std::string_view text, int line) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = text.find('\n', start);
    if (nl == text.npos) return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  std::string out(text.substr(start, end == text.npos ? text.npos : end - start));
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

ParseResult parse_ruleset(std::string_view text, const std::string& file_name) {
  ParseResult r;
  r.file.name = file_name;
  if (size_t bad = invalid_utf8(text); bad != std::string_view::npos) {
    int line = 1;
    size_t ls = 0;
    for (size_t i = 0; i < bad; ++i)
      if (text[i] == '\n') { ++line; ls = i + 1; }
    Diagnostic d;
    d.file = file_name;
    d.line = line;
    d.column = static_cast<int>(bad - ls + 1);
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[bad]));
    d.message = std::string("invalid UTF-8 (byte ") + hex + "); rulesets must be UTF-8 text";
    d.source_line = source_line_at(text, line);
    r.diagnostics.push_back(std::move(d));
    return r;
  }
  Builder b;
  b.file = &r.file;
  b.full_text = text;
  b.diagnostics = &r.diagnostics;
  size_t byte = 0, line = 1;
  int errors = 0;
  while (true) {
    pegtl::memory_input in(text.data() + byte, text.data() + text.size(), file_name, byte, line, 1);
    try {
      pegtl::parse<g::file, action, g::control>(in, b);
      break;
    } catch (const pegtl::parse_error& e) {
      const auto& p = e.positions().front();
      std::string msg(e.message());
      // A keyword where a name was expected: say so (`for at in …`).
      if (msg.rfind("expected a variable name", 0) == 0 && p.byte < text.size()) {
        std::string word(text.substr(p.byte, g::word_at(text.data() + p.byte, text.size() - p.byte)));
        if (is_reserved_word(word)) {
          const std::string found = ", found `" + word + "`";  // said again by the hint
          if (msg.size() >= found.size() && msg.compare(msg.size() - found.size(), found.size(), found) == 0)
            msg.resize(msg.size() - found.size());
          msg += "; `" + word + "` is a keyword of the rule language, pick another name";
        }
      }
      // Ran off the end of the file inside a rule: say which rule lacks its `}`.
      bool at_end = text.find_first_not_of(" \t\r\n", std::min<size_t>(p.byte, text.size())) == std::string_view::npos;
      bool in_rule = msg.rfind("expected a rule clause", 0) == 0 || msg.rfind("expected a clause of the `also` body", 0) == 0;
      if (at_end && in_rule && !b.rule.id.empty() && b.rule.id_span.line > 0) {
        Diagnostic d;  // pointed at the rule's id: the end of the file shows nothing useful
        d.file = file_name;
        d.line = b.rule.id_span.line;
        d.column = b.rule.id_span.column;
        d.caret_len = std::max(1, b.rule.id_span.length);
        d.message = "the file ends inside rule `" + b.rule.id + "`: its closing `}` is missing";
        d.source_line = source_line_at(text, d.line);
        r.diagnostics.push_back(std::move(d));
      } else {
        r.diagnostics.push_back(error_at(text, file_name, p, msg));
      }
      if (++errors >= kMaxSyntaxErrors) break;
      // resume at the next line that starts a declaration
      size_t pos = p.byte;
      size_t l = p.line;
      bool found = false;
      while (true) {
        size_t nl = text.find('\n', pos);
        if (nl == text.npos) break;
        pos = nl + 1;
        ++l;
        if (starts_decl(text.substr(pos, 16))) {
          found = true;
          break;
        }
      }
      if (!found) break;
      byte = pos;
      line = l;
      b.reset();
    }
  }
  // keep declarations in source order regardless of the recovery loop
  return r;
}

ast::ExprPtr parse_expression(std::string_view text, const std::string& file_name,
                              std::vector<Diagnostic>& diagnostics) {
  pegtl::position at(0, 1, 1, file_name);
  return parse_expr_at(text, at, file_name, text, diagnostics);
}

}  // namespace review::dsl
