#include "dsl/regex.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

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

std::vector<int> group_depths(const std::string& p, const std::vector<RegexHole>& holes) {
  std::vector<int> out(p.size(), -1);
  int depth = 0;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    bool is_hole = false;
    for (const auto& h : holes)
      if (h.offset == i && h.length > 0) {
        out[i] = in_class ? -1 : depth;
        i += h.length - 1;
        is_hole = true;
        break;
      }
    if (is_hole) continue;
    const char c = p[i];
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
      continue;
    }
    if (c == ')') --depth;
    out[i] = depth;
    if (c == '(') ++depth;
  }
  return out;
}

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
  // (with grouped_alternation, one outside every group)
  const std::vector<int> depth_at = group_depths(p, holes);
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] == '|' && depth_at[i] >= 0 && (!grouped_alternation || depth_at[i] == 0)) return out;
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

namespace {

// A recursive-descent reading of RE2 syntax, only as far as literal needs go.
class NeedsReader {
 public:
  using Need = LiteralNeeds::Need;
  using Needs = std::vector<Need>;

  NeedsReader(const std::string& p, const std::vector<RegexHole>& holes) : p_(p), holes_(holes) {}

  /// The top-level alternatives' needs; nullopt when the pattern defeats a prefilter.
  std::optional<std::vector<Needs>> read() {
    auto alts = alternation();
    if (bail_ || i_ != p_.size()) return std::nullopt;
    return alts;
  }

 private:
  const std::string& p_;
  const std::vector<RegexHole>& holes_;
  size_t i_ = 0;
  bool bail_ = false;

  bool same(const Need& a, const Need& b) const {
    if ((a.hole < 0) != (b.hole < 0)) return false;
    if (a.hole < 0) return a.text == b.text;
    const RegexHole& x = holes_[static_cast<size_t>(a.hole)];
    const RegexHole& y = holes_[static_cast<size_t>(b.hole)];
    return x.name == y.name && x.path == y.path;
  }

  std::vector<Needs> alternation() {
    std::vector<Needs> alts{sequence()};
    while (!bail_ && i_ < p_.size() && p_[i_] == '|') {
      ++i_;
      alts.push_back(sequence());
    }
    return alts;
  }

  const RegexHole* hole_at(size_t at) const {
    for (const auto& h : holes_)
      if (h.offset == at) return &h;
    return nullptr;
  }

  // The minimum count of the quantifier at i_ (consumed, with a trailing `?`): 1 when none;
  // `quantified` says whether there was one.
  int quantifier(bool& quantified) {
    int min = 1;
    quantified = false;
    if (i_ >= p_.size()) return min;
    char c = p_[i_];
    if (c == '*' || c == '?') {
      min = 0;
      ++i_;
    } else if (c == '+') {
      ++i_;
    } else if (c == '{' && !hole_at(i_)) {
      size_t j = i_ + 1, digits = 0;
      int n = 0;
      while (j < p_.size() && std::isdigit(static_cast<unsigned char>(p_[j]))) {
        if (n < 100000) n = n * 10 + (p_[j] - '0');
        ++j, ++digits;
      }
      if (digits == 0) return min;  // not a repetition: a literal `{` (read as the next atom)
      if (j < p_.size() && p_[j] == ',') {
        ++j;
        while (j < p_.size() && std::isdigit(static_cast<unsigned char>(p_[j]))) ++j;
      }
      if (j >= p_.size() || p_[j] != '}') return min;
      min = n;
      i_ = j + 1;
    } else {
      return min;
    }
    if (i_ < p_.size() && p_[i_] == '?') ++i_;  // non-greedy
    quantified = true;
    return min;
  }

  void skip_class() {  // at '['
    ++i_;
    if (i_ < p_.size() && p_[i_] == '^') ++i_;
    if (i_ < p_.size() && p_[i_] == ']') ++i_;
    while (i_ < p_.size() && p_[i_] != ']') {
      if (p_[i_] == '\\') {
        i_ += 2;
      } else if (p_[i_] == '[' && i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
        size_t end = p_.find(":]", i_ + 2);
        i_ = end == std::string::npos ? p_.size() : end + 2;
      } else {
        ++i_;
      }
    }
    if (i_ >= p_.size()) bail_ = true;  // unterminated: leave it to RE2
    else ++i_;
  }

