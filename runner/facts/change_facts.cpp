#include "runner/facts/change_facts.hpp"

#include "runner/analysis/parallel_for.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "runner/facts/free_memory.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {

using change::ChangedFile;
using change::FileStatus;
using change::LineKind;
using dsl::Fact;
using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;

namespace {

constexpr size_t kParseBatch = 256;  // files read into memory at once by the parallel indexer
// Models held at once by a read by key of a source that keeps no models (parsed in parallel,
// freed once their facts are built).
constexpr size_t kTransientBatch = 16;
// Facts (counted in the caches, shared ones once per cache) a release frees before the freed
// pages are given back to the system (ChangeFacts::release).
constexpr size_t kTrimAfterFacts = 20000;

std::string scope_key(const std::string& source, const Scope& scope) {
  std::string k = source;
  k += '\x1f';
  k += std::to_string(static_cast<int>(scope.kind));
  for (const auto& p : scope.patterns) {
    k += '\x1f';
    k += p;
  }
  return k;
}

using util::analysable;
using util::base_path;

/// Erases the entries of `m` whose key starts with `prefix`; returns how many facts the lists
/// that no other entry shares held.
template <class Map>
size_t erase_prefixed(Map& m, const std::string& prefix) {
  size_t freed = 0;
  for (auto it = m.lower_bound(prefix); it != m.end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    if (it->second.use_count() == 1) freed += it->second->size();
    it = m.erase(it);
  }
  return freed;
}

}  // namespace

const std::vector<std::string>& default_skip_globs() {
  static const std::vector<std::string> k = {"**/3rdparty/**", "**/third_party/**", "**/*.pb.*"};
  return k;
}


namespace {
std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t s = path.find('/', pos);
    out.push_back(path.substr(pos, s == std::string_view::npos ? path.npos : s - pos));
    if (s == std::string_view::npos) break;
    pos = s + 1;
  }
  return out;
}
}  // namespace

bool builtin_is_test(std::string_view path) {
  auto seg = segments(path);
  for (size_t i = 0; i + 1 < seg.size(); ++i) {
    std::string_view s = seg[i];
    if (s == "test" || s == "tests" || s == "op_tests" || s == "unittests" || s == "testing") return true;
  }
  std::string_view base = seg.back();
  return dsl::glob_match("test_*.py", base) || dsl::glob_match("*_test.py", base) ||
         dsl::glob_match("*_test.cpp", base) || dsl::glob_match("Test*.cpp", base);
}

bool builtin_is_tooling(std::string_view path) {
  auto seg = segments(path);
  for (size_t i = 0; i + 1 < seg.size(); ++i) {
    std::string_view s = seg[i];
    if (s == "scripts" || s == "tools" || s == "examples" || s == "docs" || s == ".github" ||
        s == "recipes" || s.rfind("bench", 0) == 0)
      return true;
  }
  return false;
}

ChangeFacts::ChangeFacts(std::shared_ptr<const change::Change> change)
    : ChangeFacts(std::move(change), Options{}) {}

ChangeFacts::ChangeFacts(std::shared_ptr<const change::Change> change, Options options)
    : change_(std::move(change)), options_(std::move(options)) {}

const std::vector<dsl::SourceSchema>& ChangeFacts::schema() const { return fact_schema(); }

void ChangeFacts::configure(const dsl::RulesetData& data) {
  data_ = data;
  cache_.clear();
  for (auto& r : repositories_)
    if (r.facts) r.facts->configure(data);
}

void ChangeFacts::add_repository(Repository repo) {
  for (auto& r : repositories_)
    if (r.name == repo.name) {
      r = std::move(repo);
      return;
    }
  repositories_.push_back(std::move(repo));
}

void ChangeFacts::set_parse_hook(std::function<void(const std::string&, bool)> hook) {
  std::lock_guard lock(mu_);
  hook_ = std::move(hook);
}

std::vector<std::string> ChangeFacts::incomplete() const {
  std::lock_guard lock(mu_);
  return incomplete_;
}

std::vector<std::string> ChangeFacts::notes() const {
  std::lock_guard lock(mu_);
  return notes_;
}

bool ChangeFacts::is_added(std::string_view path, int line) const {
  const ChangedFile* f = change_->find(std::string(path));
  return f && f->status != FileStatus::Deleted && f->added_lines.count(line);
}

namespace {
// Whether changed file `f` is a file of the changed scope (head side) or of the base scope: one
// test for files() and reads_no_file().
bool on_side(const ChangedFile& f, bool base) {
  return f.status != (base ? FileStatus::Added : FileStatus::Deleted) && analysable(f);
}
}  // namespace

bool ChangeFacts::reads_no_file(const Scope& scope) const {
  if (scope.kind != Scope::Kind::Changed && scope.kind != Scope::Kind::Base) return false;
  const bool base = scope.kind == Scope::Kind::Base;
  const auto& files = change_->files;
  return std::none_of(files.begin(), files.end(), [&](const ChangedFile& f) { return on_side(f, base); });
}

// ---- files and models ----

const std::vector<std::string>& ChangeFacts::repo_files() {
  if (repo_files_) return *repo_files_;
  std::vector<std::string> all;
  {
    std::lock_guard lock(mu_);
    all = change_->content->head_files();
  }
  if (all.empty()) {
    // Unknown tree (a diff without a repository): the changed files are all we know.
    for (const auto& f : change_->files)
      if (f.status != FileStatus::Deleted) all.push_back(f.path);
    std::sort(all.begin(), all.end());
  }
  std::vector<std::string> kept;
  size_t skipped = 0;
  for (auto& p : all) {
    bool skip = std::any_of(options_.skip_globs.begin(), options_.skip_globs.end(),
                            [&](const std::string& g) { return dsl::glob_match(g, p); });
    if (skip) ++skipped;
    else kept.push_back(std::move(p));
  }
  if (skipped) {
    std::lock_guard lock(mu_);
    notes_.push_back("repository index: skipped " + std::to_string(skipped) +
                     " vendored or generated files");
  }
  repo_files_ = std::move(kept);
  return *repo_files_;
}

