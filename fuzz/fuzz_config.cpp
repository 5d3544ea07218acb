// The repository configuration (.github/review.yml).
#include <cstddef>
#include <cstdint>
#include <string>

#include "runner/cli/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto c = review::cli::parse_review_config(std::string(reinterpret_cast<const char*>(data), size), "review.yml");
    (void)c;
  } catch (const review::cli::ConfigError&) {
  }
  return 0;
}
