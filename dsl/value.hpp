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

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <map>
#include <memory>
#include <optional>
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
  /// Returns field `name` of record `index` as a view of text the provider owns, when that
  /// field is a string the provider keeps (the evaluator matches a regex against it without
  /// copying it); nullopt otherwise, and then `field` answers. When it returns a view, `field`
  /// returns a string equal to it. The view lives as long as the provider. Default: nullopt.
  virtual std::optional<std::string_view> text(int index, std::string_view name) const {
    (void)index;
    (void)name;
    return std::nullopt;
  }
};

/// An immutable string stored once per distinct value for the whole process (interned): a fact's
/// path and source name. A repository-wide `lines` query makes one fact per line; each fact
/// holding its own copy of the path took ~80 bytes a line (0.9 M lines on ROCm/aiter). Copying
/// or comparing two interned strings is a pointer operation; making one from text looks the text
/// up in a process-wide table (thread-safe; distinct values are never freed, so use it for values
/// from a small set: paths of the repositories under review, source names).
/// Reads like a `const std::string&` (implicit conversion, `str()`, the usual queries).
class Interned {
 public:
  Interned() noexcept;                  ///< the empty string
  Interned(std::string_view s);         // NOLINT: paths convert implicitly
  Interned(const std::string& s) : Interned(std::string_view(s)) {}  // NOLINT
  Interned(const char* s) : Interned(std::string_view(s)) {}        // NOLINT

  const std::string& str() const noexcept { return *p_; }
  operator const std::string&() const noexcept { return *p_; }             // NOLINT
  operator std::string_view() const noexcept { return *p_; }               // NOLINT
  const char* c_str() const noexcept { return p_->c_str(); }
  const char* data() const noexcept { return p_->data(); }
  std::size_t size() const noexcept { return p_->size(); }
  bool empty() const noexcept { return p_->empty(); }
  char operator[](std::size_t i) const { return (*p_)[i]; }
  std::string::const_iterator begin() const noexcept { return p_->begin(); }
  std::string::const_iterator end() const noexcept { return p_->end(); }
  std::size_t find(std::string_view s, std::size_t pos = 0) const noexcept { return p_->find(s, pos); }
  std::size_t find(char c, std::size_t pos = 0) const noexcept { return p_->find(c, pos); }
  std::size_t rfind(std::string_view s, std::size_t pos = std::string::npos) const noexcept { return p_->rfind(s, pos); }
  std::size_t rfind(char c, std::size_t pos = std::string::npos) const noexcept { return p_->rfind(c, pos); }
  std::string substr(std::size_t pos = 0, std::size_t n = std::string::npos) const { return p_->substr(pos, n); }
  int compare(std::string_view s) const noexcept { return std::string_view(*p_).compare(s); }
  bool starts_with(std::string_view s) const noexcept { return std::string_view(*p_).substr(0, s.size()) == s; }
  bool ends_with(std::string_view s) const noexcept {
    return p_->size() >= s.size() && std::string_view(*p_).substr(p_->size() - s.size()) == s;
  }

  friend bool operator==(const Interned& a, const Interned& b) noexcept { return a.p_ == b.p_; }
  friend bool operator==(const Interned& a, std::string_view b) noexcept { return std::string_view(*a.p_) == b; }
  friend bool operator==(const Interned& a, const std::string& b) noexcept { return *a.p_ == b; }
  friend bool operator==(const Interned& a, const char* b) noexcept { return *a.p_ == b; }
  friend auto operator<=>(const Interned& a, const Interned& b) noexcept { return *a.p_ <=> *b.p_; }
  friend auto operator<=>(const Interned& a, std::string_view b) noexcept { return std::string_view(*a.p_) <=> b; }
  friend auto operator<=>(const Interned& a, const std::string& b) noexcept { return *a.p_ <=> b; }
  friend auto operator<=>(const Interned& a, const char* b) noexcept { return std::string_view(*a.p_) <=> b; }
  friend std::string operator+(const Interned& a, std::string_view b) { return std::string(*a.p_).append(b); }
  friend std::string operator+(const Interned& a, const std::string& b) { return *a.p_ + b; }
  friend std::string operator+(const Interned& a, const char* b) { return *a.p_ + b; }
  friend std::string operator+(const Interned& a, char b) { return *a.p_ + b; }
  friend std::string operator+(const std::string& a, const Interned& b) { return a + *b.p_; }
  friend std::string operator+(const char* a, const Interned& b) { return a + *b.p_; }
  friend std::string operator+(char a, const Interned& b) { return a + *b.p_; }
  /// Writes the text (test frameworks print values this way).
  friend std::ostream& operator<<(std::ostream& os, const Interned& s) { return os << *s.p_; }

