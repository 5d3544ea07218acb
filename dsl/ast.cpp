#include "dsl/ast.hpp"

namespace review::dsl::ast {

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string dump(const Domain& d) {
  if (d.findings) return "findings(" + quote(d.source) + ")";
  if (d.list && !d.bare) return dump(*d.list);
  std::string s = d.source;
  switch (d.scope.kind) {
    case ScopeExpr::Kind::Default: return s;
    case ScopeExpr::Kind::Changed: return s + "(changed)";
    case ScopeExpr::Kind::Base: return s + "(base)";
    case ScopeExpr::Kind::Repo: return s + "(repo)";
    case ScopeExpr::Kind::Globs: {
      s += "(";
      for (size_t i = 0; i < d.scope.globs.size(); ++i) s += (i ? " " : "") + quote(d.scope.globs[i]);
      return s + ")";
    }
    case ScopeExpr::Kind::Expr: return s + "(" + (d.scope.expr ? dump(*d.scope.expr) : "?") + ")";
  }
  return s;
}

std::string dump(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::Bool: return e.boolean ? "true" : "false";
    case Expr::Kind::Int: return std::to_string(e.integer);
    case Expr::Kind::String: return quote(e.text);
    case Expr::Kind::Regex: return "/" + e.text + "/";
    case Expr::Kind::List: {
      std::string s = "[";
      for (size_t i = 0; i < e.kids.size(); ++i) s += (i ? " " : "") + dump(*e.kids[i]);
      return s + "]";
    }
    case Expr::Kind::Var: {
      std::string s = e.text;
      for (const auto& p : e.path) s += "." + p;
      return s;
    }
    case Expr::Kind::Not: return "(not " + dump(*e.kids[0]) + ")";
    case Expr::Kind::And:
    case Expr::Kind::Or: {
      std::string s = e.kind == Expr::Kind::And ? "(and" : "(or";
      for (const auto& k : e.kids) s += " " + dump(*k);
      return s + ")";
    }
    case Expr::Kind::Arith:
    case Expr::Kind::Compare: return "(" + e.text + " " + dump(*e.kids[0]) + " " + dump(*e.kids[1]) + ")";
    case Expr::Kind::Count:
    case Expr::Kind::Exists: {
      std::string s = e.kind == Expr::Kind::Count ? "(count " : "(exists ";
      if (!e.domain) return s + dump(*e.kids[0]) + ")";
      s += e.binder + " " + dump(*e.domain);
      if (!e.kids.empty()) s += " " + dump(*e.kids[0]);
      return s + ")";
    }
    case Expr::Kind::Findings: return "(findings " + quote(e.text) + ")";
    case Expr::Kind::KindRef: return "(kind " + e.text + ")";
    case Expr::Kind::Call: {
      std::string s = "(" + e.text + "()";
      for (const auto& k : e.kids) s += " " + dump(*k);
      return s + ")";
    }
  }
  return "?";
}

std::string dump(const Rule& r) {
  std::string s = "(rule " + r.id + " sev=" + r.severity + " ev=" + r.evidence;
  if (!r.tags.empty()) {
    s += " tags=";
    for (size_t i = 0; i < r.tags.size(); ++i) s += (i ? "," : "") + r.tags[i];
  }
  if (r.when) s += " when=" + dump(*r.when);
  for (const auto& f : r.fors) {
    s += " for=" + f.var + ":" + dump(f.domain);
    if (f.where) s += " where=" + dump(*f.where);
  }
  for (const auto& w : r.wheres) s += " where=" + dump(*w);
  for (const auto& u : r.unlesses) s += " unless=" + dump(*u);
  if (r.at) s += " at=" + dump(*r.at);
  if (r.problem.present) s += " problem=" + quote(r.problem.raw);
  if (!r.label.empty()) return s + ")";  // an `also` body: (also "label" sev=... for=... ...)
  s += " examples=" + std::to_string(r.examples.size());
  for (const auto& a : r.alsos) s += " (also " + quote(a.label) + dump(a).substr(6 + a.id.size());
  return s + ")";
}

}  // namespace review::dsl::ast
