// Values of the rule language and the facts they range over.
//
// A rule iterates facts (one record per line, function, call, file, ...) and compares their
// fields with literals. Every value is one of: null, bool, integer, string, list of values, or a
// fact. Facts are immutable and shared (`FactPtr`), so binding one to a rule variable is a
// pointer copy.
//
//   auto f = make_fact("lines", "a.py", 12);
//   f->set("text", Value("x = 1"));
//   f->get("text").as_string();   // "x = 1"
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace review::dsl {

struct Fact;
using FactPtr = std::shared_ptr<const Fact>;

/// The static type of a value or fact field, used by the checker and printed by `runner sources`.
enum class Type { Any, Null, Bool, Int, String, List, Fact };

/// Returns the name used in diagnostics and docs ("string", "int", ...).
std::string_view type_name(Type t);

/// A rule-language value. Copyable; lists and facts share their payload.
class Value {
 public:
  using List = std::vector<Value>;

  Value() = default;                               ///< null
  explicit Value(bool b) : v_(b) {}
  Value(int v) : v_(static_cast<int64_t>(v)) {}    // NOLINT: literal ints convert implicitly
  Value(int64_t v) : v_(v) {}                      // NOLINT
  Value(std::string s) : v_(std::move(s)) {}       // NOLINT
  Value(const char* s) : v_(std::string(s)) {}     // NOLINT
  Value(List l) : v_(std::make_shared<const List>(std::move(l))) {}  // NOLINT
  Value(FactPtr f) : v_(std::move(f)) {}           // NOLINT

  Type type() const;
  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_int() const { return std::holds_alternative<int64_t>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_list() const { return std::holds_alternative<std::shared_ptr<const List>>(v_); }
  bool is_fact() const { return std::holds_alternative<FactPtr>(v_); }

  /// Accessors: return the payload; calling one of the wrong type returns the type's empty value
  /// (false, 0, "", empty list, nullptr) instead of throwing, so hostile data cannot crash a run.
  bool as_bool() const;
  int64_t as_int() const;
  const std::string& as_string() const;
  const List& as_list() const;
  const FactPtr& as_fact() const;

  /// Truthiness for `where`/`unless`: null, false, 0, "" and [] are false; facts are true.
  bool truthy() const;

  /// Text for templates (`{expr}` holes): strings as is, ints in decimal, bools as true/false,
  /// lists comma-separated, facts as their `text` field or "file:line", null as "".
  std::string to_text() const;

  /// Structural equality (facts compare by identity, or by file+line+source when both have one).
  friend bool operator==(const Value& a, const Value& b);

 private:
  std::variant<std::monostate, bool, int64_t, std::string, std::shared_ptr<const List>, FactPtr> v_;
};

/// Computes the fields of facts on demand, so a source that makes one fact per line of a
/// repository need not store ten named values per line. One provider usually serves every fact
/// of one file; `index` (the fact's `provider_index`) says which record it is (for line facts,
/// the line number). Providers are immutable once shared and may be called from several threads.
/// Contract: a provider never yields facts (only null, bool, int, string or list values), so
/// code looking for nested facts (e.g. whether a finding touches the change) need only scan
/// `Fact::fields`; and it is never asked for "file", "line", "end_line" or "column" (the fact's
/// location members answer those, without a call per condition that reads them).
struct FieldProvider {
  virtual ~FieldProvider();
  /// Returns field `name` of record `index`, or null when the record has no such field.
  virtual Value field(int index, std::string_view name) const = 0;
  /// Returns the names of the fields `field` answers (the same for every record), sorted.
  virtual std::vector<std::string> names() const { return {}; }
};

/// One fact: a typed record produced by a fact source. `source` names the source that made it
/// ("lines", "functions", ...); `file` and `line` locate it (empty / 0 for pull-request-level
/// facts). Other fields live in `fields` (or come from `provider`); `get` also answers "file", "line", "end_line",
/// "column" from the location members.
struct Fact {
  std::string source;
  std::string file;      ///< repository-relative path, '/'-separated
  int line = 0;          ///< 1-based head line (base line for base-scope facts); 0 = none
  int end_line = 0;      ///< inclusive; 0 = same as line
  int column = 0;        ///< 1-based; 0 = unknown
  std::map<std::string, Value, std::less<>> fields;
  /// Optional lazily computed fields: asked (with `provider_index`) for names `fields` lacks.
  std::shared_ptr<const FieldProvider> provider;
  int provider_index = 0;

  /// Returns the field's value: from `fields`, else from `provider` (never for a location
  /// name), else the location members ("file", "line", "end_line", "column"); null when the
  /// fact has no such field.
  Value get(std::string_view name) const;
  /// Sets (or replaces) a field. Only for the fact source that builds the fact.
  void set(std::string name, Value v) { fields.insert_or_assign(std::move(name), std::move(v)); }
  /// Returns how many named fields the fact carries: `fields` plus the provider's names.
  std::size_t field_count() const;
};

/// Returns a new mutable fact; the caller fills it and then shares it as a FactPtr.
std::shared_ptr<Fact> make_fact(std::string source, std::string file = {}, int line = 0);

}  // namespace review::dsl
