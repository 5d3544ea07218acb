// Source `call_targets` (runner/facts/call_targets.cpp): call resolution through scopes, imports,
// modules, `self`/`super()` and constructors, the binding of arguments, and hostile input (star
// imports, aliases, cycles, missing modules) that must leave a call unresolved, never throw.
#include <map>
#include <string>
#include <vector>

#include "catch.hpp"
#include "facts/change_builder.hpp"
#include "runner/facts/change_facts.hpp"

using review::dsl::FactPtr;
using review::dsl::Scope;
using review::facts::testing::ChangeBuilder;

namespace {

const Scope kChanged{Scope::Kind::Changed, {}};
const Scope kRepo{Scope::Kind::Repo, {}};

// The fact of the call on `line` of `file` whose callee is `callee`.
FactPtr at(const std::vector<FactPtr>& fs, const std::string& file, int line, const std::string& callee) {
  for (const auto& f : fs)
    if (f->file == file && f->line == line && f->get("callee").as_string() == callee) return f;
  FAIL("no call " << callee << " at " << file << ":" << line);
  return nullptr;
}

std::string target(const FactPtr& f) {
  return f->get("target_file").as_string() + ":" + f->get("target").as_string();
}

}  // namespace

TEST_CASE("call_targets: scope, imports, modules, self, super and constructors", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("pkg/__init__.py", "from .ops import plan as make_plan\n");
  b.unchanged("pkg/ops.py",
              "def plan(meta, block, *, eager=False):\n    return meta\n\n"
              "class Base:\n    def __init__(self, n, scale=1.0):\n        self.n = n\n"
              "    def run(self, x, y=0):\n        return x\n");
  b.unchanged("pkg/sub/__init__.py", "");
  b.unchanged("pkg/sub/deep.py", "from ..ops import Base\n\nclass Mid(Base):\n    pass\n");
  b.added("app/main.py",
          "import pkg.ops\n"                                        // 1
          "from pkg import make_plan\n"                             // 2
          "from pkg.sub.deep import Mid\n"                          // 3
          "from pkg.ops import Base as B\n"                         // 4
          "def local(a, b=2, **kw):\n    return a\n"                // 5-6
          "class Leaf(Mid):\n"                                      // 7
          "    def run(self, x, y=0, z=1):\n"                       // 8
          "        self.helper(x)\n"                                // 9
          "        return super().run(x, y=y)\n"                    // 10
          "    def helper(self, v):\n        return v\n"            // 11-12
          "def main(m):\n"                                          // 13
          "    pkg.ops.plan(m, 16, eager=True)\n"                   // 14
          "    make_plan(m, 16, lazy=True)\n"                       // 15
          "    Mid(4, scale=2.0)\n"                                 // 16
          "    B(4, 5, 6)\n"                                        // 17
          "    local(1, c=3)\n"                                     // 18
          "    Leaf(1)\n"                                           // 19
          "    make_plan(m)\n"                                      // 20
          "    def inner(q):\n        return q\n"                   // 21-22
          "    inner(1, 2)\n");                                     // 23
  auto facts = b.facts();
  const auto& fs = facts->query("call_targets", kChanged);

  auto f = at(fs, "app/main.py", 14, "pkg.ops.plan");
  CHECK(target(f) == "pkg/ops.py:plan");
  CHECK(f->get("via").as_string() == "module");
  CHECK(f->get("kind").as_string() == "function");
  CHECK(f->get("binding_error").as_string() == "");
  CHECK(f->get("added").as_bool());

  // re-exported under an alias through the package's __init__.py
  f = at(fs, "app/main.py", 15, "make_plan");
  CHECK(target(f) == "pkg/ops.py:plan");
  CHECK(f->get("via").as_string() == "import");
  CHECK(f->get("binding_error").as_string() == "plan() got an unexpected keyword argument 'lazy'");
  CHECK(f->get("unknown_keywords").to_text() == "lazy");

  // constructor through a subclass defined in another package, its base found by a relative import
  f = at(fs, "app/main.py", 16, "Mid");
  CHECK(target(f) == "pkg/ops.py:Base.__init__");
  CHECK(f->get("kind").as_string() == "constructor");
  CHECK(f->get("target_params").to_text() == "n, scale=1.0");
  CHECK(f->get("binding_error").as_string() == "");

  f = at(fs, "app/main.py", 17, "B");
  CHECK(target(f) == "pkg/ops.py:Base.__init__");
  CHECK(f->get("binding_error").as_string() == "Base() takes 2 positional arguments but 3 were given");

  // **kw takes every keyword
  f = at(fs, "app/main.py", 18, "local");
  CHECK(target(f) == "app/main.py:local");
  CHECK(f->get("via").as_string() == "scope");
  CHECK(f->get("target_kwargs").as_bool());
  CHECK(f->get("binding_error").as_string() == "");

  // the constructor is inherited from Base through Mid
  f = at(fs, "app/main.py", 19, "Leaf");
  CHECK(target(f) == "pkg/ops.py:Base.__init__");

  f = at(fs, "app/main.py", 20, "make_plan");
  CHECK(f->get("binding_error").as_string() == "plan() missing a required argument: 'block'");

  // a def nested in the enclosing function
  f = at(fs, "app/main.py", 23, "inner");
  CHECK(target(f) == "app/main.py:main.inner");
  CHECK(f->get("binding_error").as_string() == "inner() takes 1 positional argument but 2 were given");

  // self. and super(). through the class and its bases
  f = at(fs, "app/main.py", 9, "self.helper");
  CHECK(target(f) == "app/main.py:Leaf.helper");
  CHECK(f->get("via").as_string() == "self");
  CHECK(f->get("target_params").to_text() == "v");
  f = at(fs, "app/main.py", 10, "super().run");
  CHECK(target(f) == "pkg/ops.py:Base.run");
  CHECK(f->get("via").as_string() == "super");
  CHECK(f->get("binding_error").as_string() == "");
}

