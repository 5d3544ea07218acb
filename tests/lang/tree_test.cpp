// tree-sitter ownership (runner/lang/tree.hpp): trees tree-sitter 0.20.7 cannot free safely.
#include <string>

#include "catch.hpp"
#include "runner/lang/model.hpp"
#include "runner/lang/tree.hpp"

using review::lang::Language;
using review::lang::parse_tree;

TEST_CASE("parse_tree: a node of 65,536+ children is set aside, not freed", "[tree]") {
  struct Case {
    Language lang;
    std::string text;
    bool parsed;  // a tree comes back
  };
  const Case cases[] = {
      {Language::Python, "x = " + std::string(60000, '('), true},
      {Language::Python, "x = " + std::string(70000, '('), false},
      {Language::Python, "x = " + std::string(300000, '['), false},
      {Language::Cpp, std::string(60000, '{'), true},
      {Language::Cpp, std::string(70000, '{'), false},
      {Language::Python, "x = " + std::string(70000, '(') + "1" + std::string(70000, ')') + "\n", true},
  };
  for (const auto& c : cases) {
    INFO(c.text.substr(0, 8) << " x" << c.text.size());
    auto t = parse_tree(c.lang, c.text);
    CHECK(t.empty() == !c.parsed);
  }
  // The file model still has its lines; the parse is reported as failed.
  std::string text = "x = 1\ny = " + std::string(70000, '(') + "\n";
  auto m = review::lang::analyze_file("m.py", text);
  CHECK(m->has_errors);
  CHECK(m->lines.size() == 2);
}
