#include "runner/report/summary.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <tuple>

#include "runner/report/escape.hpp"
#include "runner/report/filter.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

namespace {

std::string md(const std::string& s) { return escape_markdown(truncate_utf8(valid_utf8(s), kSummaryMaxPart)); }

/// A table cell: as `md`, plus every '|' escaped (GFM tables split cells on '|' even in code spans).
std::string cell(const std::string& s) {
  std::string m = md(s), out;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i] == '|' && (i == 0 || m[i - 1] != '\\')) out += '\\';
    out += m[i];
  }
  return out;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

constexpr const char* kOtherArea = "other";

/// A finding's sub-area: its rule's first tag that is not "strength"; "other" when it has none.
std::string area_of(const Finding& f) {
  for (const auto& t : f.tags)
    if (t != kStrengthTag) return t;
  return kOtherArea;
}

const char* mark(Severity s) {
  return s == Severity::Block ? "\xF0\x9F\x94\xB4" : s == Severity::Warn ? "\xE2\x9A\xA0\xEF\xB8\x8F" : "\xF0\x9F\x93\x9D";
}

class SummaryReporter final : public Reporter {
 public:
  SummaryReporter(std::ostream& out, ReportOptions options) : out_(out), opt_(std::move(options)) {}
  void add(const Finding& f) override { findings_.push_back(&f); }

  void finish(const RunInfo& run) override {
    std::string head = heading(run);
    std::string tail = footer(run);
    auto by_severity = [](const Finding* a, const Finding* b) { return severity_less(*a, *b); };
    std::vector<const Finding*> shown;
    for (const Finding* f : findings_)
      if (!f->suppressed && !f->pre_existing) shown.push_back(f);
    std::stable_sort(shown.begin(), shown.end(), by_severity);

    // The sections in the order of the review report: blocking concerns, then the other concerns
    // grouped by sub-area (a finding's first tag), then strengths, then the deeper passes.
    std::vector<const Finding*> blocking, strengths;
    std::vector<std::pair<std::string, std::vector<const Finding*>>> areas;  // first-seen order, sorted below
    for (const Finding* p : shown) {
      const Finding& f = *p;
      if (is_strength(f)) strengths.push_back(&f);
      else if (f.severity == Severity::Block) blocking.push_back(&f);
      else {
        std::string a = area_of(f);
        auto it = std::find_if(areas.begin(), areas.end(), [&](const auto& e) { return e.first == a; });
        if (it == areas.end()) areas.push_back({a, {&f}});
        else it->second.push_back(&f);
      }
    }
    // Areas in the order the ruleset first tags its rules with them (the checklist's own order),
    // areas no rule of the run declares after them, "other" (untagged) last.
    std::map<std::string, std::size_t> order;
    for (const auto& r : run.rules)
      for (const auto& t : r.tags)
        if (t != kStrengthTag) {
          order.emplace(t, order.size());
          break;
        }
    std::stable_sort(areas.begin(), areas.end(), [&order](const auto& x, const auto& y) {
      auto key = [&order](const auto& e) {
        auto it = order.find(e.first);
        return std::make_tuple(e.first == kOtherArea, it == order.end() ? order.size() : it->second);
      };
      return key(x) < key(y);
    });

    std::string bullets;
    std::size_t left = 0;
    constexpr std::size_t kReserve = 128;  // room for the "not shown" line
    std::size_t budget = opt_.summary_max_bytes > head.size() + tail.size() + kReserve
                             ? opt_.summary_max_bytes - head.size() - tail.size() - kReserve
                             : 0;
    auto add = [&](const std::string& b) {
      if (left == 0 && bullets.size() + b.size() <= budget) bullets += b;
      else ++left;
    };
    if (!shown.empty()) {
      add("### Blocking concerns\n\n");
      if (blocking.empty()) add("None.\n");
      for (const Finding* f : blocking) add(bullet(*f, run));
      if (!areas.empty()) add("\n### Non-blocking concerns and questions\n");
      for (const auto& [a, list] : areas) {
        add("\n#### " + md(a) + " (" + std::to_string(list.size()) + ")\n\n");
        for (const Finding* f : list) add(bullet(*f, run));
      }
      if (!strengths.empty()) {
        add("\n### Strengths\n\n");
        for (const Finding* f : strengths) add("- \xE2\x9C\x85 " + md(f->problem) + location(*f, run) + "\n");
      }
      std::string passes;
      for (const auto& [a, list] : areas) {
        int warns = 0, inferred = 0;
        for (const Finding* f : list) {
          warns += f->severity == Severity::Warn;
          inferred += f->severity == Severity::Warn && f->evidence == review::dsl::Evidence::Inferred;
        }
        if (warns == 0 || a == kOtherArea) continue;
        passes += "- **" + md(a) + "**: " + plural(static_cast<std::size_t>(warns), "warning", "warnings") +
                  (inferred ? " (" + std::to_string(inferred) + " inferred from patterns, to confirm by reading)" : "") +
                  "\n";
      }
      if (!blocking.empty()) passes = "- **blocking concerns**: confirm each on the code before anything else\n" + passes;
      if (!passes.empty()) add("\n### Recommended deeper passes\n\n" + passes);
    }
    // Pre-existing findings (also on the base) in a collapsed section, after the new ones.
    std::vector<const Finding*> before;
    for (const Finding* f : findings_)
      if (!f->suppressed && f->pre_existing) before.push_back(f);
    std::stable_sort(before.begin(), before.end(), by_severity);
    std::string old;
    for (const Finding* f : before) {
      std::string b = bullet(*f, run);
      if (left == 0 && bullets.size() + old.size() + b.size() + 200 <= budget) old += b;
      else ++left;
    }
    std::string card = head;
    if (!bullets.empty()) card += "\n" + bullets;
    if (!old.empty())
      card += "\n<details><summary>" + plural(before.size(), "pre-existing finding", "pre-existing findings") +
              " (also on the base; not part of the verdict)</summary>\n\n" + old + "\n</details>\n";
    if (left > 0)
      card += "\n_" + plural(left, "more finding is", "more findings are") + " not shown here (size limit)._\n";
    card += tail;
    if (card.size() > opt_.summary_max_bytes)  // only when the cap is smaller than heading + footer
      card = opt_.summary_max_bytes >= 3 ? truncate_utf8(card, opt_.summary_max_bytes - 3) : std::string();
    out_ << card;
  }