TEST_CASE("call_targets: what cannot be told stays unresolved, with the reason", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("lib/a.py", "from lib.b import *\nfrom .b import g\ndef own(x):\n    return x\n");
  b.unchanged("lib/b.py", "from lib.a import *\nfrom .a import g\n");  // a cycle of re-exports
  b.unchanged("lib/__init__.py", "");
  b.unchanged("lib/two.py", "try:\n    from fast import k\nexcept ImportError:\n    def k(x):\n        return x\n");
  b.unchanged("lib/lazy.py", "def __getattr__(name):\n    return name\n");
  b.unchanged("lib/dc.py", "import dataclasses\n@dataclasses.dataclass\nclass D:\n    x: int = 0\n    def __init__(self):\n        pass\n");
  b.added("m.py",
          "import torch\n"                                   // 1
          "from lib.a import g\n"                            // 2
          "from lib.missing import h\n"                      // 3
          "from lib.two import k\n"                          // 4
          "from lib.lazy import anything\n"                  // 5
          "from lib.dc import D\n"                           // 6
          "from lib.a import *\n"                            // 7
          "import torch.nn as nn\n"                          // 8
          "class M(nn.Module):\n"                            // 9
          "    def forward(self, x):\n"                      // 10
          "        return self.act(x, bad=1)\n"              // 11
          "def f(fn, items):\n"                              // 12
          "    torch.empty(3, device='x')\n"                 // 13
          "    g(1)\n"                                       // 14
          "    h(1)\n"                                       // 15
          "    k(1, 2)\n"                                    // 16
          "    anything(1)\n"                                // 17
          "    D(1)\n"                                       // 18
          "    fn(1)\n"                                      // 19
          "    for own in items:\n        own(1, 2)\n"      // 20-21
          "    print(1, sep='')\n"                           // 22
          "    items[0](1)\n"                                // 23
          "def g2():\n    own(1, 2, 3)\n");                  // 24-25
  auto facts = b.facts();
  const std::vector<FactPtr>* fs = nullptr;
  REQUIRE_NOTHROW(fs = &facts->query("call_targets", kChanged));
  auto unresolved = [&](int line, const std::string& callee) {
    auto f = at(*fs, "m.py", line, callee);
    INFO(callee << ": " << f->get("unresolved").as_string());
    CHECK(f->get("target").as_string() == "");
    CHECK(f->get("binding_error").as_string() == "");
    CHECK(!f->get("unresolved").as_string().empty());
    return f->get("unresolved").as_string();
  };
  CHECK(unresolved(13, "torch.empty").find("torch") != std::string::npos);
  CHECK(at(*fs, "m.py", 13, "torch.empty")->get("external").as_bool());
  CHECK(!at(*fs, "m.py", 15, "h")->get("external").as_bool());  // `lib` is a package of the repository
  CHECK(unresolved(14, "g") == "import cycle");
  CHECK(unresolved(15, "h").find("lib.missing") != std::string::npos);
  CHECK(unresolved(16, "k").find("more than once") != std::string::npos);
  CHECK(unresolved(17, "anything").find("__getattr__") != std::string::npos);
  CHECK(unresolved(18, "D").find("decorated") != std::string::npos);
  CHECK(unresolved(19, "fn").find("parameter") != std::string::npos);
  CHECK(unresolved(21, "own").find("rebound") != std::string::npos);
  // not bound here nor by the star imports (whose modules re-export each other: a cycle, cut)
  CHECK(unresolved(22, "print").find("not defined") != std::string::npos);
  unresolved(23, "items[0]");
  // the method may come from nn.Module, which is not a class of the repository
  CHECK(unresolved(11, "self.act").find("nn.Module") != std::string::npos);
  // the star import of lib.a brings `own`; the loop that rebinds it is in another function
  auto f = at(*fs, "m.py", 25, "own");
  CHECK(target(f) == "lib/a.py:own");
  CHECK(f->get("binding_error").as_string() == "own() takes 1 positional argument but 3 were given");

  // the whole repository, base side included, resolves without throwing
  REQUIRE_NOTHROW(facts->query("call_targets", kRepo));
  REQUIRE_NOTHROW(facts->query("call_targets", Scope{Scope::Kind::Base, {}}));
}

