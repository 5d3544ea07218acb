// The shipped rulesets (rulesets/*.rules), embedded into the binary at build time by
// cmake/embed.cmake so that the `runner` executable alone is the whole tool.
#pragma once
#include <string_view>
#include <vector>

namespace review {

/// One embedded file: its base name (e.g. "atom.rules") and its exact bytes.
struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};

/// Returns every shipped ruleset, in file-name order. Never fails.
const std::vector<EmbeddedFile>& embedded_rulesets();

}  // namespace review
