// Small helpers shared by the fact sources of runner/facts/ (not a public interface).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/facts.hpp"
#include "runner/change/change.hpp"

namespace review::facts::util {

/// A list value of strings.
dsl::Value str_list(const std::vector<std::string>& v);

/// `s` without leading and trailing spaces and tabs.
std::string trim(std::string_view s);

/// Analysis scope names use Python's "<locals>" and "<module>"; facts use "f.g" and "".
std::string normalise_function(std::string f);

/// The bare name at the end of a callee / type text: "a.b.c(x)" -> "c", "ns::f<T>" -> "f".
std::string last_name(std::string_view s);

/// True for a non-empty [A-Za-z_][A-Za-z0-9_]* name.
bool is_identifier(std::string_view s);

/// Not skipped, not binary, not a submodule.
bool analysable(const change::ChangedFile& f);

/// The file's base path (old_path, or path when it has none).
std::string base_path(const change::ChangedFile& f);

/// True when `path` matches any of `globs` (dsl::glob_match).
bool any_glob(const std::vector<std::string>& globs, std::string_view path);

/// Text of line `line` (1-based) of `lines`, trimmed; "" out of range.
std::string line_text(const std::vector<std::string>& lines, int line);

/// The doc prefix of nested-only record shapes ("(nested) ").
inline constexpr const char* kNestedDoc = "(nested) ";

/// A schema field.
inline dsl::FieldSchema field(const char* name, dsl::Type type, const char* doc, const char* fact_source = "") {
  return dsl::FieldSchema{name, type, doc, fact_source};
}

/// `f` marked as spelled in its file's text (dsl::FieldSchema::in_text): only for values copied
/// from the text (whitespace collapsed, comments or strings blanked, parts joined by '.' or
/// '::'), never for values a source computes or resolves.
inline dsl::FieldSchema in_text(dsl::FieldSchema f) {
  f.in_text = true;
  return f;
}

}  // namespace review::facts::util
