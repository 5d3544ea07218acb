// Dispatch chains of C/C++ files (the chain model is runner/analysis/branches.hpp).
#pragma once

#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "runner/analysis/branches.hpp"

namespace review::analysis {

/// Every chain of one C/C++/CUDA/HIP file (tree-sitter-cpp 0.23.4): `if`/`else if`/`else`
/// (including `if constexpr`), `switch` (arms = `case` labels; `default` = else) and `?:`.
/// Recognised comparisons: `==`/`!=` (the literal or constant-looking side is the value),
/// `std::is_same_v<A, B>` / `std::is_same<A, B>::value` (subject A, value B), through `&&`, `||`,
/// `!` and parentheses. Never throws.
std::vector<BranchChain> find_cpp_branches(TSNode root, std::string_view source);

}  // namespace review::analysis
