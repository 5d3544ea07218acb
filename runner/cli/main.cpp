// The `runner` executable: everything lives in runner/cli/app.cpp so tests can call it in-process.
#include <csignal>

#include "runner/cli/app.hpp"

int main(int argc, char** argv) {
  // A closed pipe (`runner ... | head`) is a write error the runner reports (exit 3), not a
  // signal that kills it with its outputs half written.
  std::signal(SIGPIPE, SIG_IGN);
  return review::cli::run(argc, argv);
}
