// CMake front end: command invocations of a CMakeLists.txt or *.cmake file, parsed with a PEGTL
// grammar that follows cmake-language(7) ("Syntax": command invocations, bracket / quoted /
// unquoted arguments, bracket and line comments).
//
//   auto p = review::lang::parse_cmake("if(WIN32)\n  add_library(a STATIC [[x.c]])\nendif()\n");
//   p.commands[1].name == "add_library";  p.commands[1].args == {"a", "STATIC", "x.c"};
//   p.commands[1].depth == 1;
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/lang/model.hpp"

namespace review::lang {

/// A syntax error with its 1-based position.
struct CMakeError {
  int line = 0, column = 0;
  std::string message;
  /// "line:column: message"
  std::string describe() const;
};

/// One comment fragment on one line (bracket comments spanning lines give one per line).
struct CMakeComment {
  int line = 0, column = 0, length = 0;  ///< 1-based line/column, length in bytes
};

struct CMakeParse {
  std::vector<CMakeCommand> commands;   ///< commands before the error when error is set
  std::vector<CMakeComment> comments;
  std::optional<CMakeError> error;
};

/// Parses CMake text. Never throws: hostile input (unterminated brackets, quotes or parentheses,
/// stray characters, nesting deeper than 256 parentheses) stops parsing with `error` set.
/// Arguments: bracket arguments yield their content (the newline right after the opening
/// bracket dropped), quoted arguments their content between the quotes (escapes kept as
/// written), unquoted arguments their text; nested parentheses yield "(" and ")" arguments.
/// Command names are lowercased. `depth` counts enclosing if() blocks: if/endif sit at the outer
/// depth, elseif/else at the depth of their if.
CMakeParse parse_cmake(std::string_view text);

}  // namespace review::lang
