// The boundary between the rule language and the world.
//
// The evaluator never reads files or runs git: it asks a `Facts` implementation for the facts of
// a source over a scope ("lines of the changed files", "functions of atom/**/*.py"). The runner
// implements it over a Change (runner/facts/); tests implement it in memory.
//
// The schema (which sources exist, which fields they carry, with types and one-line docs) is
// declared by the same implementation, so `runner check`, `runner sources` and evaluation read
// one registry and cannot drift apart.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/value.hpp"

namespace review::dsl {

/// One field of a fact source's records.
struct FieldSchema {
  std::string name;
  Type type = Type::Any;
  std::string doc;            ///< one line, shown by `runner sources`
  std::string fact_source;    ///< for Type::Fact (or lists of facts): the source of the referenced fact
  /// The value is spelled in its file's text: every maximal run of `[A-Za-z0-9_]` in the value
  /// (in each string of a list value) occurs somewhere in the text of the file side the fact
  /// comes from. A lookup by such a field only needs the files whose text holds the key's runs
  /// (Facts::query_containing). False when a source computes, resolves or joins the value.
  bool in_text = false;
};

/// One fact source: `lines(changed)`, `pr`, ...
struct SourceSchema {
  std::string name;
  std::string doc;              ///< one line
  bool takes_scope = true;      ///< false for `pr` (a single fact, written without parentheses)
  std::vector<FieldSchema> fields;
  /// Facts only of the change's files: a read of one file (`removed_lines(a.file)`) finds a part
  /// of what the `changed` scope finds, so none when that finds none (the evaluator then skips
  /// such reads: an audit has no removed lines, and D4 looked them up for every added line).
  bool changed_only = false;
  /// The source its facts name (Fact::source) when they are another source's facts, "" for its
  /// own name: `added_lines` makes `lines` facts (the added ones), so the two sources can share
  /// one fact per line and `a == l` holds for the same line read through either.
  std::string fact_source{};
  /// The facts of a few files (those whose `file` is one of a list) cost much less to build
  /// than the whole scope's, and Facts::query_in_files builds them: a search across files
  /// (`clones`) that need not compare every pair of the repository's files when a rule asks for
  /// the pairs of a few. The evaluator then collects the files a `for c in SOURCE(…) where
  /// c.file == X` looks up (X bound by earlier `for`s) before that `for` reads the source.
  bool by_files = false;
  /// With by_files: a field of the facts holding another fact whose `file` can narrow such a
  /// build too (`b` of `clones`, the other block of a pair), or "" for none. The evaluator
  /// passes, as Facts::query_in_files's `partners`, the files a later `for` admits when that
  /// `for` looks its facts up by `X == c.<partner>.file` (`for fb in files(changed) where
  /// fb.path == c.b.file and fb.tier == 1`): no other pair can reach a finding.
  std::string partner{};

  /// Returns the field named `name`, or nullptr.
  const FieldSchema* field(std::string_view name) const;
};

/// Where a query looks. `Changed` = head versions of the changed files; `Base` = their base
/// versions; `Repo` = every tracked file at head; `Globs` = head files matching any glob
/// (repository-relative, `**` crosses folders); `Files` = exactly the listed paths.
struct Scope {
  /// Named: every file of another repository (`functions(aiter)` where `let aiter = repo …`);
  /// patterns[0] is its name.
  enum class Kind { Changed, Base, Repo, Globs, Files, Named };
  Kind kind = Kind::Changed;
  std::vector<std::string> patterns;

  friend bool operator==(const Scope&, const Scope&) = default;
  /// "changed", "base", "repo", or the glob list as written.
  std::string describe() const;
};

/// Ruleset-level data that sources need: the tier table (for files.tier/blast/fails), the globs
/// that mark test files (files.is_test), and `let` lists a generic analysis may read by name
/// (e.g. a suffix list for siblings).
struct TierEntry {
  int tier = 0;
  std::string label;     ///< the tier block's label
  std::string glob;
  std::string blast;
  std::string fails;
};
/// `let NAME = repo ["FILE" /PIN/]`: another repository rules may scope to, and where the
/// reviewed repository writes the revision it builds against.
struct RepoDecl {
  std::string name;
  std::string pin_file;   ///< path in the reviewed repository ("" = not said)
  std::string pin;        ///< RE2 pattern; group `rev` (else group 1) is the revision
};

struct RulesetData {
  std::vector<TierEntry> tiers;
  std::vector<std::string> test_globs;
  std::vector<std::pair<std::string, Value>> lets;
  std::vector<RepoDecl> repos;

  /// Returns the first `let` of that name, or null.
  Value let(std::string_view name) const;
};

/// Thrown by Facts::query when a source cannot be computed (unknown source, unreadable input).
/// The evaluator turns it into an internal diagnostic naming the rule; other rules still run.
struct FactsError {
  std::string message;
};

class Facts {
 public:
  virtual ~Facts() = default;

