// Regression: C++ shapes that once crashed the branch walker (a field read on a null node).
#include <string>

#include "catch.hpp"
#include "runner/lang/cpp/branches.hpp"

extern "C" const TSLanguage* tree_sitter_cpp(void);

namespace {
std::vector<review::analysis::BranchChain> cpp_chains(const std::string& src) {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_cpp());
  TSTree* t = ts_parser_parse_string(p, nullptr, src.data(), static_cast<uint32_t>(src.size()));
  auto out = review::analysis::find_cpp_branches(ts_tree_root_node(t), src);
  ts_tree_delete(t);
  ts_parser_delete(p);
  return out;
}
}  // namespace

TEST_CASE("find_cpp_branches: declarators without a name field do not crash") {
  const char* rows[] = {
      "template <typename T> T& tmpl(T& x) { return x; }",
      "int (*fp(int))(int) { return nullptr; }",
      "auto operator\"\"_km(long double x) -> double { if (x > 1) return 1; return 0; }",
      "struct S { S() = default; operator bool() const { return true; } };",
  };
  for (const char* src : rows) {
    INFO(src);
    CHECK_NOTHROW(cpp_chains(src));
  }
  auto chains = cpp_chains("template <typename T> T f(T x) { if (x == 1) return 2; else if (x == 3) return 4; return x; }");
  REQUIRE(chains.size() == 1);
  CHECK(chains[0].subject == "x");
  CHECK(chains[0].arms.size() == 2);
}

TEST_CASE("find_cpp_branches: deep nesting is bounded") {
  std::string src = "void f(int x) {";
  for (int i = 0; i < 3000; ++i) src += "if (x == " + std::to_string(i) + ") {";
  for (int i = 0; i < 3000; ++i) src += "}";
  src += "}";
  CHECK_NOTHROW(cpp_chains(src));
}
