// C/C++/HIP front end: table-driven snippets with the exact facts they must (or must not) yield.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/model.hpp"

using review::lang::analyze_file;
using review::lang::SourceModel;

namespace {
// Front-end facts only: the analyses (runner/analysis) have their own tests.
std::shared_ptr<const SourceModel> cc(const std::string& text, const char* path = "k.cpp") {
  review::lang::AnalyzeOptions o;
  o.analyses = false;
  return analyze_file(path, text, o);
}
template <class Strings>  // strings or string views
std::string join(const Strings& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s.append(i ? "|" : "").append(v[i]);
  return s;
}
}  // namespace

TEST_CASE("cpp functions: qualified names through namespaces, classes and out-of-line definitions", "[cpp]") {
  auto m = cc(
      "namespace ns {\n"                                   // 1
      "struct Cls : public Base, private Other<int> {\n"   // 2
      "  int get(int a, float b = 1.0f) const { return a; }\n"  // 3
      "  void decl_only();\n"                              // 4
      "};\n"                                               // 5
      "void Cls::decl_only() {\n"                          // 6
      "  helper(1);\n"                                     // 7
      "}\n"                                                // 8
      "}  // namespace ns\n"                               // 9
      "static int* free_fn(const char* s, ...) {\n"        // 10
      "  return nullptr;\n"                                // 11
      "}\n"                                                // 12
      "template <typename T> T& tmpl(T& x) { return x; }\n");  // 13
  std::vector<std::string> q;
  for (const auto& f : m->functions) q.push_back(f.qualified + "@" + std::to_string(f.start_line) + "-" + std::to_string(f.end_line));
  CHECK(join(q) == "ns::Cls::get@3-3|ns::Cls::decl_only@6-8|free_fn@10-12|tmpl@13-13");
  CHECK(m->functions[0].name == "get");
  CHECK(m->functions[0].cls == "Cls");
  CHECK(m->functions[1].name == "decl_only");
  CHECK(m->functions[1].cls == "Cls");
  REQUIRE(m->functions[0].params.size() == 2);
  CHECK(m->functions[0].params[0].name == "a");
  CHECK(m->functions[0].params[1].name == "b");
  CHECK(m->functions[0].params[1].default_value == "1.0f");
  CHECK(m->functions[0].params[1].text == "float b = 1.0f");
  CHECK(m->functions[2].params.size() == 1);  // a C variadic "..." is not a named parameter
  CHECK(m->functions[2].params[0].name == "s");
  CHECK(join(m->functions[1].calls) == "helper");
  REQUIRE(m->classes.size() == 1);
  CHECK(m->classes[0].qualified == "ns::Cls");
  CHECK(join(m->classes[0].bases) == "Base|Other<int>");
  CHECK(m->function_at(7) == "ns::Cls::decl_only");
  CHECK(m->function_at(4) == "");
  CHECK(m->class_at(4) == "Cls");
  CHECK_FALSE(m->has_errors);
}

TEST_CASE("cpp calls: callee text, args, loops", "[cpp]") {
  struct Row { const char* src; const char* callee; const char* args; bool in_loop; };
  const Row rows[] = {
      {"void f() { hipMalloc(&p, n * sizeof(float)); }", "hipMalloc", "&p|n * sizeof(float)", false},
      {"void f() { for (int i = 0; i < n; ++i) { at::empty({n}); } }", "at::empty", "{n}", true},
      {"void f() { while (x) step(); }", "step", "", true},
      {"void f() { obj->run<T>(a, \"s\"); }", "obj->run<T>", "a|\"s\"", false},
      {"// hipMalloc(&p, n);\n", nullptr, "", false},
      {"const char* s = \"hipMalloc(&p, n)\";\n", nullptr, "", false},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = cc(r.src);
    if (!r.callee) {
      CHECK(m->calls.empty());
      continue;
    }
    REQUIRE(m->calls.size() >= 1);
    CHECK(m->calls[0].callee == r.callee);
    CHECK(join(m->calls[0].args) == r.args);
    CHECK(m->calls[0].in_loop == r.in_loop);
    CHECK(m->calls[0].function == "f");
  }
}

