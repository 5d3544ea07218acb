// Python front end: table-driven snippets, each with the exact facts it must (or must not) yield.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/model.hpp"

using review::lang::analyze_file;
using review::lang::Language;
using review::lang::language_of;
using review::lang::SourceModel;

namespace {
std::shared_ptr<const SourceModel> py(const std::string& text) { return analyze_file("m.py", text); }

template <class Strings>  // strings or string views
std::string join(const Strings& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s.append(i ? "|" : "").append(v[i]);
  return s;
}
}  // namespace

TEST_CASE("language_of maps paths to front ends", "[lang]") {
  struct Row { const char* path; Language lang; };
  const Row rows[] = {
      {"a/b.py", Language::Python},       {"x.cc", Language::Cpp},
      {"k.cu", Language::Cpp},            {"k.hip", Language::Cpp},
      {"k.cuh", Language::Cpp},           {"inc/a.hpp", Language::Cpp},
      {"a.c", Language::Cpp},             {"CMakeLists.txt", Language::CMake},
      {"cmake/x.cmake", Language::CMake}, {"README.md", Language::Markdown},
      {"a.pyc", Language::Text},          {"notCMakeLists.txt", Language::Text},
      {".c", Language::Text},             {"data.json", Language::Text},
  };
  for (const auto& r : rows) {
    INFO(r.path);
    CHECK(language_of(r.path) == r.lang);
  }
}

TEST_CASE("python functions: names, qualified names, params, decorators, lines", "[python]") {
  auto m = py(
      "import functools\n"                       // 1
      "@functools.cache\n"                       // 2
      "@register(name='x')\n"                    // 3
      "def top(a, b: int = 3, *args, c=None, **kw):\n"  // 4
      "    def inner(x, /, y):\n"                // 5
      "        return x\n"                       // 6
      "    return inner\n"                       // 7
      "class Cls(Base, metaclass=Meta):\n"       // 8
      "    def method(self):\n"                  // 9
      "        pass\n");                         // 10
  REQUIRE(m->functions.size() == 3);
  const auto& top = m->functions[0];
  CHECK(top.name == "top");
  CHECK(top.qualified == "top");
  CHECK(top.cls.empty());
  CHECK(join(top.decorators) == "functools.cache|register(name='x')");
  CHECK(top.start_line == 4);
  CHECK(top.end_line == 7);
  CHECK(top.signature == "def top(a, b: int = 3, *args, c=None, **kw):");
  REQUIRE(top.params.size() == 5);
  std::vector<std::string> names, defaults;
  for (const auto& p : top.params) {
    names.push_back(p.name);
    defaults.push_back(p.default_value);
  }
  CHECK(join(names) == "a|b|args|c|kw");
  CHECK(join(defaults) == "|3||None|");
  CHECK(top.params[1].text == "b: int = 3");
  CHECK(m->functions[1].qualified == "top.inner");
  CHECK(m->functions[1].params.size() == 2);
  CHECK(m->functions[1].cls.empty());
  CHECK(m->functions[2].qualified == "Cls.method");
  CHECK(m->functions[2].cls == "Cls");
  REQUIRE(m->classes.size() == 1);
  CHECK(join(m->classes[0].bases) == "Base|metaclass=Meta");
  CHECK(m->classes[0].start_line == 8);
  CHECK(m->classes[0].end_line == 10);
  // Per-line enclosing function and class.
  CHECK(m->function_at(3) == "");
  CHECK(m->function_at(4) == "top");
  CHECK(m->function_at(6) == "top.inner");
  CHECK(m->function_at(7) == "top");
  CHECK(m->function_at(8) == "");
  CHECK(m->function_at(10) == "Cls.method");
  CHECK(m->class_at(10) == "Cls");
  CHECK(m->class_at(7) == "");
  CHECK_FALSE(m->has_errors);
}