 private:
  std::string heading(const RunInfo& run) const {
    std::string prefix = opt_.summary_title.empty() ? "" : md(opt_.summary_title) + " ";
    std::string h = "## " + prefix;
    if (run.pr.number > 0) h += "PR #" + std::to_string(run.pr.number);
    else h += "Review";
    if (!run.pr.title.empty()) h += " \xE2\x80\x94 " + md(run.pr.title);
    h += "\n\n";
    // A title that escapes to nothing must not leave "****" behind (a thematic break).
    if (std::string t = md(run.pr.title); !t.empty()) h += "**" + t + "**\n\n";
    Verdict v = verdict_of(findings_);
    h += v == Verdict::Block       ? "\xF0\x9F\x94\xB4 BLOCK"
         : v == Verdict::NeedsWork ? "\xE2\x9A\xA0\xEF\xB8\x8F NEEDS WORK"
                                   : "\xE2\x9C\x85 LGTM";
    h += justification() + "\n";
    if (!run.incomplete.empty())
      h += "\n\xE2\x9B\x94 **INCOMPLETE**: " + plural(run.incomplete.size(), "rule or file was", "rules or files were") +
           " not reviewed (listed below); the verdict covers only what was.\n";
    if (!run.kinds.empty()) {
      h += "\nPR kinds: ";
      for (std::size_t i = 0; i < run.kinds.size(); ++i)
        h += (i ? ", " : "") + md(kind_label(run.kinds[i]));
      h += "\n";
    }
    return h;
  }

  std::string bullet(const Finding& f, const RunInfo& run) const {
    std::string b = std::string("- ") + mark(f.severity) + " " + md(f.problem);
    if (!f.impact.empty()) b += " \xE2\x80\x94 " + md(f.impact);
    if (!f.action.empty()) b += " **" + md(f.action) + "**";
    b += std::string(" [") + std::string(evidence_name(f.evidence)) + "]";
    return b + location(f, run) + "\n";
  }

  /// " (path:line)" linked to the head blob when the run knows the repository and head; "" without a file.
  std::string location(const Finding& f, const RunInfo& run) const {
    std::string b;
    if (!f.file.empty()) {
      std::string text = md(f.file) + (f.line > 0 ? ":" + std::to_string(f.line) : "");
      if (!run.repository_uri.empty() && !run.head_sha.empty()) {
        std::string url = run.repository_uri + "/blob/" + encode_uri_path(run.head_sha) + "/" + encode_uri_path(f.file);
        if (f.line > 0) url += "#L" + std::to_string(f.line);
        b += " ([" + text + "](" + url + "))";
      } else {
        b += " (" + text + ")";
      }
    }
    return b;
  }

