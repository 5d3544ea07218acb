#include "runner/pipeline/review.hpp"

#include <algorithm>
#include <ostream>
#include <set>
#include <string>
#include <utility>

#include "dsl/facts.hpp"
#include "runner/report/escape.hpp"
#include "runner/report/suppress.hpp"

namespace review::pipeline {

void print_notes(const std::vector<std::string>& notes, std::ostream& out) {
  constexpr std::size_t kShown = 20;
  std::size_t file_notes = 0;
  for (const auto& n : notes) {
    bool per_file = n.find(": not analysed (") != std::string::npos || n.find(": skipped: ") != std::string::npos;
    if (per_file && ++file_notes > kShown) continue;
    out << "note: " << report::terminal_safe(n) << "\n";
  }
  if (file_notes > kShown)
    out << "note: … and " << file_notes - kShown << " more files not analysed (binary, or over the size limit)\n";
}

namespace {

// Stage 1: every program over the one set of facts (each file parsed once).
void evaluate_all(const std::vector<std::shared_ptr<const dsl::Program>>& programs, facts::ChangeFacts& facts,
                  const ReviewOptions& o, report::RunInfo& run, ReviewResult& out) {
  std::set<std::string> seen_kinds;
  for (const auto& p : programs) {
    run.rulesets.push_back(p->name());
    for (const auto& r : p->rules()) run.rules.push_back(r);
    dsl::EvalResult res = dsl::evaluate(*p, facts, o.eval);
    out.memory_stopped.insert(out.memory_stopped.end(), res.memory_stopped.begin(), res.memory_stopped.end());
    out.not_run.insert(out.not_run.end(), res.not_run.begin(), res.not_run.end());
    for (auto& f : res.findings) out.findings.push_back(std::move(f));
    for (const auto& k : res.kinds)
      if (seen_kinds.insert(k.name).second) run.kinds.emplace_back(k.name, k.label);
    for (const auto& d : res.internal_diagnostics) {
      run.diagnostics.push_back(d);
      out.internal_diagnostics.push_back(d);
      if (o.warnings) *o.warnings << "internal: " << d << "\n";
    }
    // A rule that did not finish makes the review incomplete (fail closed, not LGTM).
    for (const auto& id : res.stopped)
      run.incomplete.push_back((id.rfind("kind ", 0) == 0 ? id : "rule " + id) + " stopped by its time budget of " +
                               std::to_string(o.eval.rule_budget.count()) +
                               " ms, so its findings are missing; raise --rule-budget-ms to let it finish");
  }
}

// Stages 2-4: configuration, audit, shard.
void select(const ReviewOptions& o, report::RunInfo& run, ReviewResult& out) {
  auto& findings = out.findings;
  if (!o.exclude.empty() || !o.severity_overrides.empty()) {
    std::vector<dsl::Finding> kept;
    for (auto& f : findings) {
      bool excluded = false;
      for (const auto& g : o.exclude)
        if (!f.file.empty() && dsl::glob_match(g, f.file)) excluded = true;
      if (auto it = o.severity_overrides.find(f.rule_id); it != o.severity_overrides.end()) {
        if (it->second == "off") excluded = true;
        else if (it->second == "block") f.severity = dsl::Severity::Block;
        else if (it->second == "warn") f.severity = dsl::Severity::Warn;
        else f.severity = dsl::Severity::Note;
      }
      if (!excluded) kept.push_back(std::move(f));
    }
    findings = std::move(kept);
  }
  if (o.audit) {
    // A note of the audit: on the terminal (recorded as printed there) and in the reports (JSON
    // `notes`, SARIF notifications, the card).
    auto say = [&](std::string note) {
      if (o.notes) {
        *o.notes << "note: " << note << "\n";
        out.printed_notes.push_back(note);
      }
      run.notes.push_back(std::move(note));
    };
    auto listed = [](const std::vector<std::string>& ids) {
      std::string text;
      for (const auto& id : ids) text += (text.empty() ? "" : ", ") + id;
      return text;
    };
    // An audit has no pull request: findings about its title, body or labels would judge empty
    // text.
    size_t before = findings.size();
    std::vector<std::string> dropped_rules;  // the rules whose findings go, in order, once each
    for (const auto& f : findings)
      if (f.file.empty() && std::find(dropped_rules.begin(), dropped_rules.end(), f.rule_id) == dropped_rules.end())
        dropped_rules.push_back(f.rule_id);
    findings.erase(std::remove_if(findings.begin(), findings.end(), [](const dsl::Finding& f) { return f.file.empty(); }),
                   findings.end());
    out.audit_dropped = before - findings.size();
    if (size_t n = out.audit_dropped)
      say("audit mode: " + std::to_string(n) + " pull-request finding" + (n == 1 ? "" : "s") + " of " +
          listed(dropped_rules) + " left out (an audit has no pull request to judge)");
    // The rules whose `when` did not hold: they judge a pull request's text or what a change adds
    // (`when not pr.audit`), which an audit has not. Said, so that their silence is not read as
    // a clean result.
    if (size_t n = out.not_run.size())
      say("audit mode: " + std::to_string(n) + (n == 1 ? " rule did not run, as its" : " rules did not run, as their") +
          " `when` condition needs a pull request (its text, or a change to judge against its base): " +
          listed(out.not_run));
    // Nor kinds: every file is added, so each kind would name the whole tree ("dispatch change"
    // for a repository that has a dispatch), not what a change is about. They gated the rules
    // already.
    run.kinds.clear();
  }
  if (o.shard) {
    std::vector<dsl::Finding> kept;
    for (auto& f : findings) {
      bool mine = f.file.empty() ? o.shard->index == 1
                                 : (change::in_shard(*o.shard, f.file) || !o.all_changed.count(f.file));
      if (mine) kept.push_back(std::move(f));
    }
    findings = std::move(kept);
  }
}

}  // namespace

ReviewResult review(const std::shared_ptr<const change::Change>& change,
                    const std::vector<std::shared_ptr<const dsl::Program>>& programs, facts::ChangeFacts& facts,
                    const ReviewOptions& o, report::RunInfo& run) {
  ReviewResult out;
  evaluate_all(programs, facts, o, run, out);
  if (o.on_evaluated) o.on_evaluated(out.memory_stopped, run);
  out.over_memory = (o.eval.memory_exceeded && o.eval.memory_exceeded->load()) || !out.memory_stopped.empty();

  // A changed file skipped for its size, or one a rule read that was skipped or that the parser
  // gave up on, makes the review incomplete (binary files are not reviewed by design and do not
  // count).
  for (const auto& f : change->files)
    if (f.skipped && !f.binary)
      run.incomplete.push_back(f.path + " was not reviewed (" + f.skip_reason + "); raise --max-file-size to review it");
  for (const auto& g : facts.incomplete())
    run.incomplete.push_back(g + ", so its facts are missing" +
                             (g.find("exceeds the limit") != std::string::npos ? "; raise --max-file-size to review it" : ""));
  // Notes of the fact sources (files of the repository that were skipped, and so on) are for the
  // terminal; the notes about the change itself also go into the reports.
  if (o.notes) print_notes(facts.notes(), *o.notes);
  // An analysis that met a limit left part of the change unreviewed: the reports say so.
  for (const auto& n : facts.notes())
    if (n.find(": not analysed (unbound variables:") != std::string::npos)
      run.notes.push_back("incomplete review: " + n);
  for (const auto& n : change->notes) run.notes.push_back(n);

  select(o, run, out);

  // the texts of files with findings: a cached model holds them already
  report::SourceLookup source = [change, &facts](const std::string& path) {
    if (auto text = facts.cached_head_text(path)) return text;
    return change->content->head(path);
  };
  report::DiffQuery diffq = report::diff_query(*change);
  out.findings = report::apply_filter(std::move(out.findings), o.filter, diffq);

  report::InlineOptions inline_opts;
  inline_opts.added = diffq.is_added;
  inline_opts.honour_added = o.honour_added_suppressions;
  inline_opts.comment = [&facts](const std::string& path, int line) -> std::optional<std::string> {
    auto m = facts.model(path, false);
    if (!m || m->lines.empty()) return std::nullopt;
    if (line < 1 || line > static_cast<int>(m->lines.size())) return std::string();
    return std::string(m->comment(line - 1));
  };
  inline_opts.may_hold = [&facts](const std::string& path, std::string_view word) { return facts.may_hold(path, word); };
  out.suppression_warnings = report::apply_inline_suppressions(out.findings, source, inline_opts);
  for (const auto& w : out.suppression_warnings) {
    if (o.warnings) *o.warnings << "warning: " << report::terminal_safe(w) << "\n";
    if (w.find("not honoured") != std::string::npos) run.notes.push_back(w);
  }
  {
    std::vector<std::string> ids;
    for (const auto& r : run.rules) ids.push_back(r.id);
    for (const auto& w : report::unknown_ignore_ids(*change, ids, inline_opts)) {
      if (o.warnings) *o.warnings << "warning: " << report::terminal_safe(w) << "\n";
      out.suppression_warnings.push_back(w);
    }
  }

  if (o.baseline) report::apply_baseline(out.findings, *o.baseline, source);

  for (const auto& f : o.extra_findings) out.findings.push_back(f);

  // Differential review: findings the base already has are pre-existing (differential.hpp).
  if (o.differential && !o.audit && out.over_memory) {
    if (o.warnings)
      *o.warnings << "note: the differential review was skipped (the memory ceiling was reached): every finding counts as new\n";
  } else if (o.differential && !o.audit) {
    DifferentialOptions dopts = o.differential_options;
    dopts.head_facts = &facts;
    out.differential = mark_pre_existing(change, programs, dopts, out.findings);
    run.differential = out.differential.ran;
    if (size_t n = out.differential.pre_existing; n && o.notes)
      *o.notes << "note: " << n << " finding" << (n == 1 ? " is" : "s are")
               << " also on the base (pre-existing): reported as unchanged, not part of the verdict\n";
  }

  out.findings = report::sort_and_dedup(std::move(out.findings));
  return out;
}

}  // namespace review::pipeline
