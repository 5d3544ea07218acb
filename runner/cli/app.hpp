// Command-line front end of the runner (CLI11). Subcommands: (main), check, test, explain,
// sources, list, merge. Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or
// ruleset error, 3 input error (git, diff, event, file).
#pragma once

namespace review::cli {

/// Runs the command line `argv` and returns the process exit code (0-3). Never throws.
int run(int argc, char** argv);

}  // namespace review::cli