  /// The verdict's one-sentence justification: " — N blocking concerns, …" from the counts; "" with no finding.
  std::string justification() const {
    std::size_t block = 0, warn = 0, note = 0, strong = 0;
    for (const Finding& f : FindingsView(findings_)) {
      if (f.suppressed || f.pre_existing) continue;
      if (is_strength(f)) ++strong;
      else if (f.severity == Severity::Block) ++block;
      else if (f.severity == Severity::Warn) ++warn;
      else ++note;
    }
    if (block + warn + note + strong == 0) return "";
    std::string s = " \xE2\x80\x94 ";
    if (block) s += plural(block, "blocking concern", "blocking concerns");
    else s += "no blocking concern";
    if (warn) s += ", " + plural(warn, "warning", "warnings");
    if (note) s += ", " + plural(note, "note", "notes");
    if (strong) s += ", " + plural(strong, "strength", "strengths");
    return s + ".";
  }

  std::string footer(const RunInfo& run) const {
    std::string t;
    if (!run.incomplete.empty()) {
      t += "\nNot reviewed:\n";
      for (std::size_t i = 0; i < run.incomplete.size() && i < kSummaryMaxNotes; ++i)
        t += "- " + md(run.incomplete[i]) + "\n";
      if (run.incomplete.size() > kSummaryMaxNotes)
        t += "- " + std::to_string(run.incomplete.size() - kSummaryMaxNotes) + " more in the JSON output\n";
    }
    if (!run.notes.empty()) {
      t += "\nNotes:\n";
      // An empty bullet right under "Notes:" would make it a setext heading: say "(empty note)".
      for (std::size_t i = 0; i < run.notes.size() && i < kSummaryMaxNotes; ++i) {
        std::string n = md(run.notes[i]);
        t += "- " + (n.empty() ? std::string("(empty note)") : n) + "\n";
      }
      if (run.notes.size() > kSummaryMaxNotes)
        t += "- " + plural(run.notes.size() - kSummaryMaxNotes, "more note", "more notes") + " in the JSON output\n";
    }
    Counts c = count_findings(findings_);
    if (run.cut_by_limits > 0)
      t += "\n_" + plural(static_cast<std::size_t>(run.cut_by_limits), "more finding was", "more findings were") +
           " cut by limits._\n";
    if (c.suppressed > 0)
      t += "\n_" + plural(static_cast<std::size_t>(c.suppressed), "finding is", "findings are") +
           " suppressed (inline or baseline)._\n";
    // Suppressions the change itself adds are the reviewer's business: list them, never hide them.
    std::string by_change;
    std::size_t n_by_change = 0;
    for (const Finding& f : FindingsView(findings_)) {
      if (!f.suppressed || !f.suppressed_by_change) continue;
      if (++n_by_change > kSummaryMaxNotes) continue;
      by_change += "- " + std::string(mark(f.severity)) + " " + md(f.rule_id) + " " + md(f.problem) + " (" + md(f.file) +
                   (f.line > 0 ? ":" + std::to_string(f.line) : "") + ")" +
                   (f.suppression_reason.empty() ? std::string(" \xE2\x80\x94 no reason given") : " \xE2\x80\x94 " + md(f.suppression_reason)) + "\n";
    }
    if (n_by_change > 0) {
      t += "\n**" + plural(n_by_change, "finding is", "findings are") + " suppressed by this change** (an ignore comment it adds):\n" + by_change;
      if (n_by_change > kSummaryMaxNotes) t += "- " + plural(n_by_change - kSummaryMaxNotes, "more", "more") + " in the JSON output\n";
    }
    // Rule ids for suppression, one row per rule that produced an unsuppressed finding.
    std::map<std::string, std::pair<std::string, int>> ids;
    for (const Finding& f : FindingsView(findings_))
      if (!f.suppressed && !f.pre_existing) {
        auto& e = ids[f.rule_id];
        e.first = f.rule_title;
        ++e.second;
      }
    if (!ids.empty()) {
      t += "\n<details><summary>Rule ids for suppression</summary>\n\n| Rule | Title | Findings |\n|---|---|---|\n";
      for (const auto& [id, e] : ids)
        t += "| " + cell(id) + " | " + cell(e.first) + " | " + std::to_string(e.second) + " |\n";
      t += "\nTo accept a finding, add `review: ignore[ID] reason` in a comment on its line or the line above.\n\n</details>\n";
    }
    return t;
  }

  std::ostream& out_;
  ReportOptions opt_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

std::unique_ptr<Reporter> make_summary_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<SummaryReporter>(out, options);
}

bool is_strength(const Finding& f) {
  return std::find(f.tags.begin(), f.tags.end(), kStrengthTag) != f.tags.end();
}

}  // namespace review::report
