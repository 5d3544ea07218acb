// The runner's Facts implementation: answers every source of fact_schema() over one Change.
//
//   auto facts = std::make_shared<review::facts::ChangeFacts>(change);
//   facts->configure(ruleset_data);                       // tiers, test globs, lets
//   const auto& fns = facts->query("functions", Scope{Scope::Kind::Changed, {}});
//
// Every file is parsed at most once per side (head/base) per ChangeFacts, whatever the number of
// sources and rules that read it, except the files a reader asks not to cache (read_model, and
// the reads by key of a source that keeps no models: Source::keeps_models), which a later reader
// parses again; each (source, scope) result is computed once and cached, and so are the per-file
// facts of per-file sources. The repo scope is listed lazily from
// ContentSource::head_files() and parsed in parallel. The sources themselves live one per file
// under runner/facts/ behind the `Source` interface (source.hpp, which says how to add one).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dsl/facts.hpp"
#include "runner/change/change.hpp"
#include "runner/facts/schema.hpp"
#include "runner/facts/source.hpp"
#include "runner/lang/model.hpp"

namespace review::facts {

/// The vendored/generated trees the repo index skips by default: "**/3rdparty/**",
/// "**/third_party/**", "**/*.pb.*".
const std::vector<std::string>& default_skip_globs();


/// The built-in test-path rule (RULES.md §0.4 is_test): a directory segment is one of test,
/// tests, op_tests, unittests, testing; or the basename matches test_*.py, *_test.py,
/// *_test.cpp or Test*.cpp.
bool builtin_is_test(std::string_view path);

/// RULES.md §0.4 is_tooling: some directory segment is scripts, tools, examples, docs, .github,
/// recipes, or starts with "bench".
bool builtin_is_tooling(std::string_view path);

/// The parsed-model cache and the scopes of one Change; every source itself is a `Source` of the
/// registry (source.hpp), which this class looks up by name and whose results it caches.
class ChangeFacts final : public dsl::Facts, private SourceContext {
 public:
  struct Options {
    int jobs = 0;                        ///< parser threads for repo-wide scopes; 0 = all cores
    size_t max_file_bytes = 2 * 1024 * 1024;  ///< larger files are skipped with a note
    std::vector<std::string> skip_globs = default_skip_globs();  ///< repo/glob scopes skip these
    /// Set once the run is over its memory ceiling (runner/cli/memory_ceiling.hpp): files not
    /// parsed yet are not parsed (no facts; listed by incomplete() as "PATH: not analysed (the
    /// memory ceiling was reached)"). nullptr = no ceiling.
    const std::atomic<bool>* memory_exceeded = nullptr;
    /// Another ChangeFacts whose head side holds, for every path where `same_text(path)` is
    /// true, the same text as this one's head side (the differential review's base run reads
    /// the base texts as its head, and the head run is the donor). The head models the donor
    /// has parsed already are used instead of parsing those files again, and once the donor has
    /// its word index, this one's starts from it and reads only the other files. The donor is
    /// only read, never made to parse, and must outlive this object. nullptr = none.
    ChangeFacts* donor = nullptr;
    std::function<bool(const std::string& path)> same_text;
  };

  /// `change` must be non-null with a non-null content source.
  explicit ChangeFacts(std::shared_ptr<const change::Change> change);
  ChangeFacts(std::shared_ptr<const change::Change> change, Options options);

