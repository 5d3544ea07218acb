#include "runner/facts/change_facts.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>
#include <cctype>

#include "runner/change/pr_meta.hpp"
#include "runner/lang/markdown/markdown.hpp"

#include "runner/analysis/clones.hpp"
#include "runner/analysis/siblings.hpp"

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

Value str_list(const std::vector<std::string>& v) {
  Value::List l;
  l.reserve(v.size());
  for (const auto& s : v) l.emplace_back(s);
  return Value(std::move(l));
}

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return std::string(s.substr(a, b - a + 1));
}

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

// Analysis scope names use Python's "<locals>" and "<module>"; facts use "f.g" and "".
std::string normalise_function(std::string f) {
  if (f == "<module>") return {};
  const std::string locals = ".<locals>.";
  for (size_t p; (p = f.find(locals)) != std::string::npos;) f.replace(p, locals.size(), ".");
  return f;
}

// The bare name at the end of a callee / type text: "a.b.c(x)" -> "c", "ns::f<T>" -> "f".
std::string last_name(std::string_view s) {
  size_t paren = s.find('(');
  if (paren != std::string_view::npos) s = s.substr(0, paren);
  std::string t;
  int angle = 0;
  for (char c : s) {
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (angle == 0) t += c;
  }
  size_t cut = t.find_last_of(".:>");
  return cut == std::string::npos ? t : t.substr(cut + 1);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool analysable(const ChangedFile& f) { return !f.skipped && !f.binary && !f.submodule; }

std::string base_path(const ChangedFile& f) { return f.old_path.empty() ? f.path : f.old_path; }

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
    : change_(std::move(change)), options_(std::move(options)) {
  suffixes_ = analysis::default_sibling_suffixes();
}

const std::vector<dsl::SourceSchema>& ChangeFacts::schema() const { return fact_schema(); }

void ChangeFacts::configure(const dsl::RulesetData& data) {
  data_ = data;
  Value v = data_.let("sibling_suffixes");
  if (v.is_list()) {
    suffixes_.clear();
    for (const auto& x : v.as_list())
      if (x.is_string()) suffixes_.push_back(x.as_string());
  }
  cache_.clear();
}

void ChangeFacts::set_parse_hook(std::function<void(const std::string&, bool)> hook) {
  std::lock_guard lock(mu_);
  hook_ = std::move(hook);
}

std::vector<std::string> ChangeFacts::notes() const {
  std::lock_guard lock(mu_);
  return notes_;
}

bool ChangeFacts::is_added(std::string_view path, int line) const {
  const ChangedFile* f = change_->find(std::string(path));
  return f && f->status != FileStatus::Deleted && f->added_lines.count(line);
}

bool ChangeFacts::added_in(const FileRef& f, int line) const {
  return !f.base && f.changed && f.changed->added_lines.count(line);
}

bool ChangeFacts::added_range(const FileRef& f, int a, int b) const {
  if (f.base || !f.changed) return false;
  auto it = f.changed->added_lines.lower_bound(a);
  return it != f.changed->added_lines.end() && *it <= b;
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

std::vector<ChangeFacts::FileRef> ChangeFacts::files_of(const Scope& scope) {
  std::vector<FileRef> out;
  switch (scope.kind) {
    case Scope::Kind::Changed:
      for (const auto& f : change_->files)
        if (f.status != FileStatus::Deleted && analysable(f)) out.push_back({f.path, false, &f});
      break;
    case Scope::Kind::Base:
      for (const auto& f : change_->files)
        if (f.status != FileStatus::Added && analysable(f)) out.push_back({base_path(f), true, &f});
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
  std::optional<std::string> t;
  {
    std::lock_guard lock(mu_);
    t = base ? change_->content->base(path) : change_->content->head(path);
  }
  if (!t && cf && !cf->hunks.empty()) {
    t = text_from_hunks(*cf, base);
    std::lock_guard lock(mu_);
    notes_.push_back(path + ": full " + (base ? "base" : "head") +
                     " text unavailable; facts come from the diff hunks only");
  }
  return t;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::parse(const std::string& path, bool base,
                                                            std::optional<std::string> text) {
  if (!text) return nullptr;
  lang::AnalyzeOptions o;
  o.max_bytes = options_.max_file_bytes;
  o.analyses = analyses_wanted_.load();  // run them on this tree: saves a second parse later
  auto m = lang::analyze_file(path, *text, o);
  std::lock_guard lock(mu_);
  if (m->skipped) notes_.push_back(path + ": " + m->note);
  if (hook_) hook_(path, base);
  return m;
}

std::shared_ptr<const lang::SourceModel> ChangeFacts::model(const std::string& path, bool base) {
  std::string key = (base ? "b:" : "h:") + path;
  {
    std::lock_guard lock(mu_);
    auto it = models_.find(key);
    if (it != models_.end()) return it->second;
  }
  const ChangedFile* cf = nullptr;
  for (const auto& f : change_->files)
    if ((base ? base_path(f) : f.path) == path) cf = &f;
  auto m = parse(path, base, read_text(path, base, cf));
  std::lock_guard lock(mu_);
  return models_.emplace(key, m).first->second;
}

void ChangeFacts::prefetch(const std::vector<FileRef>& refs) {
  std::vector<const FileRef*> todo;
  {
    std::lock_guard lock(mu_);
    for (const auto& r : refs)
      if (!models_.count((r.base ? "b:" : "h:") + r.path)) todo.push_back(&r);
  }
  unsigned jobs = options_.jobs > 0 ? static_cast<unsigned>(options_.jobs)
                                    : std::max(1u, std::thread::hardware_concurrency());
  if (todo.size() < 2 || jobs < 2) return;  // model() parses on demand
  for (size_t start = 0; start < todo.size(); start += kParseBatch) {
    size_t end = std::min(todo.size(), start + kParseBatch);
    std::vector<std::optional<std::string>> texts;
    for (size_t i = start; i < end; ++i) texts.push_back(read_text(todo[i]->path, todo[i]->base, todo[i]->changed));
    std::vector<std::shared_ptr<const lang::SourceModel>> out(end - start);
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < out.size();)
        out[i] = parse(todo[start + i]->path, todo[start + i]->base, std::move(texts[i]));
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::min<size_t>(jobs, out.size()); ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    std::lock_guard lock(mu_);
    for (size_t i = 0; i < out.size(); ++i)
      models_.emplace((todo[start + i]->base ? "b:" : "h:") + todo[start + i]->path, out[i]);
  }
}

void ChangeFacts::prefetch_analyses(const std::vector<FileRef>& refs) {
  unsigned jobs = options_.jobs > 0 ? static_cast<unsigned>(options_.jobs)
                                    : std::max(1u, std::thread::hardware_concurrency());
  if (refs.size() < 2 || jobs < 2) return;  // the accessors run them on demand
  std::vector<std::shared_ptr<const lang::SourceModel>> ms;
  {
    std::lock_guard lock(mu_);
    for (const auto& r : refs) {
      auto it = models_.find((r.base ? "b:" : "h:") + r.path);
      if (it != models_.end() && it->second) ms.push_back(it->second);
    }
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < ms.size();) ms[i]->branch_chains();  // runs both analyses once
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, ms.size()); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

// ---- queries ----

const std::vector<FactPtr>& ChangeFacts::query(const std::string& source, const Scope& scope) {
  std::string key = scope_key(source, scope);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  const dsl::SourceSchema* s = nullptr;
  for (const auto& x : fact_schema())
    if (x.name == source) s = &x;
  if (!s) throw dsl::FactsError{"unknown fact source '" + source + "'"};
  if (is_nested_only(*s))
    throw dsl::FactsError{"'" + source + "' records only appear inside other facts and cannot be queried"};
  return cache_.emplace(key, build(source, scope)).first->second;
}

std::vector<FactPtr> ChangeFacts::build(const std::string& source, const Scope& scope) {
  if (source == "pr") return pr_facts();
  if (source == "files") return file_facts(scope);
  if (source == "lines") return line_facts(scope, 0);
  if (source == "added_lines") return line_facts(scope, 1);
  if (source == "removed_lines") return line_facts(scope, 2);
  if (source == "clones") return clone_facts(scope);
  if (source == "siblings") return sibling_facts(scope);
  if (source == "sections") return section_facts(scope);
  return per_file(scope, source);
}

std::vector<FactPtr> ChangeFacts::pr_facts() {
  const auto& pr = change_->pr;
  auto f = dsl::make_fact("pr");
  f->set("number", Value(pr.number));
  f->set("title", Value(pr.title));
  f->set("body", Value(pr.body));
  f->set("text", Value(pr.title + "\n\n" + change::strip_html_comments(pr.body)));
  f->set("labels", str_list(pr.labels));
  f->set("base", Value(pr.base_ref));
  f->set("head", Value(pr.head_ref));
  f->set("author", Value(pr.author));
  f->set("commits", Value(pr.commits));
  return {f};
}

std::vector<FactPtr> ChangeFacts::file_facts(const Scope& scope) {
  struct Entry { std::string path; const ChangedFile* cf; };
  std::vector<Entry> entries;
  switch (scope.kind) {
    case Scope::Kind::Changed:
    case Scope::Kind::Base:
      for (const auto& f : change_->files) entries.push_back({f.path, &f});
      break;
    case Scope::Kind::Repo:
    case Scope::Kind::Globs:
      for (const auto& p : repo_files())
        if (scope.kind == Scope::Kind::Repo ||
            std::any_of(scope.patterns.begin(), scope.patterns.end(),
                        [&](const std::string& g) { return dsl::glob_match(g, p); }))
          entries.push_back({p, change_->find(p)});
      break;
    case Scope::Kind::Files:
      for (const auto& p : scope.patterns) entries.push_back({p, change_->find(p)});
      break;
  }
  std::vector<FactPtr> out;
  for (const auto& e : entries) {
    auto f = dsl::make_fact("files", e.path);
    f->set("path", Value(e.path));
    f->set("status", Value(std::string(e.cf ? change::status_name(e.cf->status) : "unchanged")));
    f->set("old_path", Value(e.cf ? base_path(*e.cf) : e.path));
    f->set("language", Value(std::string(lang::language_name(lang::language_of(e.path)))));
    const dsl::TierEntry* tier = nullptr;
    for (const auto& t : data_.tiers)
      if (dsl::glob_match(t.glob, e.path)) {
        tier = &t;
        break;
      }
    f->set("tier", Value(tier ? tier->tier : 0));
    f->set("blast", Value(tier ? tier->blast : std::string()));
    f->set("fails", Value(tier ? tier->fails : std::string()));
    bool test = builtin_is_test(e.path) ||
                std::any_of(data_.test_globs.begin(), data_.test_globs.end(),
                            [&](const std::string& g) { return dsl::glob_match(g, e.path); });
    f->set("is_test", Value(test));
    f->set("is_tooling", Value(builtin_is_tooling(e.path)));
    f->set("added_count", Value(e.cf ? e.cf->added_count : 0));
    f->set("removed_count", Value(e.cf ? e.cf->removed_count : 0));
    bool errors = false, skipped = e.cf && e.cf->skipped;
    if (e.cf && e.cf->status != FileStatus::Deleted && analysable(*e.cf)) {
      auto m = model(e.path, false);
      errors = m && m->has_errors;
      skipped = skipped || (m && m->skipped);
    }
    f->set("has_errors", Value(errors));
    f->set("binary", Value(e.cf && e.cf->binary));
    f->set("skipped", Value(skipped));
    out.push_back(f);
  }
  return out;
}

namespace {
// The fields of the line facts of one file side, computed on `get` from the file's model instead
// of stored per line (a repository-wide `lines` query makes one fact per line: storing ten named
// values each took about a gigabyte on an 18.9 MB repository). Record `index` is the line number,
// or, for removed lines, the position in `removed`.
class LineFields final : public dsl::FieldProvider {
 public:
  struct Removed {
    int line;
    const std::string* text;  // the hunk's line, owned by `keep_`
  };

  LineFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
             const ChangedFile* cf, bool base, std::vector<Removed> removed = {})
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base), removed_(std::move(removed)),
        removed_mode_(!removed_.empty()) {}

  Value field(int index, std::string_view name) const override {
    int line = index;
    const std::string* text = nullptr;
    if (removed_mode_) {
      if (index < 0 || index >= static_cast<int>(removed_.size())) return {};
      line = removed_[index].line;
      text = removed_[index].text;
    } else {
      if (!m_ || line < 1 || line > static_cast<int>(m_->text_lines.size())) return {};
      text = &m_->text_lines[line - 1];
    }
    const lang::LineInfo* li =
        m_ && line >= 1 && line <= static_cast<int>(m_->lines.size()) ? &m_->lines[line - 1] : nullptr;
    if (name == "text") return Value(*text);
    if (name == "code") return Value(li ? li->code : *text);
    if (name == "comment") return Value(li ? li->comment : std::string());
    if (name == "function") return Value(m_ ? m_->function_at(line) : std::string());
    if (name == "class") return Value(m_ ? m_->class_at(line) : std::string());
    if (name == "in_loop") return Value(li && li->in_loop);
    if (name == "in_condition") return Value(li && li->in_condition);
    if (name == "added") return Value(added(line));
    if (name == "head_line") {
      if (removed_mode_) return Value(cf_ ? cf_->head_line_of(line) : 0);
      return Value(base_ && cf_ ? cf_->head_line_of(line) : line);
    }
    if (name == "kind") {
      if (removed_mode_) return Value("removed");
      return Value(added(line) ? "added"
                   : base_ && cf_ && cf_->removed_lines.count(line) ? "removed"
                                                                    : "context");
    }
    return {};
  }

  std::vector<std::string> names() const override {
    return {"added", "class", "code", "comment", "function", "head_line", "in_condition", "in_loop", "kind", "text"};
  }

 private:
  bool added(int line) const { return !removed_mode_ && !base_ && cf_ && cf_->added_lines.count(line); }

  std::shared_ptr<const change::Change> keep_;  // owns `cf_` and the removed lines' text
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
  std::vector<Removed> removed_;
  bool removed_mode_;
};

// The fields of the `statements` facts of one file side, read from the model on `get`. Record
// `index` is the position in the model's `statements`.
class StatementFields final : public dsl::FieldProvider {
 public:
  StatementFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
                  const ChangedFile* cf, bool base)
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base) {}

  Value field(int index, std::string_view name) const override {
    if (!m_ || index < 0 || index >= static_cast<int>(m_->statements.size())) return {};
    const auto& s = m_->statements[index];
    if (name == "kind") return Value(s.kind);
    if (name == "text") return Value(s.text);
    if (name == "code") return Value(s.code);
    if (name == "function") return Value(s.function);
    if (name == "added") return Value(!base_ && cf_ && cf_->added_lines.count(s.line) > 0);
    return {};
  }

  std::vector<std::string> names() const override { return {"added", "code", "function", "kind", "text"}; }

 private:
  std::shared_ptr<const change::Change> keep_;  // owns `cf_`
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
};

