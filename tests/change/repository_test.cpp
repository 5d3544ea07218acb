#include "catch.hpp"
#include "runner/change/repository.hpp"

#include <stdexcept>

using review::change::find_pin;
using review::change::parse_with;

TEST_CASE("parse_with: NAME=PATH[@REV]") {
  auto a = parse_with("aiter=../aiter");
  CHECK(a.name == "aiter");
  CHECK(a.path == "../aiter");
  CHECK(a.rev.empty());
  CHECK(a.origin == "--with");
  auto b = parse_with("aiter=/src/aiter@3f2a1c0");
  CHECK(b.path == "/src/aiter");
  CHECK(b.rev == "3f2a1c0");
  // An '@' inside the path (before the last '/') is part of the path.
  auto c = parse_with("x=/tmp/a@b/c");
  CHECK(c.path == "/tmp/a@b/c");
  CHECK(c.rev.empty());
  CHECK(parse_with("x=../lib@v1.2").rev == "v1.2");
  CHECK_THROWS_AS(parse_with("aiter"), std::invalid_argument);
  CHECK_THROWS_AS(parse_with("=../aiter"), std::invalid_argument);
  CHECK_THROWS_AS(parse_with("1x=../aiter"), std::invalid_argument);
  CHECK_THROWS_AS(parse_with("a-b=../aiter"), std::invalid_argument);
  CHECK_THROWS_AS(parse_with("aiter="), std::invalid_argument);
  CHECK_THROWS_AS(parse_with("aiter=../aiter@"), std::invalid_argument);
  try {
    parse_with("aiter");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("expected NAME=PATH[@REV]") != std::string::npos);
  }
}

TEST_CASE("find_pin: group `rev`, else the first group, trimmed of quotes") {
  const std::string docker = "FROM x\nARG AITER_COMMIT=\"3f2a1c0\"\nRUN make\n";
  CHECK(find_pin(docker, R"(ARG\s+AITER_COMMIT\s*=\s*"?(?P<rev>[^"\s]+))") == "3f2a1c0");
  const std::string req = "torch==2.4\naiter @ git+https://example.invalid/aiter.git@0123abcd\n";
  CHECK(find_pin(req, R"(aiter @ git\+\S+@([0-9a-f]+))") == "0123abcd");
  // Named group wins over an earlier unnamed one.
  CHECK(find_pin("v=1 sha=abc", R"((v)=1 sha=(?P<rev>\w+))") == "abc");
  CHECK(find_pin("ARG AITER_COMMIT= ' deadbeef '", R"(AITER_COMMIT=([^\n]+))") == "deadbeef");
  CHECK_FALSE(find_pin(req, R"(flashinfer @ (\S+))").has_value());   // no match
  CHECK_FALSE(find_pin(req, R"(aiter)").has_value());                // no group
  CHECK_FALSE(find_pin(req, R"(aiter (()").has_value());             // does not compile
  CHECK_FALSE(find_pin("x=\"\"", R"(x=("*))").has_value());          // empty after trimming
}
