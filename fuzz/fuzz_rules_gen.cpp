// Structure-aware rule fuzzing: the fuzz bytes drive a generator of well-typed rulesets
// (fuzz/rules_gen.hpp), so nearly every input passes the parser and the checker; each ruleset
// that loads is planned and evaluated over one of a few fixed changes (Python, C++, CMake,
// Markdown; head, base and repository scopes; pull-request metadata), through the runner's own
// fact sources. At exit it prints how many generated rulesets loaded
// ("fuzz_rules_gen: accepted N of M generated rulesets"); FUZZ_GEN_SHOW=1 prints every rejected
// ruleset with its diagnostics (for tuning the generator).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "dsl/diagnostic.hpp"
#include "dsl/ruleset.hpp"
#include "fuzz/rules_gen.hpp"
#include "runner/change/memory.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/facts/schema.hpp"

namespace {

const char* kDiff = R"(--- /dev/null
+++ b/CMakeLists.txt
@@ -0,0 +1,3 @@
+cmake_minimum_required(VERSION 3.21)
+project(x LANGUAGES CXX HIP)
+add_library(ops src/op.cpp)
--- a/README.md
+++ b/README.md
@@ -1,2 +1,3 @@
 # Title
+## Usage
 text
--- a/pkg/k.py
+++ b/pkg/k.py
@@ -1,6 +1,15 @@
 import torch
-def pick(dtype):
+def pick(dtype, out_dtype=None):  # TODO: drop out_dtype
     if dtype == 'fp8':
         v = 1
-    return v
+    elif dtype in ('bf16', 'fp16'):
+        v = 2
+    print(v, sep='')
+    w_shuffled = shuffle(self.w)
+    for i in range(3):
+        x = torch.empty(i, dtype="fp8")
+    return v + x
 
+class Op:
+    def forward(self, a, b=2, *args, **kw):
+        return pick(a, out_dtype=b)
--- a/src/op.cpp
+++ b/src/op.cpp
@@ -1,3 +1,12 @@
 #include <hip/hip_runtime.h>
-int f(int k) { return k; }
+namespace ops {
+int f(int k, float* p) {
+  switch (k) {
+    case 1: return 1;  // TODO
+    default: break;
+  }
+  if (k == 2) { p[0] = 1.0f; } else if (k == 3) { return 3; }
+  return k;
+}
+}  // namespace ops
 // end
)";

struct Pool {
  std::vector<std::unique_ptr<review::facts::ChangeFacts>> facts;
  Pool() {
    std::map<std::string, std::string> base = {
        {"pkg/k.py", "import torch\ndef pick(dtype):\n    if dtype == 'fp8':\n        v = 1\n    return v\n\n"},
        {"src/op.cpp", "#include <hip/hip_runtime.h>\nint f(int k) { return k; }\n// end\n"},
        {"README.md", "# Title\ntext\n"},
        {"tests/test_k.py", "def test_pick():\n    assert pick('fp8') == 1\n"}};
    for (int variant = 0; variant < 2; ++variant) {
      auto change = std::make_shared<review::change::Change>(review::change::make_patch_change(kDiff, base, "gen.diff"));
      change->pr.number = 12;
      change->pr.title = variant ? "" : "perf: faster fp8 pick (WIP)";
      change->pr.body = variant ? "Generated with X\n<!-- hidden -->" : "Adds bf16.\n\ncc @someone";
      change->pr.labels = variant ? std::vector<std::string>{} : std::vector<std::string>{"perf", "risk:high"};
      change->pr.commits = 3;
      review::facts::ChangeFacts::Options o;
      o.jobs = 1;
      facts.push_back(std::make_unique<review::facts::ChangeFacts>(change, o));
    }
  }
};

size_t generated = 0, accepted = 0;

struct Report {
  ~Report() {
    if (generated)
      std::fprintf(stderr, "fuzz_rules_gen: accepted %zu of %zu generated rulesets (%.1f%%)\n", accepted, generated,
                   100.0 * static_cast<double>(accepted) / static_cast<double>(generated));
  }
} report;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Pool pool;
  static const bool show = std::getenv("FUZZ_GEN_SHOW") != nullptr;
  FuzzedDataProvider in(data, size);
  const size_t variant = in.ConsumeBool() ? 1 : 0;
  review::fuzz::RulesetGenerator gen(in, review::facts::fact_schema());
  std::string text = gen.ruleset();
  review::dsl::Resolver none = [](const std::string&, const std::string&)
      -> std::optional<std::pair<std::string, std::string>> { return std::nullopt; };
  auto r = review::dsl::load_ruleset("gen.rules", text, review::facts::fact_schema(), none, {});
  ++generated;
  if (!r.ok()) {
    if (show) {
      std::cerr << "---- rejected:\n" << text;
      for (const auto& d : r.diagnostics) std::cerr << review::dsl::format_diagnostic(d);
    }
    return 0;
  }
  ++accepted;
  review::dsl::EvalOptions eo;
  eo.rule_budget = std::chrono::milliseconds(50);  // a join over the repository scope must not dominate
  auto res = review::dsl::evaluate(*r.program, *pool.facts[variant], eo);
  for (const auto& p : r.program->rules()) (void)r.program->plan(p.id);
  (void)res;
  return 0;
}
