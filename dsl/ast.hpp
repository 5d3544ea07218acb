// The rule language as written: plain structs with source spans, built by the parser
// (dsl/parser.hpp), read by the checker (dsl/checker.hpp) and the planner (dsl/plan.hpp).
// Nothing here is resolved or compiled; names are strings and regexes are pattern text.
//
//   rule X "t" { for l in lines(changed) where l.text ~ /TODO/ ... }
//   -> Rule{id "X", fors [ForClause{var "l", domain {source "lines", scope changed}, where
//      Compare{op "~", Var l.text, Regex "TODO"}}]}
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace review::dsl::ast {

/// A position in a .rules file: 1-based line and byte column, byte offset, length in bytes.
struct Span {
  int line = 0;
  int column = 0;
  size_t offset = 0;
  int length = 1;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// The `SCOPE` of `SOURCE(SCOPE)`.
struct ScopeExpr {
  enum class Kind { Default, Changed, Base, Repo, Globs, Expr };
  Kind kind = Kind::Default;       ///< Default: parentheses omitted (= changed)
  std::vector<std::string> globs;  ///< Kind::Globs
  ExprPtr expr;                    ///< Kind::Expr: a `let` name or a path-valued expression
  Span span;
};

/// What a `for`/`exists`/`count` binder ranges over: `SOURCE(SCOPE)`, `findings("tag")`, or a
/// list-valued expression (`f.params`, `["a", "b"]`, a `let` list or bound list variable).
struct Domain {
  bool findings = false;
  std::string source;              ///< source name, or the tag for findings; "" for a list
  Span span;                       ///< the source name (or `findings`, or the list expression)
  ScopeExpr scope;
  /// A list domain's expression. Also set (to a Var of `source`) for a bare name without
  /// parentheses (`bare`): that is a source when the schema has one of that name, else a list.
  ExprPtr list;
  bool bare = false;
};

struct Expr {
  enum class Kind {
    Bool, Int, String, Regex, List,  // literals
    Var,                             // name plus optional field path: `u.read.line`
    Not, And, Or,                    // kids
    Compare,                         // op in == != < <= > >= ~ !~ like in `not like` `not in`; kids[0] op kids[1]
    Arith,                           // op in + - *; kids[0] op kids[1] (left-associative)
    Count, Exists,                   // binder form (binder + domain + optional where) or count(kids[0])
    Findings,                        // findings("tag"): text = tag
    KindRef,                         // `kind NAME` as a bool: text = NAME
    Call,                            // NAME(kids...): a built-in function, text = NAME
  };
  Kind kind = Kind::Bool;
  Span span;
  bool boolean = false;
  int64_t integer = 0;
  std::string raw;                 ///< String/Regex: the token as written (quotes included)
  std::string text;                ///< String value, Regex pattern, Var name, op, tag, kind name
  std::vector<std::string> path;   ///< Var: field names after the variable
  std::vector<Span> path_spans;
  std::vector<ExprPtr> kids;
  std::string binder;              ///< Count/Exists binder form
  Span binder_span;
  std::unique_ptr<Domain> domain;  ///< Count/Exists binder form
};

/// A `problem`/`impact`/`action` string split into literal text and `{expr}` holes.
struct Template {
  struct Part {
    std::string text;              ///< literal text (holes: the expression as written)
    ExprPtr hole;                  ///< null for literal parts
  };
  bool present = false;
  std::string raw;                 ///< the string as written, holes included
  Span span;
  std::vector<Part> parts;
};

struct ForClause {
  std::string var;
  Span var_span;
  Domain domain;
  ExprPtr where;                   ///< may be null
};

struct Example {
  std::string kind;                ///< bad, good, todo-bad, todo-good
  std::string language;
  std::string code;                ///< dedented
  Span span;
  Span language_span;              ///< the language word
};

struct Rule {
  std::string id;
  Span id_span;
  std::string title;
  std::string severity = "warn";
  Span severity_span;
  std::string evidence = "verified";
  /// `severity WORD if COND` clauses of this body, in source order: the first whose COND holds
  /// (evaluated with the finding's bindings) gives the finding's severity. Not inherited by
  /// `also` bodies (their names differ).
  struct SeverityIf {
    std::string severity;          ///< block, warn or note
    ExprPtr cond;
    std::string cond_text;         ///< COND as written, comment lines left out, white space runs as one space
    Span span;                     ///< the clause
  };
  std::vector<SeverityIf> severity_ifs;
  std::vector<std::string> tags;
  ExprPtr when;
  std::string when_text;  ///< the `when` condition as written, runs of white space as one space
  std::vector<ForClause> fors;
  std::vector<ExprPtr> wheres;
  std::vector<ExprPtr> unlesses;
  ExprPtr at;                      ///< `at <expr>`: the fact that locates a finding; null = the first `for`'s
  Template problem, impact, action;
  std::string help;
  std::vector<Example> examples;
  std::vector<std::pair<std::string, Span>> duplicate_clauses;  ///< clause name, where repeated
  /// An `also "LABEL" { ... }` body: its label ("" for a rule's main body) and the label's span.
  std::string label;
  Span label_span;
  /// The rule's `also` bodies, in source order: further query bodies whose findings are unioned
  /// under the rule's id (Datalog: several clauses defining one relation). Each holds its own
  /// fors, wheres, unlesses, at and templates, a copy of the rule's id, id_span, title and tags,
  /// and the rule's severity and evidence unless the block sets its own; `when`, help, examples
  /// and alsos stay empty (the rule's `when` and examples apply to every body).
  std::vector<Rule> alsos;
};

struct Let {
  std::string name;
  Span span;
  ExprPtr value;                   ///< String, Int, Regex or List (a repository: the String name)
  /// `let NAME = repo ["FILE" /PIN/]`: another repository a rule may use as a scope.
  bool repo = false;
  std::string pin_file;            ///< where the pinned revision is written ("" = not said)
  ExprPtr pin;                     ///< Regex whose group `rev` (else group 1) is the revision
};

struct TierEntry {
  std::string glob, blast, fails;
  Span span;
};
struct Tier {
  int64_t tier = 0;
  std::string label;
  Span span;
  std::vector<TierEntry> entries;
};

struct KindDecl {
  std::string name, label;
  Span span;
  ExprPtr when;
};

struct Use {
  std::string path;
  Span span;
};

/// One parsed .rules file.
struct File {
  std::string name;                ///< as given to the parser (used in diagnostics)
  bool has_ruleset = false;
  std::string ruleset_name, ruleset_title;
  Span ruleset_span;
  int64_t version = 0;
  std::vector<std::string> test_globs;
  std::vector<Use> uses;
  std::vector<Let> lets;
  std::vector<Tier> tiers;
  std::vector<KindDecl> kinds;
  std::vector<Rule> rules;
};

/// Returns a compact one-line dump of `e`, e.g. `(and (== l.kind "added") (~ l.text /x/))`.
/// Recursion is bounded by the parser's nesting limit.
std::string dump(const Expr& e);
/// Returns a domain as written: `lines(changed)`, `findings("t")`, `f.params`.
std::string dump(const Domain& d);
/// Returns a compact one-line dump of a rule: `(rule ID sev=... for=... where=... unless=...)`,
/// each `also` body appended as `(also "LABEL" sev=... for=... ...)`.
std::string dump(const Rule& r);

}  // namespace review::dsl::ast
