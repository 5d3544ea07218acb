#!/usr/bin/env python3
"""Writes the hostile inputs of sweep.sh into OUT (a fresh temporary folder).

Layout (every case is one runner invocation, see sweep.sh):
  OUT/files/<case>/<path>   a head folder holding one hostile source file (base: OUT/empty)
  OUT/groups/<kind>/<path>  the same files grouped by kind (py, cpp, cm, docs) for quick runs
  OUT/modified/{base,head}  every hostile source file in base, a one-line stand-in in head
  OUT/diffs/<case>.diff     hostile unified diffs
  OUT/diffs/small.diff      the diff sweep.sh truncates at every byte
  OUT/rules/<case>.rules    hostile rulesets
  OUT/events/<case>.json    hostile event / `gh pr view` JSON
  OUT/yml/<case>.yml        hostile .github/review.yml
  OUT/sarif/<case>.sarif    hostile SARIF for `runner merge`
Sizes stay near 1 MB so the sweep is quick with a normal build.
"""
import os
import sys

# SWEEP_FULL=1: the sizes named in the sweep's brief (5000-deep nesting, 1 MB lines, 60,000
# hunks); otherwise an eighth of the counts and 128 KB lines, so a normal build runs it in seconds.
FULL = os.environ.get("SWEEP_FULL") == "1"


