#include "catch.hpp"
#include "analysis/parse_helpers.hpp"
#include "runner/lang/python/unbound.hpp"

#include <string>
#include <vector>

using review::analysis::find_unbound_reads;
using review::analysis::UnboundOptions;

namespace {

// "name line:col cause" for every finding
std::vector<std::string> run(const std::string& src, bool every_read = true) {
  Parsed p(src, tree_sitter_python());
  UnboundOptions o;
  o.every_read = every_read;
  std::vector<std::string> out;
  for (auto& u : find_unbound_reads(p.root(), p.source, o))
    out.push_back(u.name + " " + std::to_string(u.read_line) + ":" + std::to_string(u.read_column) + " " + u.cause);
  return out;
}

struct Case {
  const char* what;
  const char* src;
  std::vector<std::string> expected;
};

}  // namespace

TEST_CASE("unbound: constructs fire and stay silent as documented", "[unbound]") {
  const std::vector<Case> cases = {
      // if / elif / else
      {"if-elif without else fires",
       "def f(mode):\n    if mode == 'a':\n        n = 1\n    elif mode == 'b':\n        n = 2\n    return n\n",
       {"n 6:12 branch"}},
      {"default before the chain is silent",
       "def f(mode):\n    n = 0\n    if mode == 'a':\n        n = 1\n    return n\n", {}},
      {"else that assigns is silent",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        n = 2\n    return n\n", {}},
      {"else that does not assign fires",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        pass\n    return n\n", {"n 6:12 branch"}},
      {"read only inside the assigning branch is silent",
       "def f(m):\n    if m:\n        n = 1\n        print(n)\n", {}},
      // path ends
      {"raise on the other path is silent",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        raise ValueError(m)\n    return n\n", {}},
      {"return on the other path is silent",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        return None\n    return n\n", {}},
      {"assert False is silent",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        assert False, 'no'\n    return n\n", {}},
      {"assert_never is silent",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        assert_never(m)\n    return n\n", {}},
      {"sys.exit is silent",
       "import sys\ndef f(m):\n    if m:\n        n = 1\n    else:\n        sys.exit(2)\n    return n\n", {}},
      {"module-level import guarded by pytest.skip is silent",
       "import pytest\ntry:\n    import torch as t\nexcept ImportError:\n    pytest.skip('no torch', allow_module_level=True)\n"
       "def test_a():\n    assert t.ones(1)\n", {}},
      {"os._exit is silent",
       "import os\ndef f(m):\n    if m:\n        n = 1\n    else:\n        os._exit(2)\n    return n\n", {}},
      {"same-file NoReturn function is silent",
       "from typing import NoReturn\ndef die(m) -> NoReturn:\n    raise SystemExit(m)\n"
       "def f(m):\n    if m:\n        n = 1\n    else:\n        die(m)\n    return n\n",
       {}},
      {"same-file function that always raises is silent",
       "def die(m):\n    raise SystemExit(m)\ndef f(m):\n    if m:\n        n = 1\n    else:\n        die(m)\n    return n\n",
       {}},
      {"a chain of calls to a function that always raises is silent (a fixed point, defined callers first)",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        a(m)\n    return n\n"
       "def a(m):\n    b(m)\ndef b(m):\n    c(m)\ndef c(m):\n    raise SystemExit(m)\n",
       {}},
      {"a chain past four rounds of the fixed point still fires",
       "def f(m):\n    if m:\n        n = 1\n    else:\n        a(m)\n    return n\n"
       "def a(m):\n    b(m)\ndef b(m):\n    c(m)\ndef c(m):\n    d(m)\ndef d(m):\n    e(m)\ndef e(m):\n    raise SystemExit(m)\n",
       {"n 6:12 branch"}},
      // a helper that never returns, by each way a path can end without `raise` in the helper
      {"same-file function that loops forever is silent",
       "def serve(m):\n    while True:\n        g(m)\ndef f(m):\n    if m:\n        n = 1\n    else:\n        serve(m)\n    return n\n",
       {}},
      {"same-file function that asserts False is silent",
       "def bad(m):\n    assert False, m\ndef f(m):\n    if m:\n        n = 1\n    else:\n        bad(m)\n    return n\n", {}},
      {"same-file function that calls sys.exit is silent",
       "import sys\ndef stop(m):\n    sys.exit(m)\ndef f(m):\n    if m:\n        n = 1\n    else:\n        stop(m)\n    return n\n",
       {}},
      {"same-file function that calls parser.error is silent",
       "def usage(parser):\n    parser.error('bad')\ndef f(parser, m):\n    if m:\n        n = 1\n    else:\n        usage(parser)\n"
       "    return n\n",
       {}},
      {"a method that calls self.fail is silent through self",
       "class T:\n    def stop(self, m):\n        self.fail(m)\n    def f(self, m):\n        if m:\n            n = 1\n        else:\n"
       "            self.stop(m)\n        return n\n",
       {}},
      {"a same-file function that only calls another is not never-returning",
       "def log(m):\n    print(m)\ndef f(m):\n    if m:\n        n = 1\n    else:\n        log(m)\n    return n\n",
       {"n 8:12 branch"}},
      {"raise NotImplementedError body does not count as NoReturn",
       "def todo(m):\n    raise NotImplementedError\ndef f(m):\n    if m:\n        n = 1\n    else:\n        todo(m)\n    return n\n",
       {"n 8:12 branch"}},
      // loops
      {"for body may run zero times",
       "def f(xs):\n    for x in xs:\n        last = x\n    return last\n", {"last 4:12 loop"}},
      {"for target read after the loop fires",
       "def f(xs):\n    for x in xs:\n        pass\n    return x\n", {"x 4:12 loop"}},
      {"for-else that binds is silent",
       "def f(xs):\n    for x in xs:\n        if x:\n            hit = x\n            break\n    else:\n        hit = None\n    return hit\n",
       {}},
      {"for-else that raises, bound before break, is silent",
       "def f(xs):\n    for x in xs:\n        if x:\n            hit = x\n            break\n    else:\n        raise KeyError\n    return hit\n",
       {}},
      {"continue before the binding makes it loop-carried",
       "def f(xs):\n    for x in xs:\n        if x:\n            prev = x\n            continue\n        print(prev)\n",
       {"prev 6:15 loop"}},
      {"while True only exits through break",
       "def f():\n    while True:\n        v = g()\n        if v:\n            break\n    return v\n", {}},
      {"while cond may run zero times",
       "def f(c):\n    while c():\n        v = 1\n    return v\n", {"v 4:12 loop"}},
      // try
      {"try with a handler that does not bind fires",
       "def f():\n    try:\n        import foo\n    except ImportError:\n        pass\n    return foo\n",
       {"foo 6:12 try"}},
      {"try where every handler binds is silent",
       "def f():\n    try:\n        import foo\n    except ImportError:\n        foo = None\n    return foo\n", {}},
      {"handler that re-raises is silent",
       "def f():\n    try:\n        v = g()\n    except KeyError:\n        raise\n    return v\n", {}},
      {"try-else binds only when the body completes",
       "def f():\n    try:\n        g()\n    except KeyError:\n        return 1\n    else:\n        v = 2\n    return v\n", {}},
      {"finally sees the exceptional entry",
       "def f():\n    try:\n        g()\n        ok = True\n    finally:\n        print(ok)\n",
       {"ok 6:15 try"}},
      {"a try body that first binds constants binds them before anything can raise",
       "def f():\n    try:\n        # first\n        ok = done = False\n        g()\n        ok = True\n    finally:\n"
       "        print(ok, done)\n",
       {}},
      {"... not when the first statement can raise: a call, an f-string, a subscript target",
       "def f(d):\n    try:\n        a = f\"{d}\"\n        g()\n    finally:\n        print(a)\n"
       "def h(d):\n    try:\n        d[0] = ok = None\n    except KeyError:\n        print(ok)\n",
       {"a 6:15 try", "ok 11:15 branch"}},
      {"except-as name is unbound after its handler",
       "def f():\n    try:\n        g()\n    except ValueError as e:\n        pass\n    else:\n        e = None\n    return e\n",
       {"e 8:12 del"}},
      // match
      {"match without a wildcard fires",
       "def f(m):\n    match m:\n        case 'a':\n            v = 1\n        case 'b':\n            v = 2\n    return v\n",
       {"v 7:12 match"}},
      {"match with case _ is exhaustive",
       "def f(m):\n    match m:\n        case 'a':\n            v = 1\n        case _:\n            v = 2\n    return v\n", {}},
      {"match capture binds",
       "def f(m):\n    match m:\n        case [x, y]:\n            s = x + y\n        case other:\n            s = other\n    return s\n", {}},
      // del, with, global, walrus, comprehensions, augmented assignment
      {"del on one path fires",
       "def f(c):\n    v = 1\n    if c:\n        del v\n    return v\n", {"v 5:12 del"}},
      {"with binds its target",
       "def f(p):\n    with open(p) as fh:\n        data = fh.read()\n    return data, fh\n", {}},
      {"with suppress may leave the body early",
       "from contextlib import suppress\ndef f():\n    with suppress(KeyError):\n        v = g()\n    return v\n",
       {"v 5:12 with"}},
      {"global names are skipped",
       "def f(c):\n    global G\n    if c:\n        G = 1\n    return G\n", {}},
      {"nonlocal names are skipped",
       "def f():\n    n = 0\n    def g(c):\n        nonlocal n\n        if c:\n            n = 1\n        return n\n    return g\n", {}},
      {"walrus in an if condition binds in that branch",
       "def f(d):\n    if (m := d.get('k')) and m.x:\n        return m\n", {}},
      {"walrus after `or` may not run",
       "def f(a, d):\n    if a or (m := d.get('k')):\n        return m\n", {"m 3:16 branch"}},
      {"comprehension targets are their own scope",
       "def f(xs):\n    ys = [x for x in xs if x]\n    return ys\n", {}},
      {"augmented assignment reads first",
       "def f(c):\n    if c:\n        total = 0\n    total += 1\n    return total\n", {"total 4:5 branch"}},
      {"a name never bound locally is a global read",
       "def f(c):\n    if c:\n        pass\n    return undefined_global\n", {}},
      {"parameters are bound",
       "def f(a, *args, b=1, **kw):\n    return a, args, b, kw\n", {}},
      {"nested def name is bound only where defined",
       "def f(c):\n    if c:\n        def g():\n            return 1\n    return g()\n", {"g 5:12 branch"}},
      {"every read is reported by default",
       "def f(c):\n    if c:\n        v = 1\n    print(v)\n    print(v)\n", {"v 4:11 branch", "v 5:11 branch"}},
      {"module scope is analysed",
       "try:\n    import numpy as np\nexcept ImportError:\n    pass\nx = np.zeros(3)\n", {"np 5:5 try"}},
      {"module import read from a function after a partial import",
       "try:\n    import numpy as np\nexcept ImportError:\n    pass\ndef f():\n    return np.zeros(3)\n",
       {"np 6:12 try"}},
      {"module variable read from a function is not narrowed",
       "import os\nif os.environ.get('X'):\n    LIMIT = 3\ndef f():\n    return LIMIT\n", {}},
      {"constant-true condition always runs",
       "def f():\n    if True:\n        v = 1\n    return v\n", {}},
      {"isinstance narrowing binds in the positive branch",
       "def f(c):\n    if c:\n        v = g()\n    if isinstance(v, int):\n        return v\n",
       {"v 4:19 branch"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(run(c.src) == c.expected);
  }
}

TEST_CASE("unbound: first read only when asked", "[unbound]") {
  const char* src = "def f(c):\n    if c:\n        v = 1\n    print(v)\n    print(v)\n";
  CHECK(run(src, false) == std::vector<std::string>{"v 4:11 branch"});
  // A read on some paths only leaves the later read open, and its reason is still the
  // statement that binds the name (line 2), not the test whose arm read it (line 4); a read
  // again after a `del`, and a read in a handler that the earlier read's error reaches, are
  // reported too.
  const char* some = "def f(c, d):\n    if c:\n        v = 1\n    if d:\n        print(v)\n    else:\n        pass\n"
                     "    print(v)\n    print(v)\n";
  UnboundOptions first;
  first.every_read = false;
  Parsed p(some, tree_sitter_python());
  std::vector<std::string> got;
  for (auto& u : find_unbound_reads(p.root(), p.source, first))
    got.push_back(std::to_string(u.read_line) + " " + u.cause + " " + std::to_string(u.branch_line) + " " + u.bound_in);
  CHECK(got == std::vector<std::string>{"5 branch 2 the `if` arm", "8 branch 2 the `if` arm"});
  CHECK(run("def f(c):\n    if c:\n        v = 1\n    print(v)\n    del v\n    print(v)\n", false) ==
        std::vector<std::string>{"v 4:11 branch", "v 6:11 del"});
  CHECK(run("def f(c):\n    if c:\n        v = 1\n    try:\n        print(v)\n    except NameError:\n        print(v)\n", false) ==
        std::vector<std::string>{"v 5:15 branch", "v 7:15 branch"});
}

TEST_CASE("unbound: descriptive fields", "[unbound]") {
  std::string src =
      "def f(mode, shape):\n    if mode == \"greedy\":\n        noise = None\n    elif mode == \"sample\":\n"
      "        noise = draw(shape)\n    return sampler(noise)\n";
  Parsed p(src, tree_sitter_python());
  auto r = find_unbound_reads(p.root(), p.source);
  REQUIRE(r.size() == 1);
  CHECK(r[0].branch_line == 2);
  CHECK(r[0].branch_kind == "if");
  CHECK(r[0].bound_in == "the `if` and `elif` arms");
  CHECK(r[0].unbound_path == "neither `mode == \"greedy\"` nor `mode == \"sample\"` holds");
  CHECK(r[0].function == "f");
  CHECK(r[0].scope_kind == "function");

  std::string loop = "class C:\n    def m(self, xs):\n        for x in xs:\n            last = x\n        return last\n";
  Parsed q(loop, tree_sitter_python());
  auto l = find_unbound_reads(q.root(), q.source);
  REQUIRE(l.size() == 1);
  CHECK(l[0].function == "C.m");
  CHECK(l[0].bound_in == "the loop body");
  CHECK(l[0].unbound_path == "the loop body runs zero times");
  CHECK(l[0].branch_kind == "for");
}

TEST_CASE("unbound: a later partial rebinding keeps the earlier chain as the reason", "[unbound]") {
  // `y` is left unbound by the chain at line 2; the `if` at line 6 rebinds it on one arm only,
  // which neither binds it where it was unbound nor unbinds it: line 2 stays the reason.
  std::string src =
      "def f(q, pad, tp):\n    if q == 0:\n        y = a()\n    elif q == 1:\n        y = b()\n"
      "    if tp > 1:\n        y = reduce(y)\n    return y\n";
  Parsed p(src, tree_sitter_python());
  UnboundOptions o;
  o.every_read = false;
  auto r = find_unbound_reads(p.root(), p.source, o);
  REQUIRE(r.size() == 2);  // line 7 (read first on the `tp > 1` arm) and line 8
  for (const auto& u : r) {
    CHECK(u.branch_line == 2);
    CHECK(u.bound_in == "the `if` and `elif` arms");
    CHECK(u.cause == "branch");
  }
  CHECK(r[1].read_line == 8);
  // the read inside the `tp > 1` arm is unbound on the chain's path alone; the one after it only
  // when that arm is not taken either, and the path says both
  CHECK(r[0].unbound_path == "neither `q == 0` nor `q == 1` holds");
  CHECK(r[1].unbound_path == "neither `q == 0` nor `q == 1` holds, and `tp > 1` does not hold");

  // unbound before the construct on the arm that does not bind it (no earlier reason): this
  // construct is the reason
  std::string fresh = "def f(tp):\n    if tp > 1:\n        y = g()\n    return y\n";
  Parsed q(fresh, tree_sitter_python());
  auto s = find_unbound_reads(q.root(), q.source, o);
  REQUIRE(s.size() == 1);
  CHECK(s[0].branch_line == 2);

  // a loop's zero iterations stay the reason after an `if` that binds it on one arm
  std::string loop = "def f(xs, c):\n    for x in xs:\n        m = x\n    if c:\n        m = 0\n    return m\n";
  Parsed l(loop, tree_sitter_python());
  auto t = find_unbound_reads(l.root(), l.source, o);
  REQUIRE(t.size() == 1);
  CHECK(t[0].branch_line == 2);
  CHECK(t[0].cause == "loop");

  // the guard logic still sees the later construct's test: `tp > 1` and then `tp > 1` again
  // does not rule out the earlier chain's unbound path, so the read stays
  std::string guarded =
      "def f(q, tp):\n    if q == 0:\n        y = a()\n    if tp > 1:\n        y = g()\n    if q == 0 or tp > 1:\n"
      "        return y\n";
  Parsed g(guarded, tree_sitter_python());
  auto gr = find_unbound_reads(g.root(), g.source, o);
  REQUIRE(gr.size() == 1);
  CHECK(gr[0].guarded);
  CHECK(gr[0].branch_line == 2);
}

TEST_CASE("unbound: guarded reads (correlated conditions)", "[unbound]") {
  struct Row {
    const char* what;
    const char* src;
    const char* want;  // "guarded <guard>" or "open", for the last read reported
  };
  const Row rows[] = {
      {"same test again", "def f(a):\n    if a:\n        x = 1\n    if a:\n        return x\n", "guarded `a`"},
      {"an or of the binding arms",
       "def f(p, d):\n    if p > 0:\n        x = 1\n    elif d > 0:\n        x = 2\n    if p > 0 or d > 0:\n        use(x)\n",
       "guarded `p > 0 or d > 0`"},
      {"an and term of the binding test, the other known from an early return",
       "def f(a, b):\n    if a and b:\n        x = 1\n    if not a:\n        return\n    if b:\n        use(x)\n",
       "guarded `a`"},
      {"a nested binding: the outer arm's own unbound path stays open",
       "def f(a, b):\n    if a:\n        if b:\n            x = 1\n    if b:\n        use(x)\n", "open"},
      {"a nested binding, both tests known",
       "def f(a, b):\n    if a:\n        if b:\n            x = 1\n    if a and b:\n        use(x)\n", "guarded `a and b`"},
      {"a loop around the binding is not a test", 
       "def f(xs, b):\n    for _ in xs:\n        if b:\n            x = 1\n    if b:\n        use(x)\n", "open"},
      {"an attribute test again, the read in a conditional expression",
       "def f(g, r):\n    if g.n > 1:\n        c = 1\n    if g.n > 1:\n        s = 0 if r == 0 else c[r - 1]\n",
       "guarded `g.n > 1`"},
      {"a different literal of the same subject",
       "def f(m):\n    if m == 'fp8':\n        pass\n    else:\n        x = 1\n    if m == 'bs8':\n        use(x)\n",
       "guarded `m == 'bs8'`"},
      {"the same literal of the same subject",
       "def f(m):\n    if m == 'fp8':\n        pass\n    else:\n        x = 1\n    if m == 'fp8':\n        use(x)\n", "open"},
      {"rebound partially inside a loop, read under the binding test",
       "def f(a, xs, g):\n    if a:\n        d = 1\n    for _ in xs:\n        if a:\n            if g:\n                d = d + 1\n"
       "    if a:\n        use(d)\n",
       "guarded `a`"},
      {"a flag set in the binding arm",
       "def f(m):\n    done = False\n    if m:\n        x = 1\n        done = True\n    if done:\n        use(x)\n",
       "guarded `done`"},
      {"a flag set to None before, rebound in the binding arm, read as `x if flag else 0`",
       "def f(m):\n    region = None\n    if m:\n        size = 4\n        region = alloc()\n    return size if region else 0\n",
       "guarded `region`"},
      {"a flag set in both arms gives nothing",
       "def f(m):\n    done = False\n    if m:\n        x = 1\n        done = True\n    else:\n        done = True\n    if done:\n        use(x)\n",
       "open"},
      {"a flag set in the binding arm of an outer branch, the name bound in a nested else",
       "def f(a, q):\n    t = False\n    if a:\n        t = True\n        if q == 1:\n            pass\n        else:\n            o = 2\n"
       "    if t:\n        if q == 1:\n            pass\n        else:\n            use(o)\n",
       "guarded not `q == 1`"},
      {"a flag and a test, past a large test that mentions the same subject",
       "def f(p, a, b, c, d, e, n, msq, q):\n    done = False\n    if not p:\n        pass\n    else:\n"
       "        if (a and msq == 2) or (b and msq == 4) or (c and n == 8) or (d and n == 16) or (e and q.k == 3):\n"
       "            pass\n        elif n > 1:\n            if msq == 1:\n                q = q.view(1)\n            else:\n"
       "                o = q\n            done = True\n        else:\n            assert False\n"
       "    if done:\n        if msq == 1:\n            pass\n        else:\n            o.set_(q)\n",
       "guarded `done`"},
      {"many constants known everywhere do not crowd out the test",
       "def f(t, xs):\n    A = 1\n    B = 2\n    C = 3\n    D = 4\n    E = 5\n    F = 6\n    G = 7\n    H = 8\n"
       "    if not t:\n        p = 0\n    for _ in xs:\n        i = 0\n        j = 0\n        if not t:\n            p += 1\n"
       "    for _ in xs:\n        k = 0\n        if not t:\n            use(p)\n",
       "guarded not `t`"},
      {"known from an assert",
       "def f(a):\n    if a:\n        x = 1\n    assert a\n    use(x)\n", "guarded `a`"},
      {"an assert of membership in literals, a chain over each of them",
       "def f(k):\n    assert k in [\"a\", \"b\", 3]\n    if k == \"a\":\n        x = 1\n    elif k == \"b\":\n        x = 2\n"
       "    elif k == 3:\n        x = 3\n    use(x)\n",
       "guarded `k in [\"a\", \"b\", 3]`"},
      {"an assert of membership, the chain misses one of its values",
       "def f(k):\n    assert k in (\"a\", \"b\", \"c\")\n    if k == \"a\":\n        x = 1\n    elif k == \"b\":\n        x = 2\n"
       "    use(x)\n",
       "open"},
      {"an early return on `not in`, the chain covers the rest",
       "def f(k):\n    if k not in {\"a\", \"b\"}:\n        return\n    if k == \"a\":\n        x = 1\n    elif k == \"b\":\n"
       "        x = 2\n    use(x)\n",
       "guarded not `k not in {\"a\", \"b\"}`"},
      {"an earlier chain over the same values that raises otherwise",
       "def f(k):\n    if k == \"a\":\n        n = 1\n    elif k == \"b\":\n        n = 2\n    else:\n        raise ValueError(k)\n"
       "    if k == \"a\":\n        x = n\n    elif k == \"b\":\n        x = n + 1\n    use(x)\n",
       "guarded one of the arms of the `if` at line 2 that continue"},
      {"an earlier chain that raises otherwise, the later one misses a value",
       "def f(k):\n    if k == \"a\":\n        n = 1\n    elif k == \"b\":\n        n = 2\n    else:\n        raise ValueError(k)\n"
       "    if k == \"a\":\n        x = n\n    use(x)\n",
       "open"},
      {"an earlier chain that raises otherwise, its subject rebound after it",
       "def f(k):\n    if k == \"a\":\n        n = 1\n    elif k == \"b\":\n        n = 2\n    else:\n        raise ValueError(k)\n"
       "    k = g()\n    if k == \"a\":\n        x = n\n    elif k == \"b\":\n        x = n + 1\n    use(x)\n",
       "open"},
      {"complementary tests of one chain, no else",
       "def f(r):\n    if r is None:\n        x = 0\n    elif r is not None:\n        x = r\n    use(x)\n",
       "guarded the construct's own tests (one of them always holds)"},
      {"complementary tests, the subject rebound inside the first arm's test path",
       "def f(r):\n    if r is not None:\n        r = None\n        if r is None:\n            pass\n        else:\n"
       "            x = 1\n    else:\n        x = 2\n    use(x)\n",
       "open"},
      {"complementary tests across two chains",
       "def f(m):\n    if m:\n        x = 1\n    if not m:\n        x = 2\n    use(x)\n",
       "guarded the construct's own tests (one of them always holds)"},
      {"complementary tests across two chains, the subject rebound between them",
       "def f(m):\n    if m:\n        x = 1\n    m = g()\n    if not m:\n        x = 2\n    use(x)\n", "open"},
      {"membership in a list that is not all literals proves nothing",
       "def f(k, y):\n    assert k in [\"a\", y]\n    if k == \"a\":\n        x = 1\n    use(x)\n", "open"},
      {"an assert of membership in dotted names, the chain tests that name",
       "def f(dt):\n    assert dt in [torch.bfloat16]\n    if dt == torch.bfloat16:\n        x = 3\n    use(x)\n",
       "guarded `dt in [torch.bfloat16]`"},
      {"an assert of membership in dotted names, the chain misses one",
       "def f(m):\n    assert m in (Mode.A, Mode.B)\n    if m == Mode.A:\n        x = 3\n    use(x)\n", "open"},
      {"membership in a call is not a display",
       "def f(m):\n    assert m in [g()]\n    if m == g():\n        x = 3\n    use(x)\n", "open"},
      {"membership in a module constant, one separate `if` per member",
       "KINDS: set[str] = {\"a\", \"b\"}\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n"
       "    if k == \"b\":\n        x = 2\n    use(x)\n",
       "guarded `k in KINDS`"},
      {"membership in a module constant, the chain misses a member",
       "KINDS = (\"a\", \"b\", \"c\")\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n"
       "    elif k == \"b\":\n        x = 2\n    use(x)\n",
       "open"},
      {"membership in a module constant grown in place",
       "KINDS = {\"a\"}\nKINDS.add(\"b\")\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n    use(x)\n",
       "open"},
      {"membership in a module constant bound twice",
       "KINDS = [\"a\"]\nKINDS = [\"a\", \"b\"]\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n    use(x)\n",
       "open"},
      {"membership in a module constant extended by an augmented assignment",
       "KINDS = [\"a\"]\n\n\ndef g():\n    global KINDS\n    KINDS += [\"b\"]\n\n\ndef f(k):\n    assert k in KINDS\n"
       "    if k == \"a\":\n        x = 1\n    use(x)\n",
       "open"},
      {"membership in a module constant bound again under a module-level test",
       "KINDS = [\"a\"]\nif EXTRA:\n    KINDS = [\"a\", \"b\"]\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n"
       "    use(x)\n",
       "open"},
      {"membership in a module constant that a loop rebinds",
       "KINDS = [\"a\"]\nfor KINDS in ALTERNATIVES:\n    pass\n\n\ndef f(k):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n"
       "    use(x)\n",
       "open"},
      {"membership in a module constant, read under an annotation elsewhere",
       "KINDS: tuple[str, ...] = (\"a\",)\n\n\ndef f(k, other: dict = {KINDS: 1}):\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n"
       "    use(x)\n",
       "guarded `k in KINDS`"},
      {"membership in a name the function binds itself",
       "KINDS = [\"a\"]\n\n\ndef f(k, more):\n    KINDS = more\n    assert k in KINDS\n    if k == \"a\":\n        x = 1\n    use(x)\n",
       "open"},
      {"a name unpacked from a dotted name is that item (the assert tests the item)",
       "def f(A):\n    assert A.shape[-1] in [16, 32]\n    B, T, BT = A.shape\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "guarded `A.shape[-1] in [16, 32]`"},
      {"an item written from the start is the same item",
       "def f(A):\n    assert A.shape[2] in [16, 32]\n    B, T, BT = A.shape\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "guarded `A.shape[2] in [16, 32]`"},
      {"an item written from the start, another position",
       "def f(A):\n    assert A.shape[1] in [16, 32]\n    B, T, BT = A.shape\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "open"},
      {"an unpacked name at another position is another item",
       "def f(A):\n    assert A.shape[-1] in [16, 32]\n    B, BT, T = A.shape\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "open"},
      {"an unpacked name bound again later in the scope is not the item",
       "def f(A, xs):\n    assert A.shape[-1] in [16, 32]\n    B, T, BT = A.shape\n    for x in xs:\n        if BT == 16:\n"
       "            g = 1\n        elif BT == 32:\n            g = 2\n        use(g)\n        BT = x\n",
       "open"},
      {"an unpacked name bound again before the chain is not the item",
       "def f(A):\n    assert A.shape[-1] in [16, 32]\n    B, T, BT = A.shape\n    BT = 8\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "open"},
      {"an unpacking with a starred target makes no items",
       "def f(A):\n    assert A.shape[-1] in [16, 32]\n    *B, BT = A.shape\n    if BT == 16:\n        g = 1\n"
       "    elif BT == 32:\n        g = 2\n    use(g)\n",
       "open"},
      {"membership asserted before the name is rebound",
       "def f(k):\n    assert k in [\"a\"]\n    k = g()\n    if k == \"a\":\n        x = 1\n    use(x)\n", "open"},
      {"an early return inside a nested block ends with that block",
       "def f(a, b):\n    if a:\n        x = 1\n    if b:\n        if not a:\n            return\n    use(x)\n", "open"},
      {"a guard that contains the binding test as an and term",
       "def f(a, b):\n    if a:\n        x = 1\n    if a and b:\n        use(x)\n", "guarded `a and b`"},
      {"else of the same test, bound in else",
       "def f(d):\n    if d:\n        pass\n    else:\n        x = 1\n    if d:\n        return 0\n    else:\n        return x\n",
       "guarded not `d`"},
      {"is not None read as not is None",
       "def f(q, k):\n    if q is None or k is None:\n        x = 1\n    return q(1) if q is not None else x\n",
       "guarded not `q is not None`"},
      {"the right operand of and",
       "def f(a):\n    if a:\n        x = 1\n    return a and x > 0\n", "guarded `a`"},
      {"an unrelated guard", "def f(a, b):\n    if a:\n        x = 1\n    if b:\n        use(x)\n", "open"},
      {"the test's name rebound in between",
       "def f(a):\n    if a:\n        x = 1\n    a = g()\n    if a:\n        use(x)\n", "open"},
      {"a rebound name makes only its own part of the test unknown",
       "def f(r, lat, m):\n    if r or (lat is None and not m):\n        x = 1\n    if lat is None:\n        lat = g()\n"
       "    if r:\n        use(x)\n",
       "guarded `r`"},
      {"the rebound part alone decides nothing",
       "def f(r, lat, m):\n    if r or (lat is None and not m):\n        x = 1\n    if lat is None:\n        lat = g()\n"
       "    if lat is None and not m:\n        use(x)\n",
       "open"},
      {"the test's name fetched again the same way",
       "def f():\n    g = grp()\n    if g.n > 1:\n        x = 1\n    g = grp()\n    if g.n > 1:\n        use(x)\n",
       "guarded `g.n > 1`"},
      {"the test's name fetched again another way",
       "def f():\n    g = grp()\n    if g.n > 1:\n        x = 1\n    g = other()\n    if g.n > 1:\n        use(x)\n",
       "open"},
      {"a None test survives `p += k` in the binding arm",
       "def f(p, k):\n    if p is None:\n        pass\n    else:\n        p += k\n        x = 1\n    if p is not None:\n        use(x)\n",
       "guarded `p is not None`"},
      {"a value test does not survive `p += k`",
       "def f(p, k):\n    if p > 0:\n        p += k\n        x = 1\n    if p > 0:\n        use(x)\n", "open"},
      {"a compile-time marker around the binding test is that test",
       "def f(n):\n    if const_expr(n > 1):\n        x = 1\n    return x if n > 1 else 0\n", "guarded `n > 1`"},
      {"the negation inside the marker",
       "def f(a):\n    if const_expr(a):\n        pass\n    else:\n        x = 1\n    if const_expr(not a):\n        use(x)\n",
       "guarded `const_expr(not a)`"},
      {"a different test inside the marker stays open",
       "def f(a, b):\n    if fx.const_expr(a):\n        x = 1\n    if fx.const_expr(b):\n        use(x)\n", "open"},
      {"a call that is not a marker stays its own test",
       "def f(a):\n    if check(a):\n        x = 1\n    if a:\n        use(x)\n", "open"},
      {"one binding arm of two is implied, the other path stays open",
       "def f(a, b):\n    if a:\n        x = 1\n    elif b:\n        pass\n    if a or b:\n        use(x)\n", "open"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    Parsed p(r.src, tree_sitter_python());
    auto all = find_unbound_reads(p.root(), p.source);
    REQUIRE(!all.empty());
    const auto& u = all.back();  // the last read (results are ordered by line)
    std::string got = u.guarded ? "guarded " + u.guard : "open";
    CHECK(got == r.want);
    CHECK(u.guarded == !u.guard.empty());
  }
}

TEST_CASE("unbound: hostile input never crashes", "[unbound]") {
  for (const char* src : {"", "def", "if x:\n  y =\n", "def f(:\n  return x\n", "\xff\xfe\x00garbage", "match:\n case"}) {
    Parsed p(src, tree_sitter_python());
    CHECK_NOTHROW(find_unbound_reads(p.root(), p.source));
  }
  TSNode null_node{};
  CHECK(find_unbound_reads(null_node, "").empty());
}

TEST_CASE("unbound: hostile nesting yields nothing instead of a stack overflow", "[unbound]") {
  const std::string g = "def g(c):\n    if c:\n        w = 1\n    return w\n";
  auto repeat = [](const char* s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  // Each is 50,000+ levels deep: the file is not analysed, `g`'s read included.
  const std::vector<std::string> deep = {
      "def f(c):\n    x = a" + repeat("+a", 200000) + "\n",
      "def f(c):\n    if " + repeat("not ", 100000) + "c:\n        v = 1\n    return v\n",
      "def f(c):\n    " + repeat("(", 100000) + "v" + repeat(")", 100000) + " = 1\n",
      "def f(c):\n    return " + repeat("(", 100000) + "(v := 1)" + repeat(")", 100000) + "\n",
      "def f(c):\n    return " + repeat("[", 100000) + repeat("]", 100000) + "\n",
      "def f(" + repeat("(", 50000) + "c" + repeat(")", 50000) + "):\n    pass\n",
      "x = " + repeat("lambda: ", 50000) + "1\n",
  };
  for (const auto& d : deep) {
    INFO(d.substr(0, 40));
    CHECK(run(d + g).empty());
  }
  // Moderate nesting is analysed as usual.
  const std::string ok = "def f(c):\n    x = " + repeat("(", 100) + "1" + repeat(")", 100) + "\n";
  CHECK(run(ok + g) == std::vector<std::string>{"w 6:12 branch"});
}

TEST_CASE("unbound: definite reads (unbound on every path)", "[unbound]") {
  const std::vector<Case> cases = {
      {"read two lines above the unpacking that binds it",
       "def f(shape):\n    x = g(y)\n    a, y = shape\n    return x, a\n", {"y 2:11 before_binding"}},
      {"method", "class C:\n    def m(self):\n        t = self.h(u)\n        u = 1\n        return t\n",
       {"u 3:20 before_binding"}},
      {"nested function's own local",
       "def outer():\n    def inner():\n        v = w + 1\n        w = 2\n        return v\n    return inner\n",
       {"w 3:13 before_binding"}},
      {"comprehension reads the function's state where it stands",
       "def f(xs):\n    ys = [v * k for v in xs]\n    k = 2\n    return ys\n", {"k 2:15 before_binding"}},
      {"deleted on every path", "def f(a):\n    b = a\n    del b\n    return b\n", {"b 4:12 del"}},
      {"module level, not a builtin", "z = q\nq = 1\n", {"q 1:5 before_binding"}},
      // silent
      {"a builtin shadowed later at module level is the builtin", "print(len)\nlen = 3\n", {}},
      {"class body falls back to the module", "n = 1\nclass C:\n    m = n\n    n = 2\n", {}},
      {"a read in a nested function runs later", "def f():\n    def g():\n        return w\n    w = 3\n    return g\n", {}},
      {"a comprehension's own target does not leak", "def f():\n    a = [i for i in range(3)]\n    return i\n", {}},
      {"global declared", "def f():\n    global G\n    x = G\n    G = 1\n    return x\n", {}},
      {"a loop makes it possibly, not definite",
       "def f(xs):\n    for v in xs:\n        if v:\n            use(prev)\n        prev = v\n", {"prev 4:17 loop"}},
      {"unreachable read", "def f():\n    return 1\n    print(x)\n    x = 2\n", {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(run(c.src) == c.expected);
  }
}

TEST_CASE("unbound: definite field and the binding it comes before", "[unbound]") {
  Parsed p("def f(shape):\n    x = g(y)\n    a, y = shape\n    if x:\n        z = 1\n    return z\n",
           tree_sitter_python());
  auto found = find_unbound_reads(p.root(), p.source);
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "y");
  CHECK(found[0].definite);
  CHECK(found[0].branch_kind == "binding");
  CHECK(found[0].branch_line == 3);
  CHECK(found[0].bound_in == "line 3");
  CHECK_FALSE(found[0].guarded);
  CHECK(found[1].name == "z");
  CHECK_FALSE(found[1].definite);
  CHECK(found[1].cause == "branch");
}
