// Dispatch chains of Python files (the chain model is runner/analysis/branches.hpp).
#pragma once

#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "runner/analysis/branches.hpp"

namespace review::analysis {

/// Every chain of one Python file (tree-sitter-python 0.23.6 tree over \a source).
/// A single `if` without elif/else is a chain of one arm. A conditional expression nested in
/// another's else position extends the same chain. Chains are ordered by line; nested chains
/// are reported separately. Never throws; a null root yields nothing.
std::vector<BranchChain> find_python_branches(TSNode root, std::string_view source);

}  // namespace review::analysis
