#include "dsl/focus.hpp"

namespace review::dsl {

namespace {
std::string key_of(const std::string& source, const Scope& scope) {
  std::string key = source + '\0' + std::to_string(static_cast<int>(scope.kind));
  for (const auto& p : scope.patterns) key += '\0' + p;
  return key;
}
}  // namespace

void FileFocus::focus(const std::string& path) {
  focused_.clear();
  file_ = path;
}

void FileFocus::unfocus() {
  focused_.clear();
  grouped_.clear();
  file_.reset();
}

bool FileFocus::takes_scope(const std::string& source) const {
  for (const auto& s : inner_.schema())
    if (s.name == source) return s.takes_scope;
  return true;
}

const std::vector<FactPtr>& FileFocus::query(const std::string& source, const Scope& scope) {
  if (!file_ || !takes_scope(source)) return inner_.query(source, scope);
  std::string key = key_of(source, scope);
  auto it = focused_.find(key);
  if (it != focused_.end()) return it->second;
  if (inner_.builds_per_file(source) && scope.kind != Scope::Kind::Named)
    return focused_.emplace(key, inner_.query_file(source, scope, *file_)).first->second;
  auto g = grouped_.find(key);
  if (g == grouped_.end()) {
    g = grouped_.emplace(key, std::unordered_map<std::string, std::vector<FactPtr>>{}).first;
    for (const auto& f : inner_.query(source, scope)) g->second[f->file].push_back(f);
  }
  static const std::vector<FactPtr> none;
  auto at = g->second.find(*file_);
  return at == g->second.end() ? none : at->second;
}

const std::vector<FactPtr>* FileFocus::query_containing(const std::string& source, const Scope& scope,
                                                        const std::vector<std::string>& words) {
  if (file_) return nullptr;
  return inner_.query_containing(source, scope, words);
}

}  // namespace review::dsl