TEST_CASE("python calls: callee, positional and keyword args, enclosing function, loops", "[python]") {
  struct Row {
    const char* src;
    const char* callee;   // nullptr: no call expected
    const char* args;
    const char* kwargs;
    const char* function;
    bool in_loop;
  };
  const Row rows[] = {
      {"torch.empty(n, 4, dtype=torch.bf16)\n", "torch.empty", "n|4", "dtype=torch.bf16", "", false},
      {"# torch.empty(n)\n", nullptr, "", "", "", false},
      {"s = 'torch.empty(n)'\n", nullptr, "", "", "", false},
      {"def f():\n    for i in r:\n        g(i)\n", "g", "i", "", "f", true},
      {"def f():\n    for i in r:\n        pass\n    g(i)\n", "g", "i", "", "f", false},
      {"def f():\n    return [h(x) for x in xs]\n", "h", "x", "", "f", true},
      {"def f():\n    while True:\n        def k():\n            g()\n", "g", "", "", "f.k", false},
      {"g(*a, **kw)\n", "g", "*a|**kw", "", "", false},
      {"obj.m(\n    1,\n    key = v,\n)\n", "obj.m", "1", "key=v", "", false},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = py(r.src);
    if (!r.callee) {
      CHECK(m->calls.empty());
      continue;
    }
    REQUIRE(!m->calls.empty());
    const auto& c = m->calls.back();
    CHECK(c.callee == r.callee);
    CHECK(join(c.args) == r.args);
    std::vector<std::string> kw;
    for (const auto& [k, v] : c.kwargs) kw.push_back(std::string(k) + "=" + std::string(v));
    CHECK(join(kw) == r.kwargs);
    CHECK(c.function == r.function);
    CHECK(c.in_loop == r.in_loop);
  }
}

TEST_CASE("python call positions and per-function call lists", "[python]") {
  auto m = py("def f():\n    x = a.b(c(1))\n");
  REQUIRE(m->calls.size() == 2);
  CHECK(m->calls[0].callee == "a.b");
  CHECK(m->calls[0].line == 2);
  CHECK(m->calls[0].column == 9);
  CHECK(m->calls[0].text == "a.b(c(1))");
  CHECK(m->calls[1].callee == "c");
  CHECK(m->calls[1].column == 13);
  CHECK(join(m->functions[0].calls) == "a.b|c");
}

TEST_CASE("python code and comment columns: comments and strings blanked", "[python]") {
  struct Row { const char* src; int line; const char* code; const char* comment; };
  const Row rows[] = {
      {"x = \"a # b\"  # note\n", 1, "x = \"     \"        ", "# note"},
      {"y = f'{g(x)} t'\n", 1, "y = f'{g(x)}  '", ""},
      {"def f():\n    \"\"\"doc\n    more\"\"\"\n    return 1\n", 3, "        \"\"\"", ""},
      {"def f():\n    \"\"\"doc\n    more\"\"\"\n    return 1\n", 2, "    \"\"\"   ", ""},
      {"a = 1\r\nb = 2  # c\r\n", 2, "b = 2     ", "# c"},
      {"z = b'\\x00' + r\"\\d\"\n", 1, "z = b'    ' + r\"  \"", ""},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = py(r.src);
    REQUIRE(static_cast<int>(m->lines.size()) >= r.line);
    CHECK(m->code(r.line - 1) == r.code);
    CHECK(m->comment(r.line - 1) == r.comment);
  }
  auto m = py("y = f'{g(x)} t'\n");
  REQUIRE(m->calls.size() == 1);
  CHECK(m->calls[0].callee == "g");
}

