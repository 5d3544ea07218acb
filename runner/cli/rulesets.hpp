// Finding and loading rulesets for the CLI: a bare name ("atom" or "atom.rules") resolves to a
// shipped ruleset embedded in the binary; anything else is a path. `use "x.rules"` resolves
// relative to the including file, then to the shipped set.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/ruleset.hpp"

namespace review::cli {

/// Returns (display name, text) for a --ruleset argument, or nullopt when neither a readable file
/// nor a shipped ruleset has that name. Shipped names win only when no file of that name exists.
std::optional<std::pair<std::string, std::string>> find_ruleset(const std::string& name_or_path);

/// The resolver for `use` (see dsl::Resolver).
dsl::Resolver use_resolver();

/// Shipped ruleset names without the ".rules" extension, sorted ("aiter", "atom", ...).
std::vector<std::string> shipped_ruleset_names();

/// Loads one ruleset against the runner's fact schema. Diagnostics are appended to `diags`.
/// Returns the result (program null on errors, or when the ruleset is not found: then one
/// diagnostic says so and lists the shipped names).
dsl::LoadResult load_ruleset_arg(const std::string& name_or_path, const dsl::LoadOptions& opts);

}  // namespace review::cli
