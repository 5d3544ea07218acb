// How fast RE2::Set matches a list of regexes over a tree's lines, by how the list is split into
// sets: the evidence for the evaluator's kSetProgram (dsl/evaluator.cpp, regex_set_index).
//
//   regex_set_bench PATTERNS LINES [BUDGET...]
//
// PATTERNS: one RE2 pattern a line (blank lines skipped). LINES: any text file; its distinct
// lines are the values (as a regex index asks each distinct value once, the rest answered from
// its table of recent values). For each BUDGET (RE2 program instructions a set may hold;
// default 100 200 300 512 100000), the patterns are packed in order into sets of at most 12 and
// at most BUDGET instructions (a larger pattern alone), as the evaluator does, and every line is
// matched against every set three times: `cold` is the first pass (each set's DFA states built
// as the values lead to them), `warm` the fastest of the other two (the states already built).
// Prints each pattern's RE2::ProgramSize, then one row per budget. Exit 2 on a bad argument or a
// pattern RE2 rejects.
//
// Example: bench/regex_set_patterns.txt holds the 9 regexes of the shipped atom ruleset (session
// 29) that no literal prefilters, which the evaluator matches on every line of an audit:
//   git -C CHECKOUT ls-files -z '*.py' | (cd CHECKOUT && xargs -0 cat) > /tmp/lines.txt
//   build/bench/regex_set_bench bench/regex_set_patterns.txt /tmp/lines.txt
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: regex_set_bench PATTERNS LINES [BUDGET...]\n");
    return 2;
  }
  std::vector<std::string> patterns;
  std::string line;
  {
    std::ifstream in(argv[1]);
    if (!in) {
      std::fprintf(stderr, "regex_set_bench: cannot read %s\n", argv[1]);
      return 2;
    }
    while (std::getline(in, line))
      if (!line.empty()) patterns.push_back(line);
  }
  std::vector<std::string> values;
  {
    std::ifstream in(argv[2]);
    if (!in) {
      std::fprintf(stderr, "regex_set_bench: cannot read %s\n", argv[2]);
      return 2;
    }
    std::unordered_set<std::string> seen;
    while (std::getline(in, line))
      if (seen.insert(line).second) values.push_back(line);
  }
  std::vector<int> budgets;
  for (int i = 3; i < argc; ++i) budgets.push_back(std::atoi(argv[i]));
  if (budgets.empty()) budgets = {100, 200, 300, 512, 100000};
  std::vector<int> size;
  for (const auto& p : patterns) {
    re2::RE2 re(p, re2::RE2::Quiet);
    if (!re.ok()) {
      std::fprintf(stderr, "regex_set_bench: RE2 rejects /%s/: %s\n", p.c_str(), re.error().c_str());
      return 2;
    }
    size.push_back(re.ProgramSize());
    std::printf("program %4d  %.70s\n", size.back(), p.c_str());
  }
  std::printf("%zu distinct lines\n", values.size());
  for (int budget : budgets) {
    // packed as regex_set_index packs them (kSetSize 12, the budget in instructions)
    std::vector<std::vector<size_t>> parts;
    int program = 0;
    for (size_t k = 0; k < patterns.size(); ++k) {
      if (parts.empty() || parts.back().size() >= 12 || program + size[k] > budget) {
        parts.emplace_back();
        program = 0;
      }
      parts.back().push_back(k);
      program += size[k];
    }
    std::vector<std::unique_ptr<re2::RE2::Set>> sets;
    for (const auto& part : parts) {
      re2::RE2::Options o;
      o.set_log_errors(false);
      o.set_max_mem(int64_t{64} << 20);  // as the evaluator's sets
      auto set = std::make_unique<re2::RE2::Set>(o, re2::RE2::UNANCHORED);
      for (size_t k : part) set->Add(patterns[k], nullptr);
      if (!set->Compile()) {
        std::fprintf(stderr, "regex_set_bench: RE2 could not compile a set\n");
        return 2;
      }
      sets.push_back(std::move(set));
    }
    double cold = 0, warm = 0;
    size_t matches = 0;
    for (int round = 0; round < 3; ++round) {
      std::vector<int> hits;
      size_t n = 0;
      auto t0 = std::chrono::steady_clock::now();
      for (const auto& v : values)
        for (const auto& s : sets) {
          hits.clear();
          if (s->Match(v, &hits)) n += hits.size();
        }
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (round == 0) cold = ms, matches = n;
      else warm = round == 1 ? ms : std::min(warm, ms);
    }
    std::printf("budget %6d  sets %2zu  cold %8.1f ms  warm %8.1f ms  matches %zu\n", budget, sets.size(), cold, warm,
                matches);
  }
  return 0;
}
