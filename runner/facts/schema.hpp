// The schema of every fact source the rule language can query, with its fields, their types and
// one-line docs. `runner sources` prints it, the checker validates rules against it and
// ChangeFacts::schema() returns it, so the three cannot drift apart. Each source declares its own
// schema next to its build (runner/facts/<source>.cpp); the registry table is registry.cpp
// (source.hpp says how to add a source).
#pragma once

#include <vector>

#include "dsl/facts.hpp"

namespace review::facts {

/// Every fact source, in documentation order: pr, files, lines, added_lines, removed_lines,
/// functions, calls, assignments, statements, branches, dispatch_cases, unbound_reads, clones,
/// siblings, symbols, cmake_commands, sections; then the two record shapes that only appear
/// nested inside other facts ("location", "construct"), whose doc starts with "(nested)".
/// Querying a nested shape directly throws FactsError. The returned reference is stable.
const std::vector<dsl::SourceSchema>& fact_schema();

/// True for the nested-only record shapes ("location", "construct").
bool is_nested_only(const dsl::SourceSchema& s);

}  // namespace review::facts