FactPtr lazy_line(const char* source, const std::string& file, int line,
                  const std::shared_ptr<const LineFields>& p, int index) {
  auto f = dsl::make_fact(source, file, line);
  f->provider = p;
  f->provider_index = index;
  return f;
}
}  // namespace

std::vector<FactPtr> ChangeFacts::line_facts(const Scope& scope, int which) {
  std::vector<FactPtr> out;
  if (which == 2) {  // removed lines of the scope's changed files
    for (const auto& cf : change_->files) {
      if (!analysable(cf)) continue;
      bool in_scope = false;
      switch (scope.kind) {
        case Scope::Kind::Changed:
        case Scope::Kind::Base:
        case Scope::Kind::Repo: in_scope = true; break;
        case Scope::Kind::Globs:
          in_scope = std::any_of(scope.patterns.begin(), scope.patterns.end(),
                                 [&](const std::string& g) { return dsl::glob_match(g, cf.path); });
          break;
        case Scope::Kind::Files:
          in_scope = std::find(scope.patterns.begin(), scope.patterns.end(), cf.path) != scope.patterns.end();
          break;
      }
      if (!in_scope || cf.removed_lines.empty()) continue;
      std::string file = scope.kind == Scope::Kind::Base ? base_path(cf) : cf.path;
      auto bm = cf.status == FileStatus::Added ? nullptr : model(base_path(cf), true);
      std::vector<LineFields::Removed> removed;
      for (const auto& h : cf.hunks)
        for (const auto& l : h.lines)
          if (l.kind == LineKind::Removed) removed.push_back({l.old_line, &l.text});
      if (removed.empty()) continue;
      auto p = std::make_shared<const LineFields>(change_, bm, &cf, true, removed);
      for (size_t i = 0; i < removed.size(); ++i)
        out.push_back(lazy_line("removed_lines", file, removed[i].line, p, static_cast<int>(i)));
    }
    return out;
  }
  auto refs = files_of(scope);
  if (which == 1)  // only changed files have added lines: never parse the rest of a glob or repo scope
    refs.erase(std::remove_if(refs.begin(), refs.end(),
                              [](const FileRef& r) { return r.base || !r.changed || r.changed->added_lines.empty(); }),
               refs.end());
  prefetch(refs);
  const char* source = which == 1 ? "added_lines" : "lines";
  for (const auto& r : refs) {
    if (which == 1 && (r.base || !r.changed || r.changed->added_lines.empty())) continue;
    auto m = model(r.path, r.base);
    if (!m) continue;
    auto p = std::make_shared<const LineFields>(change_, m, r.changed, r.base);
    int n = static_cast<int>(m->text_lines.size());
    if (which == 1) {
      for (int line : r.changed->added_lines)
        if (line >= 1 && line <= n) out.push_back(lazy_line(source, r.path, line, p, line));
    } else {
      for (int line = 1; line <= n; ++line) out.push_back(lazy_line(source, r.path, line, p, line));
    }
  }
  return out;
}

