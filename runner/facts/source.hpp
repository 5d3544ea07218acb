// Fact sources: one `Source` per source the rule language can query, one file each under
// runner/facts/, and one registry table (registry.cpp) that names them. ChangeFacts
// (change_facts.hpp) owns the parsed-model cache and the scopes; it looks a source up here, hands
// it a `SourceContext` and caches what it builds.
//
// ## How to add a fact source
// 1. Write runner/facts/<name>.cpp defining a class derived from `Source`:
//    - `schema()` returns the name, a one-line doc and every field (name, type, one-line doc).
//      The field names are the contract with rulesets; `runner sources`, the checker and
//      ChangeFacts::schema() all read this one declaration.
//    - Per-file sources (one fact per thing in one file side) override `build_file` only: the
//      default `build` lists the scope's files, parses them in parallel and concatenates the
//      per-file facts in file order (results are cached per file side, so other sources can
//      reuse them through `SourceContext::file_facts`). A source that reads the lazy analyses
//      (`SourceModel::branch_chains` / `unbound_reads`) also returns true from `uses_analyses`.
//    - Sources that are not per file (the pull request, pairs across files, facts of the change
//      itself) override `build` instead.
//    - Every fact is made with `dsl::make_fact(<name>, file, line)` and carries exactly the
//      schema's fields: each field other than the location members (file, line, end_line,
//      column, which `Fact` holds as members) is `set` on the fact or answered by its
//      `FieldProvider`, with the declared type. tests/facts/sources_test.cpp checks this for
//      every source of the registry on a fixture; extend the fixture so the new source makes
//      at least one fact there.
// 2. Declare its factory (`std::unique_ptr<Source> make_<name>_source();`) in sources.hpp.
// 3. Add one row to `kSources` in registry.cpp, in documentation order (`runner sources` prints
//    that order); update the source list in tests/facts/change_facts_test.cpp and the docs
//    (docs/ and RULES.md §0 when it names the source).
// A source never names a rule id; it provides generic facts that `.rules` files query.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/facts.hpp"
#include "runner/change/change.hpp"
#include "runner/lang/model.hpp"

namespace review::facts {

/// One side of one file that a scope covers.
struct FileRef {
  std::string path;                              ///< path on its side (base path for base refs)
  bool base = false;                             ///< the base version rather than the head one
  const change::ChangedFile* changed = nullptr;  ///< null for files the change does not touch

