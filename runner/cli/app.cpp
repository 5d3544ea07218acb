#include "runner/cli/app.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "runner/cli/embedded.hpp"

namespace review::cli {

int run(int argc, char** argv) {
  CLI::App app{"review-action runner: executable review checklists for pull requests"};
  app.set_version_flag("--version", std::string("runner ") + REVIEW_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return 0;
}

}  // namespace review::cli
