#include "dsl/evaluator.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <ctime>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>

#include <sys/resource.h>

#include <re2/filtered_re2.h>
#include <re2/set.h>

#include "dsl/key_index.hpp"
#include "dsl/plan.hpp"
#include "dsl/schedule.hpp"

namespace review::dsl {

using ast::Expr;
/// CPU time of the calling thread. A rule's budget counts the work the rule does, so a loaded
/// machine (a shared CI runner, parallel jobs) does not stop rules that would finish.
struct CpuClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<CpuClock>;
  static constexpr bool is_steady = true;
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(static_cast<rep>(ts.tv_sec) * 1000000000 + ts.tv_nsec));
  }
};
using Clock = CpuClock;

namespace {

/// CPU time of the whole process in seconds (EvalTimings: parser threads count too).
double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// The process's peak resident memory so far in KiB (getrusage(2) ru_maxrss; Linux reports KiB).
long peak_rss_kib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

struct BudgetExceeded {};
struct MemoryExceeded {};

/// Longest string `+` builds (bytes); a longer result is null, so hostile facts cannot blow up
/// memory through a chain of joins.
constexpr size_t kMaxJoinedString = size_t{1} << 20;

/// Answers kept for recent texts of at most kMaxText bytes, direct-mapped by the text's hash:
/// a slot holds its whole text and is compared whole, so an answer is never another text's.
/// The regex indexes and conditions ask the same texts again and again (the lines of one
/// function, blank lines, `else:`, several rules' `/[^\s"']/` on the same lines).
template <class T>
class RecentAnswers {
 public:
  static constexpr size_t kMaxText = 256;
  /// A table of `slots` (a power of two) slots.
  explicit RecentAnswers(size_t slots) : slots_(slots) {}
  /// The answer kept for `text`, or nullptr (always for a text over kMaxText bytes).
  const T* find(std::string_view text) const {
    if (text.size() > kMaxText) return nullptr;
    const Slot& s = slots_[slot(text)];
    return s.used && s.text == text ? &s.answer : nullptr;
  }
  /// Keeps `answer` for `text`, in place of the slot's previous text; nothing for a text over
  /// kMaxText bytes.
  void keep(std::string_view text, const T& answer) {
    if (text.size() > kMaxText) return;
    Slot& s = slots_[slot(text)];
    s.text.assign(text);
    s.answer = answer;
    s.used = true;
  }

 private:
  struct Slot {
    bool used = false;
    std::string text;
    T answer{};
  };
  size_t slot(std::string_view text) const { return std::hash<std::string_view>()(text) & (slots_.size() - 1); }
  std::vector<Slot> slots_;
};

struct Binding {
  std::string_view name;
  Value value;
  bool capture = false;
};

class Evaluator final : public RuleEngine {
 public:
  Evaluator(const ProgramImpl& p, Facts& facts, const EvalOptions& opts) : p_(p), facts_(facts), opts_(opts) {}

  void run_kinds(EvalResult& out) override {
    facts_.configure(p_.data);
    for (const auto* k : p_.kinds) {
      env_.clear();
      bool hit = false;
      Timed timed(*this, "kind " + k->name, nullptr);
      deadline_ = Clock::now() + opts_.rule_budget;
      if (over_memory()) {
        out.memory_stopped.push_back("kind " + k->name);
        kinds_[k->name] = false;
        continue;
      }
      try {
        hit = k->when && eval(*k->when).truthy();
      } catch (const FactsError& e) {
        out.internal_diagnostics.push_back("kind `" + k->name + "`: " + e.message);
      } catch (const BudgetExceeded&) {
        out.internal_diagnostics.push_back("kind `" + k->name + "` stopped: it ran longer than its time budget of " +
                                           std::to_string(opts_.rule_budget.count()) + " ms");
        out.stopped.push_back("kind " + k->name);
      } catch (const MemoryExceeded&) {
        out.memory_stopped.push_back("kind " + k->name);
      } catch (const std::bad_alloc&) {
        out_of_memory_ = true;
        out.memory_stopped.push_back("kind " + k->name);
      }
      kinds_[k->name] = hit;
      if (hit) out.kinds.push_back({k->name, k->label});
    }
  }

  void run_rule_part(const PlannedRule& pr, RulePart& part) override {
    if (part.end != RulePart::End::Running) return;
    const ast::Rule& r = *pr.rule;
    rule_ = &pr;
    env_.clear();
    found_ = &part.found;
    seen_.swap(part.seen);
    struct Back {  // the rule's de-duplication keys go back to the part however the rule ends
      Evaluator& e;
      RulePart& part;
      ~Back() { e.seen_.swap(part.seen); }
    } back{*this, part};
    const double started = opts_.timings ? process_cpu_s() : 0;
    shared_s_ = 0;
    deadline_ = Clock::now() + (opts_.rule_budget - part.spent);
    auto account = [&] {
      part.spent = opts_.rule_budget - std::chrono::duration_cast<std::chrono::nanoseconds>(deadline_ - Clock::now());
      if (!opts_.timings) return;
      part.own_s += std::max(0.0, process_cpu_s() - started - shared_s_);
      part.sources_s += shared_s_;
    };
    if (over_memory()) {
      part.end = RulePart::End::Memory;
      account();
      return;
    }
    try {
      when_false_ = false;
      run_rule(r);
      part.when_false = when_false_;
    } catch (const MemoryExceeded&) {
      part.end = RulePart::End::Memory;
    } catch (const std::bad_alloc&) {
      // An allocation the machine refused: the rule's partial work is freed as the stack
      // unwinds; no later rule starts.
      part.found.clear();
      out_of_memory_ = true;
      part.end = RulePart::End::Memory;
    } catch (const BudgetExceeded&) {
      part.end = RulePart::End::Budget;
    } catch (const FactsError& e) {
      part.end = RulePart::End::Error;
      part.error = e.message;
    }
    account();
  }

  void finish_rule(const PlannedRule& pr, bool report, const std::set<std::string>& read_tags, RulePart& part,
                   EvalResult& res) override {
    const ast::Rule& r = *pr.rule;
    if (opts_.timings) opts_.timings->rules.push_back({r.id, part.own_s, part.sources_s, part.found.size(), peak_rss_kib()});
    switch (part.end) {
      case RulePart::End::Running: break;
      case RulePart::End::Memory: res.memory_stopped.push_back(r.id); return;
      case RulePart::End::Budget:
        res.internal_diagnostics.push_back("rule `" + r.id + "` stopped: it ran longer than its time budget of " +
                                           std::to_string(opts_.rule_budget.count()) +
                                           " ms; its findings are dropped");
        res.stopped.push_back(r.id);
        return;
      case RulePart::End::Error: res.internal_diagnostics.push_back("rule `" + r.id + "`: " + part.error); return;
    }
    if (part.when_false) res.not_run.push_back(r.id);
    // moved, not copied: a rule's findings are held once (an audit's 30,875 B6 findings were
    // briefly held twice)
    res.findings.reserve(res.findings.size() + (report ? part.found.size() : 0));
    for (auto& f : part.found) {
      bool read = std::any_of(f.tags.begin(), f.tags.end(), [&](const std::string& t) { return read_tags.count(t) > 0; });
      if (!read) {
        if (report) res.findings.push_back(std::move(f));
        continue;
      }
      auto fact = make_fact("findings", f.file, f.line);
      fact->set("rule", Value(f.rule_id));
      fact->set("title", Value(f.rule_title));
      fact->set("text", Value(f.rule_title));
      fact->set("severity", Value(std::string(severity_name(f.severity))));
      fact->set("problem", Value(f.problem));
      fact->set("impact", Value(f.impact));
      fact->set("action", Value(f.action));
      Value::List tags;
      for (const auto& t : f.tags) tags.emplace_back(t);
      fact->set("tags", Value(std::move(tags)));
      FactPtr shared = fact;
      for (const auto& t : f.tags)
        if (read_tags.count(t)) by_tag_[t].push_back(Value(shared));
      if (report) res.findings.push_back(std::move(f));
    }
    std::vector<Finding>().swap(part.found);
    drop_file_indexes();
  }

  /// Erases the indexes of one-file reads (`lines(k.file)`, a Files scope): each is cheap to
  /// build again from its file's facts, and an audit's rules left one per file they touched
  /// (ROCm/aiter: ~10,000, about 55 MiB, held until their source was released).
  void drop_file_indexes() {
    const std::string files = query_key("", Scope{Scope::Kind::Files, {}}) + '\0';  // past the source name
    for (auto x = indexes_.begin(); x != indexes_.end();) {
      const std::string& k = x->first;
      size_t z = k.find('\0');
      x = z != std::string::npos && k.compare(z, files.size(), files) == 0 ? indexes_.erase(x) : std::next(x);
    }
  }

  void forget(const std::string& source) override {
    const std::string prefix = source + '\0';
    auto starts = [&](const std::string& k) { return k.compare(0, prefix.size(), prefix) == 0; };
    for (auto c = cache_.begin(); c != cache_.end();) c = starts(c->first) ? cache_.erase(c) : std::next(c);
    for (auto x = indexes_.begin(); x != indexes_.end();) x = starts(x->first) ? indexes_.erase(x) : std::next(x);
  }

  void release(const std::string& source) override {
    forget(source);
    facts_.release(source);
  }

  void release_scope(const std::string& source, const Scope& scope) override {
    const std::string key = query_key(source, scope);
    // the scope's own results, its indexes (key + '\1' ...) and its narrowed reads (key + '\2' ...)
    // and every read of it by file name: the Facts may free the per-file facts those point into
    const std::string by_file = query_key(source, Scope{Scope::Kind::Files, {}}) + '\0';
    auto mine = [&](const std::string& k) {
      return (k.compare(0, key.size(), key) == 0 &&
              (k.size() == key.size() || k[key.size()] == '\1' || k[key.size()] == '\2')) ||
             k.compare(0, by_file.size(), by_file) == 0;
    };
    for (auto c = cache_.begin(); c != cache_.end();) c = mine(c->first) ? cache_.erase(c) : std::next(c);
    for (auto x = indexes_.begin(); x != indexes_.end();) x = mine(x->first) ? indexes_.erase(x) : std::next(x);
    facts_.release_scope(source, scope);
  }

  void will_read(const std::string& source, const Scope& scope) override { facts_.will_read(source, scope); }

 private:
  const ProgramImpl& p_;
  Facts& facts_;
  const EvalOptions& opts_;
  Clock::time_point deadline_;
  mutable uint64_t ticks_ = 0;
  bool out_of_memory_ = false;  ///< an allocation failed: no later rule starts
  bool when_false_ = false;     ///< the rule being run: its `when` did not hold

  /// Records the CPU time of one rule (or kind) in opts_.timings from construction to
  /// destruction, whichever way the rule ends; the shared work it started goes to its sources.
  struct Timed {
    Evaluator& e;
    std::string id;
    const std::vector<Finding>* found;
    double started = 0;
    Timed(Evaluator& ev, std::string name, const std::vector<Finding>* f) : e(ev), id(std::move(name)), found(f) {
      if (!e.opts_.timings) return;
      e.shared_s_ = 0;
      started = process_cpu_s();
    }
    ~Timed() {
      if (!e.opts_.timings) return;
      double total = process_cpu_s() - started;
      e.opts_.timings->rules.push_back(
          {id, std::max(0.0, total - e.shared_s_), e.shared_s_, found ? found->size() : 0, peak_rss_kib()});
    }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;
  };
  double shared_s_ = 0;  ///< CPU of shared work (facts, indexes) since the current rule started