const std::vector<FactPtr>& ChangeFacts::function_facts(const FileRef& r) {
  std::string key = (r.base ? "b:" : "h:") + r.path;
  auto it = fn_cache_.find(key);
  if (it != fn_cache_.end()) return it->second;
  std::vector<FactPtr> out;
  auto m = model(r.path, r.base);
  // Functions of the other side touched by removed lines (base side) mark same-named head
  // functions as changed.
  std::set<std::string> removed_in;
  if (r.changed && !r.changed->removed_lines.empty() && r.changed->status != FileStatus::Added) {
    auto bm = r.base ? m : model(base_path(*r.changed), true);
    if (bm)
      for (int line : r.changed->removed_lines) {
        const std::string& fn = bm->function_at(line);
        if (!fn.empty()) removed_in.insert(fn);
      }
  }
  if (m) {
    for (const auto& fn : m->functions) {
      auto f = dsl::make_fact("functions", r.path, fn.start_line);
      f->end_line = fn.end_line;
      f->set("name", Value(fn.name));
      f->set("qualified", Value(fn.qualified));
      f->set("class", Value(fn.cls));
      std::vector<std::string> params, defaults;
      for (const auto& p : fn.params) {
        params.push_back(p.name);
        if (!p.default_value.empty()) defaults.push_back(p.name + "=" + p.default_value);
      }
      f->set("params", str_list(params));
      f->set("defaults", str_list(defaults));
      f->set("decorators", str_list(fn.decorators));
      f->set("start", Value(fn.start_line));
      f->set("end", Value(fn.end_line));
      bool changed = added_range(r, fn.start_line, fn.end_line) || removed_in.count(fn.qualified);
      f->set("changed", Value(changed));
      f->set("added", Value(added_in(r, fn.start_line)));
      f->set("calls", str_list(fn.calls));
      f->set("text", Value(fn.signature));
      out.push_back(f);
    }
  }
  return fn_cache_.emplace(key, std::move(out)).first->second;
}

