// `json`: one JSON document per run, schema "review-action/findings@1" (docs/output-formats.md
// describes every field). Written in `finish`; invalid UTF-8 in any string is replaced by U+FFFD
// (nlohmann::json error_handler_t::replace), so the writer never throws on PR content.
#pragma once

#include <iosfwd>
#include <memory>

#include <nlohmann/json.hpp>

#include "runner/report/reporter.hpp"

namespace review::report {

/// The value of the top-level "schema" member. Bump the number on any incompatible change.
inline constexpr const char* kJsonSchema = "review-action/findings@1";

/// Returns a `json` reporter writing to `out`.
std::unique_ptr<Reporter> make_json_reporter(std::ostream& out, const ReportOptions& options);

/// Returns the "review-action/findings@1" document for `findings` (in the given order) and `run`.
nlohmann::json findings_document(FindingsView findings, const RunInfo& run,
                                 const SourceLookup& source = {});

/// Writes the same bytes as dump_json(findings_document(findings, run, source)), without
/// holding the document of every finding at once: each finding's object is made, dumped and
/// dropped in turn (aiter's audit, 38,231 findings: the run's peak 1,447 -> 1,413 MiB). Throws
/// only what `out` throws.
void write_findings_document(std::ostream& out, FindingsView findings,
                             const RunInfo& run, const SourceLookup& source = {});

/// Dumps `j` with two-space indentation, replacing invalid UTF-8 by U+FFFD. Never throws.
std::string dump_json(const nlohmann::json& j);

}  // namespace review::report