TEST_CASE("cpp code blanking: comments, strings, chars, raw strings; includes kept", "[cpp]") {
  struct Row { const char* src; int line; const char* code; const char* comment; };
  const Row rows[] = {
      {"int x = 1; // tail\n", 1, "int x = 1;        ", "// tail"},
      {"a = \"q//\" + 'c';\n", 1, "a = \"   \" + ' ';", ""},
      {"/* one\n   two */ int y;\n", 2, "          int y;", "two */"},
      {"auto r = R\"d(raw \" x)d\";\n", 1, "auto r = R\"d(       )d\";", ""},
      {"#include <vector>  // std\n", 1, "#include <vector>        ", "// std"},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = cc(r.src);
    REQUIRE(static_cast<int>(m->lines.size()) >= r.line);
    CHECK(m->code(r.line - 1) == r.code);
    CHECK(m->comment(r.line - 1) == r.comment);
  }
  auto m = cc("#include \"a/b.h\"\n#include <hip/hip_runtime.h>\n");
  REQUIRE(m->imports.size() == 2);
  CHECK(m->imports[0].module == "a/b.h");
  CHECK(m->imports[1].module == "hip/hip_runtime.h");
  CHECK(m->imports[1].line == 2);
}

TEST_CASE("cpp assignments: initialised declarations, members, assignment expressions", "[cpp]") {
  struct Row { const char* src; const char* targets; const char* value; const char* op; };
  const Row rows[] = {
      {"void f() { int a = 1, b, *c = &a; }", "a|c", "1", "decl"},
      {"struct S { int n = 4; };", "n", "4", "decl"},
      {"void f() { x.y += 2; }", "x.y", "2", "+="},
      {"void f() { int z; }", "", "", ""},
      {"void f() { auto t = at::empty({n}, opts); }", "t", "at::empty({n}, opts)", "decl"},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = cc(r.src);
    std::vector<std::string> t;
    for (const auto& a : m->assignments) t.push_back(a.target);
    CHECK(join(t) == r.targets);
    if (!m->assignments.empty()) {
      CHECK(m->assignments[0].value == r.value);
      CHECK(m->assignments[0].op == r.op);
    }
  }
}

TEST_CASE("cpp branches: else-if chains are one branch; switch cases and default", "[cpp]") {
  auto m = cc(
      "int f(int k) {\n"            // 1
      "  if (k == 1) {\n"           // 2
      "    return 1;\n"             // 3
      "  } else if (k == 2) {\n"    // 4
      "    return 2;\n"             // 5
      "  } else {\n"                // 6
      "    throw 3;\n"              // 7
      "  }\n"                       // 8
      "  switch (k) {\n"            // 9
      "    case A: break;\n"        // 10
      "    case B:\n"               // 11
      "    default: break;\n"       // 12
      "  }\n"                       // 13
      "  if (k) g();\n"             // 14
      "}\n");
  const auto& chains = m->branch_chains();
  REQUIRE(chains.size() == 3);
  const auto& b = chains[0];
  CHECK(b.kind == "if");
  CHECK(b.line == 2);
  CHECK(b.end_line == 8);
  CHECK(b.has_else);
  CHECK(b.else_kind == "raise");
  REQUIRE(b.arms.size() == 2);
  CHECK(b.arms[0].condition == "k == 1");
  CHECK(b.arms[1].condition == "k == 2");
  CHECK(b.arms[1].line == 4);
  const auto& s = chains[1];
  CHECK(s.kind == "switch");
  CHECK(s.has_else);
  REQUIRE(s.arms.size() == 2);
  CHECK(s.arms[0].condition == "A");
  CHECK(s.arms[1].condition == "B");
  CHECK(s.arms[1].line == 11);
  CHECK_FALSE(chains[2].has_else);
  CHECK(m->lines[4].in_condition);
  CHECK(m->lines[9].in_condition);
  CHECK_FALSE(m->lines[0].in_condition);
}

TEST_CASE("cpp statements and loops", "[cpp]") {
  auto m = cc("void f() {\n  int a = 0;\n  for (auto& x : v) {\n    a += x;\n  }\n  return;\n}\n");
  std::vector<std::string> k;
  for (const auto& s : m->statements) k.push_back(std::string(s.kind) + "@" + std::to_string(s.line));
  CHECK(join(k) == "function_definition@1|declaration@2|for_range_loop@3|expression_statement@4|return_statement@6");
  CHECK(m->statements[0].text == "void f()");
  CHECK(m->statements[2].text == "for (auto& x : v)");
  CHECK(m->statements[3].function == "f");
  CHECK(m->lines[3].in_loop);
  CHECK_FALSE(m->lines[2].in_loop);
}