  const std::vector<dsl::SourceSchema>& schema() const override;
  /// Stores tiers, test globs and lets (`let sibling_suffixes = [...]` overrides the suffix list
  /// of `siblings`). Clears cached query results (parsed files and per-file facts stay cached).
  void configure(const dsl::RulesetData& data) override;
  /// Returns the facts of `source` over `scope`, in file order then line order; cached per
  /// (source, scope) (one file of a source built file by file: its per-file facts, which
  /// release_scope of the source may free). Throws dsl::FactsError for an unknown or nested-only source name, or what
  /// the source throws.
  const std::vector<dsl::FactPtr>& query(const std::string& source, const dsl::Scope& scope) override;
  bool is_added(std::string_view path, int line) const override;
  /// Whether head file `path` may hold `word` as a whole identifier token (a maximal run of
  /// `[A-Za-z0-9_]`): false only when the word index, built already for a rule that asked (it is
  /// never built here), read the file's text and the token is not in it, or found no text to
  /// read; true for a file it did not index (not listed, skipped by a glob, binary, over the size
  /// limit, a changed file that is not analysable). Lets a later step skip re-reading a file
  /// that cannot hold a word. Never throws.
  bool may_hold(const std::string& path, std::string_view word) const;
  /// Facts::reads_no_file: true for `changed` when no changed file is left at head (deleted or
  /// not analysable), and for `base` when every changed file is added (an audit); false for
  /// every other scope. Never throws.
  bool reads_no_file(const dsl::Scope& scope) const override;
  /// Frees the cached results of `source` over every scope, its reads by key, its per-file facts
  /// and what its files shared (SourceContext::state: call_targets' module summaries), here and in
  /// every added repository; a later query rebuilds them (the same facts, from the same models).
  /// Parsed models stay cached. After a large release (20,000 facts or more) the freed pages are
  /// given back to the system (return_free_memory()), so that the peak memory of a run is not the
  /// sum of every rule's working set. Never throws.
  void release(const std::string& source) override;
  /// Facts::release_scope: frees the cached results of `source` over `scope` (a changed, base,
  /// repo or globs scope), its reads by key, and the per-file facts of `source` on that scope's
  /// side (head, or base for the base scope): a later read of a file builds them again from its
  /// model (models stay cached). Here and in every added repository. After a large release
  /// (20,000 facts or more) the freed pages are given back to the system. Never throws.
  void release_scope(const std::string& source, const dsl::Scope& scope) override;
  /// Frees everything parsed and cached: the models, every source's results, the reads by key
  /// and the word index, here and in every added repository; the freed pages are given back to
  /// the system (return_free_memory()). For the end of a review, before its reports are written
  /// (an audit's models are most of its memory). A later query or model() parses again; notes()
  /// and incomplete() keep what they hold. Never throws.
  void release_all();
  /// Facts::will_read: once a source that reads the analyses (Source::uses_analyses) is
  /// announced over the `changed` scope, the head side of every changed file is parsed with its
  /// analyses from then on (not parsed a second time when that source reads them). Other scopes
  /// and sources change nothing. Never throws.
  void will_read(const std::string& source, const dsl::Scope& scope) override;
  /// The demand-driven read (dsl::Facts::query_containing): for a repo or glob scope of a
  /// source built file by file (Source::builds_per_file), the facts of the scope's files whose
  /// head text holds every one of `words`, in query() order, cached per (source, scope, words);
  /// a named scope asks its repository. The files are found in a word index of the identifier
  /// tokens of the repository files' texts (each read once, without parsing; a word matches the
  /// tokens that contain it). Files that parsing skips with a note (over the size limit,
  /// binary) are parsed (skipped, with that note) while the index is built and always count as
  /// holding the words, so notes and incomplete() stay those of a whole build. Returns nullptr
  /// for other scopes and sources, when the source's facts are already built whole, or when
  /// more than half of the scope's files hold the words (a whole build costs no more). Only the
  /// files of the languages the source reads (Source::reads) are indexed, counted and read. For a
  /// source that keeps no models (Source::keeps_models false, no analyses) the files not parsed
  /// yet are parsed 16 at a time and not cached: each batch is freed once its facts are built.
  /// Throws dsl::FactsError for an unknown source name.
  const std::vector<dsl::FactPtr>* query_containing(const std::string& source, const dsl::Scope& scope,
                                                    const std::vector<std::string>& words) override;

  /// The read of a few files' facts (dsl::Facts::query_in_files): for the `changed`, `repo` and
  /// glob scopes of a source with its own such build (Source::build_in_files), its facts whose
  /// `file` is one of `files` (and, with `partners`, whose partner field's `file` is one of
  /// them), cached per (source, scope, files, partners) and freed with the source's other
  /// results. Returns nullptr for other scopes and sources, and when the source's facts over
  /// `scope` are built whole already. Throws dsl::FactsError for an unknown source name, and
  /// what the source's build throws.
  const std::vector<dsl::FactPtr>* query_in_files(const std::string& source, const dsl::Scope& scope,
                                                  const std::vector<std::string>& files,
                                                  const std::vector<std::string>* partners) override;

  /// Adds another repository that rules scope to by name (`functions(aiter)` where the ruleset
  /// says `let aiter = repo …`): a query over Scope::Kind::Named with that name is answered by
  /// `repo.facts` over its whole tree (Scope::Kind::Repo); `configure` is passed on to it. A
  /// repository of the same name is replaced. A named scope whose repository was not added
  /// answers no facts and leaves a note.
  void add_repository(Repository repo);

  /// Called once for each file actually parsed: (path, true for the base side). For tests and
  /// metrics; may be called from parser threads (calls are serialised).
  void set_parse_hook(std::function<void(const std::string& path, bool base)> hook);

  /// Things the user should know (skipped files, files read from hunks only), in order.
  std::vector<std::string> notes() const;

