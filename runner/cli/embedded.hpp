// The shipped rulesets (rulesets/*.rules and rulesets/*/*.rules), embedded into the binary at build time by
// cmake/embed.cmake so that the `runner` executable alone is the whole tool.
#pragma once
#include <string_view>
#include <vector>

namespace review {

/// One embedded file: its path under rulesets/ ("ops.rules", or "atom/atom.rules" and
/// "atom/coverage.rules" for the entry and a part of a folder ruleset) and its exact bytes.
struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};

/// Returns every shipped ruleset file, in path order. Never fails.
const std::vector<EmbeddedFile>& embedded_rulesets();

}  // namespace review