TEST_CASE("python assignments: tuple unpacking, attributes, augmented, annotated, walrus", "[python]") {
  struct Row { const char* src; const char* targets; const char* value; const char* op; };
  const Row rows[] = {
      {"a, (b, *c) = f()\n", "a|b|c", "f()", "="},
      {"class K:\n  def __init__(self):\n    self.w_shuffled = shuffle(self.w)\n", "self.w_shuffled", "shuffle(self.w)", "="},
      {"x += 1\n", "x", "1", "+="},
      {"x: int\n", "x", "", ":"},
      {"x: int = 5\n", "x", "5", "="},
      {"a = b = 0\n", "a|b", "0", "="},
      {"if (n := len(a)) > 3: pass\n", "n", "len(a)", ":="},
      {"d[k] = v\n", "d[k]", "v", "="},
      {"x == 1\n", "", "", ""},
  };
  for (const auto& r : rows) {
    INFO(r.src);
    auto m = py(r.src);
    std::vector<std::string> t;
    for (const auto& a : m->assignments) t.push_back(a.target);
    CHECK(join(t) == r.targets);
    if (!m->assignments.empty()) {
      CHECK(m->assignments[0].value == r.value);
      CHECK(m->assignments[0].op == r.op);
    }
  }
  auto m = py("class K:\n  def __init__(self):\n    self.w = 1\n");
  REQUIRE(m->assignments.size() == 1);
  CHECK(m->assignments[0].function == "K.__init__");
  CHECK(m->assignments[0].cls == "K");
  CHECK(m->assignments[0].line == 3);
  CHECK(m->assignments[0].text == "self.w = 1");
}

TEST_CASE("python imports", "[python]") {
  auto m = py("import os, numpy as np\nfrom .a.b import (x, y as z)\nfrom m import *\n");
  REQUIRE(m->imports.size() == 4);
  CHECK(m->imports[0].module == "os");
  CHECK(m->imports[0].names.empty());
  CHECK(m->imports[1].module == "numpy");
  CHECK(join(m->imports[1].names) == "numpy as np");
  CHECK(m->imports[2].module == ".a.b");
  CHECK(join(m->imports[2].names) == "x|y as z");
  CHECK(m->imports[2].line == 2);
  CHECK(join(m->imports[3].names) == "*");
}

TEST_CASE("python branches: if/elif/else arms and match", "[python]") {
  auto m = py(
      "def f(d):\n"                  // 1
      "    if d == 'a':\n"           // 2
      "        x = 1\n"              // 3
      "    elif d in ('b', 'c'):\n"  // 4
      "        x = 2\n"              // 5
      "    else:\n"                  // 6
      "        raise ValueError(d)\n"  // 7
      "    match d:\n"               // 8
      "        case 'a' | 'b':\n"    // 9
      "            pass\n"           // 10
      "        case _:\n"            // 11
      "            pass\n"           // 12
      "    if d: pass\n");           // 13
  const auto& chains = m->branch_chains();
  REQUIRE(chains.size() == 3);
  const auto& b = chains[0];
  CHECK(b.kind == "if");
  CHECK(b.line == 2);
  CHECK(b.end_line == 7);
  CHECK(b.has_else);
  CHECK(b.else_kind == "raise");
  CHECK(b.function == "f");
  REQUIRE(b.arms.size() == 2);
  CHECK(b.arms[0].condition == "d == 'a'");
  CHECK(b.arms[1].condition == "d in ('b', 'c')");
  CHECK(b.arms[1].line == 4);
  const auto& mt = chains[1];
  CHECK(mt.kind == "match");
  CHECK(mt.has_else);
  REQUIRE(mt.arms.size() == 1);
  CHECK(mt.arms[0].line == 9);
  CHECK_FALSE(chains[2].has_else);
  // in_condition / in_loop per line
  CHECK_FALSE(m->lines[0].in_condition);
  CHECK(m->lines[2].in_condition);
  CHECK(m->lines[6].in_condition);
  CHECK(m->lines[9].in_condition);
  CHECK_FALSE(m->lines[2].in_loop);
}

