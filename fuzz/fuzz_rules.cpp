// The rule parser and load-time checker on arbitrary text (`use` resolves to nothing).
#include <cstddef>
#include <cstdint>
#include <string>

#include "dsl/ruleset.hpp"
#include "runner/facts/schema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  review::dsl::Resolver none = [](const std::string&, const std::string&)
      -> std::optional<std::pair<std::string, std::string>> { return std::nullopt; };
  auto r = review::dsl::load_ruleset("fuzz.rules", text, review::facts::fact_schema(), none, {});
  (void)r;
  return 0;
}
