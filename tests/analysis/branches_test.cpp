#include "catch.hpp"
#include "parse_helpers.hpp"
#include "runner/lang/cpp/branches.hpp"
#include "runner/lang/python/branches.hpp"

#include <string>
#include <vector>

using review::analysis::BranchChain;
using review::analysis::find_cpp_branches;
using review::analysis::find_python_branches;

namespace {
// "subject=value(op)" for every compare of every arm, arms separated by " | "
std::string compares(const BranchChain& c) {
  std::string s;
  for (size_t i = 0; i < c.arms.size(); ++i) {
    if (i) s += " | ";
    for (size_t j = 0; j < c.arms[i].compares.size(); ++j) {
      if (j) s += ", ";
      s += c.arms[i].compares[j].first + "=" + c.arms[i].compares[j].second + "(" + c.arms[i].ops[j] + ")";
    }
  }
  return s;
}
std::vector<BranchChain> py(const std::string& src) {
  Parsed p(src, tree_sitter_python());
  return find_python_branches(p.root(), p.source);
}
std::vector<BranchChain> cpp(const std::string& src) {
  Parsed p(src, tree_sitter_cpp());
  return find_cpp_branches(p.root(), p.source);
}
struct Case {
  const char* src;
  std::string kind, subject, cmps;
  bool has_else;
  std::string else_kind;
};
}  // namespace

TEST_CASE("branches: Python chains", "[branches]") {
  const std::vector<Case> cases = {
      {"if w_dtype == 'fp4':\n    a()\nelif w_dtype in ('fp8', \"int8\"):\n    b()\n", "if", "w_dtype",
       "w_dtype=\"fp4\"(==) | w_dtype=\"fp8\"(in), w_dtype=\"int8\"(in)", false, ""},
      {"if \"fp4\" == self.w_dtype:\n    a()\nelse:\n    raise ValueError('x')\n", "if", "self.w_dtype",
       "self.w_dtype=\"fp4\"(==)", true, "raise"},
      {"if x is None:\n    a()\nelif isinstance(x, (int, float)):\n    b()\nelse:\n    logger.warning('odd')\n", "if", "x",
       "x=None(is) | x=int(isinstance), x=float(isinstance)", true, "warn"},
      {"if arch.startswith('gfx9'):\n    a()\nelif arch != 'gfx1250':\n    b()\nelse:\n    return None\n", "if", "arch",
       "arch=\"gfx9\"(startswith) | arch=\"gfx1250\"(!=)", true, "return_none"},
      {"if a == 1:\n    x()\nelif b == 2:\n    y()\nelse:\n    assert False\n", "if", "", "a=1(==) | b=2(==)", true, "assert"},
      {"match kv_layout:\n    case 'NHD':\n        a()\n    case 'HND' | 'VLLM':\n        b()\n    case _:\n        raise ValueError\n",
       "match", "kv_layout", "kv_layout=\"NHD\"(case) | kv_layout=\"HND\"(case), kv_layout=\"VLLM\"(case)", true, "raise"},
      {"y = 1 if dtype == torch.float16 else 2 if dtype == torch.bfloat16 else None\n", "ternary", "dtype",
       "dtype=torch.float16(==) | dtype=torch.bfloat16(==)", true, "return_none"},
  };
  for (const auto& c : cases) {
    INFO(c.src);
    auto r = py(c.src);
    REQUIRE(r.size() == 1);
    CHECK(r[0].kind == c.kind);
    CHECK(r[0].subject == c.subject);
    CHECK(compares(r[0]) == c.cmps);
    CHECK(r[0].has_else == c.has_else);
    CHECK(r[0].else_kind == c.else_kind);
    CHECK(r[0].else_raises == !c.else_kind.empty());
  }
}

TEST_CASE("branches: Python lines and function", "[branches]") {
  auto r = py("class A:\n    def f(self, m):\n        if m == 1:\n            pass\n        elif m == 2:\n            pass\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].function == "A.f");
  CHECK(r[0].line == 3);
  CHECK(r[0].end_line == 6);
  REQUIRE(r[0].arms.size() == 2);
  CHECK(r[0].arms[1].line == 5);
  CHECK(r[0].arms[1].condition == "m == 2");
}

TEST_CASE("branches: C++ chains", "[branches]") {
  const std::vector<Case> cases = {
      {"void f(int dt) {\n  if (dt == kFp8) { a(); }\n  else if (kBf16 == dt) { b(); }\n  else { throw std::runtime_error(\"x\"); }\n}\n",
       "if", "dt", "dt=kFp8(==) | dt=kBf16(==)", true, "raise"},
      {"void f(Arch a) {\n  switch (a) {\n    case Arch::gfx942: x(); break;\n    case Arch::gfx950: y(); break;\n  }\n}\n",
       "switch", "a", "a=Arch::gfx942(case) | a=Arch::gfx950(case)", false, ""},
      {"template <class T> void f() {\n  if constexpr (std::is_same_v<T, half>) { a(); }\n  else { static_assert(sizeof(T) == 0, \"no\"); }\n}\n",
       "if", "T", "T=half(is_same)", true, "assert"},
      {"void f(int m) {\n  if (m != 3 && flag) { a(); }\n  else { TORCH_CHECK(false, \"bad\"); }\n}\n", "if", "m", "m=3(!=)", true, "assert"},
  };
  for (const auto& c : cases) {
    INFO(c.src);
    auto r = cpp(c.src);
    REQUIRE(r.size() == 1);
    CHECK(r[0].kind == c.kind);
    CHECK(r[0].subject == c.subject);
    CHECK(compares(r[0]) == c.cmps);
    CHECK(r[0].has_else == c.has_else);
    CHECK(r[0].else_kind == c.else_kind);
  }
  auto sw = cpp("int g(int x) {\n  switch (x) {\n    case 1: return 2;\n    default: abort();\n  }\n}\n");
  REQUIRE(sw.size() == 1);
  CHECK(sw[0].has_else);
  CHECK(sw[0].else_kind == "warn");
  CHECK(sw[0].function == "g");
}

TEST_CASE("branches: hostile input", "[branches]") {
  for (const char* s : {"", "if", "if x ==:\n", "match x:\n  case"}) CHECK_NOTHROW(py(s));
  for (const char* s : {"", "if (", "switch (x) { case : }"}) CHECK_NOTHROW(cpp(s));
}
