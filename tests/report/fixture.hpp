// The one fixed list of findings every golden file of tests/fixtures/report/ is rendered from,
// plus helpers: an in-memory head tree, rendering a format to a string, golden comparison.
#pragma once

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/report/reporter.hpp"

namespace review::report::testing {

using review::dsl::Evidence;
using review::dsl::Finding;
using review::dsl::RuleMeta;
using review::dsl::Severity;

/// Head texts of the synthetic PR.
inline const std::map<std::string, std::string>& head_tree() {
  static const std::map<std::string, std::string> files = {
      {"atom/model.py",
       "import torch\n"
       "\n"
       "\n"
       "def forward(x, mode):\n"
       "    if mode == \"bf16\":\n"
       "        scale = 1.0\n"
       "    elif mode == \"fp16\":\n"
       "        scale = 0.5\n"
       "    return x * scale\n"},
      {"atom/kernels/gemm.cpp",
       "#include <hip/hip_runtime.h>\n"
       "void launch(int m, int n) {\n"
       "  auto dtype = kHalf;\n"
       "  int offset = row * stride;  // review: ignore[D9] rows stay below 2^16\n"
       "}\n"},
      {"atom/config.yaml", "use_new_path: true\n"},
  };
  return files;
}

inline SourceLookup head_source() {
  return [](const std::string& path) -> std::optional<std::string> {
    auto it = head_tree().find(path);
    if (it == head_tree().end()) return std::nullopt;
    return it->second;
  };
}

inline Finding make_finding(std::string id, std::string title, Severity sev, Evidence ev, std::string file,
                            int line, int column, std::string problem, std::string impact, std::string action) {
  Finding f;
  f.rule_id = std::move(id);
  f.rule_title = std::move(title);
  f.severity = sev;
  f.evidence = ev;
  f.file = std::move(file);
  f.line = line;
  f.end_line = line;
  f.column = column;
  f.problem = std::move(problem);
  f.impact = std::move(impact);
  f.action = std::move(action);
  return f;
}

/// The fixed list, in location order (as the CLI hands it over).
inline std::vector<Finding> fixed_findings() {
  std::vector<Finding> v;
  v.push_back(make_finding("P1", "Performance claim without numbers", Severity::Note, Evidence::Inferred, "", 0, 0,
                           "The description claims a speed-up but gives no numbers",
                           "Reviewers cannot check whether the change is faster",
                           "Reviewer should ask for before and after timings with units"));
  v.push_back(make_finding("D2", "New default path without a rollback switch", Severity::Warn, Evidence::Verified,
                           "atom/config.yaml", 0, 0, "`use_new_path` turns the new path on by default with no switch back",
                           "A regression on the new path cannot be turned off without a release",
                           "Author must add an environment switch that restores the old path"));
  Finding c1 = make_finding("C1", "Dtype fixed on a multi-dtype path", Severity::Warn, Evidence::Inferred,
                            "atom/kernels/gemm.cpp", 3, 3, "`dtype` is fixed to half precision in `launch`",
                            "Worth checking: bf16 inputs may be computed in fp16 and lose range",
                            "Reviewer should ask whether `launch` is reached with bf16 tensors");
  c1.snippet = "  auto dtype = kHalf;";
  c1.tags = {"dtype", "kernel"};
  v.push_back(c1);
  Finding d9 = make_finding("D9", "32-bit index times stride", Severity::Block, Evidence::Verified,
                            "atom/kernels/gemm.cpp", 4, 16, "`row * stride` is computed in 32-bit `int`",
                            "With rows above 65,536 and stride 32,768 the offset overflows",
                            "Author must compute the offset in int64_t");
  d9.snippet = "  int offset = row * stride;  // review: ignore[D9] rows stay below 2^16";
  d9.suppressed = true;
  d9.suppression_kind = "inSource";
  d9.suppression_reason = "rows stay below 2^16";
  v.push_back(d9);
  Finding d1b = make_finding("D1b", "Variable possibly unbound after if/elif", Severity::Block, Evidence::Verified,
                             "atom/model.py", 9, 16, "`scale` is unbound when `mode` is neither \"bf16\" nor \"fp16\"",
                             "A NameError at the first call with mode=\"fp8\"",
                             "Author must initialise `scale` before the if/elif");
  d1b.snippet = "    return x * scale";
  d1b.tier = "1";
  d1b.tags = {"correctness"};
  d1b.witness = {{"variable", "scale"}, {"branch", "mode == \"fp8\""}};
  v.push_back(d1b);
  return v;
}

inline RuleMeta rule(std::string id, std::string title, Severity sev, std::vector<std::string> tags,
                     std::string code_bad, std::string code_good) {
  RuleMeta r;
  r.id = std::move(id);
  r.title = std::move(title);
  r.severity = sev;
  r.tags = std::move(tags);
  r.problem = "{name} matches the pattern of this rule";
  r.impact = "Wrong results at run time";
  r.action = "Author must fix {name}";
  r.help = "Explains why " + r.title + " matters.";
  r.examples.push_back({true, false, "python", std::move(code_bad), 1});
  r.examples.push_back({false, false, "python", std::move(code_good), 5});
  r.ruleset = "atom";
  r.source_file = "rulesets/atom.rules";
  r.source_line = 10;
  return r;
}

inline RunInfo fixed_run() {
  RunInfo run;
  run.tool_version = "0.1.0";
  run.information_uri = "https://github.com/example/review-action";
  run.rulesets = {"atom"};
  run.rules = {rule("D1b", "Variable possibly unbound after if/elif", Severity::Block, {"correctness"},
                    "if a:\n    x = 1\nprint(x)  # <- D1b\n", "x = 0\nif a:\n    x = 1\nprint(x)\n"),
               rule("C1", "Dtype fixed on a multi-dtype path", Severity::Warn, {"dtype", "kernel"},
                    "dtype = torch.float16  # <- C1\n", "dtype = x.dtype\n"),
               rule("D9", "32-bit index times stride", Severity::Block, {"overflow"}, "off = row * stride  # <- D9\n",
                    "off = int64(row) * stride\n"),
               rule("D2", "New default path without a rollback switch", Severity::Warn, {},
                    "use_new: true  # <- D2\n", "use_new: ${USE_NEW:-false}\n"),
               rule("P1", "Performance claim without numbers", Severity::Note, {"perf"}, "faster now\n",
                    "1.8 ms -> 1.2 ms on MI300X\n")};
  run.pr.number = 42;
  run.pr.title = "Fix fp8 scale in forward";
  run.repository_uri = "https://github.com/example/repo";
  run.head_sha = "0123456789abcdef0123456789abcdef01234567";
  run.kinds = {{"kernel", "Kernel change"}, {"config", "Config change"}};
  run.notes = {"atom/model.py is a Tier 1 backbone file"};
  run.diagnostics = {"python front end: atom/broken.py line 3 could not be parsed and was read as text"};
  run.exit_code = 1;
  run.filter = "added";
  return run;
}

/// Renders `findings` through format `format` and returns the bytes written.
inline std::string render(std::string_view format, const std::vector<Finding>& findings, const RunInfo& run,
                          ReportOptions options = {}) {
  std::ostringstream out;
  auto r = make_reporter(format, out, options);
  r->begin(run);
  for (const auto& f : findings) r->add(f);
  r->finish(run);
  return out.str();
}

inline std::string fixture_path(const std::string& name) {
  return std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/report/" + name;
}

/// Compares `actual` with the golden file `name`; with UPDATE_GOLDEN=1 in the environment,
/// rewrites the golden file instead.
inline void check_golden(const std::string& name, const std::string& actual) {
  std::string path = fixture_path(name);
  if (const char* u = std::getenv("UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    WARN("updated " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == actual);
}

}  // namespace review::report::testing