std::vector<FileRef> ChangeFacts::files(const Scope& scope) {
  std::vector<FileRef> out;
  switch (scope.kind) {
    case Scope::Kind::Changed:
      for (const auto& f : change_->files)
        if (on_side(f, false)) out.push_back({f.path, false, &f});
      break;
    case Scope::Kind::Base:
      for (const auto& f : change_->files)
        if (on_side(f, true)) out.push_back({base_path(f), true, &f});
      break;
    case Scope::Kind::Repo:
    case Scope::Kind::Globs:
      for (const auto& p : repo_files()) {
        if (scope.kind == Scope::Kind::Globs &&
            !std::any_of(scope.patterns.begin(), scope.patterns.end(),
                         [&](const std::string& g) { return dsl::glob_match(g, p); }))
          continue;
        const ChangedFile* cf = change_->find(p);
        if (cf && (!analysable(*cf) || cf->status == FileStatus::Deleted)) continue;
        out.push_back({p, false, cf});
      }
      break;
    case Scope::Kind::Files:
      for (const auto& p : scope.patterns) {
        const ChangedFile* cf = change_->find(p);
        if (cf && (!analysable(*cf) || cf->status == FileStatus::Deleted)) continue;
        out.push_back({p, false, cf});
      }
      break;
    case Scope::Kind::Named: break;  // query() hands it to the named repository's facts
  }
  return out;
}

namespace {
// Rebuilds a file side from its hunks alone (lines outside hunks stay empty), for changes whose
// full texts are unknown.
std::string text_from_hunks(const ChangedFile& f, bool base) {
  std::vector<const std::string*> lines;
  for (const auto& h : f.hunks)
    for (const auto& l : h.lines) {
      int n = base ? l.old_line : l.new_line;
      if (n <= 0 || n > 10'000'000) continue;
      if (static_cast<int>(lines.size()) < n) lines.resize(n, nullptr);
      lines[n - 1] = &l.text;
    }
  std::string out;
  for (const auto* l : lines) {
    if (l) out += *l;
    out += '\n';
  }
  return out;
}
}  // namespace

std::optional<std::string> ChangeFacts::read_text(const std::string& path, bool base, const ChangedFile* cf) {
  // a binary format is skipped by its name (lang::analyze_file): its bytes are not read
  if (!lang::binary_format(path).empty()) return std::string();
  std::optional<std::string> t;
  {
    std::lock_guard lock(mu_);
    t = base ? change_->content->base(path) : change_->content->head(path);
  }
  if (!t && cf && !cf->hunks.empty()) {
    t = text_from_hunks(*cf, base);
    std::lock_guard lock(mu_);
    from_hunks_.insert((base ? "b:" : "h:") + path);
    if (!parsed_.count((base ? "b:" : "h:") + path))  // read again after a parse not cached: noted then
      notes_.push_back(path + ": full " + (base ? "base" : "head") +
                       " text unavailable; facts come from the diff hunks only");
  }
  return t;
}

std::optional<std::string> ChangeFacts::head_text(const std::string& path) {
  if (!lang::binary_format(path).empty()) return std::nullopt;
  std::optional<std::string> t;
  {
    std::lock_guard lock(mu_);
    t = change_->content->head(path);
  }
  if (t && parse_skips(*t)) return std::nullopt;
  return t;
}

unsigned ChangeFacts::jobs() const {
  return options_.jobs > 0 ? static_cast<unsigned>(options_.jobs) : std::max(1u, std::thread::hardware_concurrency());
}

