// A Facts that answers one file's facts at a time: how the driver (dsl/schedule.hpp) runs
// per-file rules file by file, so that only one file's facts of the sources they read are alive.
//
//   FileFocus focus(facts);            // passes everything through until focused
//   focus.focus("a.py");               // query(): only the facts whose file is "a.py"
//   focus.unfocus();                   // back to passing through; the file's facts are freed
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "dsl/facts.hpp"

namespace review::dsl {

class FileFocus final : public Facts {
 public:
  /// `inner` must outlive this object.
  explicit FileFocus(Facts& inner) : inner_(inner) {}

  /// From now on query() answers, for a source that takes a scope, only the facts of the
  /// inner query whose Fact::file is `path` (in the inner order): through inner.query_file for
  /// sources built file by file, else from the whole result grouped by file once (kept until
  /// unfocus()). Frees the facts of the previous file: references query() returned for it are
  /// invalid afterwards. Sources without a scope (`pr`) still pass through.
  void focus(const std::string& path);
  /// Passes every query through again; frees the focused facts and the grouped whole results.
  void unfocus();
  /// The file focused on, if any.
  const std::optional<std::string>& focused() const { return file_; }

  const std::vector<SourceSchema>& schema() const override { return inner_.schema(); }
  void configure(const RulesetData& data) override { inner_.configure(data); }
  const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) override;
  void release(const std::string& source) override { inner_.release(source); }
  /// nullptr while focused (query() already answers one file); else the inner answer.
  const std::vector<FactPtr>* query_containing(const std::string& source, const Scope& scope,
                                               const std::vector<std::string>& words) override;
  bool is_added(std::string_view path, int line) const override { return inner_.is_added(path, line); }
  bool builds_per_file(const std::string& source) const override { return inner_.builds_per_file(source); }
  std::vector<std::string> scope_files(const Scope& scope) override { return inner_.scope_files(scope); }
  std::vector<FactPtr> query_file(const std::string& source, const Scope& scope, const std::string& path) override {
    return inner_.query_file(source, scope, path);
  }

 private:
  bool takes_scope(const std::string& source) const;

  Facts& inner_;
  std::optional<std::string> file_;
  std::map<std::string, std::vector<FactPtr>> focused_;  ///< (source, scope) -> the file's facts
  /// (source, scope) of sources not built file by file -> their whole result's facts by file
  std::map<std::string, std::unordered_map<std::string, std::vector<FactPtr>>> grouped_;
};

}  // namespace review::dsl
