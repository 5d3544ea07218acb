// Prints what `clones` (runner/analysis/clones.hpp) computes for two line ranges of two files:
// the matched sub-ranges and their similarity, with no threshold. For reading why a pair was or
// was not reported (bench/clones-vs-jscpd.md).
// Python files (.py) use the Python tokens (imports and docstrings left out), others the generic ones.
//   clones_pair FILE_A FIRST LAST FILE_B FIRST LAST [MIN_LINES]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runner/analysis/clones.hpp"
#include "runner/lang/python/tokens.hpp"

namespace {
review::analysis::CodeBlock block(const char* path, int first, int last) {
  std::ifstream in(path);
  std::string line, text;
  for (int n = 1; std::getline(in, line); ++n)
    if (n >= first && n <= last) text += line + "\n";
  std::string p(path);
  bool python = p.size() > 3 && p.compare(p.size() - 3, 3, ".py") == 0;
  auto tokens = python ? review::lang::python::clone_tokens(text) : review::analysis::generic_clone_tokens(text);
  return {path, first, last, text, tokens};
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: clones_pair FILE_A FIRST LAST FILE_B FIRST LAST [MIN_LINES]\n");
    return 2;
  }
  std::vector<review::analysis::CodeBlock> blocks = {block(argv[1], std::atoi(argv[2]), std::atoi(argv[3])),
                                                      block(argv[4], std::atoi(argv[5]), std::atoi(argv[6]))};
  int min_lines = argc > 7 ? std::atoi(argv[7]) : 5;
  auto pairs = review::analysis::find_clones(blocks, min_lines, 0.0);
  if (pairs.empty()) std::printf("no shared 8-token window chain spanning %d lines\n", min_lines);
  for (const auto& p : pairs)
    std::printf("%s:%d-%d  %s:%d-%d  similarity %.3f\n", p.a.file.c_str(), p.a.start_line, p.a.end_line,
                p.b.file.c_str(), p.b.start_line, p.b.end_line, p.similarity);
  return 0;
}