  /// Returns every source this implementation answers, with its fields. Stable across calls.
  virtual const std::vector<SourceSchema>& schema() const = 0;

  /// Called once before evaluation with the ruleset's data.
  virtual void configure(const RulesetData& data) = 0;

  /// Returns the facts of `source` over `scope`, in file order then line order. Results may be
  /// cached by the implementation; the same (source, scope) must return the same facts.
  /// `source` is one of schema()'s names. Throws FactsError.
  virtual const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) = 0;

  /// Called by the evaluator once no later rule of this evaluate() call reads `source` (the
  /// plan knows every rule's sources before it starts): the implementation may free its cached
  /// results of `source` over every scope. A later query of it must still answer the same facts
  /// (rebuilt). References returned by earlier queries of `source` are invalid afterwards.
  /// Default: keeps everything. Never throws.
  virtual void release(const std::string& source) { (void)source; }

  /// Called by the evaluator once no later rule of this evaluate() call reads `source` over
  /// `scope` (a scope known in advance: changed, base, repo or globs), while some still read it
  /// over other scopes: the implementation may free that scope's results, and the per-file facts
  /// it made for them (a later read by file rebuilds those). Answers must stay the same.
  /// References returned by earlier queries of `source` over `scope`, and over single files
  /// (Scope::Kind::Files), are invalid afterwards. Default: keeps everything. Never throws.
  virtual void release_scope(const std::string& source, const Scope& scope) {
    (void)source;
    (void)scope;
  }

  /// Called by the evaluator before the kinds run, once for each (source, scope) that a kind or
  /// a rule of this evaluate() call reads with a scope known in advance (`changed` or `base`; a
  /// rule may still not reach the read, and scopes computed from facts are never announced).
  /// The implementation may prepare: make, the first time it reads a file, what that source
  /// will need of it. Query results must not depend on it. Default: nothing. Never throws.
  virtual void will_read(const std::string& source, const Scope& scope) {
    (void)source;
    (void)scope;
  }

  /// Returns the facts of `source` over `scope` that come from the files whose text contains
  /// every string of `words` (each a run of `[A-Za-z0-9_]`, as a substring of the text), in
  /// the order query() gives them: a subsequence of query(source, scope) that holds every fact
  /// of it whose `in_text` field (FieldSchema::in_text) has all of `words` as substrings of its
  /// runs. Results may be cached like query()'s. Returns nullptr when the implementation cannot
  /// narrow this query (the source is not built file by file, the scope is not worth it, or
  /// the words would select most files): the caller then reads query(). Throws FactsError as
  /// query() does. The default returns nullptr.
  virtual const std::vector<FactPtr>* query_containing(const std::string& source, const Scope& scope,
                                                       const std::vector<std::string>& words);

  /// Returns the facts of `source` over `scope` whose `file` is one of `files` (sorted, no
  /// duplicates), in the order query() gives them: a subsequence of query(source, scope) equal
  /// to the facts of it with such a file, built without building the rest (a semi-join
  /// reduction: the evaluator passes the files an earlier `for` names, SourceSchema::by_files).
  /// Results may be cached like query()'s. Returns nullptr when the implementation cannot
  /// narrow this query (the source has no such build, the scope is not `changed`, `repo` or a
  /// glob list, or the whole query is built already and its index is cheaper): the caller then
  /// reads query(). `partners`, when not null (sorted, no duplicates; only for a source whose
  /// schema names a SourceSchema::partner field P), narrows the answer further to the facts
  /// whose `P.file` is one of them: then it is the subsequence of query(source, scope) with
  /// both. Throws FactsError as query() does. The default returns nullptr.
  virtual const std::vector<FactPtr>* query_in_files(const std::string& source, const Scope& scope,
                                                     const std::vector<std::string>& files,
                                                     const std::vector<std::string>* partners);

  /// Returns whether line `line` of head file `path` is an added line of the change.
  virtual bool is_added(std::string_view path, int line) const = 0;

  /// Returns true when query() over `scope` reads no file for any source, because the scope holds
  /// none (`base` in an audit, where every file is added against an empty tree): its facts cost
  /// nothing to build, so the evaluator may ask for them to learn that a rule's later `for` or
  /// `where exists` over them has nothing to bind. False when unsure; scopes computed from facts
  /// (Scope::Kind::Files) may always answer false. Default: false. Never throws.
  virtual bool reads_no_file(const Scope& scope) const {
    (void)scope;
    return false;
  }
};

/// Glob match used everywhere a path is matched against a pattern (`like`, scopes, tiers):
/// `*` matches within one path segment, `**` any number of segments (`a/**/b` matches `a/b`),
/// `?` one character, `[...]` a character class, `{a,b}` alternatives. Case-sensitive.
/// Returns false for malformed patterns rather than throwing.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace review::dsl
