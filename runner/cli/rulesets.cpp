#include "runner/cli/rulesets.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/cli/embedded.hpp"
#include "runner/facts/schema.hpp"

namespace review::cli {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<std::pair<std::string, std::string>> shipped(std::string name) {
  if (name.size() < 6 || name.compare(name.size() - 6, 6, ".rules") != 0) name += ".rules";
  for (const auto& f : embedded_rulesets())
    if (f.name == name) return std::make_pair("<shipped>/" + name, std::string(f.text));
  return std::nullopt;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> find_ruleset(const std::string& arg) {
  if (auto text = read_file(arg)) return std::make_pair(arg, *text);
  if (arg.find('/') == std::string::npos) return shipped(arg);
  return std::nullopt;
}

dsl::Resolver use_resolver() {
  return [](const std::string& use, const std::string& from) -> std::optional<std::pair<std::string, std::string>> {
    if (from.rfind("<shipped>/", 0) != 0) {
      fs::path p = fs::path(from).parent_path() / use;
      if (auto text = read_file(p)) return std::make_pair(p.lexically_normal().string(), *text);
    }
    return shipped(fs::path(use).filename().string());
  };
}

std::vector<std::string> shipped_ruleset_names() {
  std::vector<std::string> out;
  for (const auto& f : embedded_rulesets()) {
    std::string n(f.name);
    out.push_back(n.substr(0, n.size() - 6));
  }
  return out;
}

dsl::LoadResult load_ruleset_arg(const std::string& arg, const dsl::LoadOptions& opts) {
  auto found = find_ruleset(arg);
  if (!found) {
    dsl::LoadResult r;
    dsl::Diagnostic d;
    d.file = arg;
    std::string names;
    for (const auto& n : shipped_ruleset_names()) names += (names.empty() ? "" : ", ") + n;
    d.message = "no ruleset file of that name, and no shipped ruleset called that (shipped: " +
                (names.empty() ? std::string("none") : names) + ")";
    r.diagnostics.push_back(d);
    return r;
  }
  return dsl::load_ruleset(found->first, found->second, facts::fact_schema(), use_resolver(), opts);
}

}  // namespace review::cli
