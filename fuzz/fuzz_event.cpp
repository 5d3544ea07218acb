// The pull_request event payload and `gh pr view --json` readers.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.hpp"
#include "runner/change/pr_meta.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = review::fuzz::to_file(data, size, ".json");
  for (int gh = 0; gh < 2; ++gh) {
    review::change::PrMeta meta;
    try {
      if (gh) review::change::read_gh_pr_json(path, meta);
      else review::change::read_event_json(path, meta);
    } catch (const review::change::InputError&) {
    }
  }
  return 0;
}