const std::vector<std::pair<FactPtr, int>>& ChangeFacts::branch_facts(const FileRef& r) {
  std::string key = (r.base ? "b:" : "h:") + r.path;
  auto it = branch_cache_.find(key);
  if (it != branch_cache_.end()) return it->second;
  std::vector<std::pair<FactPtr, int>> out;
  auto m = model(r.path, r.base);
  if (m) {
    for (size_t i = 0; i < m->branch_chains().size(); ++i) {
      const auto& c = m->branch_chains()[i];
      auto f = dsl::make_fact("branches", r.path, c.line);
      f->end_line = c.end_line;
      f->set("kind", Value(c.kind));
      f->set("arms", Value(static_cast<int>(c.arms.size()) + (c.has_else ? 1 : 0)));
      f->set("has_else", Value(c.has_else));
      f->set("else_raises", Value(c.else_raises));
      f->set("else_kind", Value(c.else_kind));
      f->set("subject", Value(c.subject));
      f->set("function", Value(normalise_function(c.function)));
      bool added = false;
      std::vector<std::string> conds;
      for (const auto& a : c.arms) {
        added = added || added_in(r, a.line);
        conds.push_back(a.condition);
      }
      if (c.has_else) conds.emplace_back();
      f->set("added", Value(added));
      f->set("conditions", str_list(conds));
      out.emplace_back(f, static_cast<int>(i));
    }
  }
  return branch_cache_.emplace(key, std::move(out)).first->second;
}

