#include "runner/cli/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace review::cli {
namespace {

std::string pos(const std::string& name, const YAML::Node& n) {
  const auto m = n.Mark();
  if (m.line < 0) return name;
  return name + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

std::string scalar(const std::string& name, const YAML::Node& n, const char* key) {
  if (!n.IsScalar()) throw ConfigError{pos(name, n) + ": `" + key + "` must be a single value"};
  return n.Scalar();
}

std::string one_of(const std::string& name, const YAML::Node& n, const char* key, const std::vector<std::string>& allowed) {
  std::string v = scalar(name, n, key);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw ConfigError{pos(name, n) + ": `" + key + "` must be one of " + list + " (got \"" + v + "\")"};
  }
  return v;
}

std::vector<std::string> strings(const std::string& name, const YAML::Node& n, const char* key) {
  std::vector<std::string> out;
  if (n.IsScalar()) {
    out.push_back(n.Scalar());
    return out;
  }
  if (!n.IsSequence()) throw ConfigError{pos(name, n) + ": `" + key + "` must be a list of strings"};
  for (const auto& item : n) {
    if (!item.IsScalar()) throw ConfigError{pos(name, item) + ": `" + key + "` must be a list of strings"};
    out.push_back(item.Scalar());
  }
  return out;
}

}  // namespace

ReviewConfig parse_review_config(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError{name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg};
  }
  ReviewConfig c;
  if (!root || root.IsNull()) return c;
  if (!root.IsMap()) throw ConfigError{pos(name, root) + ": the configuration must be a mapping of keys to values"};
  static const std::vector<std::string> keys = {"rulesets", "fail-on", "filter", "baseline", "exclude", "severity",
                                                   "inline-suppressions", "repos"};
  for (const auto& kv : root) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const YAML::Node& v = kv.second;
    if (key == "rulesets") c.rulesets = strings(name, v, "rulesets");
    else if (key == "fail-on") c.fail_on = one_of(name, v, "fail-on", {"block", "warn", "note", "never"});
    else if (key == "filter") c.filter = one_of(name, v, "filter", {"added", "context", "file", "all"});
    else if (key == "baseline") c.baseline = scalar(name, v, "baseline");
    else if (key == "exclude") c.exclude = strings(name, v, "exclude");
    else if (key == "inline-suppressions") c.inline_suppressions = one_of(name, v, "inline-suppressions", {"all", "base-only"});
    else if (key == "severity") {
      if (!v.IsMap()) throw ConfigError{pos(name, v) + ": `severity` must map rule ids to block, warn, note or off"};
      for (const auto& r : v) c.severity[r.first.Scalar()] = one_of(name, r.second, "severity", {"block", "warn", "note", "off"});
    } else if (key == "repos") {
      if (!v.IsMap()) throw ConfigError{pos(name, v) + ": `repos` must map repository names to PATH[@REV]"};
      for (const auto& r : v) c.repos[r.first.Scalar()] = scalar(name, r.second, "repos");
    } else {
      std::string best;
      size_t bd = 3;
      for (const auto& k : keys)
        if (size_t d = distance(key, k); d < bd) bd = d, best = k;
      throw ConfigError{pos(name, kv.first) + ": unknown key `" + key + "`" +
                        (best.empty() ? "; known keys: rulesets, fail-on, filter, baseline, exclude, severity, inline-suppressions, repos"
                                      : "; did you mean `" + best + "`?")};
    }
  }
  return c;
}

ReviewConfig load_review_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError{path + ": cannot read the configuration file"};
  std::ostringstream s;
  s << in.rdbuf();
  return parse_review_config(s.str(), path);
}

}  // namespace review::cli
