// Shared helpers of the CLI tests: run the built runner in a clean environment, read a file.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runner/change/process.hpp"

namespace review::cli::test {

/// Runs the runner (REVIEW_RUNNER_PATH) with `args` in folder `cwd`, `input` on stdin. The
/// environment drops GITHUB_ACTIONS, GITHUB_EVENT_PATH and GITHUB_TOKEN (the tests must not pick
/// up the variables of the CI they run in) and sets NO_COLOR=1. Returns exit code, stdout, stderr.
inline review::change::ProcessResult run_runner(const std::string& cwd, const std::vector<std::string>& args,
                                                const std::string& input = {}) {
  std::vector<std::string> argv = {"env", "-u", "GITHUB_ACTIONS", "-u", "GITHUB_EVENT_PATH", "-u", "GITHUB_TOKEN",
                                   "NO_COLOR=1", REVIEW_RUNNER_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  review::change::ProcessOptions o;
  o.cwd = cwd;
  o.input = input;
  return review::change::run_process(argv, o);
}

/// Returns the bytes of file `p` ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace review::cli::test