std::vector<FactPtr> ChangeFacts::per_file(const Scope& scope, const std::string& source) {
  bool analyses = source == "branches" || source == "dispatch_cases" || source == "unbound_reads";
  if (analyses) analyses_wanted_ = true;
  auto refs = files_of(scope);
  prefetch(refs);
  if (analyses) prefetch_analyses(refs);
  std::vector<FactPtr> out;
  for (const auto& r : refs) {
    if (source == "functions") {
      const auto& fs = function_facts(r);
      out.insert(out.end(), fs.begin(), fs.end());
      continue;
    }
    if (source == "branches") {
      for (const auto& [f, i] : branch_facts(r)) out.push_back(f);
      continue;
    }
    auto m = model(r.path, r.base);
    if (!m) continue;
    auto line_text = [&](int line) {
      return line >= 1 && line <= static_cast<int>(m->text_lines.size()) ? trim(m->text_lines[line - 1]) : std::string();
    };
    if (source == "calls") {
      for (const auto& c : m->calls) {
        auto f = dsl::make_fact("calls", r.path, c.line);
        f->column = c.column;
        f->end_line = c.end_line;
        f->set("callee", Value(c.callee));
        f->set("args", str_list(c.args));
        std::vector<std::string> kw, names;
        for (const auto& [k, v] : c.kwargs) {
          kw.push_back(k + "=" + v);
          names.push_back(k);
        }
        f->set("kwargs", str_list(kw));
        f->set("kwarg_names", str_list(names));
        f->set("function", Value(c.function));
        f->set("in_loop", Value(c.in_loop));
        f->set("added", Value(added_in(r, c.line)));
        f->set("text", Value(c.text));
        out.push_back(f);
      }
    } else if (source == "assignments") {
      for (const auto& a : m->assignments) {
        auto f = dsl::make_fact("assignments", r.path, a.line);
        f->set("target", Value(a.target));
        f->set("value", Value(a.value));
        f->set("op", Value(a.op));
        f->set("function", Value(a.function));
        f->set("class", Value(a.cls));
        f->set("added", Value(added_in(r, a.line)));
        f->set("text", Value(a.text));
        out.push_back(f);
      }
    } else if (source == "statements") {
      auto p = std::make_shared<const StatementFields>(change_, m, r.changed, r.base);
      for (size_t i = 0; i < m->statements.size(); ++i) {
        const auto& s = m->statements[i];
        auto f = dsl::make_fact("statements", r.path, s.line);
        f->end_line = s.end_line;
        f->provider = p;
        f->provider_index = static_cast<int>(i);
        out.push_back(f);
      }
    } else if (source == "dispatch_cases") {
      for (const auto& [bf, i] : branch_facts(r)) {
        const auto& c = m->branch_chains()[i];
        for (const auto& arm : c.arms)
          for (size_t k = 0; k < arm.compares.size(); ++k) {
            const auto& [subject, value] = arm.compares[k];
            auto f = dsl::make_fact("dispatch_cases", r.path, arm.line);
            f->set("op", Value(k < arm.ops.size() ? arm.ops[k] : std::string()));
            f->set("subject", Value(subject));
            f->set("value", Value(value));
            f->set("dispatch", Value(bf));
            f->set("function", Value(normalise_function(c.function)));
            f->set("added", Value(added_in(r, arm.line)));
            out.push_back(f);
          }
      }
    } else if (source == "unbound_reads") {
      // A file the analysis could not take is reported, never silently clean.
      if (const std::string& why = m->analysis_note(); !why.empty()) {
        std::lock_guard lock(mu_);
        std::string note = r.path + ": not analysed (" + why + ")";
        if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
      }
      for (const auto& u : m->unbound_reads()) {
        bool added = added_in(r, u.read_line);
        auto read = dsl::make_fact("location", r.path, u.read_line);
        read->column = u.read_column;
        read->set("added", Value(added));
        read->set("text", Value(line_text(u.read_line)));
        auto branch = dsl::make_fact("construct", r.path, u.branch_line);
        branch->set("kind", Value(u.branch_kind));
        auto f = dsl::make_fact("unbound_reads", r.path, u.read_line);
        f->column = u.read_column;
        f->set("name", Value(u.name));
        f->set("read", Value(FactPtr(read)));
        f->set("branch", Value(FactPtr(branch)));
        f->set("bound_in", Value(u.bound_in));
        f->set("unbound_path", Value(u.unbound_path));
        f->set("cause", Value(u.cause));
        f->set("function", Value(normalise_function(u.function)));
        f->set("scope_kind", Value(u.scope_kind));
        f->set("guarded", Value(u.guarded));
        f->set("guard", Value(u.guard));
        f->set("added", Value(added));
        out.push_back(f);
      }
    } else if (source == "symbols") {
      std::vector<std::shared_ptr<Fact>> syms;
      auto add = [&](const std::string& name, const char* kind, const std::string& qualified, int line) {
        if (name.empty()) return;
        auto f = dsl::make_fact("symbols", r.path, line);
        f->set("name", Value(name));
        f->set("kind", Value(kind));
        f->set("qualified", Value(qualified));
        f->set("text", Value(line_text(line)));
        syms.push_back(f);
      };
      for (const auto& fn : m->functions) add(fn.name, "def", fn.qualified, fn.start_line);
      for (const auto& c : m->classes) {
        add(c.name, "class", c.qualified, c.start_line);
        for (const auto& b : c.bases)
          if (b.find('=') == std::string::npos) add(last_name(b), "reference", b, c.start_line);
      }
      for (const auto& fn : m->functions)
        for (const auto& d : fn.decorators) add(last_name(d), "reference", d, fn.start_line - 1);
      for (const auto& imp : m->imports) {
        if (m->language == lang::Language::Cpp) {
          add(imp.module, "import", imp.module, imp.line);
          continue;
        }
        if (imp.names.empty()) {
          add(imp.module.substr(0, imp.module.find('.')), "import", imp.module, imp.line);
          continue;
        }
        for (const auto& n : imp.names) {
          size_t as = n.find(" as ");
          std::string bound = as == std::string::npos ? n : n.substr(as + 4);
          std::string orig = as == std::string::npos ? n : n.substr(0, as);
          bool plain_import = imp.names.size() == 1 && orig == imp.module;  // import m as n
          add(bound, "import", plain_import ? imp.module : imp.module + "." + orig, imp.line);
        }
      }
      for (const auto& a : m->assignments)
        if (a.function.empty() && is_identifier(a.target))
          add(a.target, "assign", a.cls.empty() ? a.target : a.cls + "." + a.target, a.line);
      for (const auto& c : m->calls) add(last_name(c.callee), "reference", c.callee, c.line);
      std::stable_sort(syms.begin(), syms.end(), [](const auto& a, const auto& b) { return a->line < b->line; });
      out.insert(out.end(), syms.begin(), syms.end());
    } else if (source == "cmake_commands") {
      for (const auto& c : m->cmake_commands) {
        auto f = dsl::make_fact("cmake_commands", r.path, c.line);
        f->end_line = c.end_line;
        f->set("name", Value(c.name));
        f->set("args", str_list(c.args));
        std::string joined;
        for (const auto& a : c.args) joined += (joined.empty() ? "" : " ") + a;
        f->set("argtext", Value(joined));
        f->set("depth", Value(c.depth));
        f->set("added", Value(added_range(r, c.line, c.end_line)));
        out.push_back(f);
      }
    } else {
      throw dsl::FactsError{"fact source '" + source + "' has no implementation"};
    }
  }
  return out;
}

