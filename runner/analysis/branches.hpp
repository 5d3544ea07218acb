// Dispatch chains: if/elif/else, match/case, switch, conditional expressions, with the
// (subject, value) comparisons each arm tests. The language front ends that find them:
// runner/lang/python/branches.hpp, runner/lang/cpp/branches.hpp.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>


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

/// One comparison of an arm's condition, as front ends find it (see BranchArm::compares/ops).
struct ArmCompare {
  std::string subject, value, op;
};

/// Appends an arm (condition text, 1-based line, its comparisons) to `c`, and its comparisons
/// to `per_arm` (one entry per arm, read by finish_chain).
void add_arm(BranchChain& c, std::vector<std::vector<ArmCompare>>& per_arm, std::string condition, int line,
             std::vector<ArmCompare> cmps);
/// Sets c.subject (the first subject of the first arm that every arm compares, "" when none)
/// and c.else_raises (else_kind not empty).
void finish_chain(BranchChain& c, const std::vector<std::vector<ArmCompare>>& per_arm);

/// `t` without whitespace and backslashes.
std::string squash_space(std::string_view t);
/// `t` with every run of whitespace/backslashes collapsed to one blank, trimmed.
std::string collapse_space(std::string_view t);
/// `t` with ASCII letters lowercased.
std::string lower_ascii(std::string_view t);

}  // namespace review::analysis
