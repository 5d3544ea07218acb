// `runner merge`: the input merged with itself and with an empty run (exit 0 or 3, never a crash).
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz/fuzz_util.hpp"
#include "runner/cli/merge.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = review::fuzz::to_file(data, size, ".sarif");
  std::ostringstream out, err;
  int rc = review::cli::merge_sarif_files({path, path}, "", out, err);
  if (rc != 0 && rc != 3) __builtin_trap();
  return 0;
}
