// The functions of one Python file that never return normally: annotated `-> NoReturn`/`Never`,
// or unannotated with every path ending in a raise (or a call of another such function), found
// as a fixed point over the file (tree-sitter-python 0.23.6 trees).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

#include <tree_sitter/api.h>

namespace review::analysis {

/// Names of never-returning functions, split by where they are defined (a method is called as
/// `self.name`/`cls.name`, a function by its bare name).
struct NoReturnNames {
  std::unordered_set<std::string> functions;  ///< module-level and nested functions
  std::unordered_set<std::string> methods;    ///< functions defined directly in a class body
};

/// Decides for one unannotated candidate `def` (a function_definition node) whether no path
/// reaches the end of its body or a `return`, given the names found so far.
using EndsAbnormally = std::function<bool(TSNode def, const NoReturnNames& known)>;

/// The never-returning functions of the module `root` (over `source`). Annotated ones are taken
/// from the annotation (`NoReturn`, `Never`, with `typing.`/`typing_extensions.` or quoted).
/// Unannotated candidates are those whose body's last statement is a call or a compound
/// statement, that do not yield, are not `async`, and whose body is not only
/// `raise NotImplementedError` (an abstract method returns in subclasses); each is decided by
/// `ends_abnormally`, repeated until nothing changes (at most 4 rounds, since one may call
/// another). Never throws; a null root yields nothing.
NoReturnNames find_noreturn(TSNode root, std::string_view source, const EndsAbnormally& ends_abnormally);

/// True for a return annotation meaning "never returns" (`NoReturn`, `Never`, qualified or quoted).
bool is_noreturn_annotation(std::string_view annotation);

}  // namespace review::analysis
