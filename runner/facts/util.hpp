// Small helpers shared by the fact sources of runner/facts/ (not a public interface).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/facts.hpp"
#include "runner/change/change.hpp"
#include "runner/lang/model.hpp"

namespace review::facts::util {

/// A list value of strings, from any range of strings or string views.
template <class Strings>
dsl::Value str_list(const Strings& v) {
  dsl::Value::List l;
  l.reserve(v.size());
  for (const auto& s : v) l.emplace_back(std::string(s));
  return dsl::Value(std::move(l));
}

/// `s` without leading and trailing spaces and tabs.
std::string trim(std::string_view s);

/// Analysis scope names use Python's "<locals>" and "<module>"; facts use "f.g" and "".
std::string normalise_function(std::string f);

/// The bare name at the end of a callee / type text: "a.b.c(x)" -> "c", "ns::f<T>" -> "f".
std::string last_name(std::string_view s);

/// True for a non-empty [A-Za-z_][A-Za-z0-9_]* name.
bool is_identifier(std::string_view s);

/// Not skipped, not binary, not a submodule.
bool analysable(const change::ChangedFile& f);

/// The file's base path (old_path, or path when it has none).
std::string base_path(const change::ChangedFile& f);

/// True when `path` matches any of `globs` (dsl::glob_match).
bool any_glob(const std::vector<std::string>& globs, std::string_view path);

/// Text of line `line` (1-based) of `lines`, trimmed; "" out of range.
std::string line_text(const lang::LineViews& lines, int line);

/// The facts of one file side whose fields a FieldProvider answers, in one allocation: each
/// FactPtr shares the block's ownership (std::shared_ptr's aliasing constructor), so a fact costs
/// its Fact (48 bytes) and its pointer instead of a make_shared block each (and a heap
/// allocation). `lines` and `added_lines` of an audit make one fact per line of every file (about
/// 1.5 million on ROCm/aiter), `symbols` about 200,000.
///   FactBlock block(source, path, provider, n);
///   for (...) block.add(line, index);   // record `index` of the provider
///   block.share(out);
class FactBlock {
 public:
  /// `n`: how many facts will be added (reserved).
  FactBlock(const dsl::Interned& source, const dsl::Interned& file, std::shared_ptr<const dsl::FieldProvider> p,
            size_t n)
      : source_(source), file_(file), block_(std::make_shared<Block>()) {
    block_->provider = std::move(p);
    block_->facts.reserve(n);
  }
  /// Adds the fact of record `index` at `line` (ending at `end_line`, 0 = one line; at 1-based
  /// `column`, 0 = unknown). Not after share().
  void add(int line, int index, int end_line = 0, int column = 0) {
    dsl::Fact& f = block_->facts.emplace_back();
    f.source = source_;
    f.file = file_;
    f.line = line;
    f.end_line = end_line;
    f.column = column;
    f.provider = block_->provider.get();
    f.provider_index = index;
  }
  /// Appends a pointer to every fact added, in order, to `out`.
  void share(std::vector<dsl::FactPtr>& out) const {
    out.reserve(out.size() + block_->facts.size());
    for (const auto& f : block_->facts) out.push_back(dsl::FactPtr(block_, &f));
  }

 private:
  /// The facts and their provider: a FactPtr to any fact keeps both.
  struct Block {
    std::shared_ptr<const dsl::FieldProvider> provider;
    std::vector<dsl::Fact> facts;
  };
  dsl::Interned source_, file_;
  std::shared_ptr<Block> block_;
};

/// The doc prefix of nested-only record shapes ("(nested) ").
inline constexpr const char* kNestedDoc = "(nested) ";

/// A schema field.
inline dsl::FieldSchema field(const char* name, dsl::Type type, const char* doc, const char* fact_source = "") {
  return dsl::FieldSchema{name, type, doc, fact_source};
}

/// `f` marked as spelled in its file's text (dsl::FieldSchema::in_text): only for values copied
/// from the text (whitespace collapsed, comments or strings blanked, parts joined by '.' or
/// '::'), never for values a source computes or resolves.
inline dsl::FieldSchema in_text(dsl::FieldSchema f) {
  f.in_text = true;
  return f;
}

}  // namespace review::facts::util
