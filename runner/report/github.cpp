#include "runner/report/github.hpp"

#include <algorithm>
#include <ostream>

#include "runner/report/escape.hpp"
#include "runner/report/filter.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

namespace {

static_assert(3 * kGithubMaxPerLevel <= kGithubMaxPerJob);

std::string part(const std::string& s) { return truncate_utf8(valid_utf8(s), kGithubMaxPart); }

class GithubReporter final : public Reporter {
 public:
  explicit GithubReporter(std::ostream& out) : out_(out) {}
  void add(const Finding& f) override {
    if (!f.suppressed && !f.pre_existing) findings_.push_back(&f);
  }

  void finish(const RunInfo&) override {
    std::stable_sort(findings_.begin(), findings_.end(),
                     [](const Finding* a, const Finding* b) { return severity_less(*a, *b); });
    std::size_t per[3] = {0, 0, 0};
    std::size_t left = 0;
    // With overflow, one notice slot is kept for the closing notice.
    std::size_t total_fit = 0;
    {
      std::size_t n[3] = {0, 0, 0};
      for (const Finding& f : FindingsView(findings_)) ++n[static_cast<int>(f.severity)];
      for (int s = 0; s < 3; ++s) total_fit += std::min(n[s], kGithubMaxPerLevel);
      bool overflow = total_fit < findings_.size();
      cap_notice_ = overflow ? kGithubMaxPerLevel - 1 : kGithubMaxPerLevel;
    }
    for (const Finding& f : FindingsView(findings_)) {
      int s = static_cast<int>(f.severity);
      std::size_t cap = f.severity == Severity::Note ? cap_notice_ : kGithubMaxPerLevel;
      if (per[s] >= cap) {
        ++left;
        continue;
      }
      ++per[s];
      emit(f);
    }
    if (left > 0)
      out_ << "::notice title=More findings::" << left
           << (left == 1 ? " more finding is" : " more findings are")
           << " not shown as annotations; see the job summary or the code scanning results.\n";
  }

 private:
  void emit(const Finding& f) {
    const char* cmd = f.severity == Severity::Block ? "error" : f.severity == Severity::Warn ? "warning" : "notice";
    std::string props;
    auto prop = [&](const char* key, const std::string& value) {
      props += (props.empty() ? "" : ",") + std::string(key) + "=" + escape_command_property(value);
    };
    if (!f.file.empty()) {
      prop("file", valid_utf8(f.file));
      if (f.line > 0) {
        prop("line", std::to_string(f.line));
        prop("endLine", std::to_string(std::max(f.end_line, f.line)));
        if (f.column > 0) prop("col", std::to_string(f.column));
      }
    }
    prop("title", part(f.rule_title.empty() ? std::string("Review finding") : f.rule_title));
    std::string msg = part(f.problem);
    if (!f.impact.empty()) msg += "\nImpact: " + part(f.impact);
    if (!f.action.empty()) msg += "\nAction: " + part(f.action);
    msg += std::string(" [") + std::string(evidence_name(f.evidence)) + "]";
    out_ << "::" << cmd << ' ' << props << "::" << escape_command_data(msg) << '\n';
  }

  std::ostream& out_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
  std::size_t cap_notice_ = kGithubMaxPerLevel;
};

}  // namespace

std::unique_ptr<Reporter> make_github_reporter(std::ostream& out, const ReportOptions&) {
  return std::make_unique<GithubReporter>(out);
}

}  // namespace review::report