TEST_CASE("python statements: kinds, header text for compound statements, code", "[python]") {
  auto m = py("x = 1  # c\nfor i in r:\n    del self.w\nwith open(p) as f:\n    pass\n");
  std::vector<std::string> kinds;
  for (const auto& s : m->statements) kinds.push_back(std::string(s.kind) + "@" + std::to_string(s.line));
  CHECK(join(kinds) == "expression_statement@1|for_statement@2|delete_statement@3|with_statement@4|pass_statement@5");
  CHECK(m->statements[1].text == "for i in r:");
  CHECK(m->statements[1].end_line == 3);
  CHECK(m->statements[1].header_end == 2);
  CHECK(m->statements[2].text == "del self.w");
  CHECK(m->statements[2].function == "");
  CHECK(m->lines[2].in_loop);
  CHECK_FALSE(m->lines[1].in_loop);
  auto m2 = py("y = 'del self.w'\n");
  REQUIRE(m2->statements.size() == 1);
  CHECK(statement_code(*m2, m2->statements[0]) == "y = '          '");
  // cut from the lines' blanked text: a statement that starts mid-line, one over several lines
  // of a CRLF file (the text keeps its '\r', the lines do not)
  auto m3 = py("if x: y = \"s\"  # c\r\nz = (1 +  # d\r\n  \"q\")\r\n");
  REQUIRE(m3->statements.size() == 3);
  CHECK(m3->statements[1].text == "y = \"s\"");
  CHECK(m3->statements[1].column == 6);
  CHECK(statement_code(*m3, m3->statements[1]) == "y = \" \"");
  CHECK(m3->statements[2].text == "z = (1 +  # d\r\n  \"q\")");
  CHECK(statement_code(*m3, m3->statements[2]) == "z = (1 +     \r\n  \" \")");
}

TEST_CASE("python syntax errors still yield facts", "[python]") {
  auto m = py("def ok(a):\n    return g(a)\n\ndef broken(:\n    pass\n\nclass C:\n    def m(self):\n        h()\n");
  CHECK(m->has_errors);
  bool ok = false, m_found = false;
  for (const auto& f : m->functions) {
    ok = ok || f.qualified == "ok";
    m_found = m_found || f.qualified == "C.m";
  }
  CHECK(ok);
  CHECK(m_found);
  CHECK_FALSE(py("def ok(a):\n    return a\n")->has_errors);
}

TEST_CASE("binary_format: a binary file format is known by its last extension, in any case", "[lang]") {
  using review::lang::binary_format;
  CHECK(binary_format("hsa/gfx942/fmha/fwd_hd128.co") == "co");
  CHECK(binary_format("docs/Logo.PNG") == "png");
  CHECK(binary_format("dist/pkg-1.0.tar.gz") == "gz");
  CHECK(binary_format("w/model.safetensors") == "safetensors");
  CHECK(binary_format("a.py").empty());
  CHECK(binary_format("kernels/k.cu").empty());
  CHECK(binary_format("notes.txt").empty());
  CHECK(binary_format("co").empty());            // no extension
  CHECK(binary_format("dir.png/README").empty());  // a folder's name does not count
  CHECK(binary_format(".png").empty());            // a dot file, no extension
  CHECK(binary_format("x.").empty());
  CHECK(binary_format("libfoo.so.1").empty());     // the last extension only
  CHECK(binary_format("a.verylongextension").empty());
  // analyze_file skips it whatever text it is given (the text is never read for it)
  auto m = analyze_file("hsa/k.co", "def f():\n    return 1\n");
  CHECK(m->skipped);
  CHECK(m->note == "skipped: binary file format (.co)");
  CHECK(m->lines.empty());
  CHECK(analyze_file("hsa/k.co", "")->note == "skipped: binary file format (.co)");
}

TEST_CASE("analyze_file limits: size and binary content", "[lang]") {
  review::lang::AnalyzeOptions o;
  o.max_bytes = 10;
  auto big = analyze_file("a.py", "x = 1234567890\n", o);
  CHECK(big->skipped);
  CHECK(big->note == "skipped: 15 bytes exceeds the limit of 10 bytes");
  CHECK(big->lines.empty());
  auto bin = analyze_file("a.py", std::string("x\0y", 3));
  CHECK(bin->skipped);
  CHECK(bin->note == "skipped: binary content (NUL byte)");
  // Over the limit and binary: binary (a large image is not source missing from the review).
  auto big_bin = analyze_file("logo.img", std::string("\x89PNG\0\0\0\rIHDR", 12), o);
  CHECK(big_bin->skipped);
  CHECK(big_bin->note == "skipped: binary content (NUL byte)");
  auto txt = analyze_file("notes.txt", "a\r\nb\n\nc");
  REQUIRE(txt->lines.size() == 4);
  CHECK(txt->code(3) == "c");
  CHECK(txt->language == Language::Text);
  CHECK(analyze_file("e.py", "")->lines.empty());
}

