#include "catch.hpp"
#include "runner/lang/model.hpp"
#include "runner/lang/python/classes.hpp"

#include <algorithm>
#include <string>

using review::lang::analyze_file;
using review::lang::ClassModel;

namespace {
const char* kBase =
    "import torch.nn as nn\n"                       // 1
    "class Base(nn.Module):\n"                      // 2
    "    scale = 1.0\n"                             // 3
    "    def __init__(self, cfg):\n"                // 4
    "        self.cfg = cfg\n"                      // 5
    "    def forward(self, x):\n"                   // 6
    "        if self.use_bias:\n"                   // 7
    "            x = x + self.bias\n"               // 8
    "        return x * self.scale\n"               // 9
    "    def extra(self):\n"                        // 10
    "        self.count += 1\n";                    // 11
const char* kModels =
    "from .base import Base\n"                      // 1
    "class A(Base):\n"                              // 2
    "    def __init__(self, cfg):\n"                // 3
    "        super().__init__(cfg)\n"               // 4
    "        self.use_bias = True\n"                // 5
    "        self.bias: float = 0.5\n"              // 6
    "class B(Base):\n"                              // 7
    "    def forward(self, x):\n"                   // 8
    "        return x\n"                            // 9
    "class C(B):\n"                                 // 10
    "    pass\n";                                   // 11
}  // namespace

TEST_CASE("classes: bases resolve across files; subclasses are transitive") {
  auto b = analyze_file("pkg/base.py", kBase);
  auto m = analyze_file("pkg/models.py", kModels);
  ClassModel cm;
  cm.add(*b);
  cm.add(*m);
  cm.resolve();
  REQUIRE(cm.classes().size() == 4);
  size_t base = cm.find("Base").at(0), a = cm.find("A").at(0), bb = cm.find("B").at(0), c = cm.find("C").at(0);
  CHECK(cm.classes()[base].resolved == std::vector<int>{-1});  // nn.Module is not ours
  CHECK(cm.classes()[a].resolved == std::vector<int>{static_cast<int>(base)});
  CHECK(cm.classes()[c].resolved == std::vector<int>{static_cast<int>(bb)});
  auto subs = cm.subclasses(base);
  std::sort(subs.begin(), subs.end());
  std::vector<size_t> want{a, bb, c};
  std::sort(want.begin(), want.end());
  CHECK(subs == want);
  CHECK(cm.ancestors(c) == std::vector<size_t>{bb, base});
  CHECK(cm.subclasses(c).empty());
}

TEST_CASE("classes: methods, attributes assigned and read through self") {
  auto b = analyze_file("pkg/base.py", kBase);
  auto m = analyze_file("pkg/models.py", kModels);
  ClassModel cm;
  cm.add(*b);
  cm.add(*m);
  cm.resolve();
  const auto& base = cm.classes()[cm.find("Base").at(0)];
  REQUIRE(base.methods.size() == 3);
  CHECK(base.methods[1]->name == "forward");
  CHECK(base.assigns.count("cfg") == 1);
  CHECK(base.assigns.at("cfg")[0].method == "__init__");
  CHECK(base.assigns.count("scale") == 1);          // class body
  CHECK(base.reads.count("use_bias") == 1);
  CHECK(base.reads.at("use_bias")[0].line == 7);
  CHECK(base.reads.count("count") == 1);            // `+=` reads it first
  CHECK(base.assigns.count("use_bias") == 0);
  size_t a = cm.find("A").at(0), bb = cm.find("B").at(0), c = cm.find("C").at(0);
  CHECK(cm.classes()[a].assigns.count("bias") == 1);  // annotated assignment
  CHECK(cm.provides(a, "use_bias"));
  CHECK_FALSE(cm.provides(bb, "use_bias"));
  CHECK_FALSE(cm.provides(c, "use_bias"));
  CHECK(cm.provides(c, "scale"));
  CHECK(cm.provides(c, "forward"));
  CHECK(cm.method(bb, "forward") != nullptr);
  CHECK(cm.method(c, "forward") == nullptr);
}

TEST_CASE("classes: ambiguous and cyclic bases stay unresolved or bounded") {
  auto x = analyze_file("x.py", "class K:\n    pass\n");
  auto y = analyze_file("y.py", "class K:\n    pass\n");
  auto z = analyze_file("z.py", "class U(K):\n    pass\nclass P(Q):\n    pass\nclass Q(P):\n    pass\n");
  ClassModel cm;
  cm.add(*x);
  cm.add(*y);
  cm.add(*z);
  cm.resolve();
  size_t u = cm.find("U").at(0), p = cm.find("P").at(0);
  CHECK(cm.classes()[u].resolved == std::vector<int>{-1});  // two classes named K elsewhere
  CHECK(cm.subclasses(p).size() == 1);                       // Q, once
  CHECK(cm.ancestors(p).size() == 1);
}

TEST_CASE("classes: which class defines a method, its overrides and who inherits it unmodified") {
  // Base.forward is overridden by B; C derives from B, so it runs B.forward, not Base.forward.
  // A inherits Base.forward unmodified. Base.extra is inherited by all three.
  auto b = analyze_file("pkg/base.py", kBase);
  auto m = analyze_file("pkg/models.py", kModels);
  ClassModel cm;
  cm.add(*b);
  cm.add(*m);
  cm.resolve();
  size_t base = cm.find("Base").at(0), a = cm.find("A").at(0), bb = cm.find("B").at(0), c = cm.find("C").at(0);
  CHECK(cm.defining_class(c, "forward") == static_cast<int>(bb));
  CHECK(cm.defining_class(a, "forward") == static_cast<int>(base));
  CHECK(cm.defining_class(a, "__init__") == static_cast<int>(a));
  CHECK(cm.defining_class(a, "nothing") == -1);
  CHECK(cm.overridden_by(base, "forward") == std::vector<size_t>{bb});
  CHECK(cm.inherited_by(base, "forward") == std::vector<size_t>{a});
  CHECK(cm.inherited_by(bb, "forward") == std::vector<size_t>{c});
  auto all = cm.inherited_by(base, "extra");
  std::sort(all.begin(), all.end());
  std::vector<size_t> want{a, bb, c};
  std::sort(want.begin(), want.end());
  CHECK(all == want);
  CHECK(cm.overridden_by(base, "extra").empty());
  // A method the class does not define itself has no overrides or heirs of its own.
  CHECK(cm.inherited_by(c, "forward").empty());
  CHECK(cm.overridden_by(a, "forward").empty());
}

TEST_CASE("classes: multiple bases are searched left to right, nearest first") {
  auto x = analyze_file("m.py",
                        "class L:\n    def f(self):\n        return 1\n"
                        "class R:\n    def f(self):\n        return 2\n    def g(self):\n        return 3\n"
                        "class D(L, R):\n    pass\n"
                        "class E(D):\n    def g(self):\n        return 4\n");
  ClassModel cm;
  cm.add(*x);
  cm.resolve();
  size_t l = cm.find("L").at(0), r = cm.find("R").at(0), d = cm.find("D").at(0), e = cm.find("E").at(0);
  CHECK(cm.defining_class(d, "f") == static_cast<int>(l));
  CHECK(cm.defining_class(d, "g") == static_cast<int>(r));
  CHECK(cm.inherited_by(l, "f") == std::vector<size_t>{d, e});
  CHECK(cm.inherited_by(r, "f").empty());   // L.f wins for D and E
  CHECK(cm.inherited_by(r, "g") == std::vector<size_t>{d});
  CHECK(cm.overridden_by(r, "g") == std::vector<size_t>{e});
}
