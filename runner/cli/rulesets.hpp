// Finding and loading rulesets for the CLI: a bare name ("atom" or "atom.rules") of a shipped
// ruleset always resolves to that ruleset, embedded in the binary (a file of that name in the
// repository never shadows it: name it as a path, "./atom.rules"); anything else is a path, read
// through a PolicySource (the base commit in a pull-request run; nullptr = the file system).
// A ruleset is one file (rulesets/ops.rules) or a folder whose entry file has the folder's name
// (rulesets/atom/atom.rules) and `use`s its parts. `use "x.rules"` resolves relative to the
// including file (inside the embedded rulesets/ tree for a shipped file), then to the shipped
// rulesets by name.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/ruleset.hpp"
#include "runner/cli/policy.hpp"

namespace review::cli {

/// Returns (display name, text) for a --ruleset argument, or nullopt when neither a readable file,
/// a folder with an entry file (DIR/<DIR's name>.rules) nor a shipped ruleset has that name. A
/// shipped name always wins over a file of that name; a path ("./x", "a/b.rules") is always a file.
/// Throws PolicyError when the file is refused (a symbolic link, see PolicySource::read).
std::optional<std::pair<std::string, std::string>> find_ruleset(const std::string& name_or_path,
                                                                PolicySource* policy = nullptr);

/// The resolver for `use` (see dsl::Resolver): relative to the including file, read through
/// `policy`, then the shipped set. Throws PolicyError as find_ruleset.
dsl::Resolver use_resolver(PolicySource* policy = nullptr);

/// Shipped ruleset names without the ".rules" extension, sorted ("atom", "ops", ...): single files
/// and folder entries, never the parts a folder ruleset `use`s.
std::vector<std::string> shipped_ruleset_names();

/// Loads one ruleset against the runner's fact schema. Diagnostics are appended to `diags`.
/// Returns the result (program null on errors, or when the ruleset is not found: then one
/// diagnostic says so and lists the shipped names; or when a file was refused: then the diagnostic
/// is PolicyError's message).
dsl::LoadResult load_ruleset_arg(const std::string& name_or_path, const dsl::LoadOptions& opts,
                                 PolicySource* policy = nullptr);

}  // namespace review::cli