std::vector<FactPtr> ChangeFacts::section_facts(const Scope& scope) {
  std::vector<FactPtr> out;
  auto emit = [&](const lang::Section& s, const std::string& file, bool pr_body, const FileRef* r) {
    auto f = dsl::make_fact("sections", file, s.start);
    f->end_line = s.end;
    f->set("heading", Value(s.heading));
    f->set("level", Value(s.level));
    f->set("text", Value(s.text));
    f->set("start", Value(s.start));
    f->set("end", Value(s.end));
    f->set("pr_body", Value(pr_body));
    f->set("added", Value(r && added_range(*r, s.start, s.end)));
    out.push_back(f);
  };
  if (scope.kind == Scope::Kind::Changed && !change_->pr.body.empty())
    for (const auto& s : lang::markdown_sections(change::strip_html_comments(change_->pr.body))) emit(s, "", true, nullptr);
  auto refs = files_of(scope);
  for (const auto& r : refs) {
    if (lang::language_of(r.path) != lang::Language::Markdown) continue;
    auto m = model(r.path, r.base);
    if (!m) continue;
    for (const auto& s : m->sections) emit(s, r.path, false, &r);
  }
  return out;
}

std::vector<FactPtr> ChangeFacts::clone_facts(const Scope& scope) {
  std::vector<FactPtr> out;
  constexpr int kMinLines = 5;
  std::vector<analysis::CodeBlock> blocks;
  for (const auto& r : files_of(scope)) {
    if (r.base || !r.changed || r.changed->added_lines.empty()) continue;
    auto m = model(r.path, false);
    if (!m) continue;
    int n = static_cast<int>(m->text_lines.size());
    const auto& added = r.changed->added_lines;
    for (auto it = added.begin(); it != added.end();) {
      int a = *it, b = a;
      auto jt = std::next(it);
      while (jt != added.end() && *jt == b + 1) b = *jt++;
      it = jt;
      if (b - a + 1 < kMinLines || b > n) continue;
      std::string text;
      for (int l = a; l <= b; ++l) text += m->text_lines[l - 1] + "\n";
      blocks.push_back({r.path, a, b, std::move(text)});
    }
  }
  for (const auto& p : analysis::find_clones(blocks, kMinLines, 0.8)) {
    if (p.a.file == p.b.file) continue;
    auto loc = [&](const analysis::CodeBlock& b) {
      auto f = dsl::make_fact("location", b.file, b.start_line);
      f->end_line = b.end_line;
      f->set("added", Value(true));
      f->set("text", Value(b.text));
      return FactPtr(f);
    };
    auto f = dsl::make_fact("clones", p.a.file, p.a.start_line);
    f->end_line = p.a.end_line;
    f->set("a", Value(loc(p.a)));
    f->set("b", Value(loc(p.b)));
    f->set("similarity", Value(static_cast<int>(std::lround(p.similarity * 100))));
    f->set("lines", Value(p.a.end_line - p.a.start_line + 1));
    out.push_back(f);
  }
  return out;
}

std::vector<FactPtr> ChangeFacts::sibling_facts(const Scope& scope) {
  std::vector<FactPtr> out;
  for (const auto& r : files_of(scope)) {
    if (r.base || !r.changed) continue;
    const auto& fns = function_facts(r);
    for (const auto& c : fns) {
      if (!c->get("changed").as_bool()) continue;
      for (const auto& o : fns) {
        if (o == c || o->get("changed").as_bool()) continue;
        auto suffix = analysis::variant_suffix(c->get("name").as_string(), o->get("name").as_string(), suffixes_);
        if (!suffix) continue;
        auto f = dsl::make_fact("siblings", r.path, c->line);
        f->set("function", Value(c));
        f->set("sibling", Value(o));
        f->set("suffix", Value(*suffix));
        out.push_back(f);
      }
    }
  }
  return out;
}

}  // namespace review::facts
