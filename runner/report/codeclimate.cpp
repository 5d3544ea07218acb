#include "runner/report/codeclimate.hpp"

#include <algorithm>
#include <ostream>

#include "runner/report/fingerprint.hpp"
#include "runner/report/json.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

namespace {

const char* codeclimate_severity(Severity s) {
  switch (s) {
    case Severity::Block: return "blocker";
    case Severity::Warn: return "major";
    case Severity::Note: return "info";
  }
  return "info";
}

class CodeclimateReporter final : public Reporter {
 public:
  CodeclimateReporter(std::ostream& out, SourceLookup source) : out_(out), source_(std::move(source)) {}
  void add(const Finding& f) override { findings_.push_back(&f); }
  void finish(const RunInfo&) override { out_ << dump_json(codeclimate_issues(findings_, source_)) << '\n'; }

 private:
  std::ostream& out_;
  SourceLookup source_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

nlohmann::json codeclimate_issues(FindingsView findings, const SourceLookup& source) {
  // Fingerprints over every finding, so they match SARIF's for the same run.
  const std::vector<std::string> prints = fingerprints(findings, source);
  nlohmann::json issues = nlohmann::json::array();
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (f.suppressed || f.file.empty()) continue;
    const int begin = std::max(f.line, 1);
    nlohmann::json lines = {{"begin", begin}};
    if (f.end_line > begin) lines["end"] = f.end_line;
    std::string body;
    if (!f.impact.empty()) body += "Impact: " + f.impact;
    if (!f.action.empty()) body += (body.empty() ? "" : "\n\n") + std::string("Action: ") + f.action;
    nlohmann::json issue = {
        {"type", "issue"},
        {"check_name", f.rule_id},
        {"description", f.rule_title.empty() ? f.problem : f.rule_title + ": " + f.problem},
        {"categories", {"Bug Risk"}},
        {"severity", codeclimate_severity(f.severity)},
        {"fingerprint", prints[i]},
        {"location", {{"path", f.file}, {"lines", lines}}},
    };
    if (!body.empty()) issue["content"] = {{"body", body}};
    issues.push_back(std::move(issue));
  }
  return issues;
}

std::unique_ptr<Reporter> make_codeclimate_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<CodeclimateReporter>(out, options.source);
}

}  // namespace review::report
