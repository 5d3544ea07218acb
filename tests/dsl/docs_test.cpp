// Every ```rules block of docs/rule-language.md loads against the test schema.
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;

TEST_CASE("docs: every ```rules block of docs/rule-language.md loads") {
  std::ifstream in(std::string(REVIEW_SOURCE_DIR) + "/docs/rule-language.md");
  REQUIRE(in.good());
  std::string line, block;
  bool inside = false;
  int start = 0, n = 0, blocks = 0;
  Resolver empty_use = [](const std::string& u, const std::string&) -> std::optional<std::pair<std::string, std::string>> {
    return std::make_pair(u, std::string());
  };
  while (std::getline(in, line)) {
    ++n;
    if (!inside && line == "```rules") {
      inside = true;
      block.clear();
      start = n + 1;
    } else if (inside && line == "```") {
      inside = false;
      ++blocks;
      auto r = load_ruleset("docs:" + std::to_string(start), block, testing::test_schema(), empty_use, {});
      INFO("block at docs/rule-language.md:" << start);
      for (const auto& d : r.diagnostics) FAIL_CHECK(format_diagnostic(d));
      CHECK(r.ok());
    } else if (inside) {
      block += line + "\n";
    }
  }
  CHECK_FALSE(inside);
  CHECK(blocks >= 12);
}
