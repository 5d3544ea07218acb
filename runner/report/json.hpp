// `json`: one JSON document per run, schema "review-action/findings@1" (docs/output-formats.md
// describes every field). Written in `finish`; invalid UTF-8 in any string is replaced by U+FFFD
// (nlohmann::json error_handler_t::replace), so the writer never throws on PR content.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

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

/// Returns `w` as a JSON object, name → value (its names in order). Never throws.
nlohmann::json witness_json(const dsl::Witness& w);

/// Dumps `j` with two-space indentation, replacing invalid UTF-8 by U+FFFD. Never throws.
std::string dump_json(const nlohmann::json& j);

/// Writes `doc`, a dump_json text with one empty array member whose line is `slot` (its newline,
/// indentation, key and "[]", e.g. "\n  \"findings\": []"), with `count` elements spliced into
/// that array: element(i), dumped and indented one level deeper than the member, for i from 0.
/// The bytes equal dump_json of the document with those elements pushed into the array, but
/// only one element's JSON is held at a time. Returns false and writes nothing when `slot` is not
/// in `doc` or `count` is 0 (the caller dumps the whole document then). Throws what `element`
/// or `out` throws. A dumped string never holds a raw newline (it is escaped), so `slot` can
/// only match the member's own line.
bool write_spliced(std::ostream& out, const std::string& doc, const std::string& slot, std::size_t count,
                   const std::function<nlohmann::json(std::size_t)>& element);

}  // namespace review::report
