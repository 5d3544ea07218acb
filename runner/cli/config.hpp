// The repository's review configuration, `.github/review.yml` (read with yaml-cpp):
//
//   rulesets: [atom, ops]            # names or paths, as --ruleset
//   fail-on: warn                    # block | warn | note | never
//   filter: added                    # added | context | file | all
//   baseline: .github/review-baseline.json
//   exclude: ["third_party/**", "**/*.pb.py"]   # findings in these paths are dropped
//   severity:                        # per-rule overrides
//     D2: note
//     HK1: off                       # `off` drops the rule's findings
//   inline-suppressions: base-only   # all (default) | base-only: an ignore comment the change
//                                    # itself adds does not suppress (it is shown either way)
//   repos:                           # other repositories as named scopes, as --with
//     aiter: ../aiter                # PATH[@REV]; without @REV the ruleset's pin, else HEAD
//
// Command-line flags win over the file. Unknown keys and bad values are errors with line and
// column ("review.yml:3:1: unknown key `fail_on`; did you mean `fail-on`?").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace review::cli {

struct ReviewConfig {
  std::vector<std::string> rulesets;
  std::optional<std::string> fail_on;     ///< as written: block|warn|note|never
  std::optional<std::string> filter;
  std::optional<std::string> baseline;
  std::vector<std::string> exclude;       ///< globs
  std::map<std::string, std::string> severity;  ///< rule id -> block|warn|note|off
  std::string inline_suppressions = "all";      ///< all|base-only
  std::map<std::string, std::string> repos;     ///< name -> PATH[@REV] (as --with NAME=PATH[@REV])
};

/// A configuration error: "file:line:col: message".
struct ConfigError {
  std::string message;
};

/// Parses `text` (named `name` in errors). Throws ConfigError on YAML syntax errors, unknown keys
/// (with a suggestion), wrong shapes, and values outside the allowed sets.
ReviewConfig parse_review_config(const std::string& text, const std::string& name);

/// Reads and parses the file at `path`. Throws ConfigError (also when the file is unreadable).
ReviewConfig load_review_config(const std::string& path);

}  // namespace review::cli