TEST_CASE("call_targets: hostile text never throws", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("x/__init__.py", "from . import *\nfrom .. import *\nfrom ... import nothing\n");
  b.added("x/y.py",
          "from . import *\nfrom .y import *\nimport x.y.z.w as q\nclass C(C):\n    def m(self):\n        self.m(1)\n"
          "class E(undefined.Base, metaclass=Meta):\n    def m(self):\n        return super().m(k=1)\n"
          "q.f(1)\nC()\nE()\ny(\n");
  auto facts = b.facts();
  REQUIRE_NOTHROW(facts->query("call_targets", kRepo));
  const auto& fs = facts->query("call_targets", kChanged);
  for (const auto& f : fs) {
    INFO(f->get("callee").as_string() << " " << f->get("unresolved").as_string());
    if (f->get("callee").as_string() == "super().m") CHECK(f->get("target").as_string() == "");
    if (f->get("callee").as_string() == "q.f") CHECK(f->get("target").as_string() == "");
  }
}

TEST_CASE("call_targets: a read by the callee's name gives the whole build's facts of those files", "[facts][call_targets][bykey]") {
  ChangeBuilder b;
  b.unchanged("pkg/__init__.py", "");
  b.unchanged("pkg/ops.py", "def plan(a):\n    return a\n");
  b.unchanged("pkg/u1.py", "from pkg.ops import plan\nplan(1, 2)\n");
  for (int i = 0; i < 12; ++i) b.unchanged("pkg/f" + std::to_string(i) + ".py", "def other():\n    return 3\nother()\n");
  b.added("pkg/x.py", "X = 1\n");
  auto lazy = b.facts();
  auto whole = b.facts();
  const auto* got = lazy->query_containing("call_targets", kRepo, {"plan"});
  REQUIRE(got != nullptr);
  std::vector<std::string> lazy_rows, whole_rows;
  for (const auto& f : *got) lazy_rows.push_back(f->file + ":" + std::to_string(f->line) + " " + f->get("binding_error").as_string());
  for (const auto& f : whole->query("call_targets", kRepo))
    if (f->file == "pkg/u1.py" || f->file == "pkg/ops.py")
      whole_rows.push_back(f->file + ":" + std::to_string(f->line) + " " + f->get("binding_error").as_string());
  CHECK(lazy_rows == whole_rows);
  CHECK(lazy_rows == std::vector<std::string>{"pkg/u1.py:2 plan() takes 1 positional argument but 2 were given"});
}