TEST_CASE("hostile python: deep nesting and garbage do not crash", "[python]") {
  std::string deep(20000, '(');
  auto m = py("x = " + deep + "\n");
  CHECK(m->has_errors);
  std::string garbage;
  for (int i = 0; i < 2000; ++i) garbage += static_cast<char>(1 + (i * 37) % 250);
  CHECK_NOTHROW(py(garbage));
  std::string nested;
  for (int i = 0; i < 300; ++i) nested += std::string(i, ' ') + "if x:\n";
  nested += std::string(300, ' ') + "pass\n";
  auto n = py(nested);
  CHECK(n->branch_chains().size() >= 1);
}

TEST_CASE("model lines: views into one store per file, valid in copies after the original is gone", "[python]") {
  review::lang::SourceModel copy;
  {
    auto m = review::lang::analyze_file("a.py", "x = 1  # one\r\ny = 'two'\nz\n");
    copy = *m;
  }  // the analysed model is freed; the copy shares its store
  REQUIRE(copy.text_lines.size() == 3);
  CHECK(copy.text_lines[0] == "x = 1  # one");
  CHECK(copy.code(0) == "x = 1       ");
  CHECK(copy.comment(0) == "# one");
  CHECK(copy.code(1) == "y = '   '");
  CHECK(copy.code(2) == "z");
  CHECK(copy.comment(2).empty());
  REQUIRE(copy.store);
  CHECK(copy.store->text == "x = 1  # one\r\ny = 'two'\nz\n");
  CHECK(copy.text_lines[1].data() == copy.store->text.data() + 14);  // a view, not a copy
  // only the lines whose code differs from their text keep a blanked copy; `z` is its text
  CHECK(copy.store->code == "x = 1       y = '   '");
  CHECK(copy.code(2).data() == copy.text_lines[2].data());
  // statements, calls and assignments point into the same store
  auto k = review::lang::analyze_file("k.py", "w = f(1)\r\nif w:\n    g()\n");
  review::lang::SourceModel kc = *k;
  k.reset();
  auto inside = [&](std::string_view v) {
    return v.data() >= kc.store->text.data() && v.data() + v.size() <= kc.store->text.data() + kc.store->text.size();
  };
  REQUIRE(kc.calls.size() == 2);
  CHECK(kc.calls[0].text == "f(1)");
  CHECK(inside(kc.calls[0].text));
  REQUIRE(kc.assignments.size() == 1);
  CHECK(kc.assignments[0].text == "w = f(1)");
  CHECK(inside(kc.assignments[0].text));
  REQUIRE(kc.statements.size() >= 2);
  CHECK(kc.statements[1].text == "if w:");
  CHECK(inside(kc.statements[1].text));
  // a statement's kind is the grammar's own name, shared by every model (no copy)
  auto k2 = review::lang::analyze_file("k2.py", "if z:\n    pass\n");
  REQUIRE(!k2->statements.empty());
  CHECK(k2->statements[0].kind == "if_statement");
  CHECK(k2->statements[0].kind.data() == kc.statements[1].kind.data());
  // a CMake file: comments blanked in the code, kept as comments
  auto c = review::lang::analyze_file("CMakeLists.txt", "set(A 1) # why\nproject(p)\n");
  REQUIRE(c->lines.size() == 2);
  CHECK(c->code(0) == "set(A 1)      ");
  CHECK(c->comment(0) == "# why");
  CHECK(c->code(1) == "project(p)");
  // a text file: the code is the text itself, not a second copy
  auto t = review::lang::analyze_file("notes.txt", "plain\n");
  REQUIRE(t->lines.size() == 1);
  CHECK(t->code(0).data() == t->text_lines[0].data());
}
