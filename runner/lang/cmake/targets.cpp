#include "runner/lang/cmake/targets.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace review::lang {

namespace {

bool one_of(const std::string& s, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (s == w) return true;
  return false;
}

// "a/./b/../c" -> "a/c"; nullopt for a path that climbs out of the repository.
std::optional<std::string> normalise(const std::string& p) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string::npos) j = p.size();
    std::string seg = p.substr(i, j - i);
    if (seg == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!seg.empty() && seg != ".") {
      parts.push_back(seg);
    }
    i = j + 1;
  }
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : "/") + s;
  return out;
}

}  // namespace

std::vector<CMakeTarget> cmake_targets(const std::vector<CMakeCommand>& commands) {
  std::vector<CMakeTarget> out;
  for (const auto& c : commands) {
    if ((c.name != "add_library" && c.name != "add_executable") || c.args.empty()) continue;
    CMakeTarget t;
    t.name = c.args[0];
    t.command = c.name;
    t.line = c.line;
    t.end_line = c.end_line;
    t.depth = c.depth;
    t.kind = c.name == "add_library" ? "library" : "executable";
    for (size_t i = 1; i < c.args.size(); ++i) {
      const std::string& a = c.args[i];
      if (a == "ALIAS") {
        t.kind = "alias";
        if (i + 1 < c.args.size()) t.alias_of = c.args[i + 1];
        break;
      }
      if (a == "IMPORTED") {
        t.kind = "imported";
        break;
      }
      if (c.name == "add_library" && i == 1 && one_of(a, {"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE"})) {
        std::string k = a;
        for (char& ch : k) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        t.kind = k;
      } else if (a == "EXCLUDE_FROM_ALL") {
        t.exclude_from_all = true;
      } else if (c.name == "add_executable" && (a == "WIN32" || a == "MACOSX_BUNDLE")) {
      } else {
        t.sources.push_back(a);
      }
    }
    out.push_back(std::move(t));
  }
  auto find = [&](const std::string& name) -> CMakeTarget* {
    for (auto& t : out)
      if (t.name == name) return &t;
    return nullptr;
  };
  for (const auto& c : commands) {
    if (c.name == "set_target_properties") {
      auto p = std::find(c.args.begin(), c.args.end(), "PROPERTIES");
      if (p == c.args.end()) continue;
      for (auto n = c.args.begin(); n != p; ++n)
        if (CMakeTarget* t = find(*n))
          for (auto k = p + 1; k != c.args.end() && k + 1 != c.args.end(); k += 2) t->properties.push_back(*k + "=" + *(k + 1));
    } else if (c.name == "set_property" && !c.args.empty() && c.args[0] == "TARGET") {
      auto p = std::find(c.args.begin(), c.args.end(), "PROPERTY");
      if (p == c.args.end() || p + 1 == c.args.end()) continue;
      std::string values;
      for (auto v = p + 2; v != c.args.end(); ++v) values += (values.empty() ? "" : ";") + *v;
      for (auto n = c.args.begin() + 1; n != p; ++n)
        if (!one_of(*n, {"APPEND", "APPEND_STRING"}))
          if (CMakeTarget* t = find(*n)) t->properties.push_back(*(p + 1) + "=" + values);
    } else if (c.name == "target_link_libraries" && !c.args.empty()) {
      CMakeTarget* t = find(c.args[0]);
      if (!t) continue;
      std::string vis;
      for (size_t i = 1; i < c.args.size(); ++i) {
        const std::string& a = c.args[i];
        if (one_of(a, {"PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE", "LINK_INTERFACE_LIBRARIES"})) {
          vis = a == "LINK_PUBLIC" ? "PUBLIC" : a == "LINK_PRIVATE" ? "PRIVATE" : a == "LINK_INTERFACE_LIBRARIES" ? "INTERFACE" : a;
          continue;
        }
        t->links.push_back(vis + ":" + a);
      }
    }
  }
  return out;
}