TEST_CASE("call_targets: self.m(...) that a subclass overrides is not bound to the base's def", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("t/sub.py", "from t.base import Base\n\nclass Mid(Base):\n    pass\n\nclass Leaf(Mid):\n    def model(self, n):\n        return n\n");
  b.unchanged("t/__init__.py", "");
  b.added("t/base.py",
          "class Base:\n"                        // 1
          "    def model(self):\n"               // 2
          "        return 0\n"                   // 3
          "    def run(self):\n"                 // 4
          "        return self.model(3)\n"       // 5
          "class Other:\n"                       // 6
          "    def model(self):\n"               // 7
          "        return 0\n"                   // 8
          "    def run(self):\n"                 // 9
          "        return self.model(3)\n");     // 10
  auto facts = b.facts();
  const auto& fs = facts->query("call_targets", kChanged);
  auto f = at(fs, "t/base.py", 5, "self.model");
  CHECK(f->get("target").as_string() == "");
  CHECK(f->get("binding_error").as_string() == "");
  CHECK(f->get("unresolved").as_string().find("Leaf") != std::string::npos);
  f = at(fs, "t/base.py", 10, "self.model");
  CHECK(target(f) == "t/base.py:Other.model");
  CHECK(f->get("binding_error").as_string() == "model() takes 0 positional arguments but 1 was given");
}

