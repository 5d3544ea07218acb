// The rule parser and load-time checker on arbitrary text (`use` resolves to nothing). At exit it
// prints how many inputs loaded ("fuzz_rules: accepted N of M rulesets"): mutated text is almost
// always rejected at load, which is why fuzz_rules_gen generates well-typed rulesets.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "dsl/ruleset.hpp"
#include "runner/facts/schema.hpp"

namespace {
std::size_t inputs = 0, accepted = 0;
struct Report {
  ~Report() {
    if (inputs)
      std::fprintf(stderr, "fuzz_rules: accepted %zu of %zu rulesets (%.1f%%)\n", accepted, inputs,
                   100.0 * static_cast<double>(accepted) / static_cast<double>(inputs));
  }
} report;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  review::dsl::Resolver none = [](const std::string&, const std::string&)
      -> std::optional<std::pair<std::string, std::string>> { return std::nullopt; };
  auto r = review::dsl::load_ruleset("fuzz.rules", text, review::facts::fact_schema(), none, {});
  ++inputs;
  accepted += r.ok();
  return 0;
}
