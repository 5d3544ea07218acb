// Possibly-unbound reads of Python locals: a definite-assignment data-flow analysis over
// tree-sitter-python trees (grammar 0.23.6).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace review::analysis {

/// One read of a local name that is unbound on some path reaching it (`definite` false: bound on
/// some other path) or on every path (`definite` true: read before any binding, or after a `del`
/// on every path).
struct UnboundRead {
  std::string name;            ///< the local's name
  int read_line = 0;           ///< 1-based line of the read
  int read_column = 0;         ///< 1-based byte column of the read
  /// True: unbound on every path reaching the read (Pyright's "is unbound"); then cause is
  /// "before_binding" (branch_line: the first line that binds it, on another path when above the
  /// read; branch_kind "binding") or "del" (deleted on every path). False: Pyright's "is possibly unbound".
  bool definite = false;
  /// Why it may be unbound: "branch" (if/elif/else or conditional expression),
  /// "loop" (bound only in a for/while body that may run zero times), "try", "match",
  /// "del" (deleted on some path, or an `except … as name` target after its handler),
  /// "with" (bound inside a `with suppress(...)` body that may exit early); for definite reads
  /// "before_binding" or "del".
  std::string cause;
  /// 1-based first line of the construct whose arms bind it: the one that leaves it unbound on
  /// some arm, not a later one that only rebinds it on some arms (`if a: y = f()` … `if b: y =
  /// g(y)` … `return y` names the first `if`).
  int branch_line = 0;
  std::string branch_kind;     ///< "if", "match", "for", "while", "try", "with", "del", "except"
  std::string bound_in;        ///< which arms bind it, e.g. "the `if` and `elif` arms"
  std::string unbound_path;    ///< one path leaving it unbound, e.g. "`mode == \"beam\"` holds"
  std::string function;        ///< qualified scope name: "f", "C.m", "f.<locals>.g", "<module>", "C", "f.<lambda>"
  std::string scope_kind;      ///< "function", "module", "class" or "lambda" (lambda bodies only
                               ///< have reads of enclosing-scope names)
  /// True when the tests that enclose the read (if/elif/else arms, `a if c else b`, the right
  /// operand of `and`/`or`) rule out every path of the branch that leaves the name unbound:
  /// correlated conditions such as `if a: x = …` … `if a: use(x)`, `if a or b:` after arms on
  /// `a` and `b`, an `else` of the same test, `x is not None` read as `not (x is None)`, an
  /// earlier `assert`/early return of membership (`assert k in ("a", "b")`, `assert dt in
  /// [torch.bfloat16]`, or in a module constant bound once to such a display and never changed
  /// in the file: `KINDS = {"a", "b"}` … `assert k in KINDS`) read as `k == "a" or k == "b"`.
  /// Decided by propositional logic over the conditions' texts (whitespace-normalised atoms,
  /// at most kMaxGuardAtoms of them); false when a name a condition reads is rebound between
  /// the branch and the read, for loop/try/match/del causes, and for reads from nested scopes.
  bool guarded = false;
  std::string guard;           ///< the enclosing test that rules the unbound paths out, "" when none
};

/// At most this many distinct atoms take part in one `guarded` decision (2^N assignments are
/// enumerated); with more, the read counts as not guarded.
inline constexpr int kMaxGuardAtoms = 12;

/// Trees nested deeper than this many levels are not analysed (see find_unbound_reads).
inline constexpr int kMaxUnboundTreeDepth = 500;

/// An if/elif chain with more arms than this keeps no per-arm tests: its reads are never
/// `guarded` by them, and memory stays linear in the arms (arm k's tests are k - 1 failed ones).
inline constexpr int kMaxTestedArms = 256;

/// A chain of at most this many arms, some continuing and some not (`else: raise`), leaves
/// "the tests of one continuing arm hold" for the rest of its block (arm k's tests are k
/// conditions, so the guard grows with the square of the arms; kMaxGuardAtoms bounds its use).
inline constexpr size_t kMaxDisjointArms = 16;

/// Whether find_unbound_reads skips `root` for nesting deeper than kMaxUnboundTreeDepth.
/// Callers report such a file as not analysed rather than silently finding nothing.
bool unbound_tree_too_deep(TSNode root);

/// Reporting options (the defaults reproduce Pyright's reportPossiblyUnboundVariable).
struct UnboundOptions {
  /// true: every read where the name may be unbound is reported (Pyright does this).
  /// false: after a read the name counts as bound on the continuing path (a failing read
  /// raises), so only the first read of each path region is reported.
  bool every_read = true;
  /// true: the caller has found unbound_tree_too_deep(root) false on this tree, so the analysis
  /// does not walk the whole tree again to check it (run_analyses checks it once, for its note).
  bool depth_checked = false;
};

/// Runs the analysis over every scope of one Python file.
///
/// \a root is the root node (type `module`) of a tree produced by tree-sitter-python over
/// \a source (the same bytes). Scopes analysed: the module, every function body (including
/// methods and nested functions) and every class body. Comprehensions are their own scope
/// (their targets shadow outer names; a walrus inside binds in the enclosing scope), lambda
/// bodies and nested functions are not checked against the enclosing scope's flow.
///
/// A name is reported only when it is bound somewhere in the scope (assignment, augmented
/// assignment, `for`/`with`/`except … as`/import/def/class/walrus/match-capture/del target)
/// and not declared `global`/`nonlocal`; a name never bound in the scope is a global or builtin
/// read and is never reported. Reads where the name is unbound on every path are reported with
/// `definite` set, in function bodies (comprehensions included: they read the enclosing
/// function's state) and in module and class bodies unless the name is a builtin (or, in a class
/// body, bound at module level), which those bodies fall back to. Reads from nested scopes
/// (captured names) are only ever "possibly". See UnboundOptions for repeated reads.
/// Reads inside a nested function, lambda or class of a name bound in an enclosing function
/// (or imported at module level) are checked against the state where the nested scope is
/// created, when no binding of the name can run after that point (Pyright's captured-variable
/// narrowing).
///
/// Paths end at `return`, `raise`, `break`/`continue`, `assert False`/`assert 0`, and calls to
/// `sys.exit`, `exit`, `quit`, `os._exit`, `os.abort`, `assert_never`, `self.fail`, and functions
/// of the same file annotated `-> NoReturn`/`Never` or whose every path raises (an unannotated
/// body that is only `raise NotImplementedError` does not count). `if`/`while` conditions that
/// are the literals True/False/1/0 or `TYPE_CHECKING` are treated as constant.
/// A `try` body may be left by an exception after any statement, and before its first one unless
/// that one binds plain names to constants (`ok = False`: True, False, None, a number, a string
/// without interpolation), which cannot raise; a handler's `as` name is unbound after the
/// handler; `finally` sees both normal and exceptional entries.
///
/// Scopes whose subtree contains a syntax error are skipped. Results are ordered by
/// (read_line, read_column). Never throws on any tree; a null/non-module root yields nothing.
/// A tree deeper than kMaxUnboundTreeDepth levels (hostile nesting such as a 1 MB `a+a+...`
/// line) yields nothing: the walks recurse once per level and must not overflow the stack
/// (with options.depth_checked the caller has checked this; the tree is not walked for it).
std::vector<UnboundRead> find_unbound_reads(TSNode root, std::string_view source);
std::vector<UnboundRead> find_unbound_reads(TSNode root, std::string_view source, const UnboundOptions& options);

}  // namespace review::analysis
