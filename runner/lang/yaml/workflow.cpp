#include "runner/lang/yaml/workflow.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>

namespace review::lang {

std::string YamlError::describe() const {
  return std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

bool is_workflow_path(std::string_view path) {
  constexpr std::string_view dir = ".github/workflows/";
  if (path.substr(0, dir.size()) != dir) return false;
  std::string_view name = path.substr(dir.size());
  if (name.empty() || name.find('/') != std::string_view::npos) return false;
  auto ends = [&](std::string_view s) { return name.size() > s.size() && name.substr(name.size() - s.size()) == s; };
  return ends(".yml") || ends(".yaml");
}

namespace {

constexpr size_t kMaxText = 4000;   // bytes of one flattened value
constexpr size_t kMaxItems = 200;   // entries of one list

int line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line < 0 ? 0 : m.line + 1;
}

std::string scalar(const YAML::Node& n) { return n && n.IsScalar() ? n.Scalar() : std::string(); }

// A flattened text of any node, within `budget` bytes (decremented): scalars as written, lists
// joined by ", ", mappings as "key=value" joined by " ". Aliases are followed, so the budget is
// what keeps an alias bomb small.
void flatten(const YAML::Node& n, std::string& out, size_t& budget, int depth = 0) {
  if (budget == 0 || !n || depth > 16) return;
  auto put = [&](std::string_view s) {
    size_t k = std::min(s.size(), budget);
    out.append(s.substr(0, k));
    budget -= k;
  };
  if (n.IsScalar()) {
    put(n.Scalar());
  } else if (n.IsSequence()) {
    bool first = true;
    for (const auto& x : n) {
      if (budget == 0) break;
      if (!first) put(", ");
      first = false;
      flatten(x, out, budget, depth + 1);
    }
  } else if (n.IsMap()) {
    bool first = true;
    for (const auto& kv : n) {
      if (budget == 0) break;
      if (!first) put(" ");
      first = false;
      flatten(kv.first, out, budget, depth + 1);
      put("=");
      flatten(kv.second, out, budget, depth + 1);
    }
  }
}

std::string flat(const YAML::Node& n) {
  std::string out;
  size_t budget = kMaxText;
  flatten(n, out, budget);
  return out;
}

// A scalar or a list of scalars as strings (other shapes flattened), at most kMaxItems.
std::vector<std::string> names(const YAML::Node& n, const std::string& prefix = "") {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsSequence()) {
    for (const auto& x : n) {
      if (out.size() >= kMaxItems) break;
      out.push_back(prefix + flat(x));
    }
  } else if (!n.IsNull()) {
    out.push_back(prefix + flat(n));
  }
  return out;
}

// A mapping's entries as "key=value" (flattened values), at most kMaxItems.
std::vector<std::string> pairs(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n || !n.IsMap()) return out;
  for (const auto& kv : n) {
    if (out.size() >= kMaxItems) break;
    out.push_back(scalar(kv.first) + "=" + flat(kv.second));
  }
  return out;
}

bool truthy(const YAML::Node& n) {
  std::string s = scalar(n);
  return s == "true" || s == "True" || s == "TRUE";
}

void append(std::vector<std::string>& to, std::vector<std::string> from) {
  for (auto& s : from)
    if (to.size() < kMaxItems) to.push_back(std::move(s));
}

void triggers(const YAML::Node& on, Workflow& w) {
  if (on.IsScalar()) {
    w.triggers.push_back(WorkflowTrigger{on.Scalar(), line_of(on), {}, {}, {}});
  } else if (on.IsSequence()) {
    for (const auto& e : on)
      if (e.IsScalar()) w.triggers.push_back(WorkflowTrigger{e.Scalar(), line_of(e), {}, {}, {}});
  } else if (on.IsMap()) {
    for (const auto& kv : on) {
      WorkflowTrigger t;
      t.event = scalar(kv.first);
      t.line = line_of(kv.first);
      const YAML::Node& f = kv.second;
      if (f.IsMap()) {
        t.paths = names(f["paths"]);
        append(t.paths, names(f["paths-ignore"], "!"));
        t.branches = names(f["branches"]);
        append(t.branches, names(f["branches-ignore"], "!"));
        t.types = names(f["types"]);
      }
      w.triggers.push_back(std::move(t));
    }
  }
}

