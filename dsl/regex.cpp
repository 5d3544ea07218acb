#include "dsl/regex.hpp"

#include <cctype>

namespace review::dsl {

namespace {
std::string substitute(const std::string& p, const std::vector<RegexHole>& holes,
                       const std::vector<std::string>& values) {
  std::string out;
  size_t at = 0;
  for (size_t i = 0; i < holes.size(); ++i) {
    out.append(p, at, holes[i].offset - at);
    out += i < values.size() ? values[i] : std::string("x");
    at = holes[i].offset + holes[i].length;
  }
  out.append(p, at, std::string::npos);
  return out;
}
}  // namespace

std::vector<size_t> required_holes(const std::string& p, const std::vector<RegexHole>& holes,
                                   bool grouped_alternation) {
  std::vector<size_t> out;
  if (p.find("\\Q") != std::string::npos) return out;
  for (size_t i = 0; i + 1 < p.size(); ++i)
    if (p[i] == '(' && p[i + 1] == '?' && (i == 0 || p[i - 1] != '\\')) {
      for (size_t j = i + 2; j < p.size() && (std::isalpha(static_cast<unsigned char>(p[j])) || p[j] == '-'); ++j)
        if (p[j] == 'i') return out;
    }
  // the group depth at every hole (-1 inside a class); any alternation disqualifies every hole
  std::vector<int> depth_at(p.size() + 1, -1);
  int depth = 0;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    bool is_hole = false;
    for (const auto& h : holes)
      if (h.offset == i) {
        depth_at[i] = in_class ? -1 : depth;
        i += h.length - 1;
        is_hole = true;
        break;
      }
    if (is_hole) continue;
    char c = p[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == '|' && (!grouped_alternation || depth == 0)) {
      return out;
    }
  }
  for (size_t k = 0; k < holes.size(); ++k) {
    const RegexHole& h = holes[k];
    if (depth_at[h.offset] != 0) continue;
    size_t after = h.offset + h.length;
    bool next_is_hole = false;
    for (const auto& o : holes) next_is_hole = next_is_hole || o.offset == after;
    if (after < p.size() && !next_is_hole && (p[after] == '?' || p[after] == '*' || p[after] == '{')) continue;
    out.push_back(k);
  }
  return out;
}

std::unique_ptr<CompiledRegex> compile_regex(const std::string& pattern, std::string& error) {
  auto c = std::make_unique<CompiledRegex>();
  c->pattern = pattern;
  c->holes = regex_holes(pattern);
  c->required = required_holes(pattern, c->holes);
  auto re = std::make_shared<const re2::RE2>(substitute(pattern, c->holes, {}), re2::RE2::Quiet);
  if (!re->ok()) {
    error = re->error();
    if (!re->error_arg().empty() && error.find(re->error_arg()) == std::string::npos)
      error += ": " + re->error_arg();
    return nullptr;
  }
  c->group_names.assign(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1, "");
  for (const auto& [name, idx] : re->NamedCapturingGroups())
    if (idx >= 0 && static_cast<size_t>(idx) < c->group_names.size()) c->group_names[idx] = name;
  c->re = std::move(re);
  return c;
}

std::shared_ptr<const re2::RE2> CompiledRegex::instance(const std::vector<std::string>& values) const {
  if (holes.empty()) return re;
  // keyed by the values (each as length ':' text): the pattern is quoted and built only once
  std::string key;
  for (const auto& v : values) {
    key += std::to_string(v.size());
    key += ':';
    key += v;
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  if (cache_.size() >= kMaxRegexInstances) {
    // forget the oldest instance; callers holding it keep it alive through their shared_ptr
    cache_.erase(order_.front());
    order_.pop_front();
  }
  std::vector<std::string> quoted;
  for (const auto& v : values) quoted.push_back(re2::RE2::QuoteMeta(v));
  auto r = std::make_shared<const re2::RE2>(substitute(pattern, holes, quoted), re2::RE2::Quiet);
  std::shared_ptr<const re2::RE2> kept = r->ok() ? std::move(r) : nullptr;
  cache_.emplace(key, kept);
  order_.push_back(std::move(key));
  return kept;
}

size_t CompiledRegex::cached_instances() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.size();
}

void CompiledRegex::clear_instances() const {
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> dropped;
  std::deque<std::string> keys;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dropped.swap(cache_);
    keys.swap(order_);
  }
}

bool regex_search(const re2::RE2& re, std::string_view text, std::vector<std::string>* groups) {
  if (!groups)  // no submatches asked: RE2 answers from its DFA alone
    return re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED, nullptr, 0);
  int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> sub(static_cast<size_t>(n));
  if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED,
                sub.data(), n))
    return false;
  if (groups) {
    groups->assign(static_cast<size_t>(n), "");
    for (int i = 0; i < n; ++i)
      if (sub[i].data()) (*groups)[i] = std::string(sub[i].data(), sub[i].size());
  }
  return true;
}

}  // namespace review::dsl
