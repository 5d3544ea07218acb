// `runner test`: runs every rule's `example` blocks through the real fact sources.
//
// An example's code is the head version of one new file whose every line is added
// (`example bad python """…"""`), or a unified diff (`example bad diff`) applied to base texts
// rebuilt from its own context and removed lines (a line no hunk shows is empty).
// Leading comment lines of the form `# file: PATH` (or `// file: PATH`) set the file's path
// (default: example.py, example.cpp, CMakeLists.txt, README.md, example.txt by language), and
// `# pr-title: …`, `# pr-body: …`, `# pr-label: …` set the pull request's metadata. The
// pseudo-language `pr` takes the pull request itself: first line = title, the rest = body.
// A `bad` example passes when its rule fires on every line marked `# <- ID` / `// <- ID` /
// `<!-- <- ID -->` (in a
// `diff` example, a marker on a context or added line means that line's head line number, on a
// removed line its base line number), or anywhere when it says `# <- any` (a finding on a whole
// file or on the pull request, which has no line). A `bad` example with neither fails ("a bad
// example must mark the lines it fires on"), and so does a marker naming another rule; `pr`
// examples need no marker. A `good` example passes when its rule stays silent; `todo-bad` and
// `todo-good` are known gaps: their outcome is shown but never fails.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace review::cli {

/// The languages an `example` may be written in, each with the file an example is reviewed as
/// unless `# file:` says otherwise: python (example.py); cpp, hip, cuda (example.cpp); cmake
/// (CMakeLists.txt); markdown, md (README.md); text (example.txt); diff (a unified diff); pr (the
/// pull request itself). `runner check` and `runner test` reject any other (dsl::LoadOptions).
const std::vector<std::string>& example_languages();

/// Every `# <- ID`, `// <- ID` or `<!-- <- ID -->` (Markdown) marker of an example's code as
/// (1-based line, ID), in order; one line may name several (`# <- A, B`); `any` is returned like an
/// id. An id is letters, digits, `_`, `-` and `.`; a marker with no id after it is not a marker.
std::vector<std::pair<int, std::string>> example_markers(const std::string& code);

/// The lines (1-based, ascending, once each) of `code` with a marker naming rule `id`.
std::vector<int> example_marker_lines(const std::string& code, const std::string& id);

struct ExampleTotals {
  int passed = 0, failed = 0, skipped = 0;
};

/// Loads each ruleset file (strictly when `strict`), runs its examples, prints one line per
/// example and a closing "N passed, M failed, K skipped" line to `out`; diagnostics to `err`.
/// With `sarif_path` non-empty, also writes every example's findings as one SARIF 2.1.0 file
/// (each example's file under `examples/<rule>/<n>/`), e.g. to check them with a SARIF validator.
/// Returns 0 when every example passed, 1 when any failed, 2 when a ruleset did not load.
int run_examples(const std::vector<std::string>& rulesets, const std::vector<std::string>& only_rules, bool verbose,
                 const std::string& sarif_path, std::ostream& out, std::ostream& err);

}  // namespace review::cli
