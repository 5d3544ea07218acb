#include "runner/report/fingerprint.hpp"

#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

namespace {
Finding at(int line, std::string snippet, std::string id = "R1", std::string file = "a.py") {
  Finding f = make_finding(std::move(id), "T", Severity::Warn, Evidence::Verified, std::move(file), line, 0, "p", "i", "a");
  f.snippet = std::move(snippet);
  return f;
}
}  // namespace

TEST_CASE("fingerprints are stable when unrelated lines move") {
  auto before = fingerprints(std::vector<Finding>{at(10, "x = a * b"), at(20, "y = c")});
  auto after = fingerprints(std::vector<Finding>{at(14, "x  =  a*b"), at(31, "y = c")});  // moved, whitespace changed
  CHECK(before == after);
  CHECK(before[0].size() == 18);
  CHECK(before[0].substr(16) == ":1");
}

TEST_CASE("fingerprints change with rule, path or line text") {
  auto base = fingerprints(std::vector<Finding>{at(1, "x = 1")})[0];
  CHECK(fingerprints(std::vector<Finding>{at(1, "x = 2")})[0] != base);
  CHECK(fingerprints(std::vector<Finding>{at(1, "x = 1", "R2")})[0] != base);
  CHECK(fingerprints(std::vector<Finding>{at(1, "x = 1", "R1", "b.py")})[0] != base);
}

TEST_CASE("two `also` bodies of one rule at one place get different fingerprints; the main body's are unchanged") {
  Finding main = at(1, "x = 1");
  Finding other = at(1, "x = 1");
  other.label = "consumer repository";
  Finding third = at(1, "x = 1");
  third.label = "subclass";
  auto fp = fingerprints(std::vector<Finding>{main, other, third});
  CHECK(fp[0].substr(0, 16) != fp[1].substr(0, 16));
  CHECK(fp[1].substr(0, 16) != fp[2].substr(0, 16));
  CHECK(fp[0].substr(0, 16) != fp[2].substr(0, 16));
  CHECK(fp[1].substr(16) == ":1");  // each the first of its own hash
  CHECK(fp[2].substr(16) == ":1");
  CHECK(fp[0] == fingerprints(std::vector<Finding>{at(1, "x = 1")})[0]);  // no label: as before `also` existed
}

TEST_CASE("identical lines get occurrence indexes in line order") {
  auto fp = fingerprints(std::vector<Finding>{at(30, "pass"), at(10, "pass"), at(20, "pass")});
  CHECK(fp[1].substr(16) == ":1");
  CHECK(fp[2].substr(16) == ":2");
  CHECK(fp[0].substr(16) == ":3");
  CHECK(fp[0].substr(0, 16) == fp[1].substr(0, 16));
}

TEST_CASE("line text comes from the source when the snippet is empty") {
  SourceLookup src = [](const std::string&) -> std::optional<std::string> { return "a\r\nx = 1\n"; };
  CHECK(fingerprints(std::vector<Finding>{at(2, "")}, src) == fingerprints(std::vector<Finding>{at(2, "x = 1")}));
  CHECK(line_of("a\nb", 2) == "b");
  CHECK(line_of("a\nb\n", 3) == "");
  CHECK(line_of("a", 0) == "");
}

TEST_CASE("line_hash is pinned") {
  // Changing the hash changes every baseline and every code scanning alert: pin it.
  CHECK(line_hash(at(1, ""), "x = 1") == line_hash(at(1, ""), "x=1"));
  CHECK(line_hash(at(1, ""), "x = 1") == "5cb599e85b6a05d9");
}
