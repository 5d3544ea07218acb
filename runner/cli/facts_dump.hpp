// `runner facts FILE [--source NAME] [--json]`: the facts one file yields, for rule authors (what
// Semgrep's --dump-ast and ast-grep's --debug-query are for). The file is reviewed as a newly
// added file (every line an added line, as a `runner test` example), so every source that reads
// changed files answers for it; field names are exactly those of `runner sources` (the facts
// registry, runner/facts/schema.hpp). Pull-request sources (`pr`) and the nested-only shapes are
// not listed; repository-wide scopes are not read.
#pragma once

#include <iosfwd>
#include <string>

namespace review::cli {

/// Prints the facts of every source (or only `source`) for file `path`, as text:
///   functions  example.py:1-2  name=f  params=["x"]  ...
/// or, with `json`, as one JSON document {"file": path, "facts": [{"source", "file", "line",
/// "end_line", "column", "fields": {name: value}}]} (a nested fact becomes {"source", "file",
/// "line"}). The file is named by `path` as given (its extension picks the language).
/// Returns 0; 2 for an unknown source (with a suggestion), 3 when the file cannot be read
/// ("PATH: cannot read the file") or is a folder ("PATH: is a folder; name one file").
int dump_facts(const std::string& path, const std::string& source, bool json, std::ostream& out, std::ostream& err);

}  // namespace review::cli