  Needs sequence() {
    Needs out;
    std::string run;
    auto flush = [&] {
      if (run.size() >= 2) out.push_back({run, -1});
      run.clear();
    };
    while (!bail_ && i_ < p_.size() && p_[i_] != '|' && p_[i_] != ')') {
      enum { Char, Hole, Group, Other } kind = Other;
      char ch = 0;
      int hole = -1;
      Needs group;
      if (const RegexHole* h = hole_at(i_)) {
        kind = Hole;
        hole = static_cast<int>(h - holes_.data());
        i_ += h->length;
      } else if (p_[i_] == '\\') {
        if (i_ + 1 >= p_.size()) {
          bail_ = true;
          break;
        }
        char e = p_[i_ + 1];
        i_ += 2;
        if (e == 'Q') {
          bail_ = true;
          break;
        }
        if (!std::isalnum(static_cast<unsigned char>(e))) {
          kind = Char;  // escaped punctuation: itself
          ch = e;
        } else if ((e == 'p' || e == 'P' || e == 'x') && i_ < p_.size() && p_[i_] == '{') {
          size_t end = p_.find('}', i_);
          i_ = end == std::string::npos ? p_.size() : end + 1;
        } else if (e == 'x') {
          i_ = std::min(p_.size(), i_ + 2);
        } else if (e == 'p' || e == 'P') {
          i_ = std::min(p_.size(), i_ + 1);
        }
        // \d \w \s \b \A \z \n, octal and the like: no literal read here
      } else if (p_[i_] == '[') {
        skip_class();
      } else if (p_[i_] == '(') {
        ++i_;
        if (i_ < p_.size() && p_[i_] == '?') {
          ++i_;
          if (i_ < p_.size() && (p_[i_] == 'P' || p_[i_] == '<')) {
            size_t end = p_.find('>', i_);
            if (end == std::string::npos) {
              bail_ = true;
              break;
            }
            i_ = end + 1;
          } else {
            // flags: (?flags) or (?flags:...)
            size_t j = i_;
            while (j < p_.size() && p_[j] != ')' && p_[j] != ':') {
              if (p_[j] == 'i') bail_ = true;  // case-insensitive: literals need not be as written
              ++j;
            }
            if (bail_ || j >= p_.size()) {
              bail_ = true;
              break;
            }
            i_ = j + 1;
            if (p_[j] == ')') {  // a flag setting, zero width
              flush();
              continue;
            }
          }
        }
        auto alts = alternation();
        if (bail_ || i_ >= p_.size() || p_[i_] != ')') {
          bail_ = true;
          break;
        }
        ++i_;
        kind = Group;
        group = alts[0];  // what every alternative of the group needs
        for (size_t a = 1; a < alts.size(); ++a) {
          Needs kept;
          for (const auto& n : group)
            for (const auto& m : alts[a])
              if (same(n, m)) {
                kept.push_back(n);
                break;
              }
          group = std::move(kept);
        }
      } else if (p_[i_] == '.' || p_[i_] == '^' || p_[i_] == '$') {
        ++i_;
      } else {
        kind = Char;
        ch = p_[i_++];
      }
      bool quantified = false;
      int min = quantifier(quantified);
      switch (kind) {
        case Char:
          if (min == 0) {
            flush();
          } else {
            run += ch;
            if (quantified) flush();  // `ab+c`: a match holds "ab", not "abc"
          }
          break;
        case Hole:
          // `{w}?` quantifies the inserted text's last character, or, with an empty value, the
          // atom before the hole: neither the hole nor what precedes it is sure to be there
          if (quantified) bail_ = true;
          flush();
          if (min > 0) out.push_back({"", hole});
          break;
        case Group:
          flush();
          if (min > 0) out.insert(out.end(), group.begin(), group.end());
          break;
        case Other: flush(); break;
      }
    }
    flush();
    return out;
  }
};

}  // namespace

LiteralNeeds literal_needs(const std::string& pattern, const std::vector<RegexHole>& holes) {
  LiteralNeeds out;
  auto alts = NeedsReader(pattern, holes).read();
  if (!alts) return out;
  for (const auto& a : *alts)
    if (a.empty()) return out;  // an alternative that needs nothing: no prefilter
  out.any = std::move(*alts);
  return out;
}

bool LiteralNeeds::passes(std::string_view text, const std::vector<std::string>& hole_values) const {
  if (any.empty()) return true;
  for (const auto& alt : any) {
    bool all = true;
    for (const auto& n : alt) {
      if (n.hole >= 0) {
        const size_t k = static_cast<size_t>(n.hole);
        if (k < hole_values.size() && !hole_values[k].empty() && text.find(hole_values[k]) == std::string_view::npos)
          all = false;
      } else if (text.find(n.text) == std::string_view::npos) {
        all = false;
      }
      if (!all) break;
    }
    if (all) return true;
  }
  return false;
}

std::unique_ptr<CompiledRegex> compile_regex(const std::string& pattern, std::string& error) {
  auto c = std::make_unique<CompiledRegex>();
  c->pattern = pattern;
  c->holes = regex_holes(pattern);
  c->required = required_holes(pattern, c->holes);
  c->needs = literal_needs(pattern, c->holes);
  auto re = std::make_shared<const re2::RE2>(substitute(pattern, c->holes, {}), re2::RE2::Quiet);
  if (!re->ok()) {
    error = re->error();
    if (!re->error_arg().empty() && error.find(re->error_arg()) == std::string::npos)
      error += ": " + re->error_arg();
    return nullptr;
  }
  c->group_names.assign(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1, "");
  for (const auto& [name, idx] : re->NamedCapturingGroups())
    if (idx >= 0 && static_cast<size_t>(idx) < c->group_names.size()) {
      c->group_names[idx] = name;
      c->named = true;
    }
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
  const re2::StringPiece whole(text.data(), text.size());
  // No submatches asked: RE2 answers from its DFA alone. With submatches, RE2 goes straight to
  // its backtracker on a short text (re2.cc, RE2::Match: "skipped_test" for text no longer than
  // bit_state_text_max_size), which costs several times the DFA's pass; most texts do not match
  // (an audit asks every line of a repository), so the DFA decides first.
  if (!re.Match(whole, 0, text.size(), re2::RE2::UNANCHORED, nullptr, 0)) return false;
  if (!groups) return true;
  int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> sub(static_cast<size_t>(n));
  if (!re.Match(whole, 0, text.size(), re2::RE2::UNANCHORED, sub.data(), n)) return false;
  groups->assign(static_cast<size_t>(n), "");
  for (int i = 0; i < n; ++i)
    if (sub[i].data()) (*groups)[i] = std::string(sub[i].data(), sub[i].size());
  return true;
}

}  // namespace review::dsl