  /// Returns whether head line `line` of this file is an added line (always false on the base
  /// side and for unchanged files).
  bool added(int line) const;
  /// Returns whether some line in [a, b] is an added line (same conditions as `added`).
  bool added_range(int a, int b) const;
};

/// Another repository loaded as a fact scope (`--with NAME=PATH[@REV]`, `repos:` in the
/// configuration).
struct Repository {
  std::string name;                    ///< the ruleset's `let NAME = repo …`
  std::string path;                    ///< folder it was read from
  std::string rev;                     ///< full commit id; "" for a plain folder
  std::string rev_from;                ///< where the revision came from: "--with", "review.yml", the pin file, or "HEAD"
  std::shared_ptr<dsl::Facts> facts;   ///< its facts (a ChangeFacts over a change with no files)
};

/// What a source may read while it builds: the change, the ruleset data, the files of a scope
/// and their parsed models, and other sources' per-file facts. Implemented by ChangeFacts.
class SourceContext {
 public:
  virtual ~SourceContext();
  /// The change under review (never null; its content source is never null).
  virtual const change::Change& change() const = 0;
  /// A shared owner of the change, for field providers that keep pointers into it.
  virtual std::shared_ptr<const change::Change> change_ptr() const = 0;
  /// The ruleset data of the last `configure` (tiers, test globs, lets).
  virtual const dsl::RulesetData& data() const = 0;
  /// The other repositories loaded as named scopes, in the order they were added.
  virtual const std::vector<Repository>& repositories() const = 0;
  /// Every analysable file side the scope covers, in file order: head sides of changed files
  /// (changed), base sides (base), tracked head files minus the skip globs (repo, globs) or the
  /// listed paths (files). Deleted, binary, skipped files and submodules are left out.
  virtual std::vector<FileRef> files(const dsl::Scope& scope) = 0;
  /// Every tracked head file minus the skip globs, sorted; the changed files when the tree is unknown.
  virtual const std::vector<std::string>& repo_files() = 0;
  /// Parses the refs' files on the worker threads ahead of `model` calls (a no-op for one file or
  /// one job). With `analyses`, also runs the lazy analyses and makes later parses run them.
  virtual void prefetch(const std::vector<FileRef>& refs, bool analyses) = 0;
  /// The model of one file side, parsed on first use and cached; nullptr when the file has no text.
  virtual std::shared_ptr<const lang::SourceModel> model(const std::string& path, bool base) = 0;
  /// The model of one file side for a reader that keeps only a summary of it (call_targets'
  /// resolver): the cached model when `model` (or the donor, or a read by key in progress) has
  /// it, else the file is parsed now and **not** cached, so it is freed with the caller's last
  /// reference (a later `model` call parses it again). nullptr when the file has no text. The
  /// notes and incomplete() entries of a file side are recorded once however often it is
  /// parsed; the parse hook sees every parse. Default: `model` (cached).
  virtual std::shared_ptr<const lang::SourceModel> read_model(const std::string& path, bool base) {
    return model(path, base);
  }
  /// Whether the model `model` returned for this file side stays cached after the caller drops
  /// it (false for one parsed for a read by key of a source that keeps no models, held only
  /// while its facts are built). A reader may then refer into the model instead of copying what
  /// it needs. Default: false (copy).
  virtual bool model_cached(const std::string& /*path*/, bool /*base*/) const { return false; }
  /// The head text of `path` for a reader that needs no parse tree (a token scan), read without
  /// parsing or caching; nullopt when the file has no head text, is of a binary format by its
  /// name (lang::binary_format: not read at all), holds a NUL byte or is larger than the parse
  /// limit (`--max-file-bytes`), the files `model` skips. Records no note.
  /// Thread-safe.
  virtual std::optional<std::string> head_text(const std::string& path) = 0;
  /// The per-file facts `source` builds for `ref` (Source::build_file), cached per file side.
  /// Throws dsl::FactsError when `source` is unknown or has no per-file build.
  virtual const std::vector<dsl::FactPtr>& file_facts(const std::string& source, const FileRef& ref) = 0;
  /// Where files_holding looks for a name.
  enum class Holding {
    Anywhere,   ///< as a whole identifier token (a maximal run of `[A-Za-z0-9_]`)
    /// as the token right after the token `class` (blanks, tabs, line breaks and backslashes
    /// between), in a Python file
    ClassName,
    /// as a token of a Python class statement's head: after the token `class`, up to the `:`
    /// that ends it outside brackets (strings and comments skipped): where a subclass names a base
    ClassHead,
  };
  /// Head files of the repository, in repo_files() order, whose text may hold `name` where
  /// `where` says: a superset of the files that mention `name`, or (ClassName and ClassHead,
  /// Python files only) define a class called `name` or naming `name` among its bases. For
  /// sources that follow names across the repository on demand instead of parsing every file.
  /// Default: every repo_files() path (ChangeFacts answers from its word index, built once
  /// without parsing).
  virtual std::vector<std::string> files_holding(const std::string& name, Holding where);
  /// How many threads a source may use for work of its own over many files (`--jobs`, 0 taken
  /// as the number of cores): its callbacks into this context from those threads are limited to
  /// the thread-safe ones (head_text, note, incomplete, and reading models it already holds).
  /// Default: 1.
  virtual unsigned jobs() const { return 1; }
  /// Records a note for the user ("PATH: not analysed (why)"), once however often it is given.
  /// Thread-safe.
  virtual void note(const std::string& text) = 0;
  /// Records that facts are missing ("PATH: not analysed: why, with the position"): the review
  /// is reported incomplete (exit code 4 unless --allow-incomplete), once however often it is
  /// given. For files a source cannot read at all (malformed YAML), so that a rule looking for
  /// something missing never passes silently on them. Thread-safe.
  virtual void incomplete(const std::string& text) = 0;
  /// A slot where source `source` keeps what its files share for the life of this context
  /// (call_targets: its module index and the summaries of the modules it resolved through):
  /// nothing of one context is seen by another. Empty at first. Not thread-safe: for
  /// `build_file`, which ChangeFacts calls on one thread. Default: a map held by this object.
  virtual std::shared_ptr<void>& state(const std::string& source) { return states_[source]; }