  /// Shared, cached work (building a source's facts or an index over them) is not charged to the
  /// budget of the rule that happens to ask first; with timings on, its CPU is the source's.
  struct SharedWork {
    Clock::time_point started;
    double process = 0;
  };
  SharedWork begin_shared() const { return {Clock::now(), opts_.timings ? process_cpu_s() : 0}; }
  void end_shared(const SharedWork& w, const std::string& source) {
    deadline_ += Clock::now() - w.started;
    if (!opts_.timings) return;
    double spent = process_cpu_s() - w.process;
    opts_.timings->sources[source] += spent;
    shared_s_ += spent;
  }

  bool over_memory() const {
    return out_of_memory_ || (opts_.memory_exceeded && opts_.memory_exceeded->load(std::memory_order_relaxed));
  }
  const PlannedRule* rule_ = nullptr;
  std::vector<Finding>* found_ = nullptr;
  std::unordered_multimap<size_t, uint32_t> seen_;  ///< RulePart::seen of the rule running
  std::vector<Binding> env_;
  /// Hashes std::string and std::string_view alike, so a map keyed by std::string can be
  /// looked up with a view (no key string made per lookup).
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  /// Hash index of one query's facts by one key: fact positions per key, in fact order, plus
  /// the positions every lookup must also try (`in` over a string field).
  struct Index {
    /// Equal, Member, DottedTail and Capture indexes: positions by the key's hash (a lookup's
    /// candidates may hold facts of another key with the same hash; the conditions are checked
    /// on each).
    KeyIndex keyed;
    /// Word indexes: positions by token; Regex indexes: by "r" and the regex's place in the set.
    std::unordered_map<std::string, std::vector<uint32_t>, TextHash, std::equal_to<>> buckets;
    std::vector<uint32_t> always;
    /// Word indexes: the candidates of a key that is not a whole token (starts, ends or is
    /// inside one), computed on first lookup from the token buckets.
    std::unordered_map<std::string, std::vector<uint32_t>> partial;
    /// Range indexes: (integer value, fact position) of every fact whose field is an integer,
    /// ascending; `in_order` when the positions ascend too (a file's facts by line), so the
    /// candidates of a range are a slice already in fact order.
    std::vector<std::pair<int64_t, uint32_t>> sorted;
    bool in_order = true;
    /// An Equal index (no `also` fields) whose facts all hold an integer: kept in `sorted`
    /// (value, position) instead of a bucket per value: 16 bytes a fact instead of a hash node,
    /// a key string and a list each (the per-file `l.line == x` lookups of an audit held 60 MiB
    /// that way on ROCm/aiter).
    bool ints = false;
  };
  std::unordered_map<std::string, Index> indexes_;
  /// match_texts' answers for recent texts, per regex without holes.
  static constexpr size_t kMatchMemoSlots = 1024;
  std::unordered_map<const CompiledRegex*, RecentAnswers<bool>> match_memo_;
  std::unordered_map<const ast::Domain*, bool> none_in_change_;  ///< see none_in_change
  /// The files a `for` with ForPlan::by_files looks up in the body running now, by its probe:
  /// sorted, and joined (each followed by '\x1e') as the name of their facts' index.
  struct FileSet {
    std::vector<std::string> files;
    std::optional<std::vector<std::string>> partners;  ///< ForPlan::partner: the files it admits
    std::string id;
    bool read = false;                          ///< `facts` asked for (by the first lookup)
    const std::vector<FactPtr>* facts = nullptr;  ///< their facts; nullptr = read it whole
  };
  std::unordered_map<const Probe*, FileSet> by_files_;
  RulePlan naive_;
  std::vector<uint64_t> epoch_;                      ///< see run_body
  std::vector<std::pair<uint64_t, bool>> memo_;      ///< Filter::memo slot -> (epoch, value)
  /// Filter::table slot -> the filter's value by the values of the names it reads. An entry
  /// keeps those values (facts, lists), so the addresses in its key stay theirs.
  struct Tabled {
    Value value;  ///< a filter's truth, or a binder's value (Bool for exists, Int for count)
    std::vector<Value> kept;
  };
  struct Table {
    std::unordered_map<std::string, Tabled> entries;
    size_t lookups = 0, hits = 0;
    bool off = false;  ///< too few hits to pay for the keys: evaluated every time from then on
  };
  std::vector<Table> tables_;
  /// The plan of the body running (its binder tables are in tables_); null outside run_body.
  const RulePlan* plan_now_ = nullptr;
  /// Entries a table takes at most (then the filter is evaluated every time): a table keyed by
  /// something unique per binding would otherwise grow with the loops.
  static constexpr size_t kMaxTabled = size_t{1} << 18;
  /// After this many lookups a table that answered fewer than one in kMinHitShare is dropped.
  static constexpr size_t kTableTrial = 4096;
  static constexpr size_t kMinHitShare = 8;
  uint64_t serial_ = 0;
  std::map<std::string, bool> kinds_;
  std::map<std::string, Value::List> by_tag_;
  std::unordered_map<std::string, const std::vector<FactPtr>*> cache_;  ///< query_key -> facts
  std::unordered_map<std::string, bool> in_text_;  ///< source '\0' field -> probe_in_text
  std::string key_words_key_;
  bool pr_loaded_ = false;
  Value pr_;

  /// Reading the thread's CPU clock is a system call (the vDSO does not serve per-thread CPU
  /// clocks): look at it every 1,024 iterations. Every 64 made 500,000 calls in an aiter audit,
  /// ~2% of its CPU in a VM; a rule overruns its budget by at most 1,023 iterations.
  void tick() const {
    if (opts_.memory_exceeded && opts_.memory_exceeded->load(std::memory_order_relaxed)) throw MemoryExceeded{};
    if ((++ticks_ & 1023) != 0) return;
    if (Clock::now() > deadline_) throw BudgetExceeded{};
  }

  const Value* lookup(std::string_view name) const {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->name == name) return &it->value;
    return nullptr;
  }

