#include "runner/lang/python/classes.hpp"

#include <algorithm>
#include <cctype>
#include <deque>

namespace review::lang {
namespace {

bool word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Calls f(name, is_write) for each `self.NAME` in the code of one line (strings blanked).
template <class F>
void self_uses(std::string_view code, F&& f) {
  for (size_t at = code.find("self."); at != std::string_view::npos; at = code.find("self.", at + 5)) {
    if (at > 0 && (word(code[at - 1]) || code[at - 1] == '.')) continue;
    size_t b = at + 5, e = b;
    while (e < code.size() && word(code[e])) ++e;
    if (e == b) continue;
    size_t k = e;
    while (k < code.size() && code[k] == ' ') ++k;
    bool write = k < code.size() && code[k] == '=' && (k + 1 >= code.size() || code[k + 1] != '=');
    // `self.x: T = …` (an annotated statement) is a write too.
    if (!write && k < code.size() && code[k] == ':' && code.find_first_not_of(" \t") == at) write = true;
    f(code.substr(b, e - b), write);
  }
}

std::string last_part(std::string_view base) {
  size_t br = base.find('[');
  if (br != std::string_view::npos) base = base.substr(0, br);
  while (!base.empty() && std::isspace(static_cast<unsigned char>(base.back()))) base.remove_suffix(1);
  size_t dot = base.rfind('.');
  return std::string(dot == std::string_view::npos ? base : base.substr(dot + 1));
}

}  // namespace

std::string base_name(std::string_view base) {
  if (base.find('=') != std::string_view::npos) return "";  // metaclass=…
  std::string n = last_part(base);
  return n == "object" ? "" : n;
}

void ClassModel::add(const SourceModel& m) {
  if (m.language != Language::Python) return;
  for (const auto& k : m.classes) {
    ClassInfo c;
    c.name = k.name;
    c.qualified = k.qualified;
    c.file = m.path;
    c.line = k.start_line;
    c.end_line = k.end_line;
    c.bases = k.bases;
    const std::string prefix = k.qualified + ".";
    for (const auto& f : m.functions) {
      if (f.qualified != prefix + f.name) continue;
      c.methods.push_back(&f);
      for (int ln = f.start_line; ln <= f.end_line && ln <= static_cast<int>(m.lines.size()); ++ln)
        self_uses(m.code(static_cast<size_t>(ln - 1)), [&](std::string_view name, bool write) {
          (write ? c.assigns : c.reads)[std::string(name)].push_back({f.name, ln});
        });
    }
    // Class-body names (`x = 1`, `x: int = 1`) are provided to every instance.
    for (const auto& a : m.assignments)
      if (a.line > k.start_line && a.line <= k.end_line && a.cls == k.name &&
          a.function.compare(0, prefix.size(), prefix) != 0 &&
          std::all_of(a.target.begin(), a.target.end(), word))
        c.assigns[a.target].push_back({"", a.line});
    by_name_[c.name].push_back(classes_.size());
    classes_.push_back(std::move(c));
    models_.push_back(&m);
  }
}

void ClassModel::resolve() {
  children_.assign(classes_.size(), {});
  for (size_t i = 0; i < classes_.size(); ++i) {
    auto& c = classes_[i];
    c.resolved.assign(c.bases.size(), -1);
    for (size_t b = 0; b < c.bases.size(); ++b) {
      std::string n = base_name(c.bases[b]);
      if (n.empty()) continue;
      auto it = by_name_.find(n);
      if (it == by_name_.end()) continue;
      int pick = -1, same_file = -1, count = 0;
      for (size_t j : it->second) {
        if (j == i) continue;
        ++count;
        pick = static_cast<int>(j);
        if (classes_[j].file == c.file) same_file = static_cast<int>(j);
      }
      int r = same_file >= 0 ? same_file : (count == 1 ? pick : -1);
      c.resolved[b] = r;
      if (r >= 0) children_[static_cast<size_t>(r)].push_back(i);
    }
  }
}

std::vector<size_t> ClassModel::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? std::vector<size_t>{} : it->second;
}

std::vector<size_t> ClassModel::subclasses(size_t c) const {
  std::vector<size_t> out;
  if (c >= children_.size()) return out;
  std::vector<char> seen(classes_.size(), 0);
  seen[c] = 1;
  std::deque<size_t> q(children_[c].begin(), children_[c].end());
  while (!q.empty()) {
    size_t k = q.front();
    q.pop_front();
    if (seen[k]) continue;
    seen[k] = 1;
    out.push_back(k);
    for (size_t g : children_[k]) q.push_back(g);
  }
  return out;
}

std::vector<size_t> ClassModel::ancestors(size_t c) const {
  std::vector<size_t> out;
  if (c >= classes_.size()) return out;
  std::vector<char> seen(classes_.size(), 0);
  seen[c] = 1;
  std::deque<size_t> q;
  for (int r : classes_[c].resolved)
    if (r >= 0) q.push_back(static_cast<size_t>(r));
  while (!q.empty()) {
    size_t k = q.front();
    q.pop_front();
    if (seen[k]) continue;
    seen[k] = 1;
    out.push_back(k);
    for (int r : classes_[k].resolved)
      if (r >= 0) q.push_back(static_cast<size_t>(r));
  }
  return out;
}

const Function* ClassModel::method(size_t c, std::string_view name) const {
  if (c >= classes_.size()) return nullptr;
  for (const Function* f : classes_[c].methods)
    if (f->name == name) return f;
  return nullptr;
}

bool ClassModel::provides(size_t c, std::string_view name) const {
  if (c >= classes_.size()) return false;
  std::vector<size_t> chain = ancestors(c);
  chain.insert(chain.begin(), c);
  for (size_t k : chain)
    if (classes_[k].assigns.count(std::string(name)) || method(k, name)) return true;
  return false;
}

int ClassModel::defining_class(size_t c, std::string_view name) const {
  if (c >= classes_.size()) return -1;
  if (method(c, name)) return static_cast<int>(c);
  for (size_t k : ancestors(c))
    if (method(k, name)) return static_cast<int>(k);
  return -1;
}

std::vector<size_t> ClassModel::overridden_by(size_t c, std::string_view name) const {
  std::vector<size_t> out;
  if (!method(c, name)) return out;
  for (size_t s : subclasses(c))
    if (method(s, name)) out.push_back(s);
  return out;
}

std::vector<size_t> ClassModel::inherited_by(size_t c, std::string_view name) const {
  std::vector<size_t> out;
  if (!method(c, name)) return out;
  for (size_t s : subclasses(c))
    if (defining_class(s, name) == static_cast<int>(c)) out.push_back(s);
  return out;
}

}  // namespace review::lang