std::vector<CMakeInstall> cmake_installs(const std::vector<CMakeCommand>& commands, std::string_view path) {
  std::string dir(path);
  size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? "" : dir.substr(0, slash);
  // Resolves a path argument to a repository-relative path; "" when it cannot.
  auto resolve = [&](std::string p) -> std::optional<std::string> {
    for (const char* v : {"${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}"})
      if (p.rfind(v, 0) == 0) p = dir + p.substr(std::string(v).size());
    bool rooted = false;
    for (const char* v : {"${CMAKE_SOURCE_DIR}", "${PROJECT_SOURCE_DIR}"})
      if (p.rfind(v, 0) == 0) {
        p = p.substr(std::string(v).size());
        rooted = true;
      }
    if (p.find("${") != std::string::npos || p.find("$<") != std::string::npos || p.find("@") != std::string::npos)
      return std::nullopt;
    if (!p.empty() && p[0] == '/' && !rooted) return std::nullopt;  // an absolute path outside the tree
    std::string full = rooted || dir.empty() ? p : dir + "/" + p;
    if (p.rfind(dir, 0) == 0 && !dir.empty() && (p.size() == dir.size() || p[dir.size()] == '/')) full = p;
    return normalise(full);
  };
  static const std::set<std::string> kKinds = {"TARGETS", "FILES", "PROGRAMS", "DIRECTORY", "EXPORT", "SCRIPT",
                                                 "CODE", "IMPORTED_RUNTIME_ARTIFACTS", "RUNTIME_DEPENDENCY_SET"};
  // Keywords that end a list of items (targets, files, directories).
  static const std::set<std::string> kKeywords = {
      "DESTINATION", "PERMISSIONS", "CONFIGURATIONS", "COMPONENT", "RENAME", "OPTIONAL", "EXCLUDE_FROM_ALL",
      "NAMELINK_ONLY", "NAMELINK_SKIP", "NAMELINK_COMPONENT", "ARCHIVE", "LIBRARY", "RUNTIME", "OBJECTS",
      "FRAMEWORK", "BUNDLE", "PRIVATE_HEADER", "PUBLIC_HEADER", "RESOURCE", "FILE_SET", "CXX_MODULES_BMI",
      "INCLUDES", "EXPORT", "RUNTIME_DEPENDENCIES", "RUNTIME_DEPENDENCY_SET", "TYPE", "FILES_MATCHING",
      "PATTERN", "REGEX", "EXCLUDE", "USE_SOURCE_PERMISSIONS", "FILE_PERMISSIONS", "DIRECTORY_PERMISSIONS",
      "MESSAGE_NEVER", "NAMESPACE", "FILE", "EXPORT_LINK_INTERFACE_LIBRARIES", "ALL_COMPONENTS", "INCLUDE",
      "PREFIX", "EXPORT_ANDROID_MK", "CXX_MODULES_DIRECTORY", "LOWER_CASE_FILE"};
  // Variables this file sets before each install(): set(), list(APPEND), file(GLOB[_RECURSE])
  // (globs kept as globs; GLOB_RECURSE "d/*.h" becomes "d/**/*.h").
  std::map<std::string, std::vector<std::string>> vars;
  auto expand = [&](const std::string& x) -> std::vector<std::string> {
    if (x.size() > 3 && x.rfind("${", 0) == 0 && x.back() == '}' && x.find("${", 2) == std::string::npos) {
      auto it = vars.find(x.substr(2, x.size() - 3));
      if (it != vars.end()) return it->second;
    }
    return {x};
  };
  std::vector<CMakeInstall> out;
  for (const auto& c : commands) {
    if (c.name == "set" && !c.args.empty()) {
      std::vector<std::string> v;
      for (size_t k = 1; k < c.args.size() && c.args[k] != "CACHE" && c.args[k] != "PARENT_SCOPE"; ++k)
        for (auto& e : expand(c.args[k])) v.push_back(e);
      vars[c.args[0]] = std::move(v);
      continue;
    }
    if (c.name == "list" && c.args.size() >= 2 && c.args[0] == "APPEND") {
      auto& v = vars[c.args[1]];
      for (size_t k = 2; k < c.args.size(); ++k)
        for (auto& e : expand(c.args[k])) v.push_back(e);
      continue;
    }
    if (c.name == "file" && c.args.size() >= 2 && (c.args[0] == "GLOB" || c.args[0] == "GLOB_RECURSE")) {
      bool recurse = c.args[0] == "GLOB_RECURSE";
      std::vector<std::string> v;
      for (size_t k = 2; k < c.args.size(); ++k) {
        const std::string& g = c.args[k];
        if (g == "LIST_DIRECTORIES" || g == "RELATIVE") {
          ++k;
          continue;
        }
        if (g == "CONFIGURE_DEPENDS" || g == "FOLLOW_SYMLINKS") continue;
        std::string glob = g;
        size_t sl = glob.rfind('/');
        if (recurse) glob = sl == std::string::npos ? "**/" + glob : glob.substr(0, sl) + "/**" + glob.substr(sl);
        v.push_back(glob);
      }
      vars[c.args[1]] = std::move(v);
      continue;
    }
    if (c.name != "install" && c.name != "rocm_install" && c.name != "rocm_install_targets") continue;
    CMakeInstall in;
    in.command = c.name;
    in.line = c.line;
    in.end_line = c.end_line;
    in.depth = c.depth;
    std::vector<std::string> a;
    for (const auto& x : c.args)
      for (auto& e : expand(x)) a.push_back(e);
    size_t i = 0;
    if (!a.empty() && kKinds.count(a[0])) in.kind = a[i++];
    else if (c.name == "rocm_install_targets") in.kind = "TARGETS";
    if (c.name == "rocm_install_targets" && !a.empty() && a[0] == "TARGETS") i = 1;
    std::string section = in.kind;  // which list the plain arguments go to
    std::vector<std::string> patterns;
    for (; i < a.size(); ++i) {
      const std::string& x = a[i];
      if (kKeywords.count(x)) {
        if (x == "DESTINATION" && i + 1 < a.size()) in.destinations.push_back(a[++i]);
        else if (x == "COMPONENT" && i + 1 < a.size()) { if (in.component.empty()) in.component = a[i + 1]; ++i; }
        else if (x == "EXPORT" && i + 1 < a.size()) in.export_name = a[++i];
        else if ((x == "PATTERN" || x == "REGEX") && i + 1 < a.size()) in.patterns.push_back(a[++i]);
        else if (x == "OPTIONAL") in.optional = true;
        else if (x == "INCLUDE" && c.name == "rocm_install_targets") section = "DIRECTORY";
        else section = "";
        continue;
      }
      if (section == "TARGETS" || section == "IMPORTED_RUNTIME_ARTIFACTS") in.targets.push_back(x);
      else if (section == "FILES" || section == "PROGRAMS" || section == "DIRECTORY") in.paths.push_back(x);
      if (in.kind == "EXPORT" && in.export_name.empty() && i == 1) in.export_name = x;
    }
    // What the rule ships, as globs.
    bool matching = false;
    for (size_t k = 0; k < a.size(); ++k)
      if (a[k] == "FILES_MATCHING") matching = true;
    for (size_t k = 0; k + 1 < a.size(); ++k)
      if (a[k] == "PATTERN" && matching) patterns.push_back(a[k + 1]);
    bool dir_kind = in.kind == "DIRECTORY" || c.name == "rocm_install_targets";
    for (const auto& p : in.paths) {
      auto r = resolve(p);
      if (!r) {
        in.resolved = false;
        continue;
      }
      if (!dir_kind) {
        in.covers.push_back(*r);
        continue;
      }
      std::string base = r->empty() ? "**" : *r + "/**";
      if (patterns.empty()) in.covers.push_back(base);
      for (const auto& pat : patterns) in.covers.push_back(base + "/" + pat);
    }
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace review::lang
