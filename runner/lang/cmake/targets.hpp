// CMake build model of one file: the targets it defines (add_library / add_executable) with the
// properties and links it sets on them, and what its install() rules cover. Read from the
// command invocations of parse_cmake; signatures follow cmake-commands(7) (add_library,
// add_executable, set_target_properties, set_property(TARGET), target_link_libraries, install)
// and the ROCm wrappers rocm_install (same signature as install) and rocm_install_targets
// (TARGETS ... INCLUDE dirs).
//
//   auto p = review::lang::parse_cmake("add_library(k SHARED k.cpp)\ninstall(TARGETS k)\n");
//   auto t = review::lang::cmake_targets(p.commands);        // t[0].name == "k", t[0].kind == "shared"
//   auto i = review::lang::cmake_installs(p.commands, "src/CMakeLists.txt");  // i[0].targets == {"k"}
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/lang/model.hpp"

namespace review::lang {

struct CMakeTarget {
  std::string name;
  /// "static", "shared", "module", "object", "interface", "library" (no type given: decided by
  /// BUILD_SHARED_LIBS), "executable", "imported" or "alias".
  std::string kind;
  std::string command;                  ///< "add_library" or "add_executable"
  int line = 0, end_line = 0;
  int depth = 0;                        ///< enclosing if() blocks
  bool exclude_from_all = false;
  std::vector<std::string> sources;     ///< source arguments as written
  std::string alias_of;                 ///< the aliased target, "" unless kind is alias
  /// Properties this file sets on the target, "KEY=value" (set_target_properties,
  /// set_property(TARGET ... PROPERTY KEY values...)); later settings come later.
  std::vector<std::string> properties;
  /// Links this file adds, "VISIBILITY:item" with PUBLIC, PRIVATE, INTERFACE or "" (plain
  /// signature) (target_link_libraries).
  std::vector<std::string> links;
};

struct CMakeInstall {
  std::string command;                  ///< "install", "rocm_install" or "rocm_install_targets"
  /// TARGETS, FILES, PROGRAMS, DIRECTORY, EXPORT, SCRIPT, CODE, IMPORTED_RUNTIME_ARTIFACTS,
  /// RUNTIME_DEPENDENCY_SET, or "" when the first argument is none of them.
  std::string kind;
  int line = 0, end_line = 0;
  int depth = 0;
  std::vector<std::string> targets;     ///< TARGETS: the target names
  std::vector<std::string> paths;       ///< FILES/PROGRAMS/DIRECTORY (and rocm_install_targets INCLUDE) as written
  /// Repository-relative globs of the source files the rule ships: a file "dir/a.h"; a directory
  /// "dir/**" (with its FILES_MATCHING PATTERN globs: "dir/**/*.h"); paths resolved against the
  /// file's folder, with ${CMAKE_CURRENT_SOURCE_DIR} / ${CMAKE_CURRENT_LIST_DIR} as that folder
  /// and ${CMAKE_SOURCE_DIR} / ${PROJECT_SOURCE_DIR} as the repository root. A path that still
  /// holds a variable or a generator expression is left out (see `resolved`).
  std::vector<std::string> covers;
  bool resolved = true;                 ///< every path resolved to a glob
  std::vector<std::string> destinations;
  std::string component;                ///< the first COMPONENT, "" when none
  std::string export_name;              ///< EXPORT name (TARGETS ... EXPORT X, or install(EXPORT X))
  std::vector<std::string> patterns;    ///< PATTERN / REGEX arguments
  bool optional = false;
};

/// The targets `commands` define, in order, with the properties and links the same commands set.
std::vector<CMakeTarget> cmake_targets(const std::vector<CMakeCommand>& commands);

/// The install rules of `commands`, read from the file at repository path `path` (for resolving
/// relative paths).
std::vector<CMakeInstall> cmake_installs(const std::vector<CMakeCommand>& commands, std::string_view path);

}  // namespace review::lang
