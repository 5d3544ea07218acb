#include "catch.hpp"
#include "runner/lang/model.hpp"
#include "runner/lang/python/value_kind.hpp"

#include <string>

using review::lang::analyze_file;
using review::lang::FunctionIndex;
using review::lang::value_kind;

namespace {
// The kind of the value assigned to `target` in `src`.
std::string kind_of(const std::string& src, const std::string& target, const FunctionIndex* repo = nullptr) {
  static std::shared_ptr<const review::lang::SourceModel> keep;
  keep = analyze_file("m.py", src);
  for (const auto& a : keep->assignments)
    if (a.target == target) return value_kind(*keep, a.function, a.line, a.value, repo).kind;
  return "no such assignment";
}
}  // namespace

TEST_CASE("value kind: copies from the expression") {
  CHECK(kind_of("def f(w):\n    s = w.clone()\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = torch.empty_like(w)\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = torch.cat([w, w])\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = w * 2\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = w.to(torch.float8_e4m3fn)\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = copy.deepcopy(w)\n", "s") == "copy");
}

TEST_CASE("value kind: views from the expression") {
  CHECK(kind_of("def f(w):\n    s = w.view(-1, 8)\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w.reshape(2, -1)\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w.data\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w[:, :64]\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w.t()\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w.permute(1, 0, 2)\n", "s") == "view");
  CHECK(kind_of("class M:\n    def g(self):\n        self.w2 = self.w.T\n", "self.w2") == "view");
  CHECK(kind_of("def f(w):\n    s = torch.nn.Parameter(w.view(4, -1), requires_grad=False)\n", "s") == "view");
  CHECK(kind_of("def f(w):\n    s = w.copy_(w * 2)\n", "s") == "view");
}

TEST_CASE("value kind: contiguous copies only a strided input") {
  CHECK(kind_of("def f(w):\n    s = w.t().contiguous()\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    t = w.permute(1, 0)\n    s = t.contiguous()\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = w.contiguous()\n", "s") == "unknown");
  CHECK(kind_of("def f(w):\n    s = w.view(-1).contiguous()\n", "s") == "unknown");
}

TEST_CASE("value kind: a view of a new tensor is new storage; names are followed") {
  CHECK(kind_of("def f(w):\n    n = torch.zeros(4)\n    s = n.view(2, 2)\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    x = w.clone()\n    x = x.view(-1)\n    s = x\n", "s") == "copy");
  CHECK(kind_of("def f(w):\n    s = w.clone() if w.is_cuda else w.view(-1)\n", "s") == "unknown");
  CHECK(kind_of("def f(w, idx):\n    s = w[idx]\n", "s") == "unknown");
  CHECK(kind_of("def f(w):\n    s = w.to(w.device)\n", "s") == "unknown");
  CHECK(kind_of("def f(w):\n    s = 3\n", "s") == "unknown");
}

TEST_CASE("value kind: one call deep into a function of the repository") {
  const std::string lib =
      "def shuffle_weight(x, layout=(16, 16)):\n"
      "    x_ = x.view(-1, layout[0], layout[1])\n"
      "    x_ = x_.permute(0, 2, 1)\n"
      "    x_ = x_.contiguous()\n"
      "    x_ = x_.view(*x.shape)\n"
      "    return x_\n"
      "def as_rows(x):\n"
      "    return x.view(x.shape[0], -1)\n"
      "def either(x, c):\n"
      "    if c:\n"
      "        return x.clone()\n"
      "    return x\n"
      "def deeper(x):\n"
      "    return shuffle_weight(x)\n";
  auto lm = analyze_file("ops/lib.py", lib);
  FunctionIndex repo;
  repo.add(*lm);
  CHECK(kind_of("class L:\n    def load(self):\n        self.w_s = shuffle_weight(self.w)\n", "self.w_s", &repo) == "copy");
  CHECK(kind_of("def f(w):\n    s = ops.as_rows(w)\n", "s", &repo) == "view");
  CHECK(kind_of("def f(w):\n    s = either(w, True)\n", "s", &repo) == "unknown");
  // One level only: the callee's own call is not followed.
  CHECK(kind_of("def f(w):\n    s = deeper(w)\n", "s", &repo) == "unknown");
  CHECK(kind_of("def f(w):\n    s = unknown_helper(w)\n", "s", &repo) == "unknown");
  // Without an index, the file's own functions are used.
  CHECK(kind_of("def mk(x):\n    return torch.empty_like(x)\ndef f(w):\n    s = mk(w)\n", "s") == "copy");
  auto m = analyze_file("m.py", "def f(w):\n    s = w.t().contiguous()\n");
  auto k = value_kind(*m, "f", 2, "w.t().contiguous()");
  CHECK(k.why == "`.contiguous()` of a strided view copies");
}

TEST_CASE("value kind: hostile text never throws") {
  auto m = analyze_file("m.py", "x = 1\n");
  for (const char* t : {"", ")", "(((", "]]]", "a[", "f(", "'unterminated", "a if", "x.", "...", "(a,)"})
    CHECK_NOTHROW(value_kind(*m, "", 1, t));
  CHECK(value_kind(*m, "", 1, "").kind == "unknown");
}
