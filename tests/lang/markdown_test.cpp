// Markdown sections: ATX and setext headings, fenced code, text before the first heading.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/markdown/markdown.hpp"
#include "runner/lang/model.hpp"

using review::lang::markdown_sections;

namespace {
std::string describe(const std::vector<review::lang::Section>& s) {
  std::string out;
  for (const auto& x : s) {
    if (!out.empty()) out += " | ";
    out += std::to_string(x.level) + ":" + x.heading + "@" + std::to_string(x.start) + "-" + std::to_string(x.end);
  }
  return out;
}
}  // namespace

TEST_CASE("markdown sections", "[markdown]") {
  struct Row { const char* src; const char* sections; };
  const Row rows[] = {
      {"# Title\ntext\n## Test Plan\nrun\n", "1:Title@1-2 | 2:Test Plan@3-4"},
      {"intro\n\n# A\n", "0:@1-2 | 1:A@3-3"},
      {"\n\n# A\n", "1:A@3-3"},
      {"#NoSpace\n", "0:@1-1"},
      {"####### seven\n", "0:@1-1"},
      {"    # indented code\n", "0:@1-1"},
      {"## Closed ##\n", "2:Closed@1-1"},
      {"Title\n=====\nbody\nSub\n---\n", "1:Title@1-3 | 2:Sub@4-5"},
      {"```\n# not a heading\n```\n# Real\n", "0:@1-3 | 1:Real@4-4"},
      {"~~~~\n# no\n~~~\n# still code\n~~~~\n", "0:@1-5"},
      {"---\n---\n", "0:@1-2"},
      {"", ""},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    CHECK(describe(markdown_sections(r.src)) == r.sections);
  }
  auto s = markdown_sections("# Summary\nline a\nline b\n## Empty\n");
  REQUIRE(s.size() == 2);
  CHECK(s[0].text == "line a\nline b");
  CHECK(s[1].text == "");
  CHECK(s[1].end == 4);
}

TEST_CASE("markdown files get sections through analyze_file", "[markdown]") {
  auto m = review::lang::analyze_file("docs/README.md", "# A\nx\n");
  REQUIRE(m->sections.size() == 1);
  CHECK(m->sections[0].heading == "A");
  CHECK(m->lines.size() == 2);
  auto c = review::lang::analyze_file("CMakeLists.txt", "add_library(a x.c) # c\nbad(\n");
  CHECK(c->has_errors);
  CHECK(c->note == "2:5: unterminated argument list (expected ')')");
  REQUIRE(c->cmake_commands.size() == 1);
  CHECK(c->code(0) == "add_library(a x.c)    ");
  CHECK(c->comment(0) == "# c");
}