TEST_CASE("call_targets: modules read only to resolve calls are summarised, not kept, and resolve the same", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("pkg/__init__.py", "from .ops import plan as make_plan\nfrom .star import *\n");
  b.unchanged("pkg/star.py", "def starred(k):\n    return k\n");
  b.unchanged("pkg/ops.py",
              "import abc\n"                                   // 1
              "def plan(meta, block, *, eager=False):\n"       // 2
              "    return meta\n"                              // 3
              "@register(\"x\")\n"                             // 4
              "class Deco:\n"                                  // 5
              "    def __init__(self, a):\n"                   // 6
              "        pass\n"                                 // 7
              "class Base:\n"                                  // 8
              "    @abc.abstractmethod\n"                      // 9
              "    def run(self, x):\n"                        // 10
              "        return x\n"                             // 11
              "    def stub(self, y):\n"                       // 12
              "        \"\"\"Doc.\"\"\"\n"                     // 13
              "        raise NotImplementedError\n"            // 14
              "    def real(self, z):\n"                       // 15
              "        return z\n");                           // 16
  for (int i = 0; i < 3; ++i) b.unchanged("other/f" + std::to_string(i) + ".py", "def plan():\n    return 0\n");
  b.added("app/main.py",
          "from pkg import make_plan, starred\n"               // 1
          "from pkg.ops import Deco, Base\n"                   // 2
          "def main(m):\n"                                     // 3
          "    make_plan(m, 1, eager=True)\n"                  // 4
          "    starred(1, 2)\n"                                // 5
          "    Deco(1)\n"                                      // 6
          "class Leaf(Base):\n"                                // 7
          "    def go(self):\n"                                // 8
          "        self.run(1)\n"                              // 9
          "        self.stub(2)\n"                             // 10
          "        self.real(3)\n"                             // 11
          "def inner_import():\n"                              // 12
          "    from pkg.ops import plan\n"                     // 13
          "    return plan(1)\n"                               // 14
          "def loop(xs):\n"                                    // 15
          "    for make_plan in xs:\n"                         // 16
          "        make_plan(1)\n");                           // 17
  auto facts = b.facts();
  std::map<std::string, int> parses;
  facts->set_parse_hook([&](const std::string& p, bool base) { ++parses[(base ? "b:" : "h:") + p]; });
  const auto& fs = facts->query("call_targets", kChanged);

  auto f = at(fs, "app/main.py", 4, "make_plan");  // re-exported under an alias
  CHECK(target(f) == "pkg/ops.py:plan");
  CHECK(f->get("target_line").as_int() == 2);
  CHECK(f->get("target_params").to_text() == "meta, block, eager=False");
  CHECK(f->get("binding_error").as_string() == "");
  f = at(fs, "app/main.py", 5, "starred");  // through the package's star import
  CHECK(target(f) == "pkg/star.py:starred");
  CHECK(f->get("binding_error").as_string() == "starred() takes 1 positional argument but 2 were given");
  f = at(fs, "app/main.py", 6, "Deco");  // the decorator line above the class, from the summary
  CHECK(target(f) == ":");
  CHECK(f->get("unresolved").as_string() == "class `Deco` is decorated (`@register(\"x\")`)");
  f = at(fs, "app/main.py", 9, "self.run");
  CHECK(target(f) == "pkg/ops.py:Base.run");
  CHECK(f->get("target_abstract").as_bool());  // @abc.abstractmethod
  CHECK(f->get("target_decorators").to_text() == "abc.abstractmethod");
  f = at(fs, "app/main.py", 10, "self.stub");
  CHECK(target(f) == "pkg/ops.py:Base.stub");
  CHECK(f->get("target_abstract").as_bool());  // a docstring, then raise NotImplementedError
  f = at(fs, "app/main.py", 11, "self.real");
  CHECK(target(f) == "pkg/ops.py:Base.real");
  CHECK_FALSE(f->get("target_abstract").as_bool());
  f = at(fs, "app/main.py", 14, "plan");  // an import inside the enclosing function
  CHECK(target(f) == "pkg/ops.py:plan");
  CHECK(f->get("binding_error").as_string() == "plan() missing a required argument: 'block'");
  f = at(fs, "app/main.py", 17, "make_plan");  // a loop target rebinds the name
  CHECK(target(f) == ":");
  CHECK(f->get("unresolved").as_string() == "`make_plan` may be rebound in `loop`");

  // the modules followed were parsed once each and are not in the model cache: only the
  // changed file is (an added file has no base side)
  CHECK(parses["h:pkg/ops.py"] == 1);
  CHECK(parses["h:pkg/__init__.py"] == 1);
  CHECK(parses["h:pkg/star.py"] == 1);
  CHECK(facts->cached_models() == 1);
  // a later reader of a module parses it again, and gets it cached; no note twice
  CHECK(facts->query("functions", Scope{Scope::Kind::Files, {"pkg/ops.py"}}).size() == 5);
  CHECK(parses["h:pkg/ops.py"] == 2);
  CHECK(facts->cached_models() == 2);

  // a read by the callee's name: the files it parsed are not cached either, and it gives the
  // whole build's facts of those files
  auto lazy = b.facts();
  const auto* got = lazy->query_containing("call_targets", kRepo, {"starred"});
  REQUIRE(got != nullptr);
  CHECK(lazy->cached_models() == 0);
  auto whole = b.facts();
  std::vector<std::string> lazy_rows, whole_rows;
  const std::vector<const char*> fields = {"target", "target_file", "binding_error", "unresolved", "target_abstract"};
  auto row = [&](const FactPtr& x) {
    std::string r = x->file + ":" + std::to_string(x->line) + " " + x->get("callee").as_string();
    for (const char* k : fields) r += " " + x->get(k).to_text();
    return r;
  };
  for (const auto& x : *got) lazy_rows.push_back(row(x));
  for (const auto& x : whole->query("call_targets", kRepo))
    if (x->file == "app/main.py" || x->file == "pkg/star.py") whole_rows.push_back(row(x));
  CHECK(lazy_rows == whole_rows);
  CHECK(lazy_rows.size() == 8);
  CHECK(whole->cached_models() > 5);
}