TEST_CASE("cpp: HIP kernels, headers and syntax errors", "[cpp]") {
  auto m = cc("__global__ void kern(float* out) {\n  out[threadIdx.x] = 0;\n}\n", "k.hip");
  REQUIRE(m->functions.size() == 1);
  CHECK(m->functions[0].name == "kern");
  auto h = cc("#pragma once\nclass A { public: void m() { g(); } };\n", "a.h");
  REQUIRE(h->functions.size() == 1);
  CHECK(h->functions[0].qualified == "A::m");
  auto bad = cc("void ok() { a(); }\nvoid broken( { \nvoid later() { b(); }\n");
  CHECK(bad->has_errors);
  CHECK_FALSE(bad->functions.empty());
  CHECK(bad->functions[0].qualified == "ok");
  std::string deep(20000, '{');
  CHECK_NOTHROW(cc("void f() " + deep));
}

TEST_CASE("cpp handlers: catch-all, typed, unnamed, rethrow forms, nested handlers and lambdas", "[cpp]") {
  auto m = cc(
      "int api(H* h) {\n"                                         // 1
      "  try {\n"                                                 // 2
      "    h->run();\n"                                           // 3
      "  } catch (const std::bad_alloc&) {\n"                     // 4
      "    return 2;  // out of memory: e is not named\n"          // 5
      "  } catch (const std::exception& err) {\n"                 // 6
      "    if (h) throw MyError(\"wrapped\", err);\n"              // 7
      "  } catch (...) {\n"                                       // 8
      "    auto f = [] { throw; };\n"                             // 9
      "    std::rethrow_exception(std::current_exception());\n"   // 10
      "  }\n"                                                     // 11
      "  try { g(); } catch (std::exception& e) { \"e\"; }\n"       // 12
      "  try { g(); } catch (E& e) { try { k(); } catch (...) { throw e; } }\n"  // 13
      "  return 0;\n"                                             // 14
      "}\n");                                                     // 15
  REQUIRE(m->handlers.size() == 6);
  const auto& a = m->handlers[0];
  CHECK(a.type == "const std::bad_alloc&");
  CHECK(a.name == "");
  CHECK(!a.catches_all);
  CHECK(a.returns);
  CHECK(!a.rethrows);
  CHECK(!a.uses_cause);
  CHECK(a.line == 4);
  CHECK(a.body_start == 4);
  CHECK(a.body_end == 6);
  CHECK(a.body == "return 2;");  // the comment is blanked
  const auto& b = m->handlers[1];
  CHECK(b.name == "err");
  CHECK(b.throws);
  CHECK(!b.rethrows);
  CHECK(b.uses_cause);  // passed to the new exception
  CHECK(!b.returns);
  const auto& c = m->handlers[2];
  CHECK(c.catches_all);
  CHECK(c.type == "...");
  CHECK(c.rethrows);     // std::rethrow_exception
  CHECK(c.uses_cause);   // std::current_exception
  CHECK(!c.throws);      // the lambda's `throw;` is not the handler's
  CHECK(c.line == 8);
  CHECK(c.end_line == 11);
  CHECK(c.function == "api");
  CHECK(!m->handlers[3].uses_cause);  // "e" in a string is not the variable
  // Nested: the inner catch-all throws the outer exception (it passes the outer one on, but for
  // the inner handler that is a new exception); the outer handler itself does not rethrow.
  CHECK(m->handlers[4].name == "e");
  CHECK(m->handlers[5].catches_all);
  CHECK(m->handlers[5].throws);
  CHECK(!m->handlers[5].rethrows);
  // throws: the lambda's bare throw is outside any handler's body.
  std::vector<std::string> t;
  for (const auto& x : m->throws)
    t.push_back(std::to_string(x.line) + ":" + x.expr + ":" + x.type + ":" + std::to_string(x.handler));
  CHECK(join(t) == "7:MyError(\"wrapped\", err):MyError:1|9:::-1|13:e::5");
}

