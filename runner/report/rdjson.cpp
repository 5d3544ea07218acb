#include "runner/report/rdjson.hpp"

#include <ostream>

#include "runner/report/json.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

namespace {

const char* rdjson_severity(Severity s) {
  switch (s) {
    case Severity::Block: return "ERROR";
    case Severity::Warn: return "WARNING";
    case Severity::Note: return "INFO";
  }
  return "UNKNOWN_SEVERITY";
}

// problem, then "Impact: ..." and "Action: ..." lines, as the workflow annotations say it.
std::string message_of(const Finding& f) {
  std::string msg = f.problem;
  if (!f.impact.empty()) msg += "\nImpact: " + f.impact;
  if (!f.action.empty()) msg += "\nAction: " + f.action;
  return msg;
}

class RdjsonReporter final : public Reporter {
 public:
  explicit RdjsonReporter(std::ostream& out) : out_(out) {}
  void add(const Finding& f) override { findings_.push_back(&f); }
  void finish(const RunInfo& run) override { out_ << dump_json(rdjson_document(findings_, run)) << '\n'; }

 private:
  std::ostream& out_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

nlohmann::json rdjson_document(FindingsView findings, const RunInfo& run) {
  nlohmann::json source = {{"name", "review-action"}};
  if (!run.information_uri.empty()) source["url"] = run.information_uri;
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const Finding& f : findings) {
    if (f.suppressed) continue;
    nlohmann::json d = {{"message", message_of(f)}, {"severity", rdjson_severity(f.severity)}};
    if (!f.file.empty()) {
      nlohmann::json location = {{"path", f.file}};
      if (f.line > 0) {
        nlohmann::json start = {{"line", f.line}};
        if (f.column > 0) start["column"] = f.column;
        nlohmann::json range = {{"start", start}};
        if (f.end_line > f.line) range["end"] = {{"line", f.end_line}};
        location["range"] = range;
      }
      d["location"] = location;
    }
    d["code"] = {{"value", f.rule_id}};
    d["source"] = {{"name", "review-action"}};
    diagnostics.push_back(std::move(d));
  }
  return {{"source", source}, {"diagnostics", diagnostics}};
}

std::unique_ptr<Reporter> make_rdjson_reporter(std::ostream& out, const ReportOptions&) {
  return std::make_unique<RdjsonReporter>(out);
}

}  // namespace review::report
