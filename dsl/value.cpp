#include "dsl/value.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_set>

namespace review::dsl {

namespace {
// The process-wide table of interned strings. Nodes of an unordered_set never move, so the
// pointers Interned holds stay valid for the life of the process (the table is never destroyed:
// facts in static caches may outlive static destruction order).
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
struct InternTable {
  std::mutex mu;
  std::unordered_set<std::string, TextHash, std::equal_to<>> strings;
};
InternTable& intern_table() {
  static auto* t = new InternTable;  // NOLINT: deliberately never destroyed
  return *t;
}
const std::string* empty_interned() {
  static const std::string* e = [] {
    auto& t = intern_table();
    std::lock_guard lock(t.mu);
    return &*t.strings.emplace().first;
  }();
  return e;
}
}  // namespace

Interned::Interned() noexcept : p_(empty_interned()) {}

Interned::Interned(std::string_view s) {
  if (s.empty()) {
    p_ = empty_interned();
    return;
  }
  // A source makes its facts file by file: the last values this thread interned (its source
  // name and the path) answer most calls without the lock and the hash.
  thread_local const std::string* recent[2] = {nullptr, nullptr};
  for (const std::string* r : recent)
    if (r && *r == s) {
      p_ = r;
      return;
    }
  auto& t = intern_table();
  {
    std::lock_guard lock(t.mu);
    auto it = t.strings.find(s);
    if (it == t.strings.end()) it = t.strings.emplace(s).first;
    p_ = &*it;
  }
  recent[1] = recent[0];
  recent[0] = p_;
}

std::string_view type_name(Type t) {
  switch (t) {
    case Type::Any: return "any";
    case Type::Null: return "null";
    case Type::Bool: return "bool";
    case Type::Int: return "int";
    case Type::String: return "string";
    case Type::List: return "list";
    case Type::Fact: return "fact";
  }
  return "any";
}

Type Value::type() const {
  switch (v_.index()) {
    case 0: return Type::Null;
    case 1: return Type::Bool;
    case 2: return Type::Int;
    case 3: return Type::String;
    case 4: return Type::List;
    default: return Type::Fact;
  }
}

bool Value::as_bool() const { return is_bool() ? std::get<bool>(v_) : false; }
int64_t Value::as_int() const { return is_int() ? std::get<int64_t>(v_) : 0; }

const std::string& Value::as_string() const {
  static const std::string empty;
  return is_string() ? std::get<std::string>(v_) : empty;
}

const Value::List& Value::as_list() const {
  static const List empty;
  return is_list() ? *std::get<std::shared_ptr<const List>>(v_) : empty;
}

const FactPtr& Value::as_fact() const {
  static const FactPtr none;
  return is_fact() ? std::get<FactPtr>(v_) : none;
}

bool Value::truthy() const {
  switch (v_.index()) {
    case 0: return false;
    case 1: return as_bool();
    case 2: return as_int() != 0;
    case 3: return !as_string().empty();
    case 4: return !as_list().empty();
    default: return as_fact() != nullptr;
  }
}

std::string Value::to_text() const {
  switch (v_.index()) {
    case 0: return {};
    case 1: return as_bool() ? "true" : "false";
    case 2: return std::to_string(as_int());
    case 3: return as_string();
    case 4: {
      std::string out;
      for (const auto& v : as_list()) {
        if (!out.empty()) out += ", ";
        out += v.to_text();
      }
      return out;
    }
    default: {
      const auto& f = as_fact();
      if (!f) return {};
      Value t = f->get("text");
      if (t.is_string()) return t.as_string();
      Value n = f->get("name");
      if (n.is_string()) return n.as_string();
      return f->line ? f->file + ":" + std::to_string(f->line) : f->file.str();
    }
  }
}

bool operator==(const Value& a, const Value& b) {
  if (a.v_.index() != b.v_.index()) return false;
  switch (a.v_.index()) {
    case 0: return true;
    case 1: return a.as_bool() == b.as_bool();
    case 2: return a.as_int() == b.as_int();
    case 3: return a.as_string() == b.as_string();
    case 4: return a.as_list() == b.as_list();
    default: {
      const auto& x = a.as_fact();
      const auto& y = b.as_fact();
      if (x == y) return true;
      if (!x || !y) return false;
      return x->source == y->source && x->file == y->file && x->line == y->line &&
             x->column == y->column && x->field_count() == y->field_count() &&
             x->get("name") == y->get("name");
    }
  }
}

namespace {
// The fields a fact's own members answer (file, line, end_line, column), never its provider.
bool is_location(std::string_view name) {
  return name == "line" || name == "file" || name == "end_line" || name == "column";
}
}  // namespace

Value Fact::get(std::string_view name) const {
  if (!fields.empty())
    if (auto it = fields.find(name); it != fields.end()) return it->second;
  if (provider && !is_location(name)) {  // providers never answer the location members (FieldProvider)
    Value v = provider->field(provider_index, name);
    if (!v.is_null()) return v;
  }
  if (name == "file") return file.empty() ? Value() : Value(file.str());
  if (name == "line") return Value(line);
  if (name == "end_line") return Value(end_line ? end_line : line);
  if (name == "column") return Value(column);
  return {};
}

std::optional<std::string_view> Fact::text(std::string_view name) const {
  if (!fields.empty())
    if (auto it = fields.find(name); it != fields.end())
      return it->second.is_string() ? std::optional<std::string_view>(it->second.as_string()) : std::nullopt;
  if (provider && !is_location(name)) return provider->text(provider_index, name);
  if (name == "file" && !file.empty()) return std::string_view(file);
  return std::nullopt;
}

FieldProvider::~FieldProvider() = default;

const std::vector<FieldMap::value_type>& FieldMap::items() const noexcept {
  static const std::vector<value_type> kNone;
  return v_ ? *v_ : kNone;
}

FieldMap::const_iterator FieldMap::find(std::string_view name) const noexcept {
  const auto& v = items();
  auto it = std::lower_bound(v.begin(), v.end(), name,
                             [](const value_type& x, std::string_view n) { return x.first < n; });
  return it != v.end() && it->first == name ? it : v.end();
}

void FieldMap::insert_or_assign(std::string name, Value v) {
  if (!v_) v_ = std::make_unique<std::vector<value_type>>();
  auto it = std::lower_bound(v_->begin(), v_->end(), name,
                             [](const value_type& x, const std::string& n) { return x.first < n; });
  if (it != v_->end() && it->first == name)
    it->second = std::move(v);
  else
    v_->emplace(it, std::move(name), std::move(v));
}

std::size_t Fact::field_count() const {
  std::size_t n = fields.size();
  if (provider)
    for (const auto& x : provider->names())
      if (!fields.count(x)) ++n;
  return n;
}

std::shared_ptr<Fact> make_fact(Interned source, Interned file, int line) {
  auto f = std::make_shared<Fact>();
  f->source = std::move(source);
  f->file = std::move(file);
  f->line = line;
  return f;
}

}  // namespace review::dsl
