#include "runner/github/check_run.hpp"

#include <cstdio>
#include <optional>
#include <random>

#include <algorithm>

namespace review::github {
namespace {

using review::dsl::Finding;
using review::dsl::Severity;

const char* level_of(Severity s) {
  switch (s) {
    case Severity::Block: return "failure";
    case Severity::Warn: return "warning";
    case Severity::Note: return "notice";
  }
  return "warning";
}

// Longest prefix of `s` of at most `limit` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, size_t limit) {
  if (s.size() <= limit) return s;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::string output_title(report::FindingsView findings) {
  size_t n[3] = {0, 0, 0};
  for (const auto& f : findings)
    if (!f.suppressed && !f.pre_existing) ++n[static_cast<int>(f.severity)];
  size_t total = n[0] + n[1] + n[2];
  if (total == 0) return "No findings";
  std::string t = std::to_string(total) + (total == 1 ? " finding" : " findings") + " (";
  bool first = true;
  for (int s : {2, 1, 0}) {
    if (!n[s]) continue;
    if (!first) t += ", ";
    first = false;
    t += std::to_string(n[s]) + " " + std::string(review::dsl::severity_name(static_cast<Severity>(s)));
  }
  return t + ")";
}

}  // namespace

std::string check_run_conclusion(report::FindingsView findings, std::optional<Severity> fail_on) {
  bool any = false;
  for (const auto& f : findings) {
    if (f.suppressed || f.pre_existing) continue;
    any = true;
    if (fail_on && static_cast<int>(f.severity) >= static_cast<int>(*fail_on)) return "failure";
  }
  return any ? "neutral" : "success";
}

std::string cut_output(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  static constexpr std::string_view kNote =
      "\n\n---\n*This text was cut to fit GitHub's 65,535-character limit; the step summary and the "
      "SARIF file hold every finding.*\n";
  if (limit <= kNote.size()) return std::string(utf8_prefix(text, limit));
  std::string out(utf8_prefix(text, limit - kNote.size()));
  out += kNote;
  return out;
}

std::vector<nlohmann::json> check_run_annotations(report::FindingsView findings) {
  std::vector<nlohmann::json> out;
  for (const auto& f : findings) {
    if (f.suppressed || f.pre_existing || f.file.empty()) continue;
    int start = std::max(1, f.line);
    int end = std::max(start, f.end_line == 0 ? start : f.end_line);
    std::string message = f.problem;
    if (!f.impact.empty()) message += "\n\nWhy it matters: " + f.impact;
    if (!f.action.empty()) message += "\n\nWhat to do: " + f.action;
    if (message.empty()) message = f.rule_title;
    nlohmann::json a = {
        {"path", f.file},
        {"start_line", start},
        {"end_line", end},
        {"annotation_level", level_of(f.severity)},
        {"message", std::string(utf8_prefix(message, kMaxAnnotationMessageChars))},
    };
    if (!f.rule_title.empty()) a["title"] = std::string(utf8_prefix(f.rule_title, kMaxAnnotationTitleChars));
    if (start == end && f.column > 0) {
      a["start_column"] = f.column;
      a["end_column"] = f.column;
    }
    out.push_back(std::move(a));
  }
  return out;
}

CheckRunResult publish_check_run(Client& client, std::string_view repo, std::string_view head_sha,
                                 std::string_view name, report::FindingsView findings,
                                 std::string_view summary_markdown, std::string_view text,
                                 std::optional<Severity> fail_on) {
  CheckRunResult result;
  result.conclusion = check_run_conclusion(findings, fail_on);
  const auto annotations = check_run_annotations(findings);

  nlohmann::json output = {{"title", output_title(findings)}, {"summary", cut_output(summary_markdown)}};
  if (!text.empty()) output["text"] = cut_output(text);

  auto batch = [&](size_t from) {
    nlohmann::json a = nlohmann::json::array();
    for (size_t i = from; i < annotations.size() && i < from + kMaxAnnotationsPerRequest; ++i) a.push_back(annotations[i]);
    return a;
  };

  const std::string base = "/repos/" + std::string(repo) + "/check-runs";
  nlohmann::json create = {
      {"name", name}, {"head_sha", head_sha}, {"status", "completed"}, {"conclusion", result.conclusion},
  };
  create["output"] = output;
  create["output"]["annotations"] = batch(0);
  // external_id tells this run's check run from any other of the same name on the commit, so a
  // create that may have been applied is looked up before it is sent again (never a duplicate).
  std::random_device rd;
  char nonce[40];
  std::snprintf(nonce, sizeof nonce, "review-action-%08x%08x", rd(), rd());
  create["external_id"] = nonce;
  Response r = client.post(base, create);
  ++result.requests;
  for (int again = 0; r.maybe_applied && again < 2; ++again) {
    // GET …/commits/{ref}/check-runs answers {"total_count": n, "check_runs": [...]}.
    Response list = client.get("/repos/" + std::string(repo) + "/commits/" + std::string(head_sha) +
                               "/check-runs?filter=all&per_page=100");
    auto j = list.json();
    if (!list.ok() || !j.is_object() || !j.contains("check_runs") || !j["check_runs"].is_array())
      break;  // cannot tell whether it exists: never risk a duplicate
    std::optional<nlohmann::json> found;
    for (const auto& cr : j["check_runs"])
      if (cr.is_object() && cr.contains("external_id") && cr["external_id"] == nonce) found = cr;
    if (found) {
      r.status = 201;
      r.maybe_applied = false;
      r.body = found->dump();
      break;
    }
    r = client.post(base, create);
    ++result.requests;
  }
  if (r.rate_limited) {
    result.message = "GitHub's API rate limit for this token is used up (" + describe_failure(r) +
                     "); no check run was written \xE2\x80\x94 the verdict is in the step summary and the exit code";
    return result;
  }
  if (r.status == 403 || r.status == 404) {
    result.outcome = CheckRunOutcome::NoPermission;
    result.message = "the token cannot write check runs \xE2\x80\x94 falling back to workflow annotations";
    return result;
  }
  if (!r.ok()) {
    result.message = describe_failure(r);
    return result;
  }
  auto created = r.json();
  if (!created.is_object() || !created.contains("id") || !created["id"].is_number_integer()) {
    result.message = r.method + " " + r.path + ": the answer holds no check run id";
    return result;
  }
  result.check_run_id = created["id"].get<long long>();
  if (created.contains("html_url") && created["html_url"].is_string()) result.html_url = created["html_url"];
  result.annotations_sent = std::min(annotations.size(), kMaxAnnotationsPerRequest);

  const std::string update_path = base + "/" + std::to_string(result.check_run_id);
  for (size_t from = kMaxAnnotationsPerRequest; from < annotations.size(); from += kMaxAnnotationsPerRequest) {
    // Every update must repeat output.title and output.summary; annotations are appended.
    nlohmann::json update = {{"output", {{"title", output["title"]}, {"summary", output["summary"]}}}};
    update["output"]["annotations"] = batch(from);
    Response u = client.patch(update_path, update);
    ++result.requests;
    if (!u.ok()) {
      result.message = describe_failure(u);
      return result;
    }
    result.annotations_sent += update["output"]["annotations"].size();
  }
  result.outcome = CheckRunOutcome::Published;
  return result;
}

}  // namespace review::github
