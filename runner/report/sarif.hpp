// `sarif`: one SARIF 2.1.0 log with one run, written in `finish` one result at a time, for GitHub code scanning
// (docs/output-formats.md lists every field and the choices made).
//
// - tool.driver: name "review-action", semanticVersion (RunInfo::tool_version, else the version
//   this library was built as), informationUri (RunInfo::information_uri, else
//   RunInfo::repository_uri, else omitted, which the validator reports as a warning), every rule of RunInfo::rules plus any rule that
//   only a finding names: id, name, shortDescription (title), fullDescription (problem, impact
//   and action templates, ≤ 1024 bytes), help {text, markdown} with the rule's examples,
//   defaultConfiguration.level, properties.tags (≤ 10).
// - results: ruleId, ruleIndex, level (block→error, warn→warning, note→note; RULES.md §0.1),
//   message.text (problem, impact, action), one location: artifactLocation {uri percent-encoded,
//   uriBaseId "%SRCROOT%"} + region {startLine, endLine, startColumn}; whole-file findings
//   (line 0) point at line 1 with properties.wholeFile; partialFingerprints
//   .primaryLocationLineHash (fingerprint.hpp); properties {evidence, tier, witness, tags};
//   suppressions [{kind, status "accepted", justification}] for suppressed findings.
// - Pull-request-level findings (no file) are not results (code scanning rejects results
//   without a location); they are carried in run.properties.pullRequestFindings.
// - automationDetails.id: RunInfo::category, else "review-action/<ruleset>[+<ruleset>…]/".
// - versionControlProvenance [{repositoryUri, revisionId}] when both are known.
// - invocations [{executionSuccessful (exit code 0 or 1), exitCode, toolExecutionNotifications
//   (one per RunInfo::diagnostics entry, level "warning"; one "note" when limits cut results)}].
// - Limits (GitHub "SARIF support for code scanning"): at most kSarifMaxResults results per run,
//   kept most severe first (unsuppressed before suppressed); kSarifMaxLocations locations per
//   result (this writer emits one).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>

#include <nlohmann/json.hpp>

#include "runner/report/reporter.hpp"

namespace review::report {

inline constexpr std::size_t kSarifMaxResults = 25000;      ///< GitHub: results per run
inline constexpr std::size_t kSarifMaxLocations = 1000;     ///< GitHub: locations per result
inline constexpr std::size_t kSarifMaxTags = 10;            ///< GitHub: tags per rule
inline constexpr std::size_t kSarifMaxDescription = 1024;   ///< GitHub: fullDescription bytes

/// Returns a `sarif` reporter writing to `out`.
std::unique_ptr<Reporter> make_sarif_reporter(std::ostream& out, const ReportOptions& options);

/// Returns the SARIF 2.1.0 log for `findings` and `run` (the reporter writes its dump).
/// `max_results` exists so tests can exercise the cut without 25,000 findings.
nlohmann::json sarif_log(FindingsView findings, const RunInfo& run,
                         const SourceLookup& source = {}, std::size_t max_results = kSarifMaxResults);

/// Writes the same bytes as dump_json(sarif_log(findings, run, source, max_results)), holding one
/// result's JSON at a time (write_spliced, json.hpp): aiter's audit, 25,000 results, had held
/// some 300 MiB of JSON values and text at once. Throws only what `out` throws.
void write_sarif_log(std::ostream& out, FindingsView findings, const RunInfo& run,
                     const SourceLookup& source = {}, std::size_t max_results = kSarifMaxResults);

}  // namespace review::report
