// YAML front end: GitHub workflow files, with lines from yaml-cpp's marks, and hostile input.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/yaml/workflow.hpp"

using review::lang::is_workflow_path;
using review::lang::parse_workflow;

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "|" : "") + v[i];
  return s;
}
}  // namespace

TEST_CASE("workflow: triggers in their three shapes, with filters", "[yaml]") {
  auto a = parse_workflow("on: pull_request\njobs: {}\n");
  REQUIRE(a.triggers.size() == 1);
  CHECK(a.triggers[0].event == "pull_request");
  CHECK(a.triggers[0].line == 1);
  auto b = parse_workflow("on: [push, pull_request]\n");
  REQUIRE(b.triggers.size() == 2);
  CHECK(b.triggers[1].event == "pull_request");
  auto c = parse_workflow(
      "name: GPU tests\n"                       // 1
      "on:\n"                                   // 2
      "  pull_request:\n"                       // 3
      "    paths: ['src/**', 'include/**']\n"   // 4
      "    paths-ignore:\n"                     // 5
      "      - docs/**\n"                       // 6
      "    branches-ignore: [wip]\n"            // 7
      "    types: [labeled, synchronize]\n"     // 8
      "  schedule:\n"                           // 9
      "    - cron: '0 3 * * *'\n"               // 10
      "  workflow_dispatch:\n");                // 11
  CHECK(c.name == "GPU tests");
  REQUIRE(c.triggers.size() == 3);
  CHECK(c.triggers[0].line == 3);
  CHECK(join(c.triggers[0].paths) == "src/**|include/**|!docs/**");
  CHECK(join(c.triggers[0].branches) == "!wip");
  CHECK(join(c.triggers[0].types) == "labeled|synchronize");
  CHECK(c.triggers[1].event == "schedule");
  CHECK(c.triggers[2].event == "workflow_dispatch");
  CHECK(c.triggers[2].line == 11);
}

TEST_CASE("workflow: jobs with runs-on shapes, matrix, if, timeout, needs and steps with lines", "[yaml]") {
  auto w = parse_workflow(
      "on: pull_request\n"                                  // 1
      "jobs:\n"                                             // 2
      "  build:\n"                                          // 3
      "    runs-on: ubuntu-latest\n"                        // 4
      "    timeout-minutes: 30\n"                           // 5
      "    steps:\n"                                        // 6
      "      - uses: actions/checkout@v4\n"                 // 7
      "        with:\n"                                     // 8
      "          fetch-depth: 0\n"                          // 9
      "      - name: Build\n"                               // 10
      "        run: |\n"                                    // 11
      "          cmake -B build\n"                          // 12
      "          cmake --build build\n"                     // 13
      "        if: github.event_name == 'push'\n"           // 14
      "  gpu-test:\n"                                       // 15
      "    needs: build\n"                                  // 16
      "    if: contains(github.event.pull_request.labels.*.name, 'gpu')\n"  // 17
      "    runs-on: [self-hosted, mi300]\n"                 // 18
      "    timeout-minutes: ${{ inputs.t }}\n"              // 19
      "    strategy:\n"                                     // 20
      "      matrix:\n"                                     // 21
      "        arch: [gfx942, gfx950]\n"                    // 22
      "        include:\n"                                  // 23
      "          - arch: gfx1100\n"                         // 24
      "    container: {image: 'rocm/dev:7.0'}\n"            // 25
      "    steps:\n"                                        // 26
      "      - run: ctest\n"                                // 27
      "  grouped:\n"                                        // 28
      "    runs-on: {group: gpu-pool, labels: [linux, mi325]}\n"  // 29
      "    uses: ./.github/workflows/reusable.yml\n");      // 30
  REQUIRE(w.jobs.size() == 3);
  const auto& b = w.jobs[0];
  CHECK(b.id == "build");
  CHECK(b.line == 3);
  CHECK(b.end_line == 14);
  CHECK(b.runs_on == "ubuntu-latest");
  CHECK(b.runs_on_line == 4);
  CHECK(b.timeout_minutes == 30);
  REQUIRE(b.steps.size() == 2);
  CHECK(b.steps[0].uses == "actions/checkout@v4");
  CHECK(b.steps[0].line == 7);
  CHECK(b.steps[0].end_line == 9);
  CHECK(join(b.steps[0].with) == "fetch-depth=0");
  CHECK(b.steps[1].name == "Build");
  CHECK(b.steps[1].line == 10);
  CHECK(b.steps[1].end_line == 14);
  CHECK(b.steps[1].run == "cmake -B build\ncmake --build build\n");
  CHECK(b.steps[1].run_line == 11);
  CHECK(b.steps[1].condition == "github.event_name == 'push'");
  const auto& g = w.jobs[1];
  CHECK(g.line == 15);
  CHECK(join(g.needs) == "build");
  CHECK(g.condition == "contains(github.event.pull_request.labels.*.name, 'gpu')");
  CHECK(g.runs_on == "self-hosted, mi300");
  CHECK(join(g.runner_labels) == "self-hosted|mi300");
  CHECK(g.runs_on_line == 18);
  CHECK(g.timeout_minutes == -1);
  CHECK(join(g.matrix) == "arch=gfx942, gfx950|include=arch=gfx1100");
  CHECK(g.container == "rocm/dev:7.0");
  CHECK(g.steps.size() == 1);
  const auto& q = w.jobs[2];
  CHECK(q.runs_on == "group=gpu-pool labels=linux, mi325");
  CHECK(join(q.runner_labels) == "gpu-pool|linux|mi325");
  CHECK(q.uses == "./.github/workflows/reusable.yml");
  CHECK(q.timeout_minutes == 0);
  CHECK(q.end_line == 30);
}

