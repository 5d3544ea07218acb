#include "runner/pipeline/differential.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "runner/facts/change_facts.hpp"
#include "runner/lang/model.hpp"
#include "runner/report/fingerprint.hpp"

namespace review::pipeline {

namespace {

// The base side of a change read as a change of its own in which every line is new: head(p) is
// the base text, nothing has a base.
class BaseAsHead final : public change::ContentSource {
 public:
  explicit BaseAsHead(std::shared_ptr<change::ContentSource> inner) : inner_(std::move(inner)) {}
  std::optional<std::string> head(const std::string& path) override { return inner_->base(path); }
  std::optional<std::string> base(const std::string&) override { return std::nullopt; }
  std::vector<std::string> head_files() override { return inner_->head_files(); }

 private:
  std::shared_ptr<change::ContentSource> inner_;
};

bool analysable(const change::ChangedFile& f) { return !f.skipped && !f.binary && !f.submodule; }
std::string base_path(const change::ChangedFile& f) { return f.old_path.empty() ? f.path : f.old_path; }

// "The same finding": rule id, head path and report::line_hash of the line text.
std::string same_key(const dsl::Finding& f, const std::string& head_path, const std::string& line_text) {
  dsl::Finding g;
  g.rule_id = f.rule_id;
  g.file = head_path;
  g.line = f.line;
  return f.rule_id + '\x1f' + head_path + '\x1f' + report::line_hash(g, line_text);
}

}  // namespace

DifferentialStats mark_pre_existing(const std::shared_ptr<const change::Change>& change,
                                    const std::vector<std::shared_ptr<const dsl::Program>>& programs,
                                    const DifferentialOptions& options, std::vector<dsl::Finding>& findings) {
  DifferentialStats stats;
  if (!change || !change->content || change->hunks_only) return stats;
  auto t0 = std::chrono::steady_clock::now();
  stats.ran = true;

  // 1. Candidates.
  std::vector<std::size_t> candidates;
  std::set<std::string> rules;
  std::map<std::string, const change::ChangedFile*> files;  // base path -> changed file
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    if (f.file.empty() || f.line < 1 || f.suppressed) continue;
    const change::ChangedFile* cf = change->find(f.file);
    if (!cf || cf->status == change::FileStatus::Added || cf->status == change::FileStatus::Deleted ||
        !analysable(*cf) || cf->added_lines.count(f.line))
      continue;
    candidates.push_back(i);
    rules.insert(f.rule_id);
    files.emplace(base_path(*cf), cf);
  }
  stats.candidates = candidates.size();
  if (candidates.empty()) return stats;

  // 2. The base change: the candidates' files at base, where the lines the change's hunks cover
  //    on the base side (removed and context lines) are the added ones: "had this region of the
  //    base been the change, would the rule have reported it?" (Marking every base line added
  //    would make rules that join over added lines scan whole files.)
  auto base = std::make_shared<change::Change>();
  base->pr = change->pr;
  base->content = std::make_shared<BaseAsHead>(change->content);
  std::map<std::string, std::string> base_texts;
  for (const auto& [path, cf] : files) {
    auto text = change->content->base(path);
    if (!text) continue;
    change::ChangedFile b;
    b.path = path;
    b.status = change::FileStatus::Added;
    for (const auto& hk : cf->hunks)
      for (const auto& l : hk.lines)
        if (l.old_line > 0) b.added_lines.insert(l.old_line);
    change::Hunk h;
    h.old_start = 0;
    h.new_start = 1;
    auto lines = lang::split_lines(*text);
    h.new_count = static_cast<int>(lines.size());
    for (std::size_t n = 1; n <= lines.size(); ++n) {
      bool added = b.added_lines.count(static_cast<int>(n)) > 0;
      h.lines.push_back({added ? change::LineKind::Added : change::LineKind::Context, 0, static_cast<int>(n), lines[n - 1]});
    }
    b.added_count = static_cast<int>(b.added_lines.size());
    b.hunks.push_back(std::move(h));
    base->files.push_back(std::move(b));
    base_texts.emplace(path, std::move(*text));
  }
  stats.files = base->files.size();
  stats.rules = rules.size();

  // 3. Only the candidates' rules, over the base files.
  std::map<std::string, int> on_base;  // same_key -> how many times the base reports it
  if (!base->files.empty()) {
    facts::ChangeFacts::Options fopts;
    fopts.jobs = options.jobs;
    fopts.max_file_bytes = options.max_file_bytes;
    fopts.memory_exceeded = options.memory_exceeded;
    if (options.head_facts) {
      // a path whose base and head texts are one blob reads as the head run read it
      fopts.donor = options.head_facts;
      fopts.same_text = [content = change->content](const std::string& path) {
        auto same = content->same_text(path);
        return same && *same;
      };
    }
    facts::ChangeFacts facts(base, fopts);
    for (const auto& r : options.repositories) facts.add_repository(r);
    for (const auto& p : programs) {
      dsl::EvalOptions eo;
      eo.rule_budget = options.rule_budget;
      eo.memory_exceeded = options.memory_exceeded;
      for (const auto& r : p->rules())
        if (rules.count(r.id)) eo.only_rules.push_back(r.id);
      if (eo.only_rules.empty()) continue;
      dsl::EvalResult res = dsl::evaluate(*p, facts, eo);
      for (const auto& f : res.findings) {
        if (!rules.count(f.rule_id) || f.file.empty() || f.line < 1) continue;
        auto it = files.find(f.file);
        if (it == files.end()) continue;
        ++on_base[same_key(f, it->second->path, report::line_of(base_texts[f.file], f.line))];
      }
    }
  }

  // 4. A candidate the base reports the same way is pre-existing.
  std::map<std::string, std::optional<std::string>> heads;
  for (std::size_t i : candidates) {
    auto& f = findings[i];
    auto it = heads.find(f.file);
    if (it == heads.end()) it = heads.emplace(f.file, change->content->head(f.file)).first;
    std::string text = it->second ? report::line_of(*it->second, f.line) : f.snippet;
    auto hit = on_base.find(same_key(f, f.file, text));
    if (hit == on_base.end() || hit->second == 0) continue;
    --hit->second;
    f.pre_existing = true;
    ++stats.pre_existing;
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return stats;
}

}  // namespace review::pipeline