  const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) {
    std::string key = query_key(source, scope);
    auto it = cache_.find(key);
    if (it != cache_.end()) return *it->second;
    // Building facts (parsing files, running analyses) is shared by every rule that reads them
    // and is cached: it does not count against the budget of the rule that happens to ask first.
    auto work = begin_shared();
    const auto& facts = facts_.query(source, scope);
    end_shared(work, source);
    cache_[key] = &facts;
    return facts;
  }

  Value pr() {
    if (!pr_loaded_) {
      pr_loaded_ = true;
      const auto& f = query("pr", Scope{});
      if (!f.empty()) pr_ = Value(f.front());
    }
    return pr_;
  }

  static void add_strings(const Value& v, std::vector<std::string>& out) {
    if (v.is_string()) out.push_back(v.as_string());
    for (const auto& x : v.as_list()) add_strings(x, out);
  }

  bool is_repo(const std::string& name) const {
    for (const auto& r : p_.data.repos)
      if (r.name == name) return true;
    return false;
  }

  Scope scope_of(const ast::ScopeExpr& s) {
    Scope out;
    switch (s.kind) {
      case ast::ScopeExpr::Kind::Default:
      case ast::ScopeExpr::Kind::Changed: out.kind = Scope::Kind::Changed; break;
      case ast::ScopeExpr::Kind::Base: out.kind = Scope::Kind::Base; break;
      case ast::ScopeExpr::Kind::Repo: out.kind = Scope::Kind::Repo; break;
      case ast::ScopeExpr::Kind::Globs:
        out.kind = Scope::Kind::Globs;
        out.patterns = s.globs;
        break;
      case ast::ScopeExpr::Kind::Expr: {
        const Expr& x = *s.expr;
        if (x.kind == Expr::Kind::Var && x.path.empty() && !lookup(x.text) && is_repo(x.text)) {
          out.kind = Scope::Kind::Named;
          out.patterns.push_back(x.text);
        } else if (x.kind == Expr::Kind::Var && x.path.empty() && !lookup(x.text)) {
          out.kind = Scope::Kind::Globs;
          add_strings(p_.data.let(x.text), out.patterns);
        } else {
          out.kind = Scope::Kind::Files;
          add_strings(eval(x), out.patterns);
        }
        break;
      }
    }
    return out;
  }

  bool list_domain(const ast::Domain& d) const { return dsl::list_domain(p_, d); }

  /// The index key of a value under `==`: values of different types never compare equal, and
  /// lists and facts are not indexed (nullopt).
  static std::optional<std::string> key_of(const Value& v) {
    if (v.is_null()) return std::string("n");
    if (v.is_bool()) return std::string(v.as_bool() ? "b1" : "b0");
    if (v.is_int()) return "i" + std::to_string(v.as_int());
    if (v.is_string()) return "s" + v.as_string();
    return std::nullopt;
  }

  /// Appends one part of a composite key: its length, ':', the part (so no two lists of parts
  /// give the same key).
  static void add_part(std::string& out, const std::string& part) {
    out += std::to_string(part.size());
    out += ':';
    out += part;
  }

  /// The composite key of `fact` for an Equal probe with `also` fields (`first` is its value of
  /// the probe's own field); nullopt when any of the values is a list or a fact.
  static std::optional<std::string> composite_of(const FactPtr& fact, const Probe& p, const Value& first) {
    auto k = key_of(first);
    if (!k) return std::nullopt;
    std::string out;
    add_part(out, *k);
    for (const auto& a : p.also) {
      auto ka = key_of(field_path(fact, a.path));
      if (!ka) return std::nullopt;
      add_part(out, *ka);
    }
    return out;
  }

  /// The composite key an Equal probe with `also` fields looks up, from the key of its own
  /// field (probe_key()) and the values of the `also` keys; nullopt when one of those is a list
  /// or a fact (then every fact is a candidate).
  std::optional<std::string> composite_key(const Probe& p, const std::string& first) {
    std::string out;
    add_part(out, first);
    for (const auto& a : p.also) {
      auto k = key_of(eval(*a.key));
      if (!k) return std::nullopt;
      add_part(out, *k);
    }
    return out;
  }

  /// `fact.path[0].path[1]...` as resolve() reads it: null when a link of the chain is not a fact.
  static Value field_path(const FactPtr& fact, const std::vector<std::string>& path) {
    Value v(fact);
    for (const auto& f : path) {
      const FactPtr& x = v.as_fact();
      if (!x) return {};
      v = x->get(f);
    }
    return v;
  }

  static std::string_view tail(std::string_view s) {
    size_t dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
  }

  static bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /// Calls add(token) for every maximal run of word characters in `s`.
  template <class Add>
  static void tokens(std::string_view s, Add&& add) {
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && !word_char(s[i])) ++i;
      size_t start = i;
      while (i < s.size() && word_char(s[i])) ++i;
      if (i > start) add(s.substr(start, i - start));
    }
  }

  Index& index(const std::string& qkey, const std::vector<FactPtr>& facts, const Probe& p) {
    std::string key = qkey + '\1' + std::to_string(static_cast<int>(p.kind));
    for (const auto& f : p.path) key += '\1' + f;
    for (const auto& a : p.also) {  // a composite key: one index per list of fields
      key += "\1+";
      for (const auto& f : a.path) key += '\1' + f;
    }
    if (p.kind == Probe::Kind::Capture)  // one index per regex and group
      key += '\1' + std::to_string(reinterpret_cast<uintptr_t>(p.regex)) + '\1' + std::to_string(p.group);
    if (p.kind == Probe::Kind::Regex)  // one index per regex set
      key += '\1' + std::to_string(reinterpret_cast<uintptr_t>(p.set.get()));
    auto it = indexes_.find(key);
    if (it != indexes_.end()) return it->second;
    // Built once per evaluate() for every rule that asks; like the query, not charged to the
    // rule that happens to ask first.
    auto work = begin_shared();
    Index& idx = indexes_[key];
    if (p.kind == Probe::Kind::Regex) {
      regex_set_index(idx, facts, p);
      fit(idx);
      end_shared(work, qkey.substr(0, qkey.find('\0')));
      return idx;
    }
    if (p.kind == Probe::Kind::Equal && p.also.empty() && int_index(idx, facts, p)) {
      end_shared(work, qkey.substr(0, qkey.find('\0')));
      return idx;
    }
    if (p.kind == Probe::Kind::Equal) idx.keyed.reserve(facts.size());  // at most one key a fact
    std::string scratch;  // a key being made ("s" and the text), reused from fact to fact
    std::vector<std::string> groups;
    // Facts in a row often hold the same key (the lines of one function or file): hashed once.
    std::string last_key;
    uint64_t last_hash = 0;
    bool have_last = false;
    // Word indexes: the buckets of recent tokens, direct-mapped by length and end characters (a
    // few tokens, `self`, `if`, `torch`, are most of a repository's): a hit compares the token
    // with the bucket's key instead of hashing it and probing the map. Nodes of the map never
    // move, so the pointers stay valid while it grows.
    struct Recent {
      const std::string* key = nullptr;
      std::vector<uint32_t>* bucket = nullptr;
    };
    std::vector<Recent> recent(p.kind == Probe::Kind::Word ? 1024 : 0);
    auto slot = [](std::string_view k) {
      return (k.size() * 131u + static_cast<unsigned char>(k.front()) * 31u + static_cast<unsigned char>(k.back()) +
              static_cast<unsigned char>(k[k.size() / 2]) * 7u) & 1023u;
    };
    for (uint32_t i = 0; i < facts.size(); ++i) {
      auto add = [&](std::string_view k) {
        if (p.kind != Probe::Kind::Word) {
          if (!have_last || k != last_key) {
            last_key.assign(k);
            last_hash = key_hash(k);
            have_last = true;
          }
          idx.keyed.add(last_hash, i);
          return;
        }
        Recent& r = recent[slot(k)];  // k is a token: never empty
        if (!r.key || *r.key != k) {
          auto at = idx.buckets.find(k);
          if (at == idx.buckets.end()) at = idx.buckets.emplace(std::string(k), std::vector<uint32_t>()).first;
          r = {&at->first, &at->second};
        }
        auto& b = *r.bucket;
        if (b.empty() || b.back() != i) b.push_back(i);
      };
      // one string (the field's value, or an element of a list value); for Capture, whether the
      // regex matched it (the first element the regex matches binds the groups, as match() does)
      auto one = [&](std::string_view text) {
        switch (p.kind) {
          case Probe::Kind::Equal:
            scratch.assign(1, 's').append(text);  // key_of
            add(scratch);
            return true;
          case Probe::Kind::DottedTail: add(tail(text)); return true;
          case Probe::Kind::Capture:
            if (!regex_search(*p.regex->re, text, &groups)) return false;
            scratch.assign(1, 's').append(p.group < groups.size() ? groups[p.group] : std::string());
            add(scratch);
            return true;
          case Probe::Kind::Word: tokens(text, add); return true;
          default: return true;
        }
      };
      if (p.path.size() == 1 && (p.kind != Probe::Kind::Equal || p.also.empty()) && p.kind != Probe::Kind::Member)
        if (auto text = facts[i]->text(p.path[0])) {  // a string the fact lends: no copy
          one(*text);
          continue;
        }
      Value v = field_path(facts[i], p.path);
      switch (p.kind) {
        case Probe::Kind::Equal:
          if (!p.also.empty()) {
            if (auto k = composite_of(facts[i], p, v)) add(*k);
          } else if (v.is_string()) {
            one(v.as_string());
          } else if (auto k = key_of(v)) {
            add(*k);
          }
          break;
        case Probe::Kind::Member:
          if (v.is_string()) idx.always.push_back(i);
          for (const auto& x : v.as_list())
            if (auto k = key_of(x)) add(*k);
          break;
        case Probe::Kind::DottedTail:
        case Probe::Kind::Capture:
        case Probe::Kind::Word:
          if (v.is_string()) one(v.as_string());
          for (const auto& x : v.as_list())
            if (x.is_string() && one(x.as_string()) && p.kind == Probe::Kind::Capture) break;
          break;
        case Probe::Kind::Range:
          if (v.is_int()) idx.sorted.emplace_back(v.as_int(), i);  // `<` on a non-integer is false
          break;
        case Probe::Kind::Regex: break;  // regex_set_index
      }
    }
    if (p.kind == Probe::Kind::Range) {
      idx.in_order = std::is_sorted(idx.sorted.begin(), idx.sorted.end());
      if (!idx.in_order) std::sort(idx.sorted.begin(), idx.sorted.end());
    }
    fit(idx);
    end_shared(work, qkey.substr(0, qkey.find('\0')));
    return idx;
  }

  /// The hash a key index files `key` under (EvalOptions::colliding_keys: 0 for every key).
  uint64_t key_hash(std::string_view key) const { return opts_.colliding_keys ? 0 : KeyIndex::hash(key); }

  /// Frees the spare capacity of a built index's lists: they grew by doubling while the facts
  /// were added, and an index lives until its source is released (on ROCm/aiter's audit the
  /// indexes held 9.3 million positions' room for 6.4 million).
  static void fit(Index& idx) {
    idx.keyed.finish();
    for (auto& [key, at] : idx.buckets) at.shrink_to_fit();
    idx.always.shrink_to_fit();
    idx.sorted.shrink_to_fit();
  }

  /// Fills `idx` as an integer Equal index (Index::ints) when every fact's field is an integer;
  /// false (idx left empty) otherwise.
  static bool int_index(Index& idx, const std::vector<FactPtr>& facts, const Probe& p) {
    if (facts.empty() || !field_path(facts[0], p.path).is_int()) return false;
    idx.sorted.reserve(facts.size());
    for (uint32_t i = 0; i < facts.size(); ++i) {
      Value v = field_path(facts[i], p.path);
      if (!v.is_int()) {
        std::vector<std::pair<int64_t, uint32_t>>().swap(idx.sorted);
        return false;
      }
      idx.sorted.emplace_back(v.as_int(), i);
    }
    if (!std::is_sorted(idx.sorted.begin(), idx.sorted.end())) std::sort(idx.sorted.begin(), idx.sorted.end());
    idx.ints = true;
    return true;
  }

  /// The positions (ascending) of the facts of an integer Equal index whose value has key `key`
  /// (key_of: "i" and the decimal value; any other key finds none), appended to `out`.
  static void int_candidates(const Index& idx, const std::string& key, std::vector<uint32_t>& out) {
    if (key.size() < 2 || key[0] != 'i') return;
    int64_t want = 0;
    auto [end, ec] = std::from_chars(key.data() + 1, key.data() + key.size(), want);
    if (ec != std::errc() || end != key.data() + key.size()) return;
    auto first = std::lower_bound(idx.sorted.begin(), idx.sorted.end(), std::make_pair(want, uint32_t{0}));
    for (auto it = first; it != idx.sorted.end() && it->first == want; ++it) out.push_back(it->second);
  }

  /// Regexes matched together by one RE2::Set at most. A set's DFA states are combinations of
  /// its regexes' states: over many regexes few are reused from one value to the next and
  /// matching slows per byte (ROCm/ATOM's 376,287 line codes against 42 regexes: 835 ms in one
  /// set, 430 ms in sets of 16, about 400 in sets of 12, 2.3 s one regex at a time).
  static constexpr size_t kSetSize = 12;
  /// RE2 program instructions (RE2::ProgramSize) of one RE2::Set at most; a regex larger than
  /// this is matched in a set of its own. Most of a set's time is building its DFA's states the
  /// first time the values lead there, and a large regex multiplies the states of the others:
  /// ATOM's 9 unfiltered line-code regexes (1,015 instructions, one of them 576) took 157 ms over
  /// the tree's 138,620 distinct Python lines in one set from cold, 84 ms with the 576 one in a
  /// set of its own and the 439 of the other 8 in one (aiter's 546,581 lines: 219 → 126 ms);
  /// sets of at most 300 instructions, 88 ms; of at most 100, 138 ms (bench/regex_set_bench).
  static constexpr int kSetProgram = 512;
  /// FilteredRE2's shortest atom: shorter literals (`(`, `if`) are in too many values to filter.
  static constexpr int kMinAtom = 3;
  /// Candidates of a join above which its Probe::narrow word lookup is read too: below, reading
  /// them costs less than building a word index over their source's facts. ROCm/aiter's audit:
  /// D9 read 1,766,173 lines of the functions it looked up, 60,717 of them holding the word.
  static constexpr size_t kNarrowAbove = 64;
  /// regex_set_index's table of recent values and their answers (RecentAnswers' slots).
  static constexpr size_t kMemoSlots = 4096;

  /// One RE2::Set of the regexes plain[from, to) of a CompiledSet; `ok` false when RE2 could not
  /// build it (each regex is then asked on its own).
  struct SetPart {
    std::unique_ptr<re2::RE2::Set> set;
    size_t from = 0, to = 0;
    bool ok = true;
  };
  /// The RE2 objects regex_set_index matches one list of regexes with, built once per
  /// evaluate() for every index of those regexes (compiled_set). RE2 builds a set's DFA states
  /// as values lead to them and keeps them in the set: a later index of the same regexes over
  /// other facts (ATOM's 40 line-code regexes are indexed over three fact lists) starts with
  /// the states the earlier ones built.
  struct CompiledSet {
    /// The literal prefilter (RE2's FilteredRE2, as Semgrep and code search engines use it):
    /// each regex that needs some literal strings ("atoms") to match is asked only of the values
    /// that hold them. One RE2::Set of the atoms (case-insensitive literals: FilteredRE2
    /// lowercases them) is run on each value; the regexes the atoms found let through are asked
    /// on their own. The regexes no atom filters (`plain`) stay in the RE2::Set `parts`. An ATOM
    /// audit's 40 regexes on line codes (9 of them unfiltered): 2 passes over each line instead
    /// of 4, 14% less time over its Python's 245,402 lines. Null when not worth it.
    std::unique_ptr<re2::FilteredRE2> filter;
    std::unique_ptr<re2::RE2::Set> atoms;
    std::vector<bool> filtered;  ///< per regex: asked through the prefilter
    std::vector<size_t> plain;   ///< the regexes asked through `parts`, ascending
    std::vector<SetPart> parts;
  };
  /// compiled_set's sets, by the addresses of their regexes.
  std::unordered_map<std::string, std::unique_ptr<CompiledSet>> compiled_sets_;

  /// The CompiledSet of `regexes`, built on first use in this evaluate().
  const CompiledSet& compiled_set(const std::vector<const CompiledRegex*>& regexes) {
    std::string key;
    for (const auto* r : regexes) key += std::to_string(reinterpret_cast<uintptr_t>(r)) + ',';
    auto& slot = compiled_sets_[key];
    if (slot) return *slot;
    slot = std::make_unique<CompiledSet>();
    CompiledSet& c = *slot;
    re2::RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(int64_t{64} << 20);
    c.filtered.assign(regexes.size(), false);
    // Worth it only when it saves passes over each value: the atoms' set is one pass more than
    // the unfiltered regexes' sets (a set of 6 regexes, one pass before, took twice as long as
    // two passes), so a probe that fits one set is never prefiltered.
    auto passes = [](size_t n) { return (n + kSetSize - 1) / kSetSize; };
    if (opts_.always_prefilter ? regexes.size() >= 2 : passes(regexes.size()) >= 2) {
      auto filter = std::make_unique<re2::FilteredRE2>(kMinAtom);
      bool added = true;
      for (const auto& r : regexes) {
        int id = 0;
        added = added && filter->Add(r->re->pattern(), r->re->options(), &id) == re2::RE2::NoError;
      }
      std::vector<std::string> strings;
      if (added) filter->Compile(&strings);
      if (added && !strings.empty()) {
        re2::RE2::Options lo = o;
        lo.set_case_sensitive(false);
        auto atoms = std::make_unique<re2::RE2::Set>(lo, re2::RE2::UNANCHORED);
        for (const auto& a : strings) added = added && atoms->Add(re2::RE2::QuoteMeta(a), nullptr) >= 0;
        added = added && atoms->Compile();
        std::vector<int> unfiltered;  // those that pass with no atom found
        if (added) filter->AllPotentials({}, &unfiltered);
        added = added && (opts_.always_prefilter || passes(unfiltered.size()) + 1 < passes(regexes.size()));
        if (added) {
          c.filtered.assign(regexes.size(), true);
          for (int k : unfiltered) c.filtered[static_cast<size_t>(k)] = false;
          c.filter = std::move(filter);
          c.atoms = std::move(atoms);
        }
      }
    }
    for (size_t k = 0; k < regexes.size(); ++k)
      if (!c.filtered[k]) c.plain.push_back(k);
    // in order, a new set when the next regex would pass kSetSize or kSetProgram
    int program = 0;
    for (size_t k = 0; k < c.plain.size(); ++k) {
      const int size = regexes[c.plain[k]]->re->ProgramSize();
      if (c.parts.empty() || c.parts.back().to - c.parts.back().from >= kSetSize || program + size > kSetProgram) {
        c.parts.push_back(SetPart{std::make_unique<re2::RE2::Set>(o, re2::RE2::UNANCHORED), k, k, true});
        program = 0;
      }
      SetPart& part = c.parts.back();
      std::string error;
      part.ok = part.ok && part.set->Add(regexes[c.plain[k]]->re->pattern(), &error) >= 0;
      part.to = k + 1;
      program += size;
    }
    for (SetPart& part : c.parts) part.ok = part.ok && part.set->Compile();
    return c;
  }

  /// A Regex index: bucket "r<k>" holds, ascending, the facts whose field (a string, or a list
  /// holding a string) the k-th regex of the probe's set matches. One pass per value of each
  /// RE2::Set of the compiled set (compiled_set); when RE2 cannot build a set or its DFA runs
  /// out of memory on a value, each regex of that set is asked on its own for that value (the
  /// same answer, more work).
  void regex_set_index(Index& idx, const std::vector<FactPtr>& facts, const Probe& p) {
    const auto& regexes = *p.set;
    const CompiledSet& c = compiled_set(regexes);
    const auto& plain = c.plain;
    const auto& filtered = c.filtered;
    const auto& parts = c.parts;
    const auto& atoms = c.atoms;
    std::vector<std::vector<uint32_t>*> buckets;
    for (size_t k = 0; k < regexes.size(); ++k) buckets.push_back(&idx.buckets["r" + std::to_string(k)]);
    std::vector<int> hits, potential;  // reused from value to value
    auto add = [&](size_t k, uint32_t i) {
      auto& b = *buckets[k];
      if (b.empty() || b.back() != i) b.push_back(i);
    };
    // The answers for recent values: facts in a row often hold the same value (a line's file or
    // function), and short lines recur across a tree (blank ones, `else:`, `)`, `return x`): a
    // table of kMemoSlots held about two in five of ROCm/ATOM's 377,293 raw lines in a
    // simulation, and an ATOM audit's RE2::Set passes fell by a quarter.
    RecentAnswers<std::vector<size_t>> memo(kMemoSlots);
    std::vector<size_t> last_hits;  // the regexes the value matches (reused from value to value)
    auto one = [&](std::string_view text, uint32_t i) {
      if (const auto* known = memo.find(text)) {
        for (size_t k : *known) add(k, i);
        return;
      }
      last_hits.clear();
      for (const SetPart& part : parts) {
        hits.clear();
        re2::RE2::Set::ErrorInfo info{re2::RE2::Set::kNoError};
        if (part.ok && part.set->Match(text, &hits, &info)) {
          for (int k : hits) last_hits.push_back(plain[part.from + static_cast<size_t>(k)]);
          continue;
        }
        if (part.ok && info.kind == re2::RE2::Set::kNoError) continue;  // no regex matches
        for (size_t k = part.from; k < part.to; ++k)
          if (regex_search(*regexes[plain[k]]->re, text, nullptr)) last_hits.push_back(plain[k]);
      }
      if (atoms) {
        hits.clear();
        re2::RE2::Set::ErrorInfo info{re2::RE2::Set::kNoError};
        bool found = atoms->Match(text, &hits, &info);
        if (found || info.kind != re2::RE2::Set::kNoError) {
          potential.clear();
          if (found) {
            c.filter->AllPotentials(hits, &potential);
          } else {  // the atoms' DFA ran out of memory: every prefiltered regex is asked
            for (size_t k = 0; k < regexes.size(); ++k)
              if (filtered[k]) potential.push_back(static_cast<int>(k));
          }
          for (int k : potential)
            if (filtered[static_cast<size_t>(k)] && regex_search(*regexes[static_cast<size_t>(k)]->re, text, nullptr))
              last_hits.push_back(static_cast<size_t>(k));
        }
      }
      memo.keep(text, last_hits);
      // bucket order is fact order; within one fact the order of the regexes does not matter
      for (size_t k : last_hits) add(k, i);
    };
    for (uint32_t i = 0; i < facts.size(); ++i) {
      if (p.path.size() == 1)
        if (auto text = facts[i]->text(p.path[0])) {
          one(*text, i);
          continue;
        }
      Value v = field_path(facts[i], p.path);
      if (v.is_string()) one(v.as_string(), i);
      for (const auto& x : v.as_list())
        if (x.is_string()) one(x.as_string(), i);
    }
  }

  /// The facts of a Word index with a token that is (w), starts with (<), ends with (>) or
  /// contains (~) the key's text, ascending; partial forms are cached per key.
  const std::vector<uint32_t>& word_candidates(Index& idx, const std::string& key) {
    static const std::vector<uint32_t> none;
    const char form = key[0];
    const std::string text = key.substr(1);
    if (form == 'w') {
      auto it = idx.buckets.find(text);
      return it == idx.buckets.end() ? none : it->second;
    }
    auto it = idx.partial.find(key);
    if (it != idx.partial.end()) return it->second;
    std::vector<uint32_t> out;
    for (const auto& [token, at] : idx.buckets) {
      if (token.size() < text.size()) continue;
      bool hit = form == '<'   ? token.compare(0, text.size(), text) == 0
                 : form == '>' ? token.compare(token.size() - text.size(), text.size(), text) == 0
                               : token.find(text) != std::string::npos;
      if (hit) out.insert(out.end(), at.begin(), at.end());
      tick();
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return idx.partial.emplace(key, std::move(out)).first->second;
  }

  /// The key a probe looks up for the current bindings; nullopt = scan every fact instead.
  std::optional<std::string> probe_key(const Probe& p) {
    if (p.kind == Probe::Kind::Word) {
      // the longest hole value that is a run of word characters; its form (w = whole token,
      // < prefix, > suffix, ~ inside) says how the candidates are found
      std::optional<std::string> best;
      for (const auto& w : p.word_holes) {
        const RegexHole& h = p.regex->holes[w.hole];
        Value v = resolve(h.name, h.path);
        if (v.is_null() && !h.path.empty()) continue;
        std::string text = v.to_text();
        if (text.empty() || !std::all_of(text.begin(), text.end(), word_char)) continue;
        if (best && best->size() - 1 >= text.size()) continue;
        best = std::string(1, w.before && w.after ? 'w' : w.before ? '<' : w.after ? '>' : '~') + text;
      }
      return best;
    }
    if (p.kind == Probe::Kind::Regex) return "r" + std::to_string(p.set_at);
    if (p.kind == Probe::Kind::DottedTail) {
      const RegexHole& h = p.regex->holes[0];
      Value v = resolve(h.name, h.path);
      if (v.is_null() && !h.path.empty()) return std::nullopt;
      std::string text = v.to_text();
      if (text.find('.') != std::string::npos) return std::nullopt;
      return text;
    }
    Value v = eval(*p.key);
    if (p.kind == Probe::Kind::Member && v.is_null()) return std::nullopt;
    return key_of(v);
  }

  /// The identifier runs (maximal `[A-Za-z0-9_]` runs) of the text a probe's key stands for:
  /// what a fact's field must hold for the lookup to find it. Empty when the key is no string.
  static std::vector<std::string> key_words(const Probe& p, const std::string& key) {
    std::string text;
    if (p.kind == Probe::Kind::Word) text = key.substr(1);  // form character, then the text
    else if (p.kind == Probe::Kind::DottedTail) text = key;
    else if (!key.empty() && key[0] == 's') text = key.substr(1);
    else return {};
    std::vector<std::string> out;
    tokens(text, [&](std::string_view w) { out.emplace_back(w); });
    return out;
  }

  /// Demand-driven read of a repository-wide source: when the probe's field is spelled in the
  /// file text and the source's facts are not built yet, the facts of only the files whose
  /// text holds the key (Facts::query_containing), cached per key; nullptr = read it whole.
  /// The words include those of the probe's file keys (Probe::file_keys) whose key is known.
  /// Sets key_words_key_ to the words joined, which names the narrowed fact list's index.
  const std::vector<FactPtr>* by_key(const std::string& source, const Scope& scope, const std::string& qkey,
                                     const Probe& probe, const std::string& key) {
    if (!opts_.read_by_key) return nullptr;
    if (scope.kind != Scope::Kind::Repo && scope.kind != Scope::Kind::Globs && scope.kind != Scope::Kind::Named)
      return nullptr;
    if (cache_.count(qkey) || probe.path.size() != 1) return nullptr;  // built whole already: its index is cheaper
    auto in_text = in_text_.find(source + '\0' + probe.path[0]);
    if (in_text == in_text_.end())
      in_text = in_text_.emplace(source + '\0' + probe.path[0], probe_in_text(p_, source, probe)).first;
    if (!in_text->second) return nullptr;
    std::vector<std::string> words = key_words(probe, key);
    if (words.empty()) return nullptr;
    // later `for`s over this fact's file, and the other lookups of its own `where`, bind only
    // where its text holds their keys too (a word lookup: the runs of every hole's value, not
    // only of the one its index is looked up by)
    for (const auto& k : probe.file_keys) {
      std::vector<std::string> kws;
      if (k.kind == Probe::Kind::Word) {
        for (const auto& wh : k.word_holes) {
          Probe one = k;
          one.word_holes = {wh};
          if (auto kk = probe_key(one))
            for (auto& w : key_words(one, *kk)) kws.push_back(std::move(w));
        }
      } else if (auto kk = probe_key(k)) {
        kws = key_words(k, *kk);
      }
      for (auto& w : kws)
        if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(std::move(w));
    }
    key_words_key_.clear();
    for (const auto& w : words) key_words_key_ += w + ' ';
    auto work = begin_shared();  // shared, cached work: not charged to the rule (as query())
    const auto* out = facts_.query_containing(source, scope, words);
    end_shared(work, source);
    return out;
  }

  /// The facts of `source` over `scope` of only `files` (Facts::query_in_files), for a `for`
  /// with ForPlan::by_files; nullptr = read it whole (the whole query is built already, or the
  /// implementation cannot narrow it).
  const std::vector<FactPtr>* in_files(const std::string& source, const Scope& scope, const std::string& qkey,
                                       const FileSet& fs) {
    if (cache_.count(qkey)) return nullptr;  // built whole already: its index is cheaper
    auto work = begin_shared();  // shared, cached work: not charged to the rule (as query())
    const auto* out = facts_.query_in_files(source, scope, fs.files, fs.partners ? &*fs.partners : nullptr);
    end_shared(work, source);
    return out;
  }

  /// Whether domain `d` reads a fact source over the files a bound fact's field names
  /// (`lines(a.file)`), not over a scope known before the rule runs or a repository's name.
  static bool file_read(const ast::Domain& d) {
    return !d.findings && !d.list && d.scope.kind == ast::ScopeExpr::Kind::Expr && d.scope.expr &&
           d.scope.expr->kind == Expr::Kind::Var && !d.scope.expr->path.empty();
  }

  /// Whether the source of domain `d` makes facts only of the change's files
  /// (SourceSchema::changed_only) and finds none over the `changed` scope: then a read of one
  /// file finds none either. Asked once per domain.
  bool none_in_change(const ast::Domain& d) {
    auto [it, fresh] = none_in_change_.try_emplace(&d, false);
    if (!fresh) return it->second;
    bool only = false;
    for (const auto& s : facts_.schema()) only = only || (s.name == d.source && s.changed_only);
    it->second = only && query(d.source, Scope{Scope::Kind::Changed, {}}).empty();
    return it->second;
  }

  /// The positions (ascending) of `facts` whose field the regex of Regex probe `p` matches.
  std::span<const uint32_t> regex_bucket(const std::string& qkey, const std::vector<FactPtr>& facts, const Probe& p) {
    Index& idx = index(qkey, facts, p);
    auto bi = idx.buckets.find("r" + std::to_string(p.set_at));
    if (bi == idx.buckets.end()) return {};
    return bi->second;
  }

  /// Calls `body(value)` for every element of domain `d`, in order (only the candidates of
  /// `probe`'s index lookup when it is given); stops when `body` returns false. `indexed`, when
  /// given, is set before the first call: whether the candidates came from the probe's index
  /// lookup with its terms applied (every candidate meets the conjuncts the lookup answers,
  /// Filter::served), not from a scan or a range.
  template <class Body>
  void scan(const ast::Domain& d, const Probe* probe, Body&& body, bool* indexed = nullptr) {
    if (indexed) *indexed = false;
    auto each = [&](const Value::List& l) {
      for (const auto& v : l)
        if (!body(v)) return;
    };
    if (list_domain(d)) {
      Value v = eval(*d.list);
      if (v.is_list()) each(v.as_list());
      return;
    }
    if (d.findings) {
      auto it = by_tag_.find(d.source);
      if (it != by_tag_.end()) each(it->second);
      return;
    }
    if (d.source == "pr") {
      Value v = pr();
      if (!v.is_null()) body(v);
      return;
    }
    Scope scope = scope_of(d.scope);
    if (scope.kind == Scope::Kind::Files && opts_.use_plan && none_in_change(d)) return;
    if (probe && opts_.use_plan && probe->kind == Probe::Kind::Range) {
      range_scan(d.source, scope, *probe, body);
      return;
    }
    std::optional<std::string> key;
    if (probe && opts_.use_plan) key = probe_key(*probe);
    std::optional<std::string> full = key;  // with the `also` keys of a composite lookup
    if (key && !probe->also.empty()) full = composite_key(*probe, *key);
    if (!full && probe && opts_.use_plan && probe->fallback) {
      range_scan(d.source, scope, *probe->fallback, body);
      return;
    }
    if (!full) {
      for (const auto& f : query(d.source, scope))
        if (!body(Value(f))) return;
      return;
    }
    std::string qkey = query_key(d.source, scope);
    const std::vector<FactPtr>* narrowed = by_key(d.source, scope, qkey, *probe, *key);
    if (narrowed) qkey += '\2' + key_words_key_;
    if (auto bf = by_files_.find(probe); !narrowed && bf != by_files_.end()) {
      FileSet& fs = bf->second;
      if (!fs.read) fs.facts = in_files(d.source, scope, qkey, fs);
      fs.read = true;
      narrowed = fs.facts;
      if (narrowed) qkey += '\3' + fs.id;
    }
    const auto& facts = narrowed ? *narrowed : query(d.source, scope);
    Index& idx = index(qkey, facts, *probe);
    std::span<const uint32_t> a;  // the candidates of the key, ascending
    std::vector<uint32_t> ints;   // those of an integer index
    if (probe->kind == Probe::Kind::Word) {
      a = word_candidates(idx, *key);
    } else if (idx.ints) {
      int_candidates(idx, *full, ints);
      a = ints;
    } else if (probe->kind == Probe::Kind::Regex) {
      if (auto bi = idx.buckets.find(*full); bi != idx.buckets.end()) a = bi->second;
      // an `or` of regexes: the facts any of them matches, merged in fact order
      for (const Probe& alt : probe->alts) {
        std::span<const uint32_t> other = regex_bucket(qkey, facts, alt);
        std::vector<uint32_t> both;
        both.reserve(a.size() + other.size());
        std::set_union(a.begin(), a.end(), other.begin(), other.end(), std::back_inserter(both));
        ints = std::move(both);
        a = ints;
      }
    } else {
      a = idx.keyed.find(key_hash(*full));
    }
    const auto& b = idx.always;
    // both lists are ascending: merge them to keep fact order
    size_t i = 0, j = 0, a_end = a.size(), b_end = b.size();
    if (probe->fallback && !narrowed && a.size() + b.size() > 1) {
      // the range of the same `where` narrows the candidates to the positions it spans
      auto span = range_span(d.source, scope, facts, *probe->fallback);
      if (span && span->first > span->second) return;  // no fact is in the range
      if (span) {
        i = static_cast<size_t>(std::lower_bound(a.begin(), a.end(), span->first) - a.begin());
        a_end = static_cast<size_t>(std::upper_bound(a.begin() + i, a.end(), span->second) - a.begin());
        j = static_cast<size_t>(std::lower_bound(b.begin(), b.end(), span->first) - b.begin());
        b_end = static_cast<size_t>(std::upper_bound(b.begin() + j, b.end(), span->second) - b.begin());
      }
    }
    // the terms: each candidate must be in a bucket of every term (cursors, as positions ascend)
    struct Alt {
      std::span<const uint32_t> bucket;
      size_t at = 0;
    };
    std::vector<std::vector<Alt>> terms;
    for (const auto& t : probe->terms) {
      auto& alts = terms.emplace_back();
      for (const Probe& x : t) alts.push_back({regex_bucket(qkey, facts, x), 0});
    }
    // many candidates of a join: only those the word lookup of the same `where` finds too
    if (probe->narrow && (a_end - i) + (b_end - j) > kNarrowAbove)
      if (auto word = probe_key(*probe->narrow))
        terms.push_back({Alt{word_candidates(index(qkey, facts, *probe->narrow), *word), 0}});
    auto in_terms = [&](uint32_t at) {
      for (auto& alts : terms) {
        bool any = false;
        for (auto& x : alts) {
          while (x.at < x.bucket.size() && x.bucket[x.at] < at) ++x.at;
          any = any || (x.at < x.bucket.size() && x.bucket[x.at] == at);
        }
        if (!any) return false;
      }
      return true;
    };
    if (indexed) *indexed = true;
    while (i < a_end || j < b_end) {
      uint32_t at;
      if (j == b_end || (i < a_end && a[i] < b[j])) {
        at = a[i++];
      } else {
        if (i < a_end && a[i] == b[j]) ++i;
        at = b[j++];
      }
      if (!terms.empty() && !in_terms(at)) continue;
      if (!body(Value(facts[at]))) return;
    }
  }

  /// The bounds of a Range probe for the current bindings as an inclusive [lo, hi]; nullopt
  /// when a bound is not an integer (its comparison is false for every fact) or the range is
  /// empty.
  std::optional<std::pair<int64_t, int64_t>> range_bounds(const Probe& probe) {
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    if (probe.lower) {
      Value v = eval(*probe.lower);
      if (!v.is_int() || (probe.lower_strict && v.as_int() == INT64_MAX)) return std::nullopt;
      lo = v.as_int() + (probe.lower_strict ? 1 : 0);
    }
    if (probe.upper) {
      Value v = eval(*probe.upper);
      if (!v.is_int() || (probe.upper_strict && v.as_int() == INT64_MIN)) return std::nullopt;
      hi = v.as_int() - (probe.upper_strict ? 1 : 0);
    }
    if (lo > hi) return std::nullopt;
    return std::make_pair(lo, hi);
  }

  /// The first and last position in `facts` (query(source, scope)) of the facts a Range probe
  /// finds, when the facts are in order of its field: every fact it finds lies between them.
  /// {1, 0} when it finds none; nullopt when the facts are not in that order (no narrowing).
  std::optional<std::pair<uint32_t, uint32_t>> range_span(const std::string& source, const Scope& scope,
                                                           const std::vector<FactPtr>& facts, const Probe& probe) {
    Index& idx = index(query_key(source, scope), facts, probe);
    if (!idx.in_order) return std::nullopt;
    auto bounds = range_bounds(probe);
    if (!bounds) return std::make_pair(uint32_t{1}, uint32_t{0});
    auto first = std::lower_bound(idx.sorted.begin(), idx.sorted.end(), std::make_pair(bounds->first, uint32_t{0}));
    auto last = std::upper_bound(first, idx.sorted.end(), std::make_pair(bounds->second, UINT32_MAX));
    if (first == last) return std::make_pair(uint32_t{1}, uint32_t{0});
    return std::make_pair(first->second, std::prev(last)->second);
  }

  /// A Range probe's lookup: the facts whose field lies between the bounds, in fact order. A
  /// bound that is not an integer makes its comparison false for every fact: no candidates.
  template <class Body>
  void range_scan(const std::string& source, const Scope& scope, const Probe& probe, Body&& body) {
    const auto& facts = query(source, scope);
    auto bounds = range_bounds(probe);
    if (!bounds) return;
    const auto [lo, hi] = *bounds;
    Index& idx = index(query_key(source, scope), facts, probe);
    auto first = std::lower_bound(idx.sorted.begin(), idx.sorted.end(), std::make_pair(lo, uint32_t{0}));
    auto last = std::upper_bound(first, idx.sorted.end(), std::make_pair(hi, UINT32_MAX));
    if (idx.in_order) {
      for (auto it = first; it != last; ++it)
        if (!body(Value(facts[it->second]))) return;
      return;
    }
    std::vector<uint32_t> at;
    at.reserve(static_cast<size_t>(last - first));
    for (auto it = first; it != last; ++it) at.push_back(it->second);
    std::sort(at.begin(), at.end());
    for (uint32_t i : at)
      if (!body(Value(facts[i]))) return;
  }

  /// The value of `name.path[0].path[1]...`: a binding, else a let, else `pr`; null when a link
  /// of the chain is not a fact.
  Value resolve(const std::string& name, const std::vector<std::string>& path) {
    Value v;
    if (const Value* b = lookup(name)) {
      if (path.empty()) return *b;
      // the bound fact's field, read through the binding (no copy of the fact pointer)
      const Fact* fact = b->as_fact().get();
      if (!fact) return {};
      v = fact->get(path[0]);
      for (size_t i = 1; i < path.size(); ++i) {
        const FactPtr& next = v.as_fact();
        if (!next) return {};
        Value field = next->get(path[i]);
        v = std::move(field);
      }
      return v;
    } else if (auto it = p_.lets.find(name); it != p_.lets.end()) {
      v = p_.data.let(name);
    } else if (name == "pr") {
      v = pr();
    }
    for (const auto& f : path) {
      const FactPtr& fact = v.as_fact();
      if (!fact) return {};
      v = fact->get(f);
    }
    return v;
  }

  Value var(const Expr& e) { return resolve(e.text, e.path); }

  /// Whether `lhs` (a string, or a list of them: any element) matches the regex of the match
  /// condition `e`; `bind` adds its named groups to the environment.
  bool match(const Expr& e, const Value& lhs, bool bind) {
    if (lhs.is_list())
      return match_texts(e, bind, [&](auto&& try_one) {
        for (const auto& v : lhs.as_list())
          if (v.is_string() && try_one(v.as_string())) return true;
        return false;
      });
    return lhs.is_string() && match_text(e, lhs.as_string(), bind);
  }

  /// match() for one text.
  bool match_text(const Expr& e, std::string_view text, bool bind) {
    return match_texts(e, bind, [&](auto&& try_one) { return try_one(text); });
  }

  /// The regex of `e` with its holes filled, asked through `each(try_one)`: `each` calls
  /// try_one(text) for the texts to try and returns whether one matched.
  template <class Each>
  bool match_texts(const Expr& e, bool bind, Each&& each) {
    auto it = p_.regexes.find(e.kids[1].get());
    if (it == p_.regexes.end()) return false;
    const CompiledRegex& cr = *it->second;
    std::vector<std::string> holes;
    for (const auto& h : cr.holes) {
      Value v = resolve(h.name, h.path);
      // A capture of an alternative that did not run inserts "" (`{kw}{kw2}` after `a ~ /(?P<kw>..)/
      // or b ~ /(?P<kw2>..)/`); a field chain that ends in null has nothing to insert: no match.
      if (v.is_null() && !h.path.empty()) return false;
      holes.push_back(v.to_text());
    }
    std::shared_ptr<const re2::RE2> re;
    bool compiled = false;
    std::vector<std::string> groups;
    const bool named = bind && cr.named;
    // A regex without holes whose groups nobody reads: its answers for recent texts are kept
    // (several rules ask the same regex of the same lines: `/[^\s"']/`, a line that is not
    // blank, some 400,000 times in an ATOM audit)
    RecentAnswers<bool>* memo = nullptr;
    if (cr.holes.empty() && !named) memo = &match_memo_.try_emplace(&cr, kMatchMemoSlots).first->second;
    auto try_one = [&](std::string_view text) {
      // a literal prefilter: a text without the literals or hole values every match of one of
      // the pattern's alternatives holds cannot match (literal_needs)
      if (!cr.needs.passes(text, holes)) return false;
      if (memo)
        if (const bool* known = memo->find(text)) return *known;
      if (!compiled) {
        re = cr.instance(holes);
        compiled = true;
      }
      const bool hit = re && regex_search(*re, text, named ? &groups : nullptr);
      if (memo) memo->keep(text, hit);
      return hit;
    };
    const bool hit = each(try_one);
    if (hit && named) {
      for (size_t i = 1; i < cr.group_names.size() && i < groups.size(); ++i)
        if (!cr.group_names[i].empty()) env_.push_back({cr.group_names[i], Value(groups[i]), true});
    }
    return hit;
  }

  /// `name.field` as a view of the text of the fact `name` is bound to, when that fact lends
  /// it (Fact::text); nullopt otherwise (eval() then answers).
  std::optional<std::string_view> lent_text(const Expr& e) const {
    if (e.kind != Expr::Kind::Var || e.path.size() != 1) return std::nullopt;
    const Value* b = lookup(e.text);
    if (!b || !b->is_fact()) return std::nullopt;
    return b->as_fact()->text(e.path[0]);
  }

  /// The comparison operators, told apart by length and first characters (a condition is
  /// evaluated millions of times in an audit: no string comparison per evaluation).
  enum class Op { Match, NotMatch, Eq, Ne, Lt, Le, Gt, Ge, Like, NotLike, In, NotIn };
  static Op op_of(const std::string& op) {
    const char a = op.empty() ? '\0' : op[0], b = op.size() > 1 ? op[1] : '\0';
    switch (a) {
      case '~': return Op::Match;
      case '!': return b == '~' ? Op::NotMatch : Op::Ne;
      case '=': return Op::Eq;
      case '<': return b == '=' ? Op::Le : Op::Lt;
      case '>': return b == '=' ? Op::Ge : Op::Gt;
      case 'l': return Op::Like;
      case 'i': return Op::In;
      default: return op.size() > 4 && op[4] == 'l' ? Op::NotLike : Op::NotIn;  // "not like" / "not in"
    }
  }

  /// Whether `path` matches the glob `globs` (a string) or one of its strings (a list).
  static bool like_any(std::string_view path, const Value& globs) {
    if (globs.is_string()) return glob_match(globs.as_string(), path);
    for (const auto& g : globs.as_list())
      if (g.is_string() && glob_match(g.as_string(), path)) return true;
    return false;
  }

  Value compare(const Expr& e) {
    const Op op = op_of(e.text);
    if (op == Op::Match || op == Op::NotMatch)
      if (auto text = lent_text(*e.kids[0]))  // no copy of a line's text per condition
        return Value(op == Op::Match ? match_text(e, *text, true) : !match_text(e, *text, false));
    if (op == Op::Eq || op == Op::Ne || op == Op::Like || op == Op::NotLike)
      if (auto a = lent_text(*e.kids[0])) {  // no copy of a fact's text per condition
        if (op == Op::Like || op == Op::NotLike) return Value(like_any(*a, eval(*e.kids[1])) != (op == Op::NotLike));
        // a string equals only a string of the same text (operator== on Value)
        Value r;  // the right side when it lends no view (`b` may view it)
        auto b = e.kids[1]->kind == Expr::Kind::String ? std::optional<std::string_view>(e.kids[1]->text) : lent_text(*e.kids[1]);
        if (!b && (r = eval(*e.kids[1])).is_string()) b = std::string_view(r.as_string());
        return Value((b && *a == *b) == (op == Op::Eq));
      }
    Value l = eval(*e.kids[0]);
    if (op == Op::Match) return Value(match(e, l, true));
    if (op == Op::NotMatch) return Value(!l.is_null() && !match(e, l, false));
    Value r = eval(*e.kids[1]);
    if (op == Op::Eq) return Value(l == r);
    if (op == Op::Ne) return Value(!(l == r));
    // `not like` / `not in` negate, except that a null left side (a missing field) makes both
    // forms false, as it does for `~` and `!~`
    if (op == Op::Like || op == Op::NotLike) {
      if (!l.is_string()) return Value(false);
      return Value(like_any(l.as_string(), r) != (op == Op::NotLike));
    }
    if (op == Op::In || op == Op::NotIn) {
      if (l.is_null()) return Value(false);
      bool hit = false;
      if (r.is_string()) hit = l.is_string() && r.as_string().find(l.as_string()) != std::string::npos;
      for (const auto& x : r.as_list())
        if (!hit && x == l) hit = true;
      return Value(hit != (op == Op::NotIn));
    }
    if (!l.is_int() || !r.is_int()) return Value(false);
    int64_t a = l.as_int(), b = r.as_int();
    if (op == Op::Lt) return Value(a < b);
    if (op == Op::Le) return Value(a <= b);
    if (op == Op::Gt) return Value(a > b);
    return Value(a >= b);
  }

  /// Integer `+ - *` saturate at the int64 limits (never wrap); `+` joins two strings (null past
  /// kMaxJoinedString); any other mix (a null side from a missing field included) gives null.
  Value arith(const Expr& e) {
    Value l = eval(*e.kids[0]);
    Value r = eval(*e.kids[1]);
    const char op = e.text.empty() ? '+' : e.text[0];
    if (op == '+' && l.is_string() && r.is_string()) {
      if (l.as_string().size() + r.as_string().size() > kMaxJoinedString) return {};
      return Value(l.as_string() + r.as_string());
    }
    if (!l.is_int() || !r.is_int()) return {};
    int64_t a = l.as_int(), b = r.as_int(), out = 0;
    bool overflow = op == '+'   ? __builtin_add_overflow(a, b, &out)
                    : op == '-' ? __builtin_sub_overflow(a, b, &out)
                                : __builtin_mul_overflow(a, b, &out);
    if (!overflow) return Value(out);
    bool negative = op == '+' ? a < 0 : op == '-' ? a < b : (a < 0) != (b < 0);
    return Value(negative ? INT64_MIN : INT64_MAX);
  }

  /// int(s): the decimal integer s starts with (after blanks, an optional '-'); version(s): a dotted
  /// version "M[.m[.p]]" (an optional leading 'v') as M*1000000 + m*1000 + p, each part below 1000.
  /// Null when s is not a string, has no digits where they are needed, or a part is out of range.
  static Value number(bool version, const Value& v) {
    if (!v.is_string()) return {};
    const std::string& s = v.as_string();
    size_t i = s.find_first_not_of(" \t");
    if (i == std::string::npos) return {};
    bool too_big = false;
    auto digits = [&](int64_t limit) -> std::optional<int64_t> {
      size_t start = i;
      int64_t n = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        n = n * 10 + (s[i] - '0');
        if (n >= limit) {
          too_big = true;
          return std::nullopt;
        }
        ++i;
      }
      if (i == start) return std::nullopt;
      return n;
    };
    if (!version) {
      bool neg = s[i] == '-';
      if (neg) ++i;
      auto n = digits(INT64_MAX / 10);
      if (!n) return {};
      return Value(neg ? -*n : *n);
    }
    if (s[i] == 'v' || s[i] == 'V') ++i;
    int64_t out = 0, scale = 1000000;
    for (int part = 0; part < 3; ++part) {
      auto n = digits(1000);
      if (!n) {
        if (part == 0 || too_big) return {};
        break;
      }
      out += *n * scale;
      scale /= 1000;
      if (i + 1 < s.size() && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') ++i;
      else break;
    }
    return Value(out);
  }

  /// lower(s): ASCII letters lowered; trim(s): ASCII white space cut at both ends; oneline(s): trim, and
  /// every inner run of white space (line breaks included) made one space; len(s): UTF-8 code points; len(list): items. Any other
  /// argument (null included) gives null.
  Value call(const Expr& e) {
    if (e.kids.size() != 1) return {};
    Value v = eval(*e.kids[0]);
    if (e.text == "lower") {
      if (!v.is_string()) return {};
      std::string s = v.as_string();
      for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      return Value(std::move(s));
    }
    if (e.text == "trim") {
      if (!v.is_string()) return {};
      const std::string& s = v.as_string();
      size_t a = s.find_first_not_of(" \t\r\n\f\v");
      if (a == std::string::npos) return Value(std::string());
      size_t b = s.find_last_not_of(" \t\r\n\f\v");
      return Value(s.substr(a, b - a + 1));
    }
    if (e.text == "int" || e.text == "version") return number(e.text == "version", v);
    if (e.text == "oneline") {  // every run of white space (line breaks included) becomes one space
      if (!v.is_string()) return {};
      std::string out;
      bool space = false;
      for (char c : v.as_string()) {
        bool ws = c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
        if (ws) {
          space = !out.empty();
          continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
      }
      return Value(std::move(out));
    }
    if (e.text == "len") {
      if (v.is_list()) return Value(static_cast<int64_t>(v.as_list().size()));
      if (!v.is_string()) return {};
      int64_t n = 0;
      for (char c : v.as_string()) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      return Value(n);
    }
    return {};
  }

  Value eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Bool: return Value(e.boolean);
      case Expr::Kind::Int: return Value(e.integer);
      case Expr::Kind::String:
      case Expr::Kind::Regex: return Value(e.text);
      case Expr::Kind::List: {
        Value::List l;
        for (const auto& k : e.kids) l.push_back(eval(*k));
        return Value(std::move(l));
      }
      case Expr::Kind::Var: return var(e);
      case Expr::Kind::Not: return Value(!eval(*e.kids[0]).truthy());
      case Expr::Kind::And:
        for (const auto& k : e.kids)
          if (!eval(*k).truthy()) return Value(false);
        return Value(true);
      case Expr::Kind::Or:
        for (const auto& k : e.kids)
          if (eval(*k).truthy()) return Value(true);
        return Value(false);
      case Expr::Kind::Compare: return compare(e);
      case Expr::Kind::Arith: return arith(e);
      case Expr::Kind::Count:
      case Expr::Kind::Exists: {
        if (!e.domain) {
          Value v = eval(*e.kids[0]);
          return Value(static_cast<int64_t>(v.is_list() ? v.as_list().size() : 0));
        }
        if (plan_now_ && !plan_now_->binders.empty())
          if (auto it = plan_now_->binders.find(&e); it != plan_now_->binders.end()) {
            Table& t = tables_[static_cast<size_t>(it->second.table)];
            if (!t.off) return tabled_binder(e, it->second, t);
          }
        return binder(e);
      }
      case Expr::Kind::Findings: {
        auto it = by_tag_.find(e.text);
        return it == by_tag_.end() ? Value(Value::List{}) : Value(it->second);
      }
      case Expr::Kind::Call: return call(e);
      case Expr::Kind::KindRef: {
        auto it = kinds_.find(e.text);
        return Value(it != kinds_.end() && it->second);
      }
    }
    return {};
  }

  /// The value of binder `e` (an exists or count with a domain): its domain scanned or looked
  /// up, its `where` evaluated on each element.
  Value binder(const Expr& e) {
    bool count = e.kind == Expr::Kind::Count;
    int64_t n = 0;
    bool found = false;
    size_t mark = env_.size();
    auto pi = p_.probes.find(&e);
    scan(*e.domain, pi == p_.probes.end() ? nullptr : &pi->second, [&](const Value& f) {
      tick();
      env_.push_back({e.binder, f, false});
      bool ok = e.kids.empty() || eval(*e.kids[0]).truthy();
      env_.resize(mark);
      if (!ok) return true;
      if (!count) {
        found = true;
        return false;
      }
      ++n;
      return true;
    });
    return count ? Value(n) : Value(found);
  }

  /// Whether every filter holds (a negated one must not). `probed`: the facts come from their
  /// `for`'s probe, which meets the filters it serves (Filter::served) already.
  bool pass(const std::vector<Filter>& fs, bool probed = false) {
    for (const auto& f : fs) {
      if (probed && f.served) continue;
      bool v;
      if (f.memo >= 0) {  // loop-invariant: reuse the value while its last `for` keeps its binding
        auto& m = memo_[static_cast<size_t>(f.memo)];
        const uint64_t at = epoch_[static_cast<size_t>(f.stage + 1)];
        if (m.first != at) m = {at, eval(*f.expr).truthy()};
        v = m.second;
      } else if (f.table >= 0 && static_cast<size_t>(f.table) < tables_.size() &&
                 !tables_[static_cast<size_t>(f.table)].off) {
        v = tabled(f);
      } else {
        v = eval(*f.expr).truthy();
      }
      if (v == f.negate) return false;
    }
    return true;
  }

  /// The value of tabled filter `f` (Filter::table): looked up by the values of the names it
  /// reads (a fact or list by its address, kept alive by the entry; a scalar by its text),
  /// evaluated and stored on a miss. A table whose keys do not repeat (fewer than one hit in
  /// kMinHitShare after kTableTrial lookups) is dropped and the filter evaluated as written.
  bool tabled(const Filter& f) {
    std::string key;
    std::vector<Value> kept;
    kept.reserve(f.reads.size());
    for (const auto& name : f.reads) {
      const Value* b = lookup(name);
      add_key(b ? *b : resolve(name, {}), key, kept);
    }
    Table& t = tables_[static_cast<size_t>(f.table)];
    return lookup_or_eval(t, std::move(key), std::move(kept), [&] { return Value(eval(*f.expr).truthy()); }).truthy();
  }

  /// The value of tabled binder `e` (RulePlan::binders): looked up by the values of the paths it
  /// reads, evaluated and stored on a miss, like a tabled filter.
  Value tabled_binder(const Expr& e, const TabledBinder& tb, Table& t) {
    std::string key;
    std::vector<Value> kept;
    for (const auto& rd : tb.reads) add_key(resolve(rd.name, rd.path), key, kept);
    return lookup_or_eval(t, std::move(key), std::move(kept), [&] { return binder(e); });
  }

  /// Appends `v` to a table key: a fact or list by its address (kept alive in `kept`, so the
  /// address stays its own), a scalar by its text.
  static void add_key(Value v, std::string& key, std::vector<Value>& kept) {
    if (v.is_fact()) {
      key += 'f' + std::to_string(reinterpret_cast<uintptr_t>(v.as_fact().get()));
    } else if (v.is_list()) {
      key += 'l' + std::to_string(reinterpret_cast<uintptr_t>(&v.as_list()));
    } else if (v.is_string()) {
      key += 's' + std::to_string(v.as_string().size()) + ':' + v.as_string();
    } else if (v.is_int()) {
      key += 'i' + std::to_string(v.as_int());
    } else if (v.is_bool()) {
      key += v.as_bool() ? "t" : "F";
    } else {
      key += 'n';
    }
    key += '\1';
    if (v.is_fact() || v.is_list()) kept.push_back(std::move(v));
  }

  /// The entry of `key` in `t`, else `compute()` stored under it. A table whose keys do not
  /// repeat (fewer than one hit in kMinHitShare after kTableTrial lookups) is switched off.
  template <class F>
  Value lookup_or_eval(Table& t, std::string key, std::vector<Value> kept, F compute) {
    ++t.lookups;
    if (auto it = t.entries.find(key); it != t.entries.end()) {
      ++t.hits;
      return it->second.value;
    }
    Value value = compute();
    if (t.lookups >= kTableTrial && t.hits * kMinHitShare < t.lookups) {
      t.off = true;  // keys that (almost) never repeat: stop paying for them
      t.entries = {};
      return value;
    }
    if (t.entries.size() < kMaxTabled) t.entries.emplace(std::move(key), Tabled{value, std::move(kept)});
    return value;
  }

  /// Runs the rule's main body, then each `also` body (the union of their findings), each from
  /// a fresh environment after the rule's `when`. One deadline covers them all: a body over
  /// budget stops the whole rule.
  void run_rule(const ast::Rule& r) {
    run_body(r, r);
    for (const auto& a : r.alsos) run_body(r, a);
  }

  void run_body(const ast::Rule& r, const ast::Rule& body) {
    env_.clear();
    struct Reset {
      const RulePlan*& p;
      ~Reset() { p = nullptr; }
    } reset{plan_now_};
    plan_now_ = nullptr;
    if (r.when && !eval(*r.when).truthy()) {
      when_false_ = true;
      return;
    }
    const RulePlan* plan = &naive_;
    if (opts_.use_plan) {
      auto it = p_.plans.find(&body);
      if (it != p_.plans.end()) plan = &it->second;
    }
    if (plan == &naive_) naive_ = naive_plan(body);
    // epoch_[i + 1]: a number taken when the i-th `for` last bound its variable (epoch_[0]: this
    // body's start); a memoised filter's value stands while the epoch of its stage is unchanged
    epoch_.assign(body.fors.size() + 1, 0);
    epoch_[0] = ++serial_;
    memo_.assign(plan->memos, {0, false});
    tables_.assign(plan->tables, {});
    plan_now_ = plan;
    if (!pass(plan->before)) return;
    // A condition memoised once for the whole body (a loop-invariant anti-join reading no `for`
    // variable) must hold for any finding, wherever it is written. When it reads only facts at
    // hand it is checked now: that costs one look at facts that exist, and when it fails no
    // binding of the loops can make a finding (E1 over aiter: `unless exists a in files(changed)
    // where a.path like "aiter/**"` held, and its loops ran 4.6 s for nothing). Its value is
    // memoised, so the loops do not evaluate it again.
    auto early = [&](const std::vector<Filter>& fs) {
      for (const auto& f : fs)
        if (f.memo >= 0 && f.stage < 0 && at_hand(*f.expr) && !pass({f})) return false;
      return true;
    };
    for (const auto& fp : plan->fors)
      if (!early(fp.filters)) return;
    if (!early(plan->after)) return;
    // A later `for` whose own conditions no fact meets (ForPlan::own) leaves the loops nothing
    // to bind: checked when its facts are at hand (one look, stopping at the first that meets them).
    for (size_t i = 1; i < plan->fors.size(); ++i)
      if (!plan->fors[i].own.empty() && !some_fact(body.fors[i], plan->fors[i])) return;
    // Nor does a later `for` over one file's facts of a source that has none in the change
    // (`for r in removed_lines(a.file)` in an audit): checked once, not once per binding.
    for (size_t i = 1; i < body.fors.size() && opts_.use_plan; ++i)
      if (file_read(body.fors[i].domain) && none_in_change(body.fors[i].domain)) return;
    // Nor does a later `for`, or a `where exists` that must hold, over a scope that holds no
    // file (`base` in an audit): its facts cost nothing to ask for, and when there are none the
    // loops cannot bind (B5a's `where exists b in functions(base) …` ran its loops for nothing).
    if (opts_.use_plan && !bindable(body, *plan)) return;
    // A `for` that reads a source for the files earlier `for`s name (ForPlan::by_files): those
    // files first, by binding the earlier `for`s once.
    by_files_.clear();
    for (size_t k = 1; k < body.fors.size() && opts_.use_plan && opts_.read_by_key; ++k) {
      const ForPlan& fp = plan->fors[k];
      if (!fp.by_files || !fp.probe) continue;
      // the earlier `for`s bound once, each binding's key collected (no finding is made)
      std::set<std::string> files;
      bind(body, *plan, 0, k, nullptr, [&](const FactPtr&) {
        Value v = eval(*fp.probe->key);
        if (v.is_string()) files.insert(v.as_string());
      });
      FileSet& fs = by_files_[&*fp.probe];
      fs.files.assign(files.begin(), files.end());
      for (const auto& f : fs.files) fs.id += f + '\x1e';
      if (fp.partner >= 0 && !fs.files.empty()) {  // no files: nothing is read, nothing to pair
        fs.partners = admitted(body.fors[static_cast<size_t>(fp.partner)], plan->fors[static_cast<size_t>(fp.partner)]);
        fs.id += '\x1d';
        for (const auto& f : *fs.partners) fs.id += f + '\x1e';
      }
    }
    join(body, *plan, 0, nullptr);
  }

  /// False when a `for` of `body` after the first, or a condition of `plan` that must hold (an
  /// `exists`, not under `unless`), ranges over a fact source and a scope known before the rule
  /// runs that holds no file (Facts::reads_no_file) and the source has no fact there: then no
  /// binding of the loops makes a finding. True otherwise (nothing is built to find out).
  bool bindable(const ast::Rule& body, const RulePlan& plan) {
    auto none = [&](const ast::Domain& d) {
      if (d.findings || list_domain(d) || d.source == "pr" || d.scope.kind == ast::ScopeExpr::Kind::Expr) return false;
      Scope scope = scope_of(d.scope);
      return facts_.reads_no_file(scope) && query(d.source, scope).empty();
    };
    for (size_t i = 1; i < body.fors.size(); ++i)
      if (none(body.fors[i].domain)) return false;
    auto holds = [&](const std::vector<Filter>& fs) {
      for (const auto& f : fs)
        if (!f.negate && f.expr->kind == Expr::Kind::Exists && f.expr->domain && none(*f.expr->domain)) return false;
      return true;
    };
    for (const auto& fp : plan.fors)
      if (!holds(fp.filters)) return false;
    return holds(plan.after);
  }

  /// The values of the looked-up field (Probe::path) of the facts of `for` clause `f` (planned
  /// as `fp`, over a scope known in advance) that meet its own conditions (ForPlan::own), sorted,
  /// no duplicates: the keys its lookup can find (ForPlan::partner). Strings only: a lookup by a
  /// file's path finds no other value.
  std::vector<std::string> admitted(const ast::ForClause& f, const ForPlan& fp) {
    std::set<std::string> keys;
    for (const auto& fact : query(f.domain.source, scope_of(f.domain.scope)))
      if (meets_own(f, fp, fact))
        if (Value v = fact->get(fp.probe->path[0]); v.is_string()) keys.insert(v.as_string());
    return {keys.begin(), keys.end()};
  }

  /// Whether `fact`, bound to the variable of `for` clause `f`, meets every condition of
  /// ForPlan::own (`fp`'s conditions that read no other `for` variable).
  bool meets_own(const ast::ForClause& f, const ForPlan& fp, const FactPtr& fact) {
    tick();
    size_t mark = env_.size();
    env_.push_back({f.var, Value(fact), false});
    bool all = true;
    for (size_t j : fp.own) all = all && eval(*fp.filters[j].expr).truthy() != fp.filters[j].negate;
    env_.resize(mark);
    return all;
  }

  /// False when the facts of `f`'s source over its scope are at hand and none meets all of
  /// `fp.own`; true otherwise (not at hand: not known, and not worth building here).
  bool some_fact(const ast::ForClause& f, const ForPlan& fp) {
    const std::string key = query_key(f.domain.source, scope_of(f.domain.scope));
    auto it = cache_.find(key);
    if (it == cache_.end()) return true;
    for (const auto& fact : *it->second)
      if (meets_own(f, fp, fact)) return true;
    return false;
  }

  /// Whether evaluating `e` now reads only facts at hand: each fact source it ranges over was
  /// queried before over the same scope, a scope that needs no evaluation (changed, base, repo,
  /// globs, a `let` or repository name), and `pr` was read already.
  bool at_hand(const Expr& e) {
    if (e.kind == Expr::Kind::Var && e.text == "pr" && !lookup(e.text) && !pr_loaded_) return false;
    if (e.domain) {
      const ast::Domain& d = *e.domain;
      if (d.list && !d.bare && !at_hand(*d.list)) return false;
      if (!d.findings && !list_domain(d)) {
        if (d.source == "pr") {
          if (!pr_loaded_) return false;
        } else {
          if (d.scope.kind == ast::ScopeExpr::Kind::Expr) {
            const Expr& x = *d.scope.expr;
            if (x.kind != Expr::Kind::Var || !x.path.empty() || lookup(x.text)) return false;
          }
          if (!cache_.count(query_key(d.source, scope_of(d.scope)))) return false;
        }
      }
    }
    for (const auto& k : e.kids)
      if (!at_hand(*k)) return false;
    return true;
  }

  void join(const ast::Rule& r, const RulePlan& plan, size_t i, FactPtr first) {
    bind(r, plan, i, r.fors.size(), std::move(first), [&](FactPtr at) {
      if (!pass(plan.after)) return;
      if (r.at) {
        Value v = eval(*r.at);
        if (v.is_fact()) at = v.as_fact();
      }
      emit(r, at);
    });
  }

  /// Binds the `for`s of `r` from the i-th up to (not including) the `stop`-th, each checked
  /// with its filters, and calls `done(first)` for every binding that passes them all (`first`:
  /// the first `for`'s fact). join() runs every `for` and emits; the reads of a few files
  /// (ForPlan::by_files) stop before the `for` they read for, to collect its keys.
  template <class Done>
  void bind(const ast::Rule& r, const RulePlan& plan, size_t i, size_t stop, FactPtr first, Done&& done) {
    if (i == stop) {
      done(std::move(first));
      return;
    }
    const auto& f = r.fors[i];
    const ForPlan& fp = plan.fors[i];
    size_t mark = env_.size();
    bool indexed = false;  // set by scan before the first candidate
    scan(
        f.domain, fp.probe ? &*fp.probe : nullptr,
        [&](const Value& v) {
          tick();
          env_.push_back({f.var, v, false});
          epoch_[i + 1] = ++serial_;
          if (pass(fp.filters, indexed)) bind(r, plan, i + 1, stop, i == 0 ? v.as_fact() : first, done);
          env_.resize(mark);
          return true;
        },
        &indexed);
  }

  /// The template's text with its holes filled in, in a string of exactly its length (findings
  /// keep their texts for the whole run: growing by appends left up to twice the bytes).
  std::string render(const ast::Template& t, Witness* witness) {
    std::vector<std::string> holes;
    size_t size = 0;
    for (const auto& part : t.parts) {
      if (!part.hole) {
        size += part.text.size();
        continue;
      }
      holes.push_back(eval(*part.hole).to_text());
      size += holes.back().size();
      if (witness) witness->set(part.text, holes.back());
    }
    std::string out;
    out.reserve(size);
    size_t next = 0;
    for (const auto& part : t.parts) out += part.hole ? holes[next++] : part.text;
    return out;
  }

  void emit(const ast::Rule& r, const FactPtr& at) {
    const RuleMeta& m = rule_->meta;
    Finding f;
    f.rule_id = m.id;
    f.rule_title = m.title;
    f.severity = m.severity;
    f.evidence = m.evidence;
    if (!r.label.empty()) {  // an `also` body: its own severity and evidence (the rule's unless set)
      f.label = r.label;
      f.severity = severity_of(r.severity);
      f.evidence = r.evidence == "inferred" ? Evidence::Inferred : Evidence::Verified;
    }
    // `severity WORD if COND`: the first whose condition holds with this finding's bindings
    for (const auto& s : r.severity_ifs)
      if (eval(*s.cond).truthy()) {
        f.severity = severity_of(s.severity);
        break;
      }
    f.tags = m.tags;
    if (at) {
      f.file = at->file;
      f.line = at->line;
      f.end_line = at->end_line;
      f.column = at->column;
      Value text = at->get("text");
      if (text.is_string()) f.snippet = text.as_string();
    }
    // a capture named with a leading `_` is the rule's own bookkeeping (an indentation to match
    // a block by), not evidence: it stays out of the witness
    for (const auto& b : env_)
      if (b.capture && !b.name.empty() && b.name[0] != '_') f.witness.set(std::string(b.name), b.value.to_text());
    if (at) {
      // Does the change touch this finding? Its own fact, every fact bound in the rule, and the
      // facts those reference directly, when they lie on an added line or are a removed line (in
      // any file: a caller in an unchanged file that still passes a removed parameter, or a kept
      // comment whose statement was deleted, is touched by the change).
      auto on_added = [&](const FactPtr& x) {
        if (!x || x->file.empty() || x->line <= 0) return false;
        if (facts_.is_added(x->file, x->line)) return true;
        Value kind = x->get("kind");  // line facts: "removed" for a removed line, in any scope
        return kind.is_string() && kind.as_string() == "removed";
      };
      auto touches = [&](const FactPtr& x) {
        if (on_added(x)) return true;
        if (x)
          for (const auto& [name, v] : x->fields)
            if (v.is_fact() && on_added(v.as_fact())) return true;
        return false;
      };
      f.touches_change = touches(at);
      for (const auto& b : env_)
        if (!f.touches_change && b.value.is_fact()) f.touches_change = touches(b.value.as_fact());
    }
    if (at && !r.fors.empty()) {
      // the location under the name of the variable it is: `at k` names k, else the first `for`
      const std::string& var =
          r.at && r.at->kind == Expr::Kind::Var && r.at->path.empty() ? r.at->text : r.fors[0].var;
      f.witness.set(var + ".file", at->file);
      f.witness.set(var + ".line", std::to_string(at->line));
    }
    f.problem = render(r.problem, &f.witness);
    f.impact = render(r.impact, nullptr);
    f.action = render(r.action, nullptr);
    if (!f.file.empty()) {
      int best = 0;
      for (const auto& t : p_.data.tiers)
        if (glob_match(t.glob, f.file) && (best == 0 || t.tier < best)) best = t.tier;
      if (best > 0) f.tier = std::to_string(best);
    }
    // the rule's first finding with this file, line, problem and label stands; later equal ones
    // (another binding that reads the same) are dropped
    const std::hash<std::string_view> h;
    size_t key = h(f.file);
    for (size_t part : {h(f.problem), h(f.label), std::hash<int>()(f.line)})
      key ^= part + 0x9e3779b97f4a7c15ULL + (key << 6) + (key >> 2);
    for (auto [it, end] = seen_.equal_range(key); it != end; ++it) {
      if (it->second >= found_->size()) continue;
      const Finding& g = (*found_)[it->second];
      if (g.line == f.line && g.file == f.file && g.problem == f.problem && g.label == f.label) return;
    }
    seen_.emplace(key, static_cast<uint32_t>(found_->size()));
    found_->push_back(std::move(f));
  }
};

}  // namespace

EvalResult evaluate(const Program& program, Facts& facts, const EvalOptions& opts) {
  Evaluator e(program.impl(), facts, opts);
  return run_program(program.impl(), opts, e);
}

}  // namespace review::dsl
