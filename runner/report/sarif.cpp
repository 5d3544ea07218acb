#include "runner/report/sarif.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <ostream>
#include <set>

#include "dsl/template.hpp"
#include "runner/report/escape.hpp"
#include "runner/report/filter.hpp"
#include "runner/report/fingerprint.hpp"
#include "runner/report/json.hpp"

#ifndef REVIEW_VERSION
#define REVIEW_VERSION "0.0.0"
#endif

namespace review::report {

using nlohmann::json;
using review::dsl::Finding;
using review::dsl::RuleMeta;
using review::dsl::Severity;

namespace {

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";

std::string_view level_of(Severity s) {
  switch (s) {
    case Severity::Block: return "error";
    case Severity::Warn: return "warning";
    case Severity::Note: return "note";
  }
  return "note";
}

/// Ends `s` with a period unless it already ends with sentence punctuation (SARIF2001).
std::string sentence(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  if (!s.empty() && s.back() != '.' && s.back() != '?' && s.back() != '!') s += '.';
  return s;
}

/// `s` with its first letter upper-case when its first word is a plain word (letters and hyphens
/// only: "near-identical" → "Near-identical"), for a rule's descriptions, which SARIF shows as
/// sentences; a first word that is code (`find_package`, `torch.empty`, a quote) keeps its case.
std::string capitalized(std::string s) {
  size_t end = 0;
  while (end < s.size() && (std::isalpha(static_cast<unsigned char>(s[end])) || s[end] == '-')) ++end;
  const bool stop = end < s.size() && (s[end] == '.' || s[end] == ',' || s[end] == ':');  // punctuation, not `a.b`
  const bool word_ends = end == s.size() || s[end] == ' ' || (stop && (end + 1 == s.size() || s[end + 1] == ' '));
  if (end > 0 && word_ends && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string message_text(const Finding& f) {
  std::string m = sentence(f.problem);
  if (!f.impact.empty()) m += "\nImpact: " + sentence(f.impact);
  if (!f.action.empty()) m += "\nAction: " + sentence(f.action);
  return m;
}

/// A Markdown code fence longer than any backtick run in `code`.
std::string fence_for(const std::string& code) {
  std::size_t run = 0, best = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return std::string(std::max<std::size_t>(3, best + 1), '`');
}

/// PascalCase name from a plain-words title ("Variable possibly unbound" → "VariablePossiblyUnbound").
std::string pascal_name(const std::string& title, const std::string& fallback) {
  std::string out;
  bool up = true;
  for (char c : title) {
    if (c == '\'') continue;  // "file's" is one word: FileS would read as two
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) {
      up = true;
      continue;
    }
    out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    up = false;
  }
  return out.empty() ? fallback : out;
}

json rule_json(const RuleMeta& r) {
  std::string title = r.title.empty() ? r.id : r.title;
  // the rule's templates as they read without a finding: `‹path›`, not `{f.path}`
  std::string full = capitalized(sentence(r.problem.empty() ? title : dsl::template_outline(r.problem)));
  if (!r.impact.empty()) full += " Impact: " + sentence(dsl::template_outline(r.impact));
  if (!r.action.empty()) full += " Action: " + sentence(dsl::template_outline(r.action));
  full = valid_utf8(full);
  if (full.size() > kSarifMaxDescription) {
    full = truncate_utf8(full, kSarifMaxDescription - 4);
    if (full.size() > kSarifMaxDescription) full.resize(kSarifMaxDescription);
  }

  std::string text = r.help.empty() ? capitalized(sentence(title)) : r.help;
  std::string md = text;
  for (const auto& e : r.examples) {
    if (e.todo) continue;
    std::string label = e.bad ? "Example that fires" : "Example that passes";
    std::string fence = fence_for(e.code);
    text += "\n\n" + label + ":\n" + e.code;
    md += "\n\n**" + label + "**\n\n" + fence + (e.language == "text" ? "" : e.language) + "\n" + e.code +
          (e.code.empty() || e.code.back() != '\n' ? "\n" : "") + fence;
  }
  std::vector<std::string> tags;
  for (const auto& t : r.tags)
    if (tags.size() < kSarifMaxTags && std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);

  json j = {{"id", r.id},
            {"name", pascal_name(title, r.id)},
            {"shortDescription", {{"text", capitalized(sentence(title))}}},
            {"fullDescription", {{"text", full}}},
            {"help", {{"text", text}, {"markdown", md}}},
            {"defaultConfiguration", {{"level", level_of(r.severity)}}},
            {"properties", {{"tags", tags}, {"evidence", evidence_name(r.evidence)}}}};
  if (!r.ruleset.empty()) j["properties"]["ruleset"] = r.ruleset;
  return j;
}

RuleMeta meta_from_finding(const Finding& f) {
  RuleMeta m;
  m.id = f.rule_id;
  m.title = f.rule_title;
  m.severity = f.severity;
  m.evidence = f.evidence;
  m.tags = f.tags;
  return m;
}

json finding_properties(const Finding& f) {
  json p = {{"evidence", evidence_name(f.evidence)}};
  if (!f.tier.empty()) p["tier"] = f.tier;
  if (!f.witness.empty()) p["witness"] = witness_json(f.witness);
  if (!f.tags.empty()) p["tags"] = f.tags;
  if (!f.label.empty()) p["label"] = f.label;  // the rule's `also` body that made it
  return p;
}

class SarifReporter final : public Reporter {
 public:
  SarifReporter(std::ostream& out, ReportOptions options) : out_(out), opt_(std::move(options)) {}
  void add(const Finding& f) override { findings_.push_back(&f); }
  void finish(const RunInfo& run) override {
    write_sarif_log(out_, findings_, run, opt_.source);
    out_ << '\n';
  }

 private:
  std::ostream& out_;
  ReportOptions opt_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

/// What the log's results are made from: the rules (ruleset's, then any only a finding names),
/// the fingerprints, the located findings in result order and how many the limit cut.
struct Plan {
  std::vector<RuleMeta> rules;
  std::map<std::string, std::size_t> index;
  std::vector<std::string> prints;
  std::vector<std::size_t> order;
  std::size_t cut = 0;
};

Plan plan_of(FindingsView findings, const RunInfo& run, const SourceLookup& source, std::size_t max_results) {
  Plan p;
  // Rules: the ruleset's, then any rule only a finding names (so every ruleIndex resolves).
  p.rules = run.rules;
  for (std::size_t i = 0; i < p.rules.size(); ++i) p.index.emplace(p.rules[i].id, i);
  for (const auto& f : findings)
    if (p.index.emplace(f.rule_id, p.rules.size()).second) p.rules.push_back(meta_from_finding(f));
  p.prints = fingerprints(findings, source);
  // Located findings, most severe first, unsuppressed before suppressed; cut at max_results.
  for (std::size_t i = 0; i < findings.size(); ++i)
    if (!findings[i].file.empty()) p.order.push_back(i);
  std::stable_sort(p.order.begin(), p.order.end(), [&](std::size_t a, std::size_t b) {
    if (findings[a].suppressed != findings[b].suppressed) return !findings[a].suppressed;
    return severity_less(findings[a], findings[b]);
  });
  if (p.order.size() > max_results) {
    p.cut = p.order.size() - max_results;
    p.order.resize(max_results);
  }
  return p;
}

json result_json(const Finding& f, const std::string& print, std::size_t rule_index, bool differential) {
  json region = {{"startLine", std::max(f.line, 1)}};
  if (f.line > 0 && f.end_line > f.line) region["endLine"] = f.end_line;
  if (f.line > 0 && f.column > 0) region["startColumn"] = f.column;
  json props = finding_properties(f);
  if (f.line == 0) props["wholeFile"] = true;
  json r = {{"ruleId", f.rule_id},
            {"ruleIndex", rule_index},
            {"level", level_of(f.severity)},
            {"message", {{"text", message_text(f)}}},
            {"locations", json::array({{{"physicalLocation",
                                         {{"artifactLocation", {{"uri", encode_uri_path(f.file)}, {"uriBaseId", "%SRCROOT%"}}},
                                          {"region", region}}}}})},
            {"partialFingerprints", {{"primaryLocationLineHash", print}}},
            {"properties", props}};
  if (differential) r["baselineState"] = f.pre_existing ? "unchanged" : "new";
  if (f.suppressed) {
    json s = {{"kind", f.suppression_kind == "external" ? "external" : "inSource"}, {"status", "accepted"}};
    if (!f.suppression_reason.empty()) s["justification"] = f.suppression_reason;
    if (f.suppressed_by_change) {
      // The pull request under review suppresses its own finding: not yet accepted by anyone.
      s["status"] = "underReview";
      s["properties"] = {{"suppressedByChange", true}};
    }
    r["suppressions"] = json::array({s});
  }
  return r;
}

/// The result of the plan's k-th located finding.
json result_at(FindingsView findings, const Plan& plan, std::size_t k, bool differential) {
  const std::size_t i = plan.order[k];
  return result_json(findings[i], plan.prints[i], plan.index.at(findings[i].rule_id), differential);
}

/// The log with an empty "results" array.
json log_without_results(FindingsView findings, const RunInfo& run, const Plan& plan, std::size_t max_results) {
  json jrules = json::array();
  for (const auto& r : plan.rules) jrules.push_back(rule_json(r));

  // Pull-request-level findings are not results (code scanning rejects results without a location).
  json pr_level = json::array();
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.file.empty()) continue;
    json p = {{"ruleId", f.rule_id}, {"level", level_of(f.severity)}, {"message", {{"text", message_text(f)}}},
              {"fingerprint", plan.prints[i]}, {"properties", finding_properties(f)}};
    if (f.suppressed) p["suppressed"] = {{"kind", f.suppression_kind}, {"justification", f.suppression_reason}};
    pr_level.push_back(std::move(p));
  }
  const std::size_t cut = plan.cut;
  json notes = json::array();
  for (const auto& d : run.diagnostics) notes.push_back({{"level", "warning"}, {"message", {{"text", sentence(d)}}}});
  if (cut > 0)
    notes.push_back({{"level", "note"},
                     {"message", {{"text", std::to_string(cut) + " results were left out to stay within GitHub's limit of " +
                                               std::to_string(max_results) + " results per run; the least severe went first."}}}});

  json driver = {{"name", "review-action"}, {"rules", jrules}};
  driver["semanticVersion"] = run.tool_version.empty() ? std::string(REVIEW_VERSION) : run.tool_version;
  std::string info = run.information_uri.empty() ? run.repository_uri : run.information_uri;
  if (!info.empty()) driver["informationUri"] = info;

  std::string category = run.category;
  if (category.empty()) {
    std::string names;
    for (const auto& r : run.rulesets) names += (names.empty() ? "" : "+") + r;
    category = "review-action/" + (names.empty() ? std::string("default") : names) + "/";
  }

  json props = {{"verdict", verdict_name(verdict_of(findings))}};
  if (!pr_level.empty()) props["pullRequestFindings"] = pr_level;
  if (cut > 0 || run.cut_by_limits > 0) props["cutByLimits"] = static_cast<std::size_t>(run.cut_by_limits) + cut;
  if (!run.filter.empty()) props["filter"] = run.filter;

  // An incomplete review (a rule stopped, a file not reviewed) is not a successful execution,
  // even when --allow-incomplete keeps the exit code at 0 or 1.
  for (const auto& g : run.incomplete) notes.push_back({{"level", "error"}, {"message", {{"text", sentence("incomplete review: " + g)}}}});
  json invocation = {{"executionSuccessful", (run.exit_code == 0 || run.exit_code == 1) && run.incomplete.empty()},
                     {"exitCode", run.exit_code}};
  if (!notes.empty()) invocation["toolExecutionNotifications"] = notes;

  json jrun = {{"tool", {{"driver", driver}}},
               {"automationDetails", {{"id", category}}},
               {"invocations", json::array({invocation})},
               {"columnKind", "unicodeCodePoints"},
               {"results", json::array()},
               {"properties", props}};
  if (!run.repository_uri.empty() && !run.head_sha.empty())
    jrun["versionControlProvenance"] = json::array({{{"repositoryUri", run.repository_uri}, {"revisionId", run.head_sha}, {"mappedTo", {{"uriBaseId", "%SRCROOT%"}}}}});
  return {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", json::array({jrun})}};
}

}  // namespace

json sarif_log(FindingsView findings, const RunInfo& run, const SourceLookup& source, std::size_t max_results) {
  Plan plan = plan_of(findings, run, source, max_results);
  json log = log_without_results(findings, run, plan, max_results);
  json& results = log["runs"][0]["results"];
  for (std::size_t k = 0; k < plan.order.size(); ++k) results.push_back(result_at(findings, plan, k, run.differential));
  return log;
}

void write_sarif_log(std::ostream& out, FindingsView findings, const RunInfo& run, const SourceLookup& source,
                     std::size_t max_results) {
  Plan plan = plan_of(findings, run, source, max_results);
  const std::string doc = dump_json(log_without_results(findings, run, plan, max_results));
  // "results" is a member of the one run, an element of the top-level "runs": its line is
  // indented by six spaces.
  bool spliced = write_spliced(out, doc, "\n      \"results\": []", plan.order.size(),
                               [&](std::size_t k) { return result_at(findings, plan, k, run.differential); });
  if (!spliced) out << (plan.order.empty() ? doc : dump_json(sarif_log(findings, run, source, max_results)));
}

std::unique_ptr<Reporter> make_sarif_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<SarifReporter>(out, options);
}

}  // namespace review::report
