#include "runner/cli/rulesets.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dsl/diagnostic.hpp"
#include "runner/cli/embedded.hpp"
#include "runner/facts/schema.hpp"

namespace review::cli {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& p, PolicySource* policy) {
  if (policy) return policy->read(p.string());
  PolicySource here("", "");
  return here.read(p.string());
}

// A --ruleset argument names a file only when it looks like a path ("./atom", "rules/x.rules") or
// when no shipped ruleset has that name: a file the pull request adds ("atom") never shadows the
// shipped ruleset.
bool looks_like_path(const std::string& s) { return s.find('/') != std::string::npos || s.find('\\') != std::string::npos; }

constexpr std::string_view kShipped = "<shipped>/";

bool ends_with_rules(const std::string& s) {
  return s.size() >= 6 && s.compare(s.size() - 6, 6, ".rules") == 0;
}

// The embedded file at `path` (relative to rulesets/), as (display name, text).
std::optional<std::pair<std::string, std::string>> embedded_file(const std::string& path) {
  for (const auto& f : embedded_rulesets())
    if (f.name == path) return std::make_pair(std::string(kShipped) + path, std::string(f.text));
  return std::nullopt;
}

// A shipped ruleset by name: the single file NAME.rules, else the folder entry NAME/NAME.rules.
std::optional<std::pair<std::string, std::string>> shipped(std::string name) {
  if (ends_with_rules(name)) name.resize(name.size() - 6);
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  if (auto f = embedded_file(name + ".rules")) return f;
  return embedded_file(name + "/" + name + ".rules");
}

// The entry file of a folder ruleset: DIR/<basename of DIR>.rules.
fs::path folder_entry(const std::string& dir) {
  fs::path d = fs::path(dir).lexically_normal();
  if (d.filename().empty()) d = d.parent_path();
  return d / (d.filename().string() + ".rules");
}

}  // namespace

std::optional<std::pair<std::string, std::string>> find_ruleset(const std::string& arg, PolicySource* policy) {
  if (!looks_like_path(arg))
    if (auto s = shipped(arg)) return s;
  if (auto text = read_file(arg, policy)) return std::make_pair(arg, *text);
  if (!ends_with_rules(arg)) {  // a folder ruleset: its entry file
    fs::path entry = folder_entry(arg);
    if (auto text = read_file(entry, policy)) return std::make_pair(entry.string(), *text);
  }
  return std::nullopt;
}

dsl::Resolver use_resolver(PolicySource* policy) {
  return [policy](const std::string& use, const std::string& from) -> std::optional<std::pair<std::string, std::string>> {
    if (from.rfind(kShipped, 0) == 0) {
      // A part of a shipped folder ruleset: relative to the including file inside rulesets/.
      fs::path rel = (fs::path(from.substr(kShipped.size())).parent_path() / use).lexically_normal();
      if (auto f = embedded_file(rel.generic_string())) return f;
    } else {
      fs::path p = fs::path(from).parent_path() / use;
      if (auto text = read_file(p, policy)) return std::make_pair(p.lexically_normal().string(), *text);
    }
    return shipped(fs::path(use).filename().string());
  };
}

std::vector<std::string> shipped_ruleset_names() {
  std::vector<std::string> out;
  for (const auto& f : embedded_rulesets()) {
    std::string n(f.name);
    if (!ends_with_rules(n)) continue;
    n.resize(n.size() - 6);
    auto slash = n.find('/');
    if (slash == std::string::npos) {
      out.push_back(n);  // a single-file ruleset
    } else if (n.substr(slash + 1) == n.substr(0, slash)) {
      out.push_back(n.substr(0, slash));  // a folder ruleset's entry; its parts are not listed
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

dsl::LoadResult load_ruleset_arg(const std::string& arg, const dsl::LoadOptions& opts, PolicySource* policy) {
  std::optional<std::pair<std::string, std::string>> found;
  auto refused = [&](const PolicyError& e) {
    dsl::LoadResult r;
    dsl::Diagnostic d;
    d.file = arg;
    d.message = e.message;
    r.diagnostics.push_back(d);
    return r;
  };
  try {
    found = find_ruleset(arg, policy);
  } catch (const PolicyError& e) {
    return refused(e);
  }
  if (!found) {
    dsl::LoadResult r;
    dsl::Diagnostic d;
    d.file = arg;
    std::string names;
    const std::vector<std::string> shipped = shipped_ruleset_names();
    for (const auto& n : shipped) names += (names.empty() ? "" : ", ") + n;
    const bool policy_path = policy && !policy->revision().empty() && looks_like_path(arg);
    std::string hint = dsl::did_you_mean(arg, shipped);
    // else a near miss of a ruleset file in the folder named: "did you mean `rules/team.rules`?"
    if (hint.empty() && !policy_path && (looks_like_path(arg) || arg.ends_with(".rules"))) {
      std::error_code ec;
      const std::filesystem::path p(arg);
      const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
      std::vector<std::string> near;
      for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.path().extension() == ".rules")
          near.push_back(p.has_parent_path() ? (dir / e.path().filename()).string() : e.path().filename().string());
      std::sort(near.begin(), near.end());
      hint = dsl::did_you_mean(arg, near);
    }
    d.message = policy_path ? "no ruleset file of that name in " + policy->revision() +
                                  ", where the review policy is read from (a ruleset this change adds cannot review it)"
                            : "no ruleset file of that name, and no shipped ruleset called that (shipped: " +
                                  (names.empty() ? std::string("none") : names) + ")" + hint;
    r.diagnostics.push_back(d);
    return r;
  }
  try {
    return dsl::load_ruleset(found->first, found->second, facts::fact_schema(), use_resolver(policy), opts);
  } catch (const PolicyError& e) {
    return refused(e);
  }
}

}  // namespace review::cli
