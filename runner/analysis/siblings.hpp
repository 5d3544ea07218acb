// Name variants of functions (`gather_rows_decode` vs `gather_rows_prefill_opt`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace review::analysis {

/// The built-in variant suffixes, longest-first within families: `_prefill_opt`, `_opt`,
/// `_decode`, `_prefill`, `_v2`, `_v3`, `_v4`, `_fwd`, `_bwd`, `_fp8`, `_bf16`, `_fp16`, `_fp4`,
/// `_int8`, `_int4`, `_asm`, `_ck`, `_triton`, `_gluon`, `_persistent`, `_splitk`, `_2stage`,
/// `_1stage`, `_fast`, `_ref`, `_naive`, `_fused`. A ruleset may pass its own list instead.
const std::vector<std::string>& default_sibling_suffixes();

/// Whether \a other is a name variant of \a changed: both are `STEM + A + TAIL` and
/// `STEM + B + TAIL` where A and B are different members of \a suffixes or empty (not both),
/// STEM is non-empty, and TAIL is empty or starts with `_` (so a suffix may sit before a common
/// tail: `moe_fp8_kernel` / `moe_bf16_kernel`). Covers adding (`f` / `f_opt`), removing
/// (`f_v2` / `f`) and swapping (`f_fwd` / `f_bwd`) a suffix.
/// Returns the suffix that distinguishes \a other (B), or A when B is empty (the suffix
/// \a changed has and \a other lacks); when several decompositions fit, the longest suffix wins.
/// Returns nullopt for equal names or when no decomposition exists. Never throws.
std::optional<std::string> variant_suffix(std::string_view changed, std::string_view other,
                                          const std::vector<std::string>& suffixes);

}  // namespace review::analysis