TEST_CASE("call_targets: a module too large to parse, followed by the resolver then read whole, is noted once", "[facts][call_targets]") {
  ChangeBuilder b;
  std::string big = "def plan(a):\n    return a\n";
  while (big.size() < 4096) big += "# padding padding padding padding padding padding\n";
  b.unchanged("pkg/__init__.py", "");
  b.unchanged("pkg/big.py", big);
  b.added("app.py", "from pkg.big import plan\nplan(1, 2)\n");
  review::facts::ChangeFacts::Options o;
  o.max_file_bytes = 1024;
  auto facts = b.facts(o);
  const auto& fs = facts->query("call_targets", kChanged);
  auto f = at(fs, "app.py", 2, "plan");
  CHECK(f->get("target").as_string() == "");
  CHECK(f->get("unresolved").as_string() == "`pkg/big.py` could not be read");
  CHECK(facts->query("functions", Scope{Scope::Kind::Files, {"pkg/big.py"}}).empty());
  int noted = 0, missing = 0;
  for (const auto& n : facts->notes()) noted += n.find("pkg/big.py") != std::string::npos;
  for (const auto& n : facts->incomplete()) missing += n.find("pkg/big.py") != std::string::npos;
  CHECK(noted == 1);
  CHECK(missing == 1);
}

TEST_CASE("call_targets: a module under a namespace package (PEP 420) resolves by its full path", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("pkg/__init__.py", "");
  // pkg/ops/ and pkg/ops/routing/ have no __init__.py: implicit namespace packages
  b.unchanged("pkg/ops/routing/bits.py", "class Packed:\n    def __init__(self, data, n):\n        self.data = data\n");
  b.unchanged("pkg/ops/gemm.py", "def gemm(x, w):\n    return x\n");
  // a folder of scripts whose first folder is no package: not taken for an import of `tools.x`
  b.unchanged("tools/x.py", "def run():\n    return 1\n");
  b.added("app.py",
          "from pkg.ops.routing.bits import Packed\n"   // 1
          "import pkg.ops.gemm as g\n"                  // 2
          "from tools.x import run\n"                   // 3
          "def f(t):\n"                                 // 4
          "    Packed(t)\n"                             // 5
          "    g.gemm(t, t)\n"                          // 6
          "    run()\n");                               // 7
  auto facts = b.facts();
  const auto& fs = facts->query("call_targets", kChanged);
  auto packed = at(fs, "app.py", 5, "Packed");
  CHECK(target(packed) == "pkg/ops/routing/bits.py:Packed.__init__");
  CHECK(packed->get("kind").as_string() == "constructor");
  CHECK(packed->get("binding_error").as_string() == "Packed() missing a required argument: 'n'");
  CHECK(target(at(fs, "app.py", 6, "g.gemm")) == "pkg/ops/gemm.py:gemm");
  auto script = at(fs, "app.py", 7, "run");
  CHECK(script->get("target").as_string() == "");
  CHECK(script->get("unresolved").as_string().find("tools.x") != std::string::npos);
}

TEST_CASE("call_targets: a released head scope frees the shared state; a later read of one file resolves the same", "[facts][call_targets]") {
  ChangeBuilder b;
  b.unchanged("pkg/__init__.py", "");
  b.unchanged("pkg/ops.py", "def plan(meta, block):\n    return meta\n");
  b.added("app.py", "from pkg.ops import plan\ndef f(m):\n    plan(m)\n    plan(m, 1, 2)\n");
  auto facts = b.facts();
  const Scope one{Scope::Kind::Files, {"app.py"}};
  const auto& whole = facts->query("call_targets", kChanged);
  auto held = at(whole, "app.py", 4, "plan");  // a fact kept past the release keeps its state
  const std::string err = "plan() takes 2 positional arguments but 3 were given";
  CHECK(held->get("binding_error").as_string() == err);
  facts->release_scope("call_targets", kChanged);
  CHECK(held->get("binding_error").as_string() == err);
  CHECK(held->get("target").as_string() == "plan");
  const auto& again = facts->query("call_targets", one);
  CHECK(target(at(again, "app.py", 3, "plan")) == "pkg/ops.py:plan");
  CHECK(at(again, "app.py", 3, "plan")->get("binding_error").as_string() == "plan() missing a required argument: 'block'");
  CHECK(at(again, "app.py", 4, "plan")->get("binding_error").as_string() == err);
}
