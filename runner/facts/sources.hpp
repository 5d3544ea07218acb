// The factories of the fact sources, one per file of runner/facts/ (see source.hpp, "How to add a
// fact source"). Only registry.cpp calls them.
#pragma once

#include <memory>

#include "runner/facts/source.hpp"

namespace review::facts {

std::unique_ptr<Source> make_pr_source();              // pr.cpp
std::unique_ptr<Source> make_repos_source();           // repos.cpp
std::unique_ptr<Source> make_files_source();           // files.cpp
std::unique_ptr<Source> make_lines_source();           // lines.cpp
std::unique_ptr<Source> make_added_lines_source();     // lines.cpp
std::unique_ptr<Source> make_removed_lines_source();   // lines.cpp
std::unique_ptr<Source> make_functions_source();       // functions.cpp
std::unique_ptr<Source> make_calls_source();           // calls.cpp
std::unique_ptr<Source> make_call_targets_source();    // call_targets.cpp
std::unique_ptr<Source> make_assignments_source();     // assignments.cpp
std::unique_ptr<Source> make_statements_source();      // statements.cpp
std::unique_ptr<Source> make_branches_source();        // branches.cpp
std::unique_ptr<Source> make_dispatch_cases_source();  // branches.cpp
std::unique_ptr<Source> make_classes_source();        // classes.cpp
std::unique_ptr<Source> make_methods_source();        // classes.cpp
std::unique_ptr<Source> make_overrides_source();      // classes.cpp
std::unique_ptr<Source> make_subclasses_source();     // classes.cpp
std::unique_ptr<Source> make_attributes_source();     // classes.cpp
std::unique_ptr<Source> make_unbound_reads_source();   // unbound_reads.cpp
std::unique_ptr<Source> make_clones_source();          // clones.cpp
std::unique_ptr<Source> make_siblings_source();        // siblings.cpp
std::unique_ptr<Source> make_symbols_source();         // symbols.cpp
std::unique_ptr<Source> make_cmake_commands_source();  // cmake_commands.cpp
std::unique_ptr<Source> make_cmake_targets_source();   // cmake_targets.cpp
std::unique_ptr<Source> make_cmake_installs_source();  // cmake_targets.cpp
std::unique_ptr<Source> make_workflows_source();       // workflows.cpp
std::unique_ptr<Source> make_jobs_source();            // workflows.cpp
std::unique_ptr<Source> make_steps_source();           // workflows.cpp
std::unique_ptr<Source> make_sections_source();        // sections.cpp
std::unique_ptr<Source> make_handlers_source();        // handlers.cpp
std::unique_ptr<Source> make_throws_source();          // throws.cpp
std::unique_ptr<Source> make_checks_source();          // checks.cpp
std::unique_ptr<Source> make_includes_source();        // includes.cpp
std::unique_ptr<Source> make_ifdefs_source();          // ifdefs.cpp
std::unique_ptr<Source> make_location_shape();         // nested.cpp
std::unique_ptr<Source> make_construct_shape();        // nested.cpp

}  // namespace review::facts