def N(count):
    return count if FULL else max(1, count // 8)


DEEP = N(5000)
MB = 1 << 20 if FULL else 1 << 17
BAD_UTF8 = b"\xff\xfe \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 \x80"
BOM = b"\xef\xbb\xbf"


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def sources():
    """(case, path, bytes) for every hostile source file."""
    n = DEEP
    py = {
        "py_parens": "x = " + "(" * n + "1" + ")" * n + "\n",
        "py_brackets": "x = " + "[" * n + "]" * n + "\n",
        "py_braces": "x = " + "{1: " * n + "2" + "}" * n + "\n",
        "py_calls": "def f():\n    return " + "g(" * n + "1" + ")" * n + "\n",
        "py_lambdas": "f = " + "lambda: " * n + "1\n",
        "py_ternary": "def f(a, b):\n    return " + "a if b else " * n + "a\n",
        "py_ifs": "".join(" " * i + "if x%d:\n" % i for i in range(N(1200))) + " " * N(1200) + "y = z\n",
        "py_defs": "".join(" " * i + "def f%d():\n" % i for i in range(N(1200))) + " " * N(1200) + "return q\n",
        "py_binop_line": "x = " + "a+" * (MB // 2) + "1\n",
        "py_long_comment": "# " + "TODO " * (MB // 5) + "\n",
        "py_long_string": "x = '" + "s" * MB + "'\n",
        "py_catastrophic": "aaaa = 1\n" + "a" * (MB // 4) + "!\n" + "aaaa(" + "a" * N(5000) + ")\n",
        "py_unterminated_str": "x = 'abc\ny = \"\"\"never closed\n" + "z = 1\n" * 100,
        "py_unterminated_fstr": "x = f'{a + \n" + "y = f\"{" * 100 + "\n",
        "py_unbound": "def f(a):\n" + "".join("    if a == %d:\n        v%d = 1\n" % (i, i % 7) for i in range(N(3000)))
        + "    return v0 + v1 + v2\n",
        "py_match": "def f(x):\n    match x:\n" + "".join("        case %d:\n            return %d\n" % (i, i) for i in range(N(3000))),
        "py_clone_a": "def f():\n" + "".join("    x%d = g(%d)\n" % (i, i) for i in range(N(300))),
        "py_indent_chaos": "def f():\n\tif x:\n        \ty = 1\n  \t  return y\n" * 200,
    }
    for k, v in py.items():
        yield k, "pkg/%s.py" % k, v.encode()
    raw_py = {
        "py_nul": b"x = 1\x00\x00\ny = '\x00'\ndef f\x00():\n    pass\n",
        "py_bad_utf8": b"x = '" + BAD_UTF8 + b"'\n# " + BAD_UTF8 + b" TODO\ndef \xff():\n    print(\xfe)\n",
        "py_crlf": b"def f(a):\r\n    if a:\r\n        v = 1\r\n    return v\r\n",
        "py_lone_cr": b"def f(a):\r    if a:\r        v = 1\r    return v\r",
        "py_mixed_eol": b"x = 1\r\ny = 2\rz = 3\n\r\n\r\r\n",
        "py_empty": b"",
        "py_bom_only": BOM,
        "py_bom_code": BOM + b"print('x')\n",
        "py_only_newlines": b"\n" * 200000,
        "py_no_final_newline": b"print(1)",
    }
    for k, v in raw_py.items():
        yield k, "pkg/%s.py" % k, v

    cpp = {
        "cpp_templates": "A<" * n + "int" + ">" * n + " x;\n",
        "cpp_templates_fn": "template <class T> void f() { g<" + "h<" * n + "T" + ">" * n + ">(); }\n",
        "cpp_ifs": "void f(int x) {\n" + "if (x) {\n" * n + "g();\n" + "}\n" * n + "}\n",
        "cpp_parens": "int x = " + "(" * n + "1" + ")" * n + ";\n",
        "cpp_braces": "int f() {" + "{" * n + "}" * n + "}\n",
        "cpp_preproc": "#if A\n" * n + "int x;\n" + "#endif\n" * n,
        "cpp_unterminated_raw": 'const char* s = R"xyz(never closed\n' + "int y;\n" * 100,
        "cpp_unterminated_comment": "int x; /* never closed\n" + "int y;\n" * 100,
        "cpp_unterminated_str": 'const char* s = "abc\nint y = 1;\n',
        "cpp_long_line": "int x = " + "a+" * (MB // 2) + "1;\n",
        "cpp_switch": "int f(int x) {\n  switch (x) {\n" + "".join("    case %d: return %d;\n" % (i, i) for i in range(N(3000))) + "  }\n}\n",
        "cpp_else_if": "int f(int x) {\n  if (x == 0) return 0;\n" + "".join("  else if (x == %d) return %d;\n" % (i, i) for i in range(1, N(3000))) + "}\n",
    }
    for k, v in cpp.items():
        yield k, "src/%s.cpp" % k, v.encode()
    yield "cu_launch", "src/kernel.cu", (
        "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n"
        "void run(float* p) {\n  k<<<dim3(1, 2), 256, 0, stream>>>(p);\n  k<<<1,1>>>(p);\n"
        "  k<<<" + "(" * 200 + "1" + ")" * 200 + ", 1>>>(p);\n  k<<<1\n}\n").encode()
    yield "cuh_launch", "src/kernel.cuh", b"template <int N> __global__ void k();\nvoid f() { k<3><<<1, 1>>>(); }\n"
    yield "hip_launch", "src/kernel.hip", b"void f() { hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0); k<<<1,1>>>(); }\n"
    yield "cpp_nul", "src/nul.cpp", b"int x = 1;\x00\x00\nint \x00y;\n"
    yield "cpp_bad_utf8", "src/bad.cpp", b"// " + BAD_UTF8 + b"\nconst char* s = \"" + BAD_UTF8 + b"\";\nint \xff();\n"
    yield "cpp_crlf", "src/crlf.cpp", b"int f() {\r\n  return 1;\r\n}\r\n"
    yield "cpp_lone_cr", "src/cr.cpp", b"int f() {\r  return 1;\r}\r"
    yield "cpp_empty", "src/empty.hpp", b""
    yield "cpp_bom_only", "src/bom.h", BOM

    cmake = {
        "cmake_ifs": "if(A)\n" * n + "set(x 1)\n" + "endif()\n" * n,
        "cmake_parens": "set(x " + "(" * n + ")" * n + ")\n",
        "cmake_unterminated_bracket": "set(x [==[never closed\n" + "set(y 1)\n" * 100,
        "cmake_unterminated_bracket_comment": "#[[ never closed\nset(y 1)\n",
        "cmake_unterminated_quote": 'set(x "never closed\nset(y 1)\n',
        "cmake_unterminated_call": "set(x 1\n" * 100,
        "cmake_long_line": "set(x " + "a " * (MB // 2) + ")\n",
        "cmake_catastrophic": "set(x " + "x" * N(100000) + ")\n",
        "cmake_stray": ")\n)\n(\nendif()\nelse()\n" * 100,
        "cmake_escapes": 'set(x "\\' + '\\\\' * 1000 + '")\nset(y \\;\\"\\n)\n',
    }
    for k, v in cmake.items():
        yield k, "cm/%s/CMakeLists.txt" % k, v.encode()
    yield "cmake_nul", "cm/nul.cmake", b"set(x 1)\x00\nset(\x00y 2)\n"
    yield "cmake_bad_utf8", "cm/bad.cmake", b"set(x \"" + BAD_UTF8 + b"\")\n# " + BAD_UTF8 + b"\n"
    yield "cmake_cr", "cm/cr.cmake", b"if(A)\r  set(x 1)\rendif()\r\n"
    yield "cmake_bom_only", "cm/bom.cmake", BOM
    yield "cmake_empty", "cm/empty.cmake", b""

    md = {
        "md_quotes": ">" * n + " deep\n",
        "md_lists": "".join("  " * i + "- item\n" for i in range(N(1500))),
        "md_hashes": "#" * n + " heading\n" + "####### seven\n# " + "x" * MB + "\n",
        "md_unterminated_fence": "# A\n```python\nnever closed\n# not a heading\n",
        "md_unterminated_comment": "# A\n<!-- never closed\n# B\n",
        "md_many_headings": "".join("# h%d\ntext\n" % i for i in range(N(50000))),
        "md_setext": "Title\n=====\nSub\n---\n" * 1000,
    }
    for k, v in md.items():
        yield k, "docs/%s.md" % k, v.encode()
    yield "md_bad_utf8", "docs/bad.md", b"# " + BAD_UTF8 + b"\n" + BAD_UTF8 + b"\n"
    yield "md_nul", "docs/nul.md", b"# a\x00b\n\x00\n"
    yield "md_cr", "docs/cr.md", b"# A\rtext\r## B\r"
    yield "md_bom_only", "docs/bom.md", BOM
    yield "binary", "pkg/blob.py", bytes(range(256)) * 64


def diffs():
    d = {}
    d["small"] = (
        'diff --git a/pkg/m.py b/pkg/m.py\n'
        'index 1111111..2222222 100644\n'
        '--- a/pkg/m.py\n+++ b/pkg/m.py\n'
        '@@ -1,3 +1,4 @@\n def f(a):\n-    return 1\n+    if a:\n+        v = 1\n+    return v\n'
        '\\ No newline at end of file\n'
        'diff --git "a/q \\"x\\".py" "b/q \\"x\\".py"\nnew file mode 100644\n--- /dev/null\n+++ "b/q \\"x\\".py"\n'
        '@@ -0,0 +1 @@\n+print(1)  # TODO\n'
    ).encode()
    hunks = "".join("@@ -%d +%d @@\n-a\n+print(b)\n" % (i, i) for i in range(1, N(60000) + 1))
    d["many_hunks"] = ("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n" + hunks).encode()
    d["many_files"] = "".join(
        "diff --git a/f%d.py b/f%d.py\nnew file mode 100644\n--- /dev/null\n+++ b/f%d.py\n@@ -0,0 +1 @@\n+x\n" % (i, i, i)
        for i in range(N(20000))).encode()
    d["huge_numbers"] = (
        "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n"
        "@@ -99999999999999999999999,1 +18446744073709551615,1 @@\n-a\n+b\n"
        "@@ -1,4294967296 +1,2147483648 @@\n-a\n+b\n"
        "@@ -2147483647,1 +9223372036854775807,1 @@\n-a\n+b\n"
        "@@ --1,-1 +-1,-1 @@\n-a\n+b\n"
        "@@ -0,0 +0,0 @@\n"
    ).encode()
    d["quoted_escapes"] = (
        'diff --git "a/\\303\\244\\t\\n\\\\\\"\\a\\b\\f\\v\\r.py" "b/\\303\\244\\t\\n\\\\\\"\\a\\b\\f\\v\\r.py"\n'
        'new file mode 100644\n--- /dev/null\n+++ "b/\\303\\244\\t\\n\\\\\\"\\a\\b\\f\\v\\r.py"\n@@ -0,0 +1 @@\n+x\n'
        'diff --git "a/\\777\\400\\0.py" "b/\\q.py"\n--- "a/\\777\\400\\0.py"\n+++ "b/\\q.py\n@@ -1 +1 @@\n-a\n+b\n'
        'diff --git "a/\\" "b/\\\n--- "\n+++ "\\\n@@ -1 +1 @@\n-a\n+b\n'
        'diff --git a/../../etc/passwd b/../../etc/passwd\n--- a/../../etc/passwd\n+++ b//etc/passwd\n@@ -1 +1 @@\n-a\n+b\n'
    ).encode()
    d["binary"] = (
        b"diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000..1111111\n"
        b"GIT binary patch\nliteral 12\nTcmZ?wbhEHbWMp7y1jq\n\nliteral 0\nHcmV?d00001\n\n"
        b"diff --git a/b.bin b/b.bin\nindex 1..2 100644\nBinary files a/b.bin and b/b.bin differ\n"
        b"diff --git a/c.py b/c.py\nGIT binary patch\ndelta 99999999999999999999\nzz\x00\xff\n"
    )
    d["combined"] = (
        "diff --cc pkg/m.py\nindex 1111111,2222222..3333333\n--- a/pkg/m.py\n+++ b/pkg/m.py\n"
        "@@@ -1,3 -1,3 +1,4 @@@\n  def f(a):\n- \treturn 1\n -\treturn 2\n++\treturn 3\n+ x\n"
        "diff --combined x.py\n--- a/x.py\n+++ b/x.py\n@@@@ -1 -1 -1 +1 @@@@\n+++b\n"
        "diff --cc\n@@@\n"
    ).encode()
    d["mode_rename"] = (
        "diff --git a/a.py b/b.py\nold mode 100644\nnew mode 100755\nsimilarity index 999999999999%\n"
        "rename from a.py\nrename to b.py\ncopy from\ncopy to\n"
        "diff --git a/d.py b/d.py\ndeleted file mode 100644\n--- a/d.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n"
        "diff --git a/e.py b/e.py\n--- a/e.py\n+++ b/e.py\n@@ -1 +1 @@\n\\ No newline at end of file\n\\ No newline at end of file\n-a\n+b\n"
    ).encode()
    d["crlf"] = d["small"].replace(b"\n", b"\r\n")
    d["lone_cr"] = d["small"].replace(b"\n", b"\r")
    d["nul_bad_utf8"] = (
        b"diff --git a/\xff\x00.py b/\xff\x00.py\n--- a/\xff\x00.py\n+++ b/\xff\x00.py\n@@ -1 +1 @@\n-\x00\n+" + BAD_UTF8 + b"\n"
    )
    d["long_line"] = (b"diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+" + b"x = " + b"(" * MB + b"\n")
    d["long_header"] = b"diff --git a/" + b"x" * MB + b" b/y\n--- a/x\n+++ b/y\n"
    d["no_header"] = b"@@ -1 +1 @@\n-a\n+b\n"
    d["garbage"] = bytes(range(256)) * 100
    d["empty"] = b""
    d["bom"] = BOM + d["small"]
    return d


def rulesets():
    head = 'ruleset h "Hostile" {\n  version 1\n}\n'
    rule = 'rule R1 "r" {\n  severity note\n  for l in lines(changed) where %s\n  problem "%s"\n  impact "x"\n  action "Author should fix it"\n}\n'
    r = {}
    r["unterminated_string"] = head + 'rule R1 "never closed {\n  severity note\n'
    r["unterminated_triple"] = head + 'rule R1 "r" {\n  severity note\n  help """never closed\n'
    r["unterminated_regex"] = head + rule % ("l.text ~ /abc", "x")
    r["unterminated_template"] = head + rule % ("l.added", "{l.line")
    r["unterminated_block"] = head + 'rule R1 "r" {\n' + "{" * N(10000)
    r["deep_parens"] = head + rule % ("(" * N(10000) + "l.added" + ")" * N(10000), "x")
    r["deep_not"] = head + rule % ("not " * N(10000) + "l.added", "x")
    r["deep_minus"] = head + rule % ("l.line == " + "-" * N(10000) + "1", "x")
    r["long_and"] = head + rule % (" and ".join(["l.added"] * N(10000)), "x")
    r["long_plus"] = head + rule % ("l.line == " + " + ".join(["1"] * N(10000)), "x")
    r["deep_lists"] = head + rule % ("l.text in " + "[" * N(10000) + "]" * N(10000), "x")
    r["deep_template"] = head + rule % ("l.added", "{" * N(10000) + "l.line" + "}" * N(10000))
    r["deep_count"] = head + rule % ("count(" * N(3000) + "lines(changed)" + ")" * N(3000) + " > 0", "x")
    r["long_line_comment"] = head + "# " + "x" * MB + "\n"
    r["long_line_string"] = head + rule % ("l.added", "x" * MB)
    r["long_identifier"] = head + rule % ("l." + "a" * MB, "x")
    r["long_regex"] = head + rule % ("l.text ~ /" + "(a|b)" * N(100000) + "/", "x")
    r["huge_repeat"] = head + rule % ("l.text ~ /((a{1000}){1000}){1000}/", "x")
    r["catastrophic"] = head + rule % ("l.text ~ /^(a+)+$/ or l.text ~ /(a|aa)+b/ or l.text ~ /(.*)*x/", "{l.line}")
    r["capture_meta"] = head + rule % (
        "l.text ~ /(?P<m>[\\[\\](){}.*+?^$|\\\\]+)/ and l.text ~ /{m}{m}/ and l.text ~ /[{m}]/", "{m}")
    r["capture_unknown"] = head + rule % ("l.text ~ /{nope}/", "x")
    r["capture_dup"] = head + rule % ("l.text ~ /(?P<a>x)(?P<a>y)/", "{a}")
    r["invalid_regex"] = head + rule % ("l.text ~ /(/ and l.text ~ /\\p{Nope}/ and l.text ~ /(?<!x)/", "x")
    r["bad_utf8"] = (head + rule % ('l.text ~ /\xff/', "\xff")).encode("latin-1") + BAD_UTF8 + b"\n"
    r["nul"] = (head + rule % ("l.added", "x")).encode() + b"\x00rule\x00"
    r["bom"] = BOM + (head + rule % ("l.added", "x")).encode()
    r["crlf"] = (head + rule % ("l.added", "x")).replace("\n", "\r\n")
    r["lone_cr"] = (head + rule % ("l.added", "x")).replace("\n", "\r")
    r["empty"] = ""
    r["huge_int"] = head + rule % ("l.line == 99999999999999999999999999 or l.line > -9223372036854775808", "x")
    r["int_overflow"] = head + rule % ("l.line * 9223372036854775807 * 9223372036854775807 > 0 or l.line - -9223372036854775807 - 2 > 0"
                                      " or (0 - 9223372036854775807 - 1) / -1 > 0 or l.line % 0 > 0 or l.line / 0 > 0", "x")
    r["many_rules"] = head + "".join(
        (rule % ("l.line < 0", "x")).replace("R1", "R%d" % i) for i in range(N(1000)))
    r["dup_ids"] = head + (rule % ("l.added", "x")) * 3
    r["self_findings"] = head + 'rule A "a" {\n  severity note\n  tags "t"\n  for f in findings("t")\n  problem "x"\n  impact "x"\n  action "Author should x"\n}\n'
    r["let_cycle"] = 'let a = b\nlet b = a\n' + head + rule % ("l.added", "x")
    return r


def events():
    e = {}
    e["wrong_types"] = '{"pull_request": {"number": "x", "title": 5, "body": [1], "labels": {"a": 1}, "base": 3, "head": {"sha": 7}, "user": []}}'
    e["wrong_types2"] = '{"pull_request": 5}'
    e["wrong_types3"] = '{"pull_request": {"labels": [1, null, {"name": 5}, {"name": "ok"}], "base": {"sha": null}, "head": {"sha": []}}}'
    e["array_root"] = '[1, 2, 3]'
    e["scalar_root"] = '"pr"'
    e["null"] = 'null'
    e["deep_arrays"] = '{"pull_request": {"title": ' + "[" * N(100000) + "]" * N(100000) + "}}"
    e["deep_objects"] = '{"pull_request": ' + '{"a": ' * N(100000) + "1" + "}" * N(100000) + "}"
    e["unbalanced"] = '{"pull_request": ' + "[" * N(100000)
    e["huge_numbers"] = ('{"number": 1e400, "pull_request": {"number": 99999999999999999999999999999, "title": "t", '
                         '"commits": -1e308, "additions": 18446744073709551616, "body": null}}')
    e["negative"] = '{"number": -5, "pull_request": {"number": -9223372036854775808, "commits": 1.5}}'
    e["bad_utf8"] = b'{"pull_request": {"title": "' + BAD_UTF8 + b'", "body": "\\ud800 \\udfff \\u0000"}}'
    e["nul"] = b'{"pull_request": {"title": "a\x00b"}}\x00'
    e["long_string"] = '{"pull_request": {"title": "' + "t" * MB + '", "body": "' + "a" * MB + '"}}'
    e["gh_pr_view"] = '{"number": "12", "title": {}, "body": 5, "labels": "x", "baseRefOid": 1, "headRefOid": [], "commits": "many"}'
    e["gh_pr_view2"] = '{"number": 12, "labels": [{"name": []}, "x", 5], "commits": [1, {"oid": 5}]}'
    e["empty"] = ""
    e["bom"] = BOM + b'{"pull_request": {"title": "t"}}'
    e["trailing"] = '{"pull_request": {}} {"x": 1}'
    e["many_labels"] = '{"pull_request": {"labels": [' + ",".join('{"name": "l%d"}' % i for i in range(N(100000))) + "]}}"
    return e


def ymls():
    y = {}
    y["wrong_types"] = "rulesets: {a: 1}\nfail-on: [block]\nfilter: {x: y}\nbaseline: [1]\nexclude: {a: b}\nseverity: [1, 2]\n"
    y["wrong_types2"] = "severity:\n  TODO1: [warn]\n  ? [a, b]\n  : note\n  5: block\nexclude: [[1], {a: b}]\n"
    y["scalar_root"] = "just a string\n"
    y["list_root"] = "- a\n- b\n"
    y["deep_seq"] = "exclude: " + "[" * N(10000) + "]" * N(10000) + "\n"
    y["deep_map"] = "severity: " + "{a: " * N(10000) + "b" + "}" * N(10000) + "\n"
    y["deep_block"] = "severity:\n" + "".join(" " * i + "k%d:\n" % i for i in range(N(3000))) + " " * N(3000) + "v\n"
    y["unbalanced"] = "exclude: " + "[" * N(10000) + "\n"
    lol = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
    for i in range(1, 12):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lol.append("%s: &%s [%s]" % (cur, cur, ",".join(["*" + prev] * 9)))
    y["billion_laughs"] = "\n".join(lol) + "\nexclude: *l\nrulesets: *l\nseverity: {x: *l}\n"
    y["billion_laughs_keys"] = "\n".join(lol) + "\nseverity:\n  *l : note\n"
    y["billion_laughs_unknown"] = "\n".join(lol).replace("a: &a", "zz: &a") + "\n"
    y["alias_unknown"] = "exclude: *nope\n"
    y["alias_cycle"] = "exclude: &a [*a]\n"
    y["merge_keys"] = "base: &b {fail-on: warn}\n<<: *b\nseverity:\n  <<: *b\n"
    y["tags"] = "fail-on: !!binary aGVsbG8=\nexclude: !custom [a]\nseverity: !!set {a, b}\n"
    y["bad_utf8"] = b"fail-on: \"" + BAD_UTF8 + b"\"\nexclude: [\"" + BAD_UTF8 + b"\"]\n"
    y["nul"] = b"fail-on: warn\x00\nexclude: [a\x00b]\n"
    y["tabs"] = "severity:\n\tTODO1: note\n"
    y["dup_keys"] = "fail-on: warn\nfail-on: block\nfail-on: [x]\n"
    y["multi_doc"] = "fail-on: warn\n---\nfail-on: [x]\n...\n---\n"
    y["long_key"] = "x" * MB + ": 1\n"
    y["long_value"] = "exclude: [\"" + "*" * MB + "\"]\n"
    y["glob_bomb"] = "exclude: [\"" + "*a" * 2000 + "b\", \"" + "**/" * 2000 + "x\", \"[\", \"[!\", \"{a,\", \"\\\\\"]\n"
    y["empty"] = ""
    y["only_doc_marker"] = "---\n"
    y["bom"] = BOM + b"fail-on: warn\n"
    y["cr"] = "fail-on: warn\rexclude: [a]\r"
    return y


def sarifs():
    s = {}
    s["wrong_types"] = '{"version": 5, "runs": {"a": 1}}'
    s["wrong_types2"] = '{"version": "2.1.0", "runs": [1, null, {"tool": 5, "results": "x"}, {"tool": {"driver": {"name": []}}, "results": [1]}]}'
    s["deep"] = '{"version": "2.1.0", "runs": [' + "[" * N(100000) + "]" * N(100000) + "]}"
    s["bad_utf8"] = b'{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "' + BAD_UTF8 + b'"}}}]}'
    s["empty"] = ""
    s["huge_numbers"] = '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{"id": 1e400}]}}, "results": [{"ruleIndex": 99999999999999999999, "level": 1}]}]}'
    return s


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "empty"), exist_ok=True)
    for case, path, data in sources():
        write(os.path.join(out, "files", case, path), data)
        write(os.path.join(out, "groups", path.split("/")[0], path), data)
        write(os.path.join(out, "modified", "base", path), data)
        write(os.path.join(out, "modified", "head", path), b"x = 1\n")
    for name, data in diffs().items():
        write(os.path.join(out, "diffs", name + ".diff"), data)
    for name, data in rulesets().items():
        write(os.path.join(out, "rules", name + ".rules"), data)
    for name, data in events().items():
        write(os.path.join(out, "events", name + ".json"), data)
    for name, data in ymls().items():
        write(os.path.join(out, "yml", name + ".yml"), data)
    for name, data in sarifs().items():
        write(os.path.join(out, "sarif", name + ".sarif"), data)


if __name__ == "__main__":
    main()
