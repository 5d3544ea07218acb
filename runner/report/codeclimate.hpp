// `codeclimate`: the Code Climate issue list that GitLab's code quality report reads
// (`artifacts: reports: codequality:`), one JSON array per run.
// Format: GitLab "Code Quality" docs (implement a custom tool: a JSON array of objects with
// description, check_name, fingerprint, severity, location.path, location.lines.begin) and the
// Code Climate engine spec's issue object (type "issue", categories, lines.end).
//
//   [{"type": "issue", "check_name": RULE_ID, "description": RULE_TITLE + ": " + problem,
//     "content": {"body": impact and action}, "categories": ["Bug Risk"],
//     "severity": "blocker"|"major"|"info", "fingerprint": "<16 hex>:<n>",
//     "location": {"path": ..., "lines": {"begin": L, "end": E}}}]
//
// block -> blocker, warn -> major, note -> info. The fingerprint is the one SARIF and baselines use
// (fingerprint.hpp), unique per finding within a run, so GitLab can tell new issues from fixed
// ones across pipelines. Suppressed findings and pull-request-level findings (no file: GitLab
// needs a path) are left out; the verdict card carries those. Line 0 (whole file) is line 1.
// Written in `finish`; invalid UTF-8 becomes U+FFFD.
#pragma once

#include <iosfwd>
#include <memory>

#include <nlohmann/json.hpp>

#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns a `codeclimate` reporter writing to `out`.
std::unique_ptr<Reporter> make_codeclimate_reporter(std::ostream& out, const ReportOptions& options);

/// Returns the issue array for `findings` (in the given order). `source` gives line texts for
/// fingerprints when a finding has no snippet (may be empty).
nlohmann::json codeclimate_issues(FindingsView findings, const SourceLookup& source = {});

}  // namespace review::report