bool ChangeFacts::parse_skips(const std::string& text) const {
  return text.size() > options_.max_file_bytes || text.find('\0') != std::string::npos;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::parse(const std::string& path, bool base,
                                                            std::optional<std::string> text, bool analyses) {
  if (!text) return nullptr;
  if (options_.memory_exceeded && options_.memory_exceeded->load(std::memory_order_relaxed)) {
    std::lock_guard lock(mu_);
    // listed once, even for a side parsed before (by read_model, not cached) and asked again now
    std::string why = (base ? "base of " : "") + path + ": not analysed (the memory ceiling was reached)";
    if (std::find(incomplete_.begin(), incomplete_.end(), why) == incomplete_.end()) incomplete_.push_back(why);
    parsed_.insert((base ? "b:" : "h:") + path);
    return nullptr;
  }
  lang::AnalyzeOptions o;
  o.max_bytes = options_.max_file_bytes;
  o.analyses = analyses;  // run them on this tree: saves a second parse later
  auto m = lang::analyze_file(path, *text, o);
  std::lock_guard lock(mu_);
  // a side parsed again (read_model does not cache its model) records its notes once
  const bool first = parsed_.insert((base ? "b:" : "h:") + path).second;
  if (first && m->skipped) notes_.push_back(path + ": " + m->note);
  // Missing facts (lang::analyze_file's notes): over the size limit, or no tree at all. Binary
  // files and syntax errors (the parts that parse still yield facts) do not count.
  bool too_large = m->skipped && m->note.find("exceeds the limit") != std::string::npos;
  bool no_tree = m->has_errors && m->note.find("the parser gave up") != std::string::npos;
  if (first && (too_large || no_tree)) incomplete_.push_back((base ? "base of " : "") + path + ": " + m->note);
  if (hook_) hook_(path, base);
  return m;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::donor_model(const std::string& path, bool base, bool& found) {
  found = false;
  if (base || !options_.donor || !options_.same_text || options_.donor->options_.max_file_bytes != options_.max_file_bytes)
    return nullptr;
  std::shared_ptr<const lang::SourceModel> m;
  {
    std::lock_guard lock(options_.donor->mu_);
    auto it = options_.donor->models_.find("h:" + path);
    if (it == options_.donor->models_.end()) return nullptr;
    m = it->second;
  }
  if (!options_.same_text(path)) return nullptr;
  found = true;
  return m;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::model(const std::string& path, bool base) {
  std::string key = (base ? "b:" : "h:") + path;
  {
    std::lock_guard lock(mu_);
    auto it = models_.find(key);
    if (it != models_.end()) return it->second;
    if (auto t = transient_.find(key); t != transient_.end()) return t->second;
  }
  auto m = load_model(path, base, eager_analyses(path, base));  // the donor's, or parsed now: cached from here on
  std::lock_guard lock(mu_);
  return models_.emplace(key, std::move(m)).first->second;
}

bool ChangeFacts::model_cached(const std::string& path, bool base) const {
  std::lock_guard lock(mu_);
  return models_.count((base ? "b:" : "h:") + path) > 0;
}

std::optional<std::string> ChangeFacts::cached_head_text(const std::string& path) const {
  if (!lang::binary_format(path).empty()) return std::nullopt;
  const std::string key = "h:" + path;
  std::lock_guard lock(mu_);
  if (from_hunks_.count(key)) return std::nullopt;
  auto it = models_.find(key);
  if (it == models_.end() || !it->second || !it->second->store) return std::nullopt;
  return it->second->store->text;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::read_model(const std::string& path, bool base) {
  // read for a summary and dropped: the analyses are never run on it
  return load_model(path, base, false);
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::load_model(const std::string& path, bool base, bool analyses) {
  std::string key = (base ? "b:" : "h:") + path;
  {
    std::lock_guard lock(mu_);
    if (auto it = models_.find(key); it != models_.end()) return it->second;
    if (auto t = transient_.find(key); t != transient_.end()) return t->second;
  }
  bool shared = false;
  if (auto m = donor_model(path, base, shared); shared) return m;
  // the head side by its index (an audit loads every file: a scan per load was quadratic), the
  // same file as files() names for that path (the first, should a diff list a path twice)
  const ChangedFile* cf = nullptr;
  if (!base) {
    cf = change_->find(path);
  } else {
    for (const auto& f : change_->files)
      if (base_path(f) == path) {
        cf = &f;
        break;
      }
  }
  return parse(path, base, read_text(path, base, cf), analyses);
}

size_t ChangeFacts::cached_models() const {
  std::lock_guard lock(mu_);
  return models_.size();
}

namespace {
// Parses `todo` in batches of `batch` files on up to `jobs` threads (the texts of a batch are read
// first, on the calling thread: `read(ref)`; then `parse(ref, text)` runs on the threads) and hands
// each batch's models to `sink(first index of the batch, models)` before the next batch is read,
// so at most one batch of texts is held at a time.
template <class Ref, class Read, class Parse, class Sink>
void parse_in_batches(const std::vector<Ref>& todo, unsigned jobs, size_t batch, Read read, Parse parse, Sink sink) {
  for (size_t start = 0; start < todo.size(); start += batch) {
    size_t end = std::min(todo.size(), start + batch);
    std::vector<std::optional<std::string>> texts;
    for (size_t i = start; i < end; ++i) texts.push_back(read(todo[i]));
    std::vector<std::shared_ptr<const lang::SourceModel>> out(end - start);
    analysis::parallel_for(out.size(), jobs, [&](size_t i) { out[i] = parse(todo[start + i], std::move(texts[i])); });
    sink(start, out);
  }
}
}  // namespace

std::vector<std::pair<std::string, std::shared_ptr<const lang::SourceModel>>> ChangeFacts::parse_missing(
    const std::vector<FileRef>& refs) {
  std::vector<std::pair<std::string, std::shared_ptr<const lang::SourceModel>>> got;
  std::vector<const FileRef*> todo;
  {
    std::vector<const FileRef*> missing;
    {
      std::lock_guard lock(mu_);
      for (const auto& r : refs) {
        std::string key = (r.base ? "b:" : "h:") + r.path;
        if (!models_.count(key) && !transient_.count(key)) missing.push_back(&r);
      }
    }
    for (const FileRef* r : missing) {
      bool shared = false;
      auto m = donor_model(r->path, r->base, shared);
      if (shared) got.emplace_back((r->base ? "b:" : "h:") + r->path, std::move(m));
      else todo.push_back(r);
    }
  }
  const unsigned jobs = this->jobs();
  parse_in_batches(
      todo, jobs, kParseBatch,
      [&](const FileRef* r) { return read_text(r->path, r->base, r->changed); },
      // models for a source that reads no analyses, dropped once its facts are built
      [&](const FileRef* r, std::optional<std::string> text) { return parse(r->path, r->base, std::move(text), false); },
      [&](size_t start, std::vector<std::shared_ptr<const lang::SourceModel>>& out) {
        for (size_t i = 0; i < out.size(); ++i)
          got.emplace_back((todo[start + i]->base ? "b:" : "h:") + todo[start + i]->path, std::move(out[i]));
      });
  return got;
}

void ChangeFacts::prefetch_models(const std::vector<FileRef>& refs) {
  std::vector<const FileRef*> todo;
  {
    std::vector<const FileRef*> missing;
    {
      std::lock_guard lock(mu_);
      for (const auto& r : refs)
        if (!models_.count((r.base ? "b:" : "h:") + r.path)) missing.push_back(&r);
    }
    for (const FileRef* r : missing) {
      bool shared = false;
      auto m = donor_model(r->path, r->base, shared);
      if (!shared) {
        todo.push_back(r);
        continue;
      }
      std::lock_guard lock(mu_);
      models_.emplace((r->base ? "b:" : "h:") + r->path, std::move(m));
    }
  }
  const unsigned jobs = this->jobs();
  if (todo.size() < 2 || jobs < 2) return;  // model() parses on demand
  parse_in_batches(
      todo, jobs, kParseBatch,
      [&](const FileRef* r) { return read_text(r->path, r->base, r->changed); },
      [&](const FileRef* r, std::optional<std::string> text) {
        return parse(r->path, r->base, std::move(text), eager_analyses(r->path, r->base));
      },
      [&](size_t start, std::vector<std::shared_ptr<const lang::SourceModel>>& out) {
        std::lock_guard lock(mu_);
        for (size_t i = 0; i < out.size(); ++i)
          models_.emplace((todo[start + i]->base ? "b:" : "h:") + todo[start + i]->path, out[i]);
      });
}

void ChangeFacts::prefetch_analyses(const std::vector<FileRef>& refs) {
  const unsigned jobs = this->jobs();
  if (refs.size() < 2 || jobs < 2) return;  // the accessors run them on demand
  std::vector<std::shared_ptr<const lang::SourceModel>> ms;
  {
    std::lock_guard lock(mu_);
    for (const auto& r : refs) {
      auto it = models_.find((r.base ? "b:" : "h:") + r.path);
      if (it != models_.end() && it->second) ms.push_back(it->second);
    }
  }
  analysis::parallel_for(ms.size(), jobs, [&](size_t i) { ms[i]->branch_chains(); });  // runs both analyses once
}

bool ChangeFacts::eager_analyses(const std::string& path, bool base) const {
  if (analyses_wanted_[base ? 1 : 0]) return true;
  if (base || !analyses_announced_) return false;
  const ChangedFile* cf = change_->find(path);
  return cf != nullptr && cf->status != change::FileStatus::Deleted;
}

void ChangeFacts::will_read(const std::string& source, const dsl::Scope& scope) {
  const Source* s = find_source(source);
  if (s && s->uses_analyses() && scope.kind == dsl::Scope::Kind::Changed) analyses_announced_ = true;
}

void ChangeFacts::prefetch(const std::vector<FileRef>& refs, bool analyses) {
  if (analyses)
    for (const auto& r : refs) analyses_wanted_[r.base ? 1 : 0] = true;
  prefetch_models(refs);
  if (analyses) prefetch_analyses(refs);
}

// ---- queries ----

const std::vector<FactPtr>& ChangeFacts::query(const std::string& source, const Scope& scope) {
  if (scope.kind == Scope::Kind::Named) {
    const std::string name = scope.patterns.empty() ? std::string() : scope.patterns.front();
    for (auto& r : repositories_)
      if (r.name == name && r.facts) return r.facts->query(source, Scope{Scope::Kind::Repo, {}});
    static const std::vector<FactPtr> none;
    if (!find_source(source)) throw dsl::FactsError{"unknown fact source '" + source + "'"};
    note(name + ": not loaded, so rules that read it found nothing (pass --with " + name +
         "=PATH[@REV], or `repos:` in .github/review.yml)");
    return none;
  }
  std::string key = scope_key(source, scope);
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  const Source* s = find_source(source);
  if (!s) throw dsl::FactsError{"unknown fact source '" + source + "'"};
  if (s->nested_only())
    throw dsl::FactsError{"'" + source + "' records only appear inside other facts and cannot be queried"};
  if (scope.kind == Scope::Kind::Files && scope.patterns.size() == 1 && s->builds_per_file()) {
    // one file of a source built file by file: its per-file facts are the whole answer (the
    // default build of that scope), without a second list of them per file (`lines(l.file)`
    // over every file of an audit)
    auto refs = files(scope);
    if (refs.size() != 1 || !s->reads(lang::language_of(refs[0].path))) {
      static const std::vector<FactPtr> none;
      return none;
    }
    prefetch(refs, s->uses_analyses());
    return file_facts(source, refs[0]);
  }
  return *cache_.emplace(key, intern(s->build(*this, scope))).first->second;
}

void ChangeFacts::forget_released() {
  for (auto x = interned_.begin(); x != interned_.end();) x = x->second.expired() ? interned_.erase(x) : std::next(x);
}

ChangeFacts::FactList ChangeFacts::intern(std::vector<FactPtr> facts) {
  if (facts.size() < kInternFrom) return std::make_shared<const std::vector<FactPtr>>(std::move(facts));
  auto key = std::make_tuple(facts.size(), facts.front().get(), facts.back().get());
  auto it = interned_.find(key);
  if (it != interned_.end()) {
    if (FactList held = it->second.lock()) {
      bool same = true;
      for (size_t i = 0; same && i < facts.size(); ++i) same = (*held)[i].get() == facts[i].get();
      if (same) return held;
    }
  }
  auto list = std::make_shared<const std::vector<FactPtr>>(std::move(facts));
  interned_[key] = list;
  return list;
}

void ChangeFacts::release(const std::string& source) {
  const std::string prefix = source + '\x1f';
  size_t freed = 0;  // facts
  for (auto* m : {&cache_, &file_cache_, &keyed_cache_}) freed += erase_prefixed(*m, prefix);
  forget_released();
  // what the source's files shared (call_targets: its module summaries) goes with them
  reset_state(source);
  for (auto& r : repositories_)
    if (r.facts) r.facts->release(source);
  // Give the freed pages back to the system (with jemalloc, those free longer than its decay
  // time: free_memory.hpp): the allocator keeps free memory inside its heap
  // (between live blocks, where the facts were) mapped, and a later large block (the clone
  // search's arrays) is mapped anew beside it, so the peak would be the sum of the two. Only
  // after large releases: a trim walks the whole heap (measured with glibc: ~0.7 s of system
  // time per ATOM pull-request run when done after every release).
  if (freed >= kTrimAfterFacts) return_free_memory();
}

void ChangeFacts::release_scope(const std::string& source, const Scope& scope) {
  if (scope.kind == Scope::Kind::Files || scope.kind == Scope::Kind::Named) return;
  const std::string key = scope_key(source, scope);
  size_t freed = 0;  // facts
  if (auto it = cache_.find(key); it != cache_.end()) {
    if (it->second.use_count() == 1) freed += it->second->size();
    cache_.erase(it);
  }
  freed += erase_prefixed(keyed_cache_, key + '\x1e');  // reads by key
  freed += erase_prefixed(keyed_cache_, key + '\x1d');  // reads of a few files
  freed += erase_prefixed(file_cache_, source + (scope.kind == Scope::Kind::Base ? "\x1f" "b:" : "\x1f" "h:"));
  // The head files' facts are gone: what they shared goes too (call_targets: the summaries of
  // every module it resolved through, ~14 MiB on ROCm/aiter, kept until the source's last reader
  // otherwise, though a later rule reads it for a few files only). It lives on while a fact
  // still held holds it; a later build makes its own, from the same files.
  if (scope.kind != Scope::Kind::Base) reset_state(source);
  forget_released();
  for (auto& r : repositories_)
    if (r.facts) r.facts->release_scope(source, scope);
  if (freed >= kTrimAfterFacts) return_free_memory();
}

void ChangeFacts::release_all() {
  {
    std::lock_guard lock(mu_);
    models_.clear();
    transient_.clear();
  }
  cache_.clear();
  file_cache_.clear();
  keyed_cache_.clear();
  interned_.clear();
  word_index_.reset();
  for (auto& r : repositories_)
    if (auto* other = dynamic_cast<ChangeFacts*>(r.facts.get())) other->release_all();
  return_free_memory();
}

// ---- reads by key ----

namespace {
constexpr std::array<bool, 256> kWordChar = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  return t;
}();
bool word_char(char c) { return kWordChar[static_cast<unsigned char>(c)]; }

/// Calls `token` for every identifier token of the Python class statement head that starts at
/// `at` (right after a `class` token): up to the `:` that ends it outside brackets, a closing
/// bracket without its opening one, or a line end outside brackets without a backslash before
/// it (no head: `class` in prose). Strings and comments are skipped. Returns false when the head
/// is longer than kMaxHead bytes (its tokens past that are not given).
template <class F>
bool class_head_tokens(const std::string& t, size_t at, F&& token) {
  constexpr size_t kMaxHead = 64 * 1024;
  const size_t end = std::min(t.size(), at + kMaxHead);
  int depth = 0;
  size_t k = at;
  while (k < end) {
    char c = t[k];
    if (word_char(c)) {
      size_t s = k;
      while (k < t.size() && word_char(t[k])) ++k;
      token(std::string_view(t).substr(s, k - s));
      continue;
    }
    if (c == '#') {
      while (k < t.size() && t[k] != '\n') ++k;
      continue;
    }
    if (c == '\'' || c == '"') {
      bool triple = k + 2 < t.size() && t[k + 1] == c && t[k + 2] == c;
      size_t q = k + (triple ? 3 : 1);
      while (q < t.size()) {
        if (t[q] == '\\') {
          q += 2;
          continue;
        }
        if (triple ? q + 2 < t.size() && t[q] == c && t[q + 1] == c && t[q + 2] == c : t[q] == c || t[q] == '\n') break;
        ++q;
      }
      k = q + (triple ? 3 : 1);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return true;
    } else if (depth == 0 && c == ':') {
      return true;
    } else if (depth == 0 && c == '\n') {
      size_t b = k;
      while (b > at && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\r')) --b;
      if (b == at || t[b - 1] != '\\') return true;
    }
    ++k;
  }
  return k >= t.size();
}
}  // namespace

namespace {
// A hash of an identifier token: 8 bytes at a time, mixed with splitmix64's constants.
uint32_t token_hash(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (s.size() * 0xff51afd7ed558ccdull);
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  uint64_t w = 0;
  std::memcpy(&w, s.data() + i, s.size() - i);
  h = (h ^ w) * 0x94d049bb133111ebull;
  h ^= h >> 29;
  return static_cast<uint32_t>(h ^ (h >> 32));
}
}  // namespace

std::string_view ChangeFacts::WordIndex::token(uint32_t id) const {
  size_t start = starts[id];
  size_t end = id + 1 < starts.size() ? starts[id + 1] - 1 : dict.size();
  if (end > start && dict[end - 1] == '\n') --end;  // the last token, once the dict is closed
  return std::string_view(dict).substr(start, end - start);
}

int64_t ChangeFacts::WordIndex::token_id(std::string_view t) const {
  if (slots.empty()) return -1;
  const uint32_t h = token_hash(t);
  const size_t mask = slots.size() - 1;
  for (size_t at = h & mask;; at = (at + 1) & mask) {
    const auto& [sh, id] = slots[at];
    if (id == 0) return -1;
    if (sh == h && token(id - 1) == t) return id - 1;
  }
}

uint32_t ChangeFacts::WordIndex::add_token(std::string_view t, bool& fresh) {
  if ((starts.size() + 1) * 2 > slots.size()) {  // grow: at most half full
    std::vector<std::pair<uint32_t, uint32_t>> grown(std::max<size_t>(1024, slots.size() * 2));
    const size_t mask = grown.size() - 1;
    for (const auto& slot : slots) {
      if (slot.second == 0) continue;
      size_t at = slot.first & mask;
      while (grown[at].second != 0) at = (at + 1) & mask;
      grown[at] = slot;
    }
    slots = std::move(grown);
  }
  const uint32_t h = token_hash(t);
  const size_t mask = slots.size() - 1;
  size_t at = h & mask;
  for (;; at = (at + 1) & mask) {
    const auto& [sh, id] = slots[at];
    if (id == 0) break;
    if (sh == h && token(id - 1) == t) {
      fresh = false;
      return id - 1;
    }
  }
  fresh = true;
  const auto id = static_cast<uint32_t>(starts.size());
  dict += '\n';
  starts.push_back(static_cast<uint32_t>(dict.size()));
  dict += t;
  postings.emplace_back();
  slots[at] = {h, id + 1};
  return id;
}

std::vector<uint32_t> ChangeFacts::WordIndex::files_with(const std::string& word) const {
  std::vector<uint32_t> out;
  if (word.empty() || word.find('\n') != std::string::npos) return out;
  size_t pos = 0;
  while (pos < dict.size()) {
    const void* hit = memmem(dict.data() + pos, dict.size() - pos, word.data(), word.size());
    if (!hit) break;
    size_t at = static_cast<const char*>(hit) - dict.data();
    size_t id = std::upper_bound(starts.begin(), starts.end(), at) - starts.begin() - 1;
    out.insert(out.end(), postings[id].begin(), postings[id].end());
    pos = id + 1 < starts.size() ? starts[id + 1] : dict.size();  // next token
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void ChangeFacts::index_file(WordIndex& idx, uint32_t i, std::vector<uint32_t>* touched,
                             std::vector<std::string>* touched_names) {
  const auto& paths = repo_files();
  const ChangedFile* cf = change_->find(paths[i]);
  // a changed file the change skipped (binary; noted by it) or deleted is in no scope (files()):
  // never a candidate, never read or parsed
  if (cf && (!analysable(*cf) || cf->status == FileStatus::Deleted)) return;
  std::optional<std::string> text;
  // A head model parsed already keeps the text as read (LineStore::text): not read again (an
  // audit parses every file, then a rule asks which files hold a name). Not one whose text was
  // rebuilt from the hunks (the file's own text is unavailable: always a candidate, below).
  std::shared_ptr<const lang::SourceModel> parsed;
  const bool binary = !lang::binary_format(paths[i]).empty();  // skipped by name, never read
  if (binary) {
    text.emplace();
  } else {
    std::lock_guard lock(mu_);
    const std::string key = "h:" + paths[i];
    if (auto it = models_.find(key);
        it != models_.end() && it->second && !it->second->skipped && it->second->store && !from_hunks_.count(key))
      parsed = it->second;
    else
      text = change_->content->head(paths[i]);
  }
  // what parse() would skip with a note, or read from the hunks: always a candidate
  if (!parsed && !text) {
    if (cf) idx.always.push_back(i);
    return;
  }
  if (!parsed && (binary || parse_skips(*text))) {
    // parsing skips it with its note (and, over the size limit, makes the review incomplete)
    // as a whole build would: do that now, from the text in hand, and keep it a candidate
    std::string key = "h:" + paths[i];
    bool known;
    {
      std::lock_guard lock(mu_);
      known = models_.count(key) > 0;
    }
    if (!known) {
      auto m = parse(paths[i], false, std::move(text), false);  // skipped: no tree
      std::lock_guard lock(mu_);
      models_.emplace(key, std::move(m));
    }
    idx.always.push_back(i);
    return;
  }
  const std::string& t = parsed ? parsed->store->text : *text;
  const bool python = lang::language_of(paths[i]) == lang::Language::Python;
  std::vector<size_t> heads;  // Python: the offset right after each `class` token
  size_t k = 0;
  bool after_class = false;  // the previous token is `class`, with only blanks since
  while (k < t.size()) {
    size_t gap = k;
    while (k < t.size() && !word_char(t[k])) ++k;
    if (after_class && t.find_first_not_of(" \t\r\n\\", gap) < k) after_class = false;
    size_t start = k;
    while (k < t.size() && word_char(t[k])) ++k;
    if (k == start) continue;
    const std::string_view tok = std::string_view(t).substr(start, k - start);
    bool fresh = false;
    const uint32_t id = idx.add_token(tok, fresh);
    if (after_class && python) {
      auto& d = idx.defined[std::string(tok)];
      if (d.empty() || d.back() != i) {
        d.push_back(i);
        if (touched_names) touched_names->push_back(std::string(tok));
      }
    }
    after_class = tok == "class";
    if (after_class && python) heads.push_back(k);
    auto& post = idx.postings[id];
    if (post.empty() || post.back() != i) {
      post.push_back(i);
      if (touched) touched->push_back(id);
    }
  }
  // each `class` token starts its own scan, so a `class` in a string or comment cannot hide one
  for (size_t at : heads) {
    bool whole = class_head_tokens(t, at, [&](std::string_view w) {
      auto& h = idx.in_class_head[std::string(w)];
      if (h.empty() || h.back() != i) {
        h.push_back(i);
        if (touched_names) touched_names->push_back(std::string(w));
      }
    });
    if (!whole && (idx.head_always.empty() || idx.head_always.back() != i)) idx.head_always.push_back(i);
  }
}

namespace {
// After files were (re)indexed into a word index whose lists were sorted: sorts again, without
// duplicates, the posting lists of the `touched` word ids, the `defined` / `in_class_head` lists
// of `names`, and the always-read lists. A template so the private WordIndex type is deduced.
template <class Index>
void resort_lists(Index& idx, std::vector<uint32_t>& touched, const std::vector<std::string>& names) {
  auto sorted = [](std::vector<uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  sorted(touched);
  for (uint32_t id : touched) sorted(idx.postings[id]);
  for (const auto& n : names) {
    if (auto it = idx.defined.find(n); it != idx.defined.end()) sorted(it->second);
    if (auto it = idx.in_class_head.find(n); it != idx.in_class_head.end()) sorted(it->second);
  }
  sorted(idx.always);
  sorted(idx.head_always);
}
}  // namespace

std::optional<ChangeFacts::WordIndex> ChangeFacts::word_index_from_donor() {
  if (!options_.donor || !options_.same_text || !options_.donor->word_index_ ||
      options_.donor->options_.max_file_bytes != options_.max_file_bytes)
    return std::nullopt;
  const auto& paths = repo_files();
  if (options_.donor->repo_files() != paths) return std::nullopt;
  std::vector<char> differs(paths.size(), 0);
  std::vector<uint32_t> redo;
  for (uint32_t i = 0; i < paths.size(); ++i)
    if (options_.donor->word_index_->indexed[i] && !options_.same_text(paths[i])) {
      differs[i] = 1;
      redo.push_back(i);
    }
  WordIndex idx = *options_.donor->word_index_;
  auto drop = [&](std::vector<uint32_t>& v) {
    v.erase(std::remove_if(v.begin(), v.end(), [&](uint32_t f) { return differs[f] != 0; }), v.end());
  };
  if (!redo.empty()) {
    for (auto& p : idx.postings) drop(p);
    for (auto& [name, v] : idx.defined) drop(v);
    for (auto& [name, v] : idx.in_class_head) drop(v);
    drop(idx.always);
    drop(idx.head_always);
  }
  if (!idx.dict.empty() && idx.dict.back() == '\n') idx.dict.pop_back();  // reopen the dict
  std::vector<uint32_t> touched;
  std::vector<std::string> names;
  for (uint32_t i : redo) index_file(idx, i, &touched, &names);
  idx.dict += '\n';
  resort_lists(idx, touched, names);
  return idx;
}

namespace {
uint32_t language_bit(std::string_view path) { return 1u << static_cast<unsigned>(lang::language_of(path)); }
}  // namespace

const ChangeFacts::WordIndex& ChangeFacts::word_index(uint32_t langs) {
  const auto& paths = repo_files();
  if (!word_index_) word_index_ = word_index_from_donor();
  if (!word_index_) {
    WordIndex idx;
    idx.indexed.assign(paths.size(), 0);
    for (uint32_t i = 0; i < paths.size(); ++i) idx.ids.emplace(paths[i], i);
    idx.dict += '\n';
    word_index_ = std::move(idx);
  }
  WordIndex& idx = *word_index_;
  if ((idx.langs & langs) == langs) return idx;
  // the files of the languages not indexed yet; when some files are indexed already, a file
  // may come before them, so the lists it is added to are sorted again
  const bool first = std::none_of(idx.indexed.begin(), idx.indexed.end(), [](char c) { return c != 0; });
  if (!idx.dict.empty() && idx.dict.back() == '\n') idx.dict.pop_back();  // reopen the dict
  std::vector<uint32_t> touched;
  std::vector<std::string> names;
  for (uint32_t i = 0; i < paths.size(); ++i)
    if (!idx.indexed[i] && (language_bit(paths[i]) & langs)) {
      index_file(idx, i, first ? nullptr : &touched, first ? nullptr : &names);
      idx.indexed[i] = 1;
    }
  idx.dict += '\n';
  idx.langs |= langs;
  if (!first) resort_lists(idx, touched, names);
  // the lists grew by doubling while the files were read; the index lives for the whole run
  for (auto& files : idx.postings) files.shrink_to_fit();
  idx.postings.shrink_to_fit();
  idx.dict.shrink_to_fit();
  idx.starts.shrink_to_fit();
  return idx;
}

const std::vector<FactPtr>* ChangeFacts::query_containing(const std::string& source, const Scope& scope,
                                                          const std::vector<std::string>& words) {
  if (scope.kind == Scope::Kind::Named) {
    const std::string name = scope.patterns.empty() ? std::string() : scope.patterns.front();
    for (auto& r : repositories_)
      if (r.name == name && r.facts) return r.facts->query_containing(source, Scope{Scope::Kind::Repo, {}}, words);
    return nullptr;  // query() notes that it is not loaded
  }
  if (scope.kind != Scope::Kind::Repo && scope.kind != Scope::Kind::Globs) return nullptr;
  const Source* s = find_source(source);
  if (!s) throw dsl::FactsError{"unknown fact source '" + source + "'"};
  if (!s->builds_per_file() || words.empty()) return nullptr;
  std::string key = scope_key(source, scope);
  if (cache_.count(key)) return nullptr;
  for (const auto& w : words) key += '\x1e' + w;
  if (auto it = keyed_cache_.find(key); it != keyed_cache_.end()) return it->second.get();

  uint32_t langs = 0;
  for (auto l : {lang::Language::Python, lang::Language::Cpp, lang::Language::CMake, lang::Language::Markdown,
                 lang::Language::Text})
    if (s->reads(l)) langs |= 1u << static_cast<unsigned>(l);
  const WordIndex& idx = word_index(langs);
  std::vector<uint32_t> hold;  // files holding every word
  for (size_t i = 0; i < words.size(); ++i) {
    std::vector<uint32_t> f = idx.files_with(words[i]);
    if (i == 0) {
      hold = std::move(f);
    } else {
      std::vector<uint32_t> both;
      std::set_intersection(hold.begin(), hold.end(), f.begin(), f.end(), std::back_inserter(both));
      hold = std::move(both);
    }
  }
  std::vector<uint32_t> pick;
  std::set_union(hold.begin(), hold.end(), idx.always.begin(), idx.always.end(), std::back_inserter(pick));
  auto refs = files(scope);  // of the languages the source reads
  const size_t in_scope = refs.size();
  refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const FileRef& r) { return !(language_bit(r.path) & langs); }),
             refs.end());
  // most files of the scope (besides the skipped ones) hold the words: a whole build costs no
  // more. The scope's files of every language are counted (a whole build lists them all); the
  // skipped ones are counted before `refs` is moved from
  size_t skipped = 0;
  for (const auto& r : refs)
    if (auto at = idx.ids.find(r.path); at != idx.ids.end() && std::binary_search(idx.always.begin(), idx.always.end(), at->second))
      ++skipped;
  std::vector<FileRef> chosen;
  for (auto& r : refs) {
    auto at = idx.ids.find(r.path);
    if (at == idx.ids.end() || std::binary_search(pick.begin(), pick.end(), at->second))
      chosen.push_back(std::move(r));  // holds the words, or is not in the index: read it
  }
  size_t hits = chosen.size() - std::min(chosen.size(), skipped), texts = in_scope - std::min(in_scope, skipped);
  if (hits * 2 > texts && in_scope > 8) return nullptr;
  // a source whose facts keep no model: the files parsed for this read alone are not cached
  // (the facts copy what they need), and they are parsed a few at a time, each batch freed
  // once its facts are built: the read holds kTransientBatch models at most, not all of them
  const bool transient = !s->keeps_models() && !s->uses_analyses();
  if (!transient) prefetch(chosen, s->uses_analyses());
  const size_t batch = transient ? kTransientBatch : std::max<size_t>(1, chosen.size());
  std::vector<FactPtr> out;
  for (size_t start = 0; start < chosen.size(); start += batch) {
    const size_t end = std::min(chosen.size(), start + batch);
    if (transient) {
      auto parsed = parse_missing(std::vector<FileRef>(chosen.begin() + static_cast<std::ptrdiff_t>(start),
                                                       chosen.begin() + static_cast<std::ptrdiff_t>(end)));
      std::lock_guard lock(mu_);
      for (auto& [k, m] : parsed) transient_.emplace(k, std::move(m));
    }
    try {
      for (size_t i = start; i < end; ++i) {
        const auto& fs = file_facts(source, chosen[i]);
        out.insert(out.end(), fs.begin(), fs.end());
      }
    } catch (...) {
      std::lock_guard lock(mu_);
      transient_.clear();
      throw;
    }
    if (transient) {
      std::lock_guard lock(mu_);
      transient_.clear();
    }
  }
  return keyed_cache_.emplace(key, intern(std::move(out))).first->second.get();
}

const std::vector<FactPtr>* ChangeFacts::query_in_files(const std::string& source, const Scope& scope,
                                                        const std::vector<std::string>& files,
                                                        const std::vector<std::string>* partners) {
  if (scope.kind != Scope::Kind::Changed && scope.kind != Scope::Kind::Repo && scope.kind != Scope::Kind::Globs)
    return nullptr;
  const Source* s = find_source(source);
  if (!s) throw dsl::FactsError{"unknown fact source '" + source + "'"};
  std::string key = scope_key(source, scope);
  if (cache_.count(key)) return nullptr;  // built whole: the caller's index of it is cheaper
  key += '\x1d';
  for (const auto& f : files) key += f + '\x1e';
  if (partners) {
    key += '\x1d';
    for (const auto& f : *partners) key += f + '\x1e';
  }
  if (auto it = keyed_cache_.find(key); it != keyed_cache_.end()) return it->second.get();
  auto built = s->build_in_files(*this, scope, files, partners);
  if (!built) return nullptr;
  return keyed_cache_.emplace(key, intern(std::move(*built))).first->second.get();
}

bool ChangeFacts::may_hold(const std::string& path, std::string_view word) const {
  if (!word_index_) return true;
  const WordIndex& idx = *word_index_;
  auto at = idx.ids.find(path);
  if (at == idx.ids.end()) return true;
  const uint32_t i = at->second;
  if (i >= idx.indexed.size() || !idx.indexed[i]) return true;
  // index_file leaves these out unread (a changed file it does not analyse) or keeps them as
  // candidates of every word (idx.always: skipped by parsing)
  const ChangedFile* cf = change_->find(path);
  if (cf && (!analysable(*cf) || cf->status == FileStatus::Deleted)) return true;
  if (std::binary_search(idx.always.begin(), idx.always.end(), i)) return true;
  int64_t id = idx.token_id(word);
  if (id < 0) return false;
  const auto& post = idx.postings[static_cast<size_t>(id)];
  return std::binary_search(post.begin(), post.end(), i);
}

std::vector<std::string> ChangeFacts::files_holding(const std::string& name, Holding where) {
  const uint32_t python = 1u << static_cast<unsigned>(lang::Language::Python);
  const WordIndex& idx = word_index(where == Holding::Anywhere ? ~0u : python);
  const std::vector<uint32_t>* hits = nullptr;
  if (where == Holding::ClassName) {
    if (auto it = idx.defined.find(name); it != idx.defined.end()) hits = &it->second;
  } else if (where == Holding::ClassHead) {
    if (auto it = idx.in_class_head.find(name); it != idx.in_class_head.end()) hits = &it->second;
  } else if (int64_t id = idx.token_id(name); id >= 0) {
    hits = &idx.postings[static_cast<size_t>(id)];
  }
  std::vector<uint32_t> pick, always;
  static const std::vector<uint32_t> none;
  const auto& h = hits ? *hits : none;
  const std::vector<uint32_t>* also = &idx.always;
  if (where == Holding::ClassHead) {
    std::set_union(idx.always.begin(), idx.always.end(), idx.head_always.begin(), idx.head_always.end(),
                   std::back_inserter(always));
    also = &always;
  }
  std::set_union(h.begin(), h.end(), also->begin(), also->end(), std::back_inserter(pick));
  const auto& paths = repo_files();
  std::vector<std::string> out;
  for (uint32_t i : pick)
    if (where == Holding::Anywhere || (language_bit(paths[i]) & python)) out.push_back(paths[i]);
  return out;
}

void ChangeFacts::note(const std::string& text) {
  std::lock_guard lock(mu_);
  if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
}

void ChangeFacts::incomplete(const std::string& text) {
  std::lock_guard lock(mu_);
  if (std::find(incomplete_.begin(), incomplete_.end(), text) == incomplete_.end()) incomplete_.push_back(text);
}

const std::vector<FactPtr>& ChangeFacts::file_facts(const std::string& source, const FileRef& ref) {
  std::string key = source + (ref.base ? "\x1f" "b:" : "\x1f" "h:") + ref.path;
  auto it = file_cache_.find(key);
  if (it != file_cache_.end()) return *it->second;
  const Source* s = find_source(source);
  if (!s) throw dsl::FactsError{"unknown fact source '" + source + "'"};
  return *file_cache_.emplace(key, intern(s->build_file(*this, ref))).first->second;
}

}  // namespace review::facts