TEST_CASE("cpp handlers and throws: destructors, new, a file with syntax errors never crashes", "[cpp]") {
  auto m = cc("Plan::~Plan() {\n  throw new Leak{3};\n}\nvoid f() { try { x(); } catch (int) { throw; }\n");
  REQUIRE(m->throws.size() == 2);
  CHECK(m->throws[0].function == "Plan::~Plan");
  CHECK(m->throws[0].type == "Leak");
  CHECK(m->throws[1].expr == "");
  CHECK(m->throws[1].handler == 0);
  REQUIRE(m->handlers.size() == 1);
  CHECK(m->handlers[0].rethrows);
  CHECK(m->handlers[0].type == "int");
  // Hostile: unterminated try, catch without body, stray braces.
  for (const char* bad : {"void f() { try { ", "catch (...)", "} catch (...) { throw; } }", "try { } catch ("}) {
    auto h = cc(bad);
    CHECK(h->lines.size() >= 1);
  }
}

TEST_CASE("cpp includes and ifdefs: guards, chains, include guards, continuations, comments", "[cpp]") {
  auto m = cc(
      "#ifndef MYLIB_API_H\n"                    // 1
      "#define MYLIB_API_H\n"                    // 2
      "#include <vector>\n"                      // 3
      "#include \"mylib/types.h\"  // local\n"   // 4
      "#if defined(_WIN32) || \\\n"              // 5
      "    defined(_WIN64)\n"                    // 6
      "#  include <windows.h>\n"                 // 7
      "#elif defined(__linux__)\n"               // 8
      "#include <dlfcn.h>\n"                     // 9
      "#ifndef NDEBUG\n"                         // 10
      "int debug_only = 1;\n"                    // 11
      "#endif\n"                                 // 12
      "#else\n"                                  // 13
      "#error unsupported\n"                     // 14
      "#endif\n"                                 // 15
      "/* #if 0 in a comment\n"                  // 16
      "#include <nothere.h> */\n"                // 17
      "#include MYLIB_CONFIG_HEADER\n"           // 18
      "#endif  // MYLIB_API_H\n");               // 19
  std::vector<std::string> inc;
  for (const auto& i : m->includes)
    inc.push_back(std::to_string(i.line) + ":" + i.path + (i.system ? "<>" : "\"\"") + ":" + i.guard);
  CHECK(join(inc) ==
        "3:vector<>:|4:mylib/types.h\"\":|7:windows.h<>:defined(_WIN32) || defined(_WIN64)|"
        "9:dlfcn.h<>:!(defined(_WIN32) || defined(_WIN64)) && (defined(__linux__))|18:MYLIB_CONFIG_HEADER\"\":");
  std::vector<std::string> br;
  for (const auto& b : m->ifdefs)
    br.push_back(std::to_string(b.line) + "-" + std::to_string(b.end_line) + ":" + b.directive + ":" + b.expr + ":" +
                 std::to_string(b.depth) + ":" + std::to_string(b.endif_line) + (b.include_guard ? ":guard" : ""));
  CHECK(join(br) ==
        "1-18:ifndef:!defined(MYLIB_API_H):0:19:guard|"
        "5-7:if:defined(_WIN32) || defined(_WIN64):1:15|"
        "8-12:elif:!(defined(_WIN32) || defined(_WIN64)) && (defined(__linux__)):1:15|"
        "10-11:ifndef:!defined(NDEBUG):2:12|"
        "13-14:else:!(defined(_WIN32) || defined(_WIN64) || defined(__linux__)):1:15");
  REQUIRE(m->ifdefs.size() == 5);
  CHECK(m->ifdefs[3].guard == "!(defined(_WIN32) || defined(_WIN64)) && (defined(__linux__))");
  CHECK(m->ifdefs[3].body == "int debug_only = 1;");
  CHECK(m->ifdefs[1].condition == "defined(_WIN32) || defined(_WIN64)");
}

TEST_CASE("cpp ifdefs: a default-macro #ifndef is no include guard; unterminated and stray directives", "[cpp]") {
  auto m = cc("#include <a.h>\n#ifndef MYLIB_API\n#define MYLIB_API\n#endif\nint x;\n");
  REQUIRE(m->ifdefs.size() == 1);
  CHECK(!m->ifdefs[0].include_guard);
  auto u = cc("#if FOO\nint a;\n#else\nint b;\n");
  REQUIRE(u->ifdefs.size() == 2);
  CHECK(u->ifdefs[1].end_line == 4);
  CHECK(u->ifdefs[1].endif_line == 0);
  auto s = cc("#endif\n#else\nint a;\n#elif X\n");
  CHECK(s->ifdefs.empty());
  auto t = cc("#if A \\\n");  // a continuation on the last line
  REQUIRE(t->ifdefs.size() == 1);
  CHECK(t->ifdefs[0].condition == "A");
}
