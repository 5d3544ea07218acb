// CMake front end (PEGTL grammar): commands, arguments, comments, if() depth, hostile input.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/cmake/cmake.hpp"

using review::lang::parse_cmake;

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "|" : "") + v[i];
  return s;
}
}  // namespace

TEST_CASE("cmake commands: names, arguments, lines", "[cmake]") {
  struct Row { const char* src; const char* name; const char* args; int line, end_line; };
  const Row rows[] = {
      {"add_library(foo STATIC a.c b.c)\n", "add_library", "foo|STATIC|a.c|b.c", 1, 1},
      {"\n\nSET(X \"a b\" ${Y})\n", "set", "X|a b|${Y}", 3, 3},
      {"install(TARGETS t\n        DESTINATION lib)\n", "install", "TARGETS|t|DESTINATION|lib", 1, 2},
      {"set(V [[raw ${x} \"q\"]])\n", "set", "V|raw ${x} \"q\"", 1, 1},
      {"set(V [==[a]]b]==])\n", "set", "V|a]]b", 1, 1},
      {"set(V [[\nline2]])\n", "set", "V|line2", 1, 2},
      {"if((A AND B) OR C)\nendif()\n", "if", "(|A|AND|B|)|OR|C", 1, 1},
      {"set(X \"esc \\\" q\")\n", "set", "X|esc \\\" q", 1, 1},
      {"message(STATUS a;b) # trailing\n", "message", "STATUS|a;b", 1, 1},
      {"  foo (x)\n", "foo", "x", 1, 1},
      {"foo(a # comment inside\n  b)\n", "foo", "a|b", 1, 2},
      {"foo(a #[[bracket\ncomment]] b)\n", "foo", "a|b", 1, 2},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto p = parse_cmake(r.src);
    CHECK_FALSE(p.error);
    REQUIRE(!p.commands.empty());
    CHECK(p.commands[0].name == r.name);
    CHECK(join(p.commands[0].args) == r.args);
    CHECK(p.commands[0].line == r.line);
    CHECK(p.commands[0].end_line == r.end_line);
  }
}

TEST_CASE("cmake comments are not commands", "[cmake]") {
  struct Row { const char* src; size_t commands; size_t comments; };
  const Row rows[] = {
      {"# add_library(x)\n", 0, 1},
      {"#[[ add_library(x)\n  more ]]\n", 0, 2},
      {"#[=[ ]] still ]=] add_library(y)\n", 1, 1},
      {"add_library(x)\n", 1, 0},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto p = parse_cmake(r.src);
    CHECK_FALSE(p.error);
    CHECK(p.commands.size() == r.commands);
    CHECK(p.comments.size() == r.comments);
  }
  auto p = parse_cmake("set(A 1)  # note\n");
  REQUIRE(p.comments.size() == 1);
  CHECK(p.comments[0].line == 1);
  CHECK(p.comments[0].column == 11);
  CHECK(p.comments[0].length == 6);
}

TEST_CASE("cmake if() depth", "[cmake]") {
  auto p = parse_cmake(
      "a()\n"
      "if(X)\n"
      "  b()\n"
      "  IF(Y)\n"
      "    c()\n"
      "  elseif(Z)\n"
      "    d()\n"
      "  else()\n"
      "  endif()\n"
      "endif()\n"
      "e()\n");
  std::vector<std::string> got;
  for (const auto& c : p.commands) got.push_back(c.name + ":" + std::to_string(c.depth));
  CHECK(join(got) == "a:0|if:0|b:1|if:1|c:2|elseif:1|d:2|else:1|endif:1|endif:0|e:0");
}

TEST_CASE("cmake hostile input: errors with positions, commands before the error kept", "[cmake]") {
  struct Row { std::string src; std::string error; size_t commands; };
  const std::vector<Row> rows = {
      {"a()\nset(X [[never closed\n", "2:7: unterminated bracket (expected the matching ]=*])", 1},
      {"set(X \"open\n", "1:7: unterminated quoted argument (expected \")", 0},
      {"foo bar\n", "1:5: expected '(' after the command name", 0},
      {"foo(a (b)\n", "1:5: unterminated argument list (expected ')')", 0},
      {"a()\n)\n", "2:1: expected a command name, a comment or the end of the file", 1},
      {"#[[ open comment\n", "1:2: unterminated bracket (expected the matching ]=*])", 0},
      {"f(" + std::string(300, '(') + ")", "1:259: parentheses nested deeper than 256 levels", 0},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto p = parse_cmake(r.src);
    REQUIRE(p.error);
    CHECK(p.error->describe() == r.error);
    CHECK(p.commands.size() == r.commands);
  }
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>(1 + (i * 131) % 254);
  CHECK_NOTHROW(parse_cmake(garbage));
  CHECK_FALSE(parse_cmake("").error);
  CHECK_FALSE(parse_cmake("a()\r\nb()\r\n").error);
}