  /// Files whose facts are missing although a rule read them, as "PATH: why" in parse order:
  /// over the size limit (--max-file-size), the parser gave up, not parsed once the memory
  /// ceiling was reached, or a source could not read the file at all
  /// (SourceContext::incomplete: malformed workflow YAML). Binary files are not listed.
  std::vector<std::string> incomplete() const;

  /// The model of one file side (parsed on first use). nullptr when the file has no text.
  std::shared_ptr<const lang::SourceModel> model(const std::string& path, bool base) override;
  /// SourceContext::read_model: the cached model, else one parsed now and not cached.
  std::shared_ptr<const lang::SourceModel> read_model(const std::string& path, bool base) override;
  /// How many file sides have a model in the cache (parsed by `model`, a prefetch or a read by
  /// key of a source that keeps models; null models of files without text count). For tests.
  size_t cached_models() const;
  /// The head text of `path` as the cached head model holds it (the bytes Change::content gave
  /// when the model was read), without asking Change::content again; nullopt when no head model
  /// of it is cached, or its text came from diff hunks (the full text was unavailable), or its
  /// name is a binary format (not read). The reports ask the texts of the files with findings:
  /// read again through git, those were 212 of the 435 `git cat-file` reads of an ATOM audit.
  std::optional<std::string> cached_head_text(const std::string& path) const;

 private:
  // SourceContext
  const change::Change& change() const override { return *change_; }
  std::shared_ptr<const change::Change> change_ptr() const override { return change_; }
  const dsl::RulesetData& data() const override { return data_; }
  const std::vector<Repository>& repositories() const override { return repositories_; }
  std::vector<FileRef> files(const dsl::Scope& scope) override;
  const std::vector<std::string>& repo_files() override;
  std::optional<std::string> head_text(const std::string& path) override;
  unsigned jobs() const override;
  void prefetch(const std::vector<FileRef>& refs, bool analyses) override;
  const std::vector<dsl::FactPtr>& file_facts(const std::string& source, const FileRef& ref) override;
  bool model_cached(const std::string& path, bool base) const override;
  void note(const std::string& text) override;
  void incomplete(const std::string& text) override;
  std::vector<std::string> files_holding(const std::string& name, Holding where) override;

  void prefetch_models(const std::vector<FileRef>& refs);
  /// The refs' files that have no model in the cache (nor the donor's), parsed on the worker
  /// threads (in order; models the donor shares are returned without a parse): (key, model).
  std::vector<std::pair<std::string, std::shared_ptr<const lang::SourceModel>>> parse_missing(
      const std::vector<FileRef>& refs);
  /// Runs the lazy analyses (SourceModel::unbound_reads/branch_chains) of the refs' parsed
  /// models on the parser threads.
  void prefetch_analyses(const std::vector<FileRef>& refs);
  std::optional<std::string> read_text(const std::string& path, bool base, const change::ChangedFile* cf);
  /// Parses one file side (nullptr for no text); `analyses`: run the lazy analyses on its tree
  /// now (lang::AnalyzeOptions::analyses; either way they give the same results).
  std::shared_ptr<const lang::SourceModel> parse(const std::string& path, bool base, std::optional<std::string> text,
                                                 bool analyses);
  /// The cached model, the donor's, or one parsed now and not cached (read_model; model caches it).
  std::shared_ptr<const lang::SourceModel> load_model(const std::string& path, bool base, bool analyses);
  /// Whether a model of that file side parsed now for the cache runs the analyses on its own
  /// tree: a rule read them over that side already, or they were announced for the changed files
  /// (will_read) and this is the head side of one.
  bool eager_analyses(const std::string& path, bool base) const;

  std::shared_ptr<const change::Change> change_;
  Options options_;
  dsl::RulesetData data_;

  mutable std::mutex mu_;                 // guards models_, notes_, hook calls and content reads
  std::map<std::string, std::shared_ptr<const lang::SourceModel>> models_;  // "h:" / "b:" + path
  /// Models a read by key of a source that keeps no models parsed without caching: held while
  /// its per-file facts are built, then dropped. Same keys as models_.
  std::map<std::string, std::shared_ptr<const lang::SourceModel>> transient_;
  /// File sides parsed at least once ("h:" / "b:" + path): their notes are recorded once.
  std::set<std::string> parsed_;
  /// File sides ("h:" / "b:" + path) whose text was rebuilt from the hunks (read_text): their
  /// models do not hold the file's text.
  std::set<std::string> from_hunks_;
  std::vector<std::string> notes_;
  std::vector<std::string> incomplete_;
  std::function<void(const std::string&, bool)> hook_;

