#include "catch.hpp"
#include "runner/analysis/siblings.hpp"

#include <optional>
#include <string>
#include <vector>

using review::analysis::default_sibling_suffixes;
using review::analysis::variant_suffix;

TEST_CASE("siblings: variant suffixes", "[siblings]") {
  struct Case {
    const char *changed, *other;
    std::optional<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"gather_rows_decode", "gather_rows_prefill_opt", "_prefill_opt"},  // swap, longest wins
      {"gather_rows", "gather_rows_opt", "_opt"},                        // add
      {"attn_v2", "attn", "_v2"},                                        // remove
      {"attn_fwd", "attn_bwd", "_bwd"},
      {"fused_moe_fp8_kernel", "fused_moe_bf16_kernel", "_bf16"},        // before a common tail
      {"gemm_a8w8_asm", "gemm_a8w8_ck", "_ck"},
      {"moe_2stage", "moe_1stage", "_1stage"},
      {"gather_rows", "gather_rows", std::nullopt},                      // same name
      {"gather_rows", "scatter_rows", std::nullopt},                     // different stem
      {"attn_fwd", "attn_fwdx", std::nullopt},                           // not on a `_` boundary
      {"_opt", "_v2", std::nullopt},                                     // empty stem
  };
  for (const auto& c : cases) {
    INFO(c.changed << " vs " << c.other);
    CHECK(variant_suffix(c.changed, c.other, default_sibling_suffixes()) == c.expected);
  }
  CHECK(variant_suffix("f_fast", "f", {"_fast"}) == std::optional<std::string>("_fast"));
  CHECK(variant_suffix("f_fast", "f", {"_slow"}) == std::nullopt);
}
