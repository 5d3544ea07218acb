// Copy or view: whether a Python (PyTorch) expression makes new storage or shares the storage of
// a value that already exists, read from the expression's text and, one call deep, from the body
// of a function of the same repository.
//
//   auto m = review::lang::analyze_file("w.py", "def f(w):\n    s = w.t().contiguous()\n");
//   ValueKind k = value_kind(*m, "f", 2, "w.t().contiguous()");   // {"copy", "`.contiguous()` of a strided view"}
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runner/lang/model.hpp"

namespace review::lang {

/// The answer: `kind` is "copy" (new storage: `.clone()`, a factory such as `torch.empty`,
/// arithmetic, a conversion, `.contiguous()` of a strided view), "view" (shares the storage of an
/// existing value: `.view/.reshape/.t()/.permute/.transpose/.data/[...]`, an alias, an in-place
/// method's result) or "unknown"; `why` names the deciding step in our words ("`.clone()`",
/// "`shuffle_weight` returns `torch.empty(...)`").
struct ValueKind {
  std::string kind = "unknown";
  std::string why;
};

/// The functions of a set of files by bare name ("shuffle_weight" for `ops.shuffle_weight` or
/// `self.shuffle_weight`), for the one-call-deep look into a callee. The models must outlive it.
class FunctionIndex {
 public:
  void add(const SourceModel& m);
  /// The (model, qualified name) of every function called `name`.
  const std::vector<std::pair<const SourceModel*, std::string>>* find(std::string_view name) const;

 private:
  std::unordered_map<std::string, std::vector<std::pair<const SourceModel*, std::string>>> by_name_;
};

/// Classifies `expr`, written at `line` of function `function` (qualified, "" at module level) of
/// the Python file `m`. Names are followed through the function's own assignments above `line`
/// (a parameter or an attribute is an existing value, so a view of it is a view); a call of a
/// function that `repo` (else `m` alone) defines under the callee's last name, whose every
/// `return` is a copy (or every one a view), gives that answer — one call deep, the callee's own
/// calls are not followed; several functions of that name must agree. Never throws; an empty or
/// unparsable text is "unknown".
ValueKind value_kind(const SourceModel& m, std::string_view function, int line, std::string_view expr,
                     const FunctionIndex* repo = nullptr);

}  // namespace review::lang