  /// Per side (0 head, 1 base), set once a rule reads an analysis source over files of that side:
  /// later parses of that side for the cache run the analyses on their own tree (a side no rule
  /// reads the analyses of, and the uncached reads, never run them).
  std::atomic<bool> analyses_wanted_[2] = {false, false};
  /// Set by will_read: a source that reads the analyses is announced over the changed files.
  std::atomic<bool> analyses_announced_{false};
  std::optional<std::vector<std::string>> repo_files_;
  std::vector<Repository> repositories_;
  /// A cached result: shared by every key whose result is the same list (intern()).
  using FactList = std::shared_ptr<const std::vector<dsl::FactPtr>>;
  std::map<std::string, FactList> cache_;        // (source, scope) -> facts
  std::map<std::string, FactList> file_cache_;   // (source, side, path) -> facts
  std::map<std::string, FactList> keyed_cache_;  // (source, scope, words) -> facts
  /// Returns `facts` as a cached list: a list already cached with the same facts in the same
  /// order when there is one (an audit's `added_lines` of a file whose every line is added are
  /// its `lines`; `lines(changed)` is `added_lines(changed)`; `added_lines(f)` is the per-file
  /// list of f), so each is held once, not once per key. Lists of fewer than kInternFrom facts
  /// are kept as they are.
  FactList intern(std::vector<dsl::FactPtr> facts);
  static constexpr size_t kInternFrom = 64;
  /// Drops the interned_ entries of lists no cache holds any more (after a release).
  void forget_released();
  /// The interned lists by size and first and last fact (equal lists agree on all three).
  std::map<std::tuple<size_t, const dsl::Fact*, const dsl::Fact*>, std::weak_ptr<const std::vector<dsl::FactPtr>>>
      interned_;

  /// The identifier tokens of the repo_files() texts of some languages (those a reader asked
  /// for: every file of a language in `langs` is indexed, files of other languages may not be):
  /// which files hold a token (positions in repo_files(), ascending), and the files parsing
  /// skips with a note (always candidates).
  struct WordIndex {
    uint32_t langs = 0;          ///< bit 1 << lang::Language: every file of that language is indexed
    std::vector<char> indexed;   ///< per repo_files() position
    std::vector<std::vector<uint32_t>> postings;  ///< per token id
    std::string dict;                             ///< "\n" + each token + "\n", in id order
    std::vector<uint32_t> starts;                 ///< offset of each token in dict
    std::vector<uint32_t> always;
    std::unordered_map<std::string, uint32_t> ids;  ///< path -> position in repo_files()
    /// token -> token id: open addressing over `dict` (no string per token read), each slot
    /// (hash, id + 1), 0 = empty; a power of two long, at most half full
    std::vector<std::pair<uint32_t, uint32_t>> slots;
    /// token -> Python files where it follows the token `class` (SourceContext::files_holding)
    std::unordered_map<std::string, std::vector<uint32_t>> defined;
    /// token -> Python files where it is in a class statement's head (Holding::ClassHead), and
    /// the Python files with a head too long to scan (kept for every name)
    std::unordered_map<std::string, std::vector<uint32_t>> in_class_head;
    std::vector<uint32_t> head_always;
    /// Files holding a token that contains `word`, ascending.
    std::vector<uint32_t> files_with(const std::string& word) const;
    /// The id of token `token`, or -1.
    int64_t token_id(std::string_view token) const;
    /// The id of token `token`, added (with no files) when new; `fresh` says which.
    uint32_t add_token(std::string_view token, bool& fresh);
    std::string_view token(uint32_t id) const;
  };
  /// The word index, with every file of the languages in `langs` (bits 1 << lang::Language)
  /// indexed: built on first use from the files of those languages, extended with the files of
  /// a language asked for later.
  const WordIndex& word_index(uint32_t langs);
  /// Indexes the text of repo_files()[i] into `idx` (postings get `i` at their end: the caller
  /// sorts them when files come out of order; `touched`, when given, collects the token ids,
  /// and the class names and heads, whose lists got `i`).
  void index_file(WordIndex& idx, uint32_t i, std::vector<uint32_t>* touched,
                  std::vector<std::string>* touched_names);
  /// The donor's word index with the indexed files whose text differs indexed again; nullopt
  /// when the donor has none or lists other files.
  std::optional<WordIndex> word_index_from_donor();
  /// The donor's model of head file `path`, when its text is the same and the donor has parsed it.
  std::shared_ptr<const lang::SourceModel> donor_model(const std::string& path, bool base, bool& found);
  /// True for a text that parsing skips with a note: over `--max-file-bytes`, or holding a NUL
  /// byte (binary). head_text and the word index use it to agree with parse(); both, and
  /// read_text, skip a binary format by its name (lang::binary_format) before reading any text.
  bool parse_skips(const std::string& text) const;
  std::optional<WordIndex> word_index_;
};

}  // namespace review::facts