 private:
  const std::string* p_;  // owned by the process-wide table; never null
};

/// A fact's stored fields: name -> value, sorted by name, in one vector held by pointer (8 bytes
/// in the fact, none allocated while empty: most facts store no field, their provider answers,
/// and an audit of ROCm/aiter holds about two million of those at once). Reads like the std::map
/// it replaces: find/count by name, iteration in name order as (name, value) pairs. Copies copy
/// the fields.
class FieldMap {
 public:
  using value_type = std::pair<std::string, Value>;
  using const_iterator = std::vector<value_type>::const_iterator;
  FieldMap() noexcept = default;
  FieldMap(const FieldMap& o) : v_(o.v_ ? std::make_unique<std::vector<value_type>>(*o.v_) : nullptr) {}
  FieldMap(FieldMap&&) noexcept = default;
  FieldMap& operator=(const FieldMap& o) {
    if (this != &o) v_ = o.v_ ? std::make_unique<std::vector<value_type>>(*o.v_) : nullptr;
    return *this;
  }
  FieldMap& operator=(FieldMap&&) noexcept = default;
  ~FieldMap() = default;
  const_iterator begin() const noexcept { return items().begin(); }
  const_iterator end() const noexcept { return items().end(); }
  bool empty() const noexcept { return !v_ || v_->empty(); }
  std::size_t size() const noexcept { return v_ ? v_->size() : 0; }
  /// The field named `name`, or end().
  const_iterator find(std::string_view name) const noexcept;
  std::size_t count(std::string_view name) const noexcept { return find(name) == end() ? 0 : 1; }
  /// Sets (or replaces) field `name`. Throws std::bad_alloc only.
  void insert_or_assign(std::string name, Value v);

 private:
  /// The fields, or one shared empty list while none is stored.
  const std::vector<value_type>& items() const noexcept;
  std::unique_ptr<std::vector<value_type>> v_;
};

/// One fact: a typed record produced by a fact source. `source` names the source that made it
/// ("lines", "functions", ...); `file` and `line` locate it (empty / 0 for pull-request-level
/// facts). Other fields live in `fields` (or come from `provider`); `get` also answers "file", "line", "end_line",
/// "column" from the location members.
struct Fact {
  Interned source;
  Interned file;         ///< repository-relative path, '/'-separated
  int line = 0;          ///< 1-based head line (base line for base-scope facts); 0 = none
  int end_line = 0;      ///< inclusive; 0 = same as line
  int column = 0;        ///< 1-based; 0 = unknown
  int provider_index = 0;  ///< which record of `provider` this fact is
  FieldMap fields;
  /// Optional lazily computed fields: asked (with `provider_index`) for names `fields` lacks.
  /// Not owned: whoever makes the fact keeps the provider alive as long as the fact (a fact
  /// source's facts of one file share one provider, held by their block, util::FactBlock; a
  /// pointer here instead of a shared_ptr makes a fact 48 bytes, not 56, over millions of line
  /// facts in an audit).
  const FieldProvider* provider = nullptr;

  /// Returns the field's value: from `fields`, else from `provider` (never for a location
  /// name), else the location members ("file", "line", "end_line", "column"); null when the
  /// fact has no such field.
  Value get(std::string_view name) const;
  /// Returns field `name` as a view when it is a string the fact (a stored field, "file") or its
  /// provider (FieldProvider::text) owns, without copying it; nullopt when it is not one of those
  /// (absent, not a string, or a provider field computed on request): `get` then answers. When
  /// it returns a view, `get` returns a string equal to it. The view lives as long as the fact.
  std::optional<std::string_view> text(std::string_view name) const;
  /// Sets (or replaces) a field. Only for the fact source that builds the fact.
  void set(std::string name, Value v) { fields.insert_or_assign(std::move(name), std::move(v)); }
  /// Returns how many named fields the fact carries: `fields` plus the provider's names.
  std::size_t field_count() const;
};

/// Returns a new mutable fact; the caller fills it and then shares it as a FactPtr.
std::shared_ptr<Fact> make_fact(Interned source, Interned file = {}, int line = 0);

}  // namespace review::dsl

/// Hashes an interned string as its text (so it agrees with std::hash<std::string_view>).
template <>
struct std::hash<review::dsl::Interned> {
  std::size_t operator()(const review::dsl::Interned& s) const noexcept { return std::hash<std::string_view>{}(s); }
};
