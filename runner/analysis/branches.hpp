// Dispatch chains: if/elif/else, match/case, switch, conditional expressions, with the
// (subject, value) comparisons each arm tests.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

namespace review::analysis {

/// One arm of a chain (the `else` / `default` / `case _` arm is not an arm: see has_else).
struct BranchArm {
  std::string condition;  ///< condition or pattern text, whitespace collapsed
  int line = 0;           ///< 1-based line of the arm's keyword
  /// (subject, value) pairs the condition tests. Subject: the expression's text with all
  /// whitespace removed (`self.arch`, `x.dtype`). Value: a string literal re-quoted with double
  /// quotes (`"fp4"` for 'fp4'), any other value's text with whitespace removed
  /// (`None`, `3`, `torch.float8_e4m3fnuz`, `DType::kFp8`).
  std::vector<std::pair<std::string, std::string>> compares;
  /// For each pair, how it is tested: "==", "!=", "in", "not in", "is", "is not", "isinstance",
  /// "startswith", "endswith", "case", "is_same".
  std::vector<std::string> ops;
};

struct BranchChain {
  int line = 0, end_line = 0;  ///< 1-based lines spanned by the whole chain
  /// "if" (Python if/elif, C/C++ if/else-if), "match", "switch", "ternary".
  std::string kind;
  /// The subject every arm compares (present in every arm's compares); empty when the arms
  /// test different things or an arm tests nothing recognisable. For match/switch: the
  /// matched expression.
  std::string subject;
  std::string function;  ///< enclosing function ("C.m" in Python, declarator text in C++), "" at top level
  bool has_else = false;      ///< an else / default / `case _` (irrefutable capture) arm exists
  bool else_raises = false;   ///< else_kind is not empty
  std::vector<BranchArm> arms;
  /// What the else arm does, from its top-level statements: "raise" (raise/throw), "assert"
  /// (assert, static_assert, TORCH_CHECK…), "warn" (a call whose callee contains warn, log,
  /// error, abort or fatal, case-insensitive), "return_none" (`return`/`return None`/
  /// `return nullptr`); "" otherwise or without else.
  std::string else_kind;
};

/// Every chain of one Python file (tree-sitter-python 0.23.6 tree over \a source).
/// A single `if` without elif/else is a chain of one arm. A conditional expression nested in
/// another's else position extends the same chain. Chains are ordered by line; nested chains
/// are reported separately. Never throws; a null root yields nothing.
std::vector<BranchChain> find_python_branches(TSNode root, std::string_view source);

/// Every chain of one C/C++/CUDA/HIP file (tree-sitter-cpp 0.23.4): `if`/`else if`/`else`
/// (including `if constexpr`), `switch` (arms = `case` labels; `default` = else) and `?:`.
/// Recognised comparisons: `==`/`!=` (the literal or constant-looking side is the value),
/// `std::is_same_v<A, B>` / `std::is_same<A, B>::value` (subject A, value B), through `&&`, `||`,
/// `!` and parentheses. Never throws.
std::vector<BranchChain> find_cpp_branches(TSNode root, std::string_view source);

}  // namespace review::analysis
