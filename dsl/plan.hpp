// The planned form of a ruleset: ASTs of every loaded file kept alive, compiled regexes keyed by
// their literal, lets as values, rules in evaluation order, and one execution plan per rule.
// Built by dsl/ruleset.cpp from the checker's output (plans by dsl/planner.cpp); read by the
// evaluator and by `runner explain --plan`.
//
// A rule is a conjunctive query: its `for`s are a join, `where` a selection, `unless exists` an
// anti-join. The plan keeps the rule's meaning and only changes the work:
//  - selection push-down: a condition without captures and without a binder (exists/count) is
//    evaluated right after the last `for` whose variable it reads (before the first `for` when it
//    reads none), instead of where it was written;
//  - index joins: a binder (`for`, `exists`, `count`) over a fact source whose `where` has a
//    conjunct `v.f == X`, `X in v.f` or `v.f ~ /(^|\.){X}$/` (X not reading v nor a capture of
//    that `where`), `v.f ~ /..(?P<g>..)../ and X == g` (an index by the capture) or
//    `v.f ~ /..{X}../` with X a required literal (an index by identifier token: Probe::Kind::Word),
//    or, when none of those is there, `v.f < X` / `v.f >= Y` (a range of an integer field, found by
//    binary search: Probe::Kind::Range; a key lookup is narrowed by such a range too), looks the candidates up in a hash index of the source's facts by that field,
//    built lazily once per evaluate() per (source, scope, key) and shared by every rule. The
//    candidates keep fact order and the whole `where` is still evaluated on each, so findings,
//    their order and their de-duplication are those of the nested loops.
//  - loop-invariant anti-joins: a condition with an exists/count binder stays where it was
//    written (moving it before a `for` could scan for bindings that `for` never makes), but
//    when it reads nothing bound by the innermost `for`s around it, its value is memoised per
//    binding of the last `for` it reads (Filter::memo; `(once per v)` in explain); one that
//    reads no `for` variable at all (`(once)`) is checked before the loops at run time when
//    the facts it reads are at hand (queried already over the same scope): failing, the rule
//    makes no binding (the evaluator's `early` check in run_body);
//  - tabling (Datalog's memoised subgoals): a scanning condition that is not loop-invariant
//    but binds nothing is tabled by the values of the names it reads (Filter::table); an
//    exists/count nested in a condition that is evaluated every time (inside an `or` that binds
//    captures) is tabled by the values of the field paths it reads (TabledBinder: `k.file`,
//    not the fact `k`); `(once per value of ...)` in explain;
//  - a regex set: a `for`/`exists` over a whole-tree scope whose `where` has no key but a
//    conjunct `v.f ~ /R/` (no holes) reads the facts R matches, found for every such regex of
//    the program at once (one RE2::Set pass per fact, in sets of at most 12 regexes, instead of
//    one regex per rule per fact); an `or` of such regexes reads the union of their matches
//    (Probe::alts), and the other such conjuncts of a constant or regex lookup narrow it to the
//    facts every one matches (Probe::terms, `matched by` in explain). A conjunct the lookup
//    answers exactly (no captures to bind) is not matched again (Filter::served, `(met by the
//    index)`);
//  - a literal prefilter on every regex match: a text must hold the literal runs and hole
//    values that every match of one of the pattern's alternatives holds (literal_needs) before
//    RE2 is asked;
//  - reads by key (demand-driven evaluation, with a literal prefilter): when such a lookup reads
//    a field spelled in the file text (FieldSchema::in_text) of a repository-wide or named
//    scope whose facts are not built yet, only the files whose text holds the key's identifier
//    runs are parsed (Facts::query_containing) and the index is built over their facts; when a
//    later `for` reads this binder's file (`calls(u.file)`) and looks up an in_text field with a
//    key already bound, the files must hold that key's runs too (Probe::file_keys).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/checker.hpp"
#include "dsl/facts.hpp"
#include "dsl/finding.hpp"
#include "dsl/regex.hpp"