std::vector<std::string> matrix(const YAML::Node& m) {
  std::vector<std::string> out;
  if (!m) return out;
  if (!m.IsMap()) {  // an expression (`matrix: ${{ fromJSON(...) }}`)
    out.push_back(flat(m));
    return out;
  }
  for (const auto& kv : m) {
    if (out.size() >= kMaxItems) break;
    out.push_back(scalar(kv.first) + "=" + flat(kv.second));
  }
  return out;
}

WorkflowStep step(const YAML::Node& s, int index) {
  WorkflowStep st;
  st.index = index;
  st.line = line_of(s);
  if (!s.IsMap()) return st;
  st.name = scalar(s["name"]);
  st.id = scalar(s["id"]);
  st.uses = scalar(s["uses"]);
  st.condition = flat(s["if"]);
  st.shell = scalar(s["shell"]);
  if (const YAML::Node r = s["run"]) {
    st.run = flat(r);
    st.run_line = line_of(r);
  }
  st.with = pairs(s["with"]);
  st.env = pairs(s["env"]);
  st.continue_on_error = truthy(s["continue-on-error"]);
  return st;
}

WorkflowJob job(const YAML::Node& key, const YAML::Node& j) {
  WorkflowJob out;
  out.id = scalar(key);
  out.line = line_of(key);
  if (!j.IsMap()) return out;
  out.name = flat(j["name"]);
  if (const YAML::Node r = j["runs-on"]) {
    out.runs_on = flat(r);
    out.runs_on_line = line_of(r);
    if (r.IsMap()) {
      append(out.runner_labels, names(r["group"]));
      append(out.runner_labels, names(r["labels"]));
    } else {
      out.runner_labels = names(r);
    }
  }
  if (const YAML::Node s = j["strategy"]; s && s.IsMap()) out.matrix = matrix(s["matrix"]);
  out.condition = flat(j["if"]);
  if (const YAML::Node t = j["timeout-minutes"]) {
    std::string v = scalar(t);
    char* end = nullptr;
    long n = std::strtol(v.c_str(), &end, 10);
    out.timeout_minutes = !v.empty() && end && *end == '\0' && n > 0 && n < 1000000 ? static_cast<int>(n) : -1;
  }
  out.needs = names(j["needs"]);
  out.uses = scalar(j["uses"]);
  if (const YAML::Node c = j["container"]) out.container = c.IsMap() ? scalar(c["image"]) : scalar(c);
  out.continue_on_error = truthy(j["continue-on-error"]);
  if (const YAML::Node steps = j["steps"]; steps && steps.IsSequence()) {
    int i = 0;
    for (const auto& s : steps) {
      if (out.steps.size() >= 10 * kMaxItems) break;
      out.steps.push_back(step(s, i++));
    }
  }
  return out;
}

int count_lines(std::string_view text) {
  if (text.empty()) return 0;
  int n = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  return text.back() == '\n' ? n : n + 1;
}

}  // namespace

Workflow parse_workflow(std::string_view text) {
  Workflow w;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    w.error = YamlError{e.mark.line + 1, e.mark.column + 1, e.msg};
    if (w.error->line < 1) w.error->line = 1;
    if (w.error->column < 1) w.error->column = 1;
    return w;
  }
  if (!root || root.IsNull()) return w;  // an empty file: no triggers, no jobs
  if (!root.IsMap()) {
    w.error = YamlError{std::max(1, line_of(root)), 1, "a workflow must be a mapping (on:, jobs:, ...)"};
    return w;
  }
  try {
    for (const auto& kv : root) {
      std::string key = scalar(kv.first);
      if (key == "name") w.name = flat(kv.second);
      else if (key == "on") triggers(kv.second, w);
      else if (key == "jobs" && kv.second.IsMap())
        for (const auto& j : kv.second) {
          if (w.jobs.size() >= kMaxItems) break;
          w.jobs.push_back(job(j.first, j.second));
        }
    }
  } catch (const YAML::Exception& e) {  // defensive: a conversion yaml-cpp refuses
    w = Workflow{};
    w.error = YamlError{std::max(1, e.mark.line + 1), std::max(1, e.mark.column + 1), e.msg};
    return w;
  }
  // Spans: up to the line before the next sibling.
  int last = count_lines(text);
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    WorkflowJob& j = w.jobs[i];
    j.end_line = std::max(j.line, i + 1 < w.jobs.size() ? w.jobs[i + 1].line - 1 : last);
    for (size_t k = 0; k < j.steps.size(); ++k)
      j.steps[k].end_line = std::max(j.steps[k].line, k + 1 < j.steps.size() ? j.steps[k + 1].line - 1 : j.end_line);
  }
  return w;
}

}  // namespace review::lang
