// Load-time checks over the ASTs of a ruleset and the files it `use`s: names (sources, fields,
// variables, scopes, kinds) against the fact schema, static types, regexes (compiled here, once),
// duplicate ids, and the rule lints (red-finding gate, action prefix, required templates, bad
// examples). Each check is a small function in checker.cpp; each problem is one Diagnostic.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "dsl/facts.hpp"
#include "dsl/regex.hpp"

namespace review::dsl {

/// Compiled regex of every `~`/`!~` right-hand side (the Regex literal node, or the Var naming a
/// regex `let`) and of every regex `let` value.
using CheckedRegexes = std::unordered_map<const ast::Expr*, std::shared_ptr<const CompiledRegex>>;

struct CheckResult {
  std::vector<Diagnostic> diagnostics;
  CheckedRegexes regexes;
  /// For each rule: the tags it reads with findings("tag"), with the call's span.
  std::map<const ast::Rule*, std::vector<std::pair<std::string, ast::Span>>> reads;
};

/// The default accepted starts of an `action` (RULES.md §4.2).
const std::vector<std::string>& default_action_prefixes();

/// The pseudo-source of findings("tag") facts: rule, title, severity, problem, impact, action,
/// tags, text (= title), plus file/line.
const SourceSchema& findings_schema();

/// Checks `files` (main file first). `texts` maps each file name to its text (for source lines in
/// diagnostics). Warnings are Level::Warning unless `strict`. With `example_languages` non-empty,
/// an example in a language not in it is an error: "unknown example language `pythn`; did you mean
/// `python`? (known: …)". Never throws.
CheckResult check_files(const std::vector<const ast::File*>& files,
                        const std::map<std::string, std::string>& texts,
                        const std::vector<SourceSchema>& schema, bool strict,
                        const std::vector<std::string>& action_prefixes,
                        const std::vector<std::string>& example_languages = {});

}  // namespace review::dsl