namespace review::dsl {

/// An index lookup that replaces the scan of a binder's source.
struct Probe {
  enum class Kind {
    Equal,       ///< `v.f == X`: facts whose field equals X (same type, same value)
    Member,      ///< `X in v.f`: facts whose list field holds X (string fields: always candidates)
    DottedTail,  ///< `v.f ~ /(^|\.){X}$/`: facts whose field, after its last '.', is X
    /// `v.f ~ /..(?P<g>..)../ and X == g` (the regex without holes, `g` captured by no other
    /// conjunct): facts whose field's first match of the regex captures exactly X
    Capture,
    /// `v.f ~ /..{X}../` with X a required literal of the regex (outside every group and
    /// alternation, not quantified, no `(?i)`): facts whose field has an identifier token
    /// (a maximal run of [A-Za-z0-9_]) containing X, when X is such a run itself (else scan)
    Word,
    /// `v.f < X`, `v.f <= X`, `v.f > X`, `v.f >= X` (either side; one lower and one upper bound
    /// at most, on one field): facts whose integer field lies in the range, found by binary
    /// search in the facts sorted by that field (`lines(l.file) where p.line < l.line`)
    Range,
    /// `v.f ~ /R/` (R without holes) over a whole-tree scope (changed, base, repo, globs):
    /// facts whose field R matches. Every such regex of the program on one source and field is
    /// one RE2::Set (`set`), matched once per fact when the first rule asks; a rule then reads
    /// only the facts its own regex matches (its position in the set, `set_at`)
    Regex,
  };
  Kind kind = Kind::Equal;
  /// Regex: the regexes of one (source, field), in the order of their positions in the set.
  std::shared_ptr<const std::vector<const CompiledRegex*>> set;
  size_t set_at = 0;
  /// Regex: the other regexes of an `or` of regexes on the variable's fields (`s.code ~ /A/ or
  /// s.comment ~ /B/`, no holes), each a Regex probe on the set of its own field: the candidates
  /// are the facts that any of them, or this probe's regex, matches.
  std::vector<Probe> alts;
  /// Equal (constant key) and Regex lookups over a whole-tree scope: the other conjuncts of the
  /// same `where` that are a regex on the variable's fields, or an `or` of such (no holes), each
  /// as its regexes' Regex probes. A candidate must be matched by a regex of every term (their
  /// sets' positions, merged in fact order): B5c's `l.file ~ /\.py$/ and l.text ~ /getattr…/`
  /// reads the lines both match, not every Python line.
  std::vector<std::vector<Probe>> terms;
  std::vector<std::string> path;           ///< field path read on the binder's fact: {"file"}
  const ast::Expr* key = nullptr;          ///< Equal/Member: X; DottedTail: the regex node
  const CompiledRegex* regex = nullptr;    ///< DottedTail, Capture, Word, Regex
  size_t group = 0;                        ///< Capture: the group's index in `regex`
  /// Word: the holes of `regex` that are required literals, with whether the regex puts a
  /// word boundary right before (`before`) / after (`after`) the inserted text; both = the
  /// token equals X, one = the token starts/ends with X, none = it contains X.
  struct WordHole {
    size_t hole = 0;
    bool before = false, after = false;
  };
  std::vector<WordHole> word_holes;
  const ast::Expr* conjunct = nullptr;     ///< the condition it serves (for explain)
  /// Range: the lower bound's and the upper bound's expression (null = unbounded; at least one
  /// is set) and whether each is strict (`<`, `>`). `key` is unused.
  const ast::Expr* lower = nullptr;
  const ast::Expr* upper = nullptr;
  bool lower_strict = false, upper_strict = false;
  /// Key lookups (every kind but Range): the Range lookup of the same `where` (if it has one).
  /// When the facts are in order of the range's field (a file's facts by line), the key's
  /// candidates are narrowed to the positions the range spans (`lines(f) where l.function ==
  /// X and l.line > Y`: the lines of X between two lines, not every line of X); when the key
  /// gives nothing to look up (a word key that is not a run of [A-Za-z0-9_], such as a
  /// captured indentation, or a list value) the range is read instead of every fact.
  std::shared_ptr<const Probe> fallback;
  /// Key lookups by a join (Equal, Member, DottedTail, Capture): a Word lookup of another
  /// conjunct of the same `where` (`w.function == n.function and w.code ~ /\b{v}\.to\(/`).
  /// When the join gives many candidates, only those the word lookup finds too are read (the
  /// lines of one function that hold the token, not every line of it: an intersection of two
  /// indexes over the same facts, in fact order). Never alone: its own conjunct is still
  /// evaluated on every candidate, as the join's is.
  std::shared_ptr<const Probe> narrow;
  /// Reads by key of a `for` only: the lookups of later `for`s over this binder's file
  /// (`for u in symbols(repo) where u.name == n` then `for c in calls(u.file) where kw in
  /// c.kwarg_names`) on an in_text field whose key is bound before this `for`. A fact of a file
  /// whose text lacks such a key's identifier runs binds nothing in that later `for`, so it
  /// yields no finding: the read by key asks for the files holding these keys' runs too (a
  /// multi-key read; fact order and findings are those of the one-key read).
  std::vector<Probe> file_keys;
  /// Equal lookups: the other `v.g == Y` conjuncts of the same `where` (on other fields, Y a
  /// key), looked up together with the first as one composite key (a multi-column index:
  /// `e.file == s.file and e.function == s.function` finds the lines of one function of one
  /// file, not every line of the file). A fact whose value of any of these fields is a list or
  /// a fact is never a candidate (`==` against a key that is neither is false); a key that is a
  /// list or a fact at run time scans instead.
  struct Also {
    std::vector<std::string> path;
    const ast::Expr* key = nullptr;
  };
  std::vector<Also> also;
};

/// A condition and where the evaluator checks it; `negate` for a moved `unless`.
struct Filter {
  const ast::Expr* expr = nullptr;
  bool negate = false;
  bool moved = false;   ///< pushed down from a later clause (for explain)
  /// A loop-invariant condition that scans (an exists/count binder it cannot be moved with):
  /// it reads nothing bound after the `stage`-th `for` (-1: before the first), yet is checked
  /// inside a later `for`'s loop, so its value is computed once per binding of that `for` and
  /// reused (`memo` >= 0: its slot in RulePlan::memos; -1: evaluated every time). It binds no
  /// capture, so reusing the value changes nothing but the work.
  int memo = -1;
  int stage = -1;
  /// A condition that scans and is not loop-invariant (memo < 0) but binds no capture: its
  /// value is a function of the names it reads (`reads`), so it is tabled by their values
  /// (`table` >= 0: its slot in RulePlan::tables; -1: not tabled). B6's `unless exists e in
  /// lines(changed) where e.file == s.file and e.code ~ /…{val}…/ and e.function == s.function`
  /// is asked once per (s, val), not once per (n, s): in an audit many n share a val.
  int table = -1;
  std::vector<std::string> reads;
  /// The conjunct a regex-set probe of its `for` answers (Probe::Kind::Regex, a regex that binds
  /// no capture): every candidate that probe gives meets it, so the evaluator does not match it
  /// again when the probe was used (T-TIER's `l.code ~ /[^\s"']/` on every added line).
  bool served = false;
};

/// A name read with the field path after it: `k.file` is {"k", {"file"}}; a whole binding,
/// `let` or capture has an empty path.
struct Read {
  std::string name;
  std::vector<std::string> path;
  bool operator<(const Read& o) const { return name != o.name ? name < o.name : path < o.path; }
};

/// An `exists`/`count` binder inside a condition that is evaluated every time (neither memoised
/// nor tabled whole): its value is a function of the values of the paths it reads (`reads`, its
/// own variable left out), so it is tabled by them in RulePlan::tables (slot `table`). D8's
/// `exists im in lines(k.file) where im.code ~ /…import…{bare}…/`, inside an `or` that binds
/// captures, is asked once per (k.file, bare), not once per call k: an audit has many calls to
/// the same name in one file. Not made when it reads a `for` variable whole (a fact: the key
/// would be new at every binding) or ranges over findings.
struct TabledBinder {
  int table = -1;
  std::vector<Read> reads;
};

/// What the evaluator does at each `for`: look up or scan, then check `filters` in order.
struct ForPlan {
  std::optional<Probe> probe;
  std::vector<Filter> filters;
  /// For a `for` after the first over a fact source and a scope known in advance: the positions
  /// in `filters` of the conditions that read no other `for` variable (nor a capture), bind
  /// nothing and scan nothing. When no fact of that source meets them all, no binding of the
  /// rule can: the evaluator checks that before the loops when the facts are at hand (T-TIER's
  /// `for f in files(changed) where f.path == l.file and f.tier == 1` on a tree without a tier-1
  /// file looked every added line up for nothing). explain prints "(some fact first)".
  std::vector<size_t> own;
  /// A `for` after the first whose lookup is `v.file == X` (Probe::Kind::Equal on the fact's
  /// `file`) over a source that builds a few files' facts for much less than the whole scope's
  /// (SourceSchema::by_files: `clones`), over `changed`, `repo` or a glob list: before the
  /// loops, the evaluator binds the earlier `for`s once to collect every X, and the lookup reads
  /// only the facts of those files (Facts::query_in_files; a semi-join reduction, Datalog's
  /// sideways information passing). D5 asked for the clones of the backbone files and the audit
  /// compared every pair of ATOM's files. explain prints "(built for the files ... names)".
  bool by_files = false;
  /// With by_files, over a source whose schema names a partner field P (SourceSchema::partner):
  /// the position of a later `for` over a fact source and a scope known in advance whose lookup
  /// is `w.f == v.P.file` (Probe::Kind::Equal, v this `for`'s variable), or -1. Every finding
  /// binds a fact of that `for` meeting its own conditions (`own`), so the facts read here need
  /// only a `P.file` among those facts' `f`: the evaluator collects them before the loops and
  /// passes them as Facts::query_in_files's `partners` (D5's `for fb in files(repo) where
  /// fb.path == c.b.file and fb.tier <= 2`: the clone search reads the other sides of the
  /// backbone files only). explain prints "(… paired with the files `for fb` admits)".
  int partner = -1;
};

/// The execution plan of one rule. `before` runs after `when`, before the first `for`; `fors[i]`
/// after binding the i-th `for` variable; `after` once every `for` is bound (the remaining
/// `where`s, then the remaining `unless`es, as written).
struct RulePlan {
  std::vector<Filter> before;
  std::vector<ForPlan> fors;
  std::vector<Filter> after;
  size_t memos = 0;   ///< how many filters are memoised (Filter::memo)
  size_t tables = 0;  ///< how many filters and binders are tabled by value (Filter::table, binders)
  std::map<const ast::Expr*, TabledBinder> binders;  ///< the tabled binders, by their Exists/Count node
};

struct PlannedRule {
  const ast::Rule* rule = nullptr;
  RuleMeta meta;
  Severity severity = Severity::Warn;
};

struct ProgramImpl {
  std::vector<std::unique_ptr<ast::File>> files;  ///< main file first
  std::string name, title;
  int version = 0;
  RulesetData data;
  std::map<std::string, const ast::Let*> lets;    ///< first declaration wins
  std::vector<const ast::KindDecl*> kinds;
  std::vector<PlannedRule> rules;                 ///< evaluation order
  std::map<const ast::Rule*, RulePlan> plans;     ///< every body's plan: rules and their `also`s
  std::map<const ast::Expr*, Probe> probes;       ///< exists/count binders that look up an index
  std::vector<RuleMeta> metas;                    ///< same order
  CheckedRegexes regexes;
  std::vector<SourceSchema> schema;
};

/// Orders `rules` so that every rule reading findings("t") runs after every other rule tagged
/// "t"; declaration order otherwise. Returns false and fills `diag_message`/`at` on a cycle.
bool order_rules(std::vector<PlannedRule>& rules, const std::map<const ast::Rule*, std::vector<std::pair<std::string, ast::Span>>>& reads,
                 std::string& diag_message, const ast::Rule*& at_rule, ast::Span& at);

/// Fills `p.plans` and `p.probes` from the rules, kinds and regexes of `p` (after checking).
void plan_program(ProgramImpl& p);

/// Returns the plan of `r` as written, with nothing moved and no index: the nested-loop
/// reference the planned evaluation must equal (EvalOptions::use_plan = false).
RulePlan naive_plan(const ast::Rule& r);

/// Returns a readable plan of rule `r` (one clause per line, as `runner explain --plan` prints
/// it): each `for` with `scan` or `index SOURCE(SCOPE) by .FIELD = X`, the conditions checked
/// there (`(moved)` when pushed down), and each exists/count with its lookup; then, for each
/// `also` body, a line `also "LABEL"` and that body's plan in the same form.
std::string describe_plan(const ProgramImpl& p, const PlannedRule& r);

/// Returns whether the facts a lookup by `probe` finds in `source` must come from files whose
/// text holds the key: the probe reads one top-level field that the schema of `p` marks
/// `in_text` (FieldSchema::in_text). The evaluator then asks Facts::query_containing for a
/// repository-wide or named scope instead of building the whole source.
bool probe_in_text(const ProgramImpl& p, const std::string& source, const Probe& probe);

/// Returns the value of a `let` (String, Int, List; regexes as their pattern string).
Value let_value(const ast::Expr& e);

}  // namespace review::dsl
