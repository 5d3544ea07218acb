// The unified-diff parser: any text either parses or throws InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/change/diff_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto files = review::change::parse_unified_diff(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.diff");
    (void)files;
  } catch (const review::change::InputError&) {
  }
  return 0;
}
