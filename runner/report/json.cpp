#include "runner/report/json.hpp"

#include <ostream>

#include "runner/report/fingerprint.hpp"

namespace review::report {

using nlohmann::json;
using review::dsl::Finding;

namespace {

class JsonReporter final : public Reporter {
 public:
  JsonReporter(std::ostream& out, ReportOptions options) : out_(out), opt_(std::move(options)) {}
  void add(const Finding& f) override { findings_.push_back(&f); }
  void finish(const RunInfo& run) override {
    write_findings_document(out_, findings_, run, opt_.source);
    out_ << '\n';
  }

 private:
  std::ostream& out_;
  ReportOptions opt_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

json rule_json(const review::dsl::RuleMeta& r) {
  json examples = json::array();
  for (const auto& e : r.examples)
    examples.push_back({{"kind", std::string(e.todo ? "todo-" : "") + (e.bad ? "bad" : "good")},
                        {"language", e.language},
                        {"code", e.code}});
  return {{"id", r.id},
          {"title", r.title},
          {"severity", severity_name(r.severity)},
          {"evidence", evidence_name(r.evidence)},
          {"tags", r.tags},
          {"problem", r.problem},
          {"impact", r.impact},
          {"action", r.action},
          {"help", r.help},
          {"examples", examples},
          {"ruleset", r.ruleset},
          {"source", r.source_file.empty() ? json(nullptr) : json(r.source_file + ":" + std::to_string(r.source_line))}};
}

json finding_json(const Finding& f, const std::string& fingerprint) {
  json j = {{"rule_id", f.rule_id},
            {"title", f.rule_title},
            {"severity", severity_name(f.severity)},
            {"evidence", evidence_name(f.evidence)},
            {"tags", f.tags},
            {"file", f.file.empty() ? json(nullptr) : json(f.file)},
            {"line", f.line},
            {"end_line", f.end_line ? f.end_line : f.line},
            {"column", f.column},
            {"snippet", f.snippet},
            {"problem", f.problem},
            {"impact", f.impact},
            {"action", f.action},
            {"witness", witness_json(f.witness)},
            {"tier", f.tier.empty() ? json(nullptr) : json(f.tier)},
            {"fingerprint", fingerprint},
            {"suppressed", f.suppressed}};
  if (f.suppressed) j["suppression"] = {{"kind", f.suppression_kind}, {"reason", f.suppression_reason}};
  if (f.pre_existing) j["pre_existing"] = true;
  if (!f.label.empty()) j["label"] = f.label;
  if (f.suppressed && f.suppressed_by_change) j["suppression"]["by_change"] = true;
  return j;
}

// The document with an empty "findings" array.
json document_without_findings(FindingsView findings, const RunInfo& run) {
  json rules = json::array();
  for (const auto& r : run.rules) rules.push_back(rule_json(r));
  json kinds = json::array();
  for (const auto& [name, label] : run.kinds) kinds.push_back({{"name", name}, {"label", label}});
  Counts c = count_findings(findings);
  json pr = nullptr;
  if (run.pr.number || !run.pr.title.empty())
    pr = {{"number", run.pr.number}, {"title", run.pr.title}, {"url", run.pr.url},
          {"base_sha", run.pr.base_sha}, {"head_sha", run.pr.head_sha}, {"repository", run.pr.repository}};
  json out = {{"schema", kJsonSchema},
          {"tool", {{"name", "review-action"}, {"version", run.tool_version}}},
          {"rulesets", run.rulesets},
          {"pr", pr},
          {"repository_uri", run.repository_uri},
          {"head_sha", run.head_sha},
          {"filter", run.filter},
          {"verdict", verdict_name(verdict_of(findings))},
          {"counts", {{"block", c.block}, {"warn", c.warn}, {"note", c.note}, {"suppressed", c.suppressed},
                      {"cut_by_limits", run.cut_by_limits}}},
          {"kinds", kinds},
          {"notes", run.notes},
          {"findings", json::array()},
          {"rules", rules},
          {"diagnostics", run.diagnostics},
          {"exit_code", run.exit_code}};
  // Present only when the review is incomplete (rule or file, and why; RunInfo::incomplete).
  if (!run.incomplete.empty()) out["incomplete"] = run.incomplete;
  return out;
}

}  // namespace

json findings_document(FindingsView findings, const RunInfo& run, const SourceLookup& source) {
  auto prints = fingerprints(findings, source);
  json out = document_without_findings(findings, run);
  json& fs = out["findings"];
  for (std::size_t i = 0; i < findings.size(); ++i) fs.push_back(finding_json(findings[i], prints[i]));
  return out;
}

void write_findings_document(std::ostream& out, FindingsView findings, const RunInfo& run,
                             const SourceLookup& source) {
  auto prints = fingerprints(findings, source);
  const std::string doc = dump_json(document_without_findings(findings, run));
  // "findings" is a member of the top-level object, so its line is indented by two spaces.
  if (!write_spliced(out, doc, "\n  \"findings\": []", findings.size(),
                     [&](std::size_t i) { return finding_json(findings[i], prints[i]); }))
    out << (findings.empty() ? doc : dump_json(findings_document(findings, run, source)));
}

bool write_spliced(std::ostream& out, const std::string& doc, const std::string& slot, std::size_t count,
                   const std::function<json(std::size_t)>& element) {
  const std::size_t at = doc.find(slot);
  if (count == 0 || at == std::string::npos) return false;
  // The member's indentation (the spaces after its newline) plus two for its elements.
  const std::size_t member = slot.find_first_not_of(' ', 1) - 1;
  const std::string indent(member + 2, ' ');
  const std::size_t open = at + slot.size() - 1;  // the ']' of "[]"
  out.write(doc.data(), static_cast<std::streamsize>(open));
  for (std::size_t i = 0; i < count; ++i) {
    std::string one = dump_json(element(i));
    out << '\n' << indent;
    std::size_t from = 0;
    for (std::size_t nl; (nl = one.find('\n', from)) != std::string::npos; from = nl + 1) {
      out.write(one.data() + from, static_cast<std::streamsize>(nl + 1 - from));
      out << indent;
    }
    out.write(one.data() + from, static_cast<std::streamsize>(one.size() - from));
    if (i + 1 < count) out << ',';
  }
  out << '\n' << std::string(member, ' ');
  out.write(doc.data() + open, static_cast<std::streamsize>(doc.size() - open));
  return true;
}

json witness_json(const dsl::Witness& w) {
  json out = json::object();
  for (const auto& [name, value] : w) out[name] = value;
  return out;
}

std::string dump_json(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

std::unique_ptr<Reporter> make_json_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<JsonReporter>(out, options);
}

}  // namespace review::report
