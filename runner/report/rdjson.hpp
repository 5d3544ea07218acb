// `rdjson`: reviewdog's Diagnostic Format (rdjson), one DiagnosticResult document per run, so
// reviewdog (`reviewdog -f=rdjson`) can carry findings to GitHub, GitLab, Gerrit or Bitbucket.
// Format: reviewdog's proto/rdf/reviewdog.proto and its JSON Schema
// proto/rdf/jsonschema/DiagnosticResult.json (tests/fixtures/report/rdjson.schema.json is our own strict schema of it).
//
//   {"source": {"name": "review-action", "url": ...},
//    "diagnostics": [{"message": ..., "location": {"path": ..., "range": {"start": {"line": L,
//      "column": C}, "end": {"line": E}}}, "severity": "ERROR"|"WARNING"|"INFO",
//      "code": {"value": RULE_ID}, "source": {"name": "review-action"}}]}
//
// block -> ERROR, warn -> WARNING, note -> INFO. Suppressed findings are left out (rdjson has no
// suppression). A whole-file finding (line 0) has no range; a pull-request-level finding (no
// file) has no location. `end` is given only for a multi-line finding, linewise (no column), so
// reviewdog reads it as inclusive. Written in `finish`; invalid UTF-8 becomes U+FFFD.
#pragma once

#include <iosfwd>
#include <memory>

#include <nlohmann/json.hpp>

#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns an `rdjson` reporter writing to `out`.
std::unique_ptr<Reporter> make_rdjson_reporter(std::ostream& out, const ReportOptions& options);

/// Returns the DiagnosticResult document for `findings` (in the given order) and `run`.
nlohmann::json rdjson_document(FindingsView findings, const RunInfo& run);

}  // namespace review::report