 protected:
  /// Empties the slot of `source` (its state is freed once no fact holds it): for a context that
  /// releases the source's facts (a later build starts from an empty slot). Never throws.
  void reset_state(const std::string& source) noexcept { states_.erase(source); }

 private:
  std::map<std::string, std::shared_ptr<void>> states_;
};

/// One fact source. Implementations are stateless (`build*` are const) and live one per file
/// (or per tight family, e.g. lines / added_lines / removed_lines) in runner/facts/.
class Source {
 public:
  Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
  virtual ~Source();

  /// The source's name, doc and fields. Called once, when the registry is first read.
  virtual dsl::SourceSchema schema() const = 0;
  /// True for record shapes that only appear nested inside other facts ("location"); querying
  /// them throws FactsError.
  virtual bool nested_only() const { return false; }
  /// True when `build_file` reads SourceModel::branch_chains or unbound_reads.
  virtual bool uses_analyses() const { return false; }
  /// True when `build` is the default one (the scope's per-file facts concatenated in file
  /// order) and every fact of `build_file(ref)` has `file == ref.path`: the facts of a subset of
  /// the scope's files are then a subsequence of the whole build (ChangeFacts::query_containing).
  virtual bool builds_per_file() const { return false; }
  /// False for a language (lang::language_of the path) whose files never yield this source's
  /// facts: `build_file` returns none for them whatever their text. The default `build` and the
  /// reads by key (ChangeFacts::query_containing) then neither read nor parse those files, so
  /// a binary or oversized file of another language is not noted by this source either.
  /// Default: every language. tests/facts/sources_test.cpp checks the claim on every source.
  virtual bool reads(lang::Language) const { return true; }
  /// False when the facts of `build_file` keep no reference to the model they were built from
  /// (they copy what they read): a read by key (ChangeFacts::query_containing) then parses the
  /// files no source has parsed yet without caching their models, which are freed once the
  /// facts are built. Ignored for sources that use the analyses. Default: true.
  virtual bool keeps_models() const { return true; }

  /// Returns the facts of `scope`, in file order then line order. Default: prefetches
  /// ctx.files(scope) and concatenates ctx.file_facts(name, ref) for each. Throws dsl::FactsError.
  virtual std::vector<dsl::FactPtr> build(SourceContext& ctx, const dsl::Scope& scope) const;
  /// Returns the facts of build(ctx, scope) whose `file` is one of `files` (sorted, no
  /// duplicates), in the same order, for a source whose schema says `by_files` (a search across
  /// files that costs far less for a few of them); nullopt when the source has no such build.
  /// With `partners` (sorted, no duplicates; a source whose schema names a partner field P),
  /// only those whose `P.file` is one of them too. ChangeFacts::query_in_files calls it for
  /// `changed`, `repo` and glob scopes. Default: nullopt. Throws dsl::FactsError as build does.
  virtual std::optional<std::vector<dsl::FactPtr>> build_in_files(SourceContext& ctx, const dsl::Scope& scope,
                                                                  const std::vector<std::string>& files,
                                                                  const std::vector<std::string>* partners) const;
  /// Returns the facts of one file side, in line order. Must not read `ctx.data()` (results are
  /// cached for the life of the context). Default: throws dsl::FactsError ("has no implementation").
  virtual std::vector<dsl::FactPtr> build_file(SourceContext& ctx, const FileRef& ref) const;

  /// The name of `schema()` (set by the registry when it creates the source).
  const std::string& name() const { return name_; }

 private:
  friend const std::vector<std::unique_ptr<Source>>& sources();
  std::string name_;
};

/// Every registered source, in documentation order (registry.cpp's kSources). Stable references.
const std::vector<std::unique_ptr<Source>>& sources();

/// Returns the registered source named `name`, or nullptr.
const Source* find_source(std::string_view name);

}  // namespace review::facts