TEST_CASE("workflow: malformed YAML is an error with its position, never a crash", "[yaml]") {
  auto bad = parse_workflow("on: pull_request\njobs:\n  t:\n    runs-on: [mi300\n    steps: []\n");
  REQUIRE(bad.error);
  CHECK(bad.error->line >= 4);
  CHECK(bad.error->describe().find(":") != std::string::npos);
  CHECK(bad.jobs.empty());
  auto tab = parse_workflow("on: push\njobs:\n\tt: {}\n");
  CHECK(tab.error);
  auto nested = parse_workflow("on: push\njobs: a: b\n");  // a mapping value where none may start
  REQUIRE(nested.error);
  CHECK(nested.error->line == 2);
  auto list = parse_workflow("- a\n- b\n");
  REQUIRE(list.error);
  CHECK(list.error->message.find("mapping") != std::string::npos);
  CHECK(!parse_workflow("").error);
  CHECK(parse_workflow("").jobs.empty());
  // Deep nesting stops at yaml-cpp's depth guard (an error, not a stack overflow).
  std::string deep(20000, '[');
  CHECK(parse_workflow("on: " + deep + "\n").error);
  // Odd shapes GitHub would reject are skipped, not errors.
  auto odd = parse_workflow("on: {pull_request: 3}\njobs:\n  a: 5\n  b:\n    steps: run\n    runs-on: {}\n");
  CHECK(!odd.error);
  REQUIRE(odd.jobs.size() == 2);
  CHECK(odd.jobs[1].steps.empty());
  // An alias bomb stays within the flattening budget.
  std::string bomb = "x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 9; ++i)
    bomb += "x" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) + ", *a" +
            std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + "]\n";
  bomb += "on: push\njobs:\n  t:\n    runs-on: *a8\n    strategy: {matrix: {k: *a8}}\n";
  auto w = parse_workflow(bomb);
  REQUIRE(!w.error);
  REQUIRE(w.jobs.size() == 1);
  CHECK(w.jobs[0].runs_on.size() <= 4000);
  CHECK(w.jobs[0].runner_labels.size() <= 200);
  CHECK(w.jobs[0].matrix.size() == 1);
}

TEST_CASE("workflow paths: only .github/workflows/*.yml|yaml at the root", "[yaml]") {
  CHECK(is_workflow_path(".github/workflows/ci.yml"));
  CHECK(is_workflow_path(".github/workflows/gpu.yaml"));
  CHECK(!is_workflow_path(".github/workflows/sub/ci.yml"));
  CHECK(!is_workflow_path(".github/workflows/.yml"));
  CHECK(!is_workflow_path("sub/.github/workflows/ci.yml"));
  CHECK(!is_workflow_path(".github/dependabot.yml"));
}
