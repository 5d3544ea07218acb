// The `runner` executable: everything lives in runner/cli/app.cpp so tests can call it in-process.
#include "runner/cli/app.hpp"

int main(int argc, char** argv) { return review::cli::run(argc, argv); }
