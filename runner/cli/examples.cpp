#include "runner/cli/examples.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "dsl/ruleset.hpp"
#include "runner/change/diff_parser.hpp"
#include "runner/change/memory.hpp"
#include "runner/cli/atomic_file.hpp"
#include "runner/cli/rulesets.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/cli/review.hpp"
#include "runner/pipeline/review.hpp"
#include "runner/report/reporter.hpp"

namespace review::cli {
namespace {

// The example languages and the file each is reviewed as (one table: example_languages()).
struct ExampleLanguage {
  const char* name;
  const char* default_path;
};
constexpr ExampleLanguage kExampleLanguages[] = {
    {"python", "example.py"}, {"cpp", "example.cpp"},  {"hip", "example.cpp"}, {"cuda", "example.cpp"},
    {"cmake", "CMakeLists.txt"}, {"markdown", "README.md"}, {"md", "README.md"},  {"text", "example.txt"},
    {"diff", "example.txt"},  {"pr", "example.txt"},
};

std::string default_path(const std::string& lang) {
  for (const auto& l : kExampleLanguages)
    if (lang == l.name) return l.default_path;
  return "example.txt";
}

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t\r");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// Files of other repositories an example declares: name -> path -> text.
using ExampleRepos = std::map<std::string, std::map<std::string, std::string>>;

// Reads the `# key: value` header lines at the top of an example (comment lines only).
// `# with NAME: PATH LINE` adds LINE to file PATH of repository NAME (a named scope).
void read_header(const std::string& code, std::string& path, change::PrMeta& pr, ExampleRepos* repos = nullptr) {
  std::istringstream in(code);
  std::string line;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    std::string body;
    if (t.rfind("#", 0) == 0) body = trim(t.substr(1));
    else if (t.rfind("//", 0) == 0) body = trim(t.substr(2));
    else if (t.rfind("<!--", 0) == 0 && t.size() >= 7 && t.compare(t.size() - 3, 3, "-->") == 0) body = trim(t.substr(4, t.size() - 7));
    else break;
    auto colon = body.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(body.substr(0, colon)), value = trim(body.substr(colon + 1));
    if (key == "file") path = value;
    else if (key == "pr-title") pr.title = value;
    else if (key == "pr-body") pr.body += (pr.body.empty() ? "" : "\n") + value;
    else if (key == "pr-label") pr.labels.push_back(value);
    else if (key.rfind("with ", 0) == 0 && repos) {
      auto sp = value.find(' ');
      std::string file = value.substr(0, sp), text = sp == std::string::npos ? std::string() : value.substr(sp + 1);
      (*repos)[trim(key.substr(5))][file] += text + "\n";
    }
  }
}

// A `diff` example's base texts: each modified, deleted or renamed file's old side, rebuilt from
// its hunks' context and removed lines at their old line numbers (lines no hunk shows are
// empty). Added files get no base. Throws InputError from parse_unified_diff.
std::map<std::string, std::string> diff_bases(const std::string& code) {
  std::map<std::string, std::string> bases;
  for (const auto& f : change::parse_unified_diff(code, "example")) {
    if (f.status == change::FileStatus::Added || f.binary) continue;
    std::vector<std::string> lines;
    for (const auto& h : f.hunks)
      for (const auto& l : h.lines) {
        if (l.kind == change::LineKind::Added || l.old_line <= 0) continue;
        if (lines.size() < static_cast<size_t>(l.old_line)) lines.resize(static_cast<size_t>(l.old_line));
        lines[static_cast<size_t>(l.old_line) - 1] = l.text;
      }
    if (lines.empty()) continue;
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    bases[f.old_path.empty() ? f.path : f.old_path] = text;
  }
  return bases;
}

// Maps a marker's line in a `diff` example's text to the file line a finding there carries:
// a context or added line gives its head line, a removed line its base line. Lines outside
// hunks are absent from the map (a marker there can never be met).
std::map<int, int> diff_marker_map(const std::string& code) {
  std::map<int, int> out;
  std::istringstream in(code);
  std::string line;
  int text_line = 0, old_line = 0, new_line = 0, old_left = 0, new_left = 0;
  while (std::getline(in, line)) {
    ++text_line;
    if (old_left <= 0 && new_left <= 0) {
      int a = 0, b = 1, c = 0, d = 1;
      if (line.rfind("@@ -", 0) != 0) continue;
      if (std::sscanf(line.c_str(), "@@ -%d,%d +%d,%d", &a, &b, &c, &d) == 4 ||
          std::sscanf(line.c_str(), "@@ -%d +%d,%d", &a, &c, &d) == 3 ||
          std::sscanf(line.c_str(), "@@ -%d,%d +%d", &a, &b, &c) == 3 ||
          std::sscanf(line.c_str(), "@@ -%d +%d", &a, &c) == 2) {
        old_line = a == 0 ? 1 : a;
        new_line = c == 0 ? 1 : c;
        old_left = b;
        new_left = d;
      }
      continue;
    }
    char k = line.empty() ? ' ' : line[0];
    if (k == '+') {
      out[text_line] = new_line++;
      --new_left;
    } else if (k == '-') {
      out[text_line] = old_line++;
      --old_left;
    } else if (k == ' ') {
      out[text_line] = new_line++;
      ++old_line;
      --old_left;
      --new_left;
    }
  }
  return out;
}

std::shared_ptr<change::Change> example_change(const dsl::RuleExample& ex, ExampleRepos* repos = nullptr) {
  std::string path = default_path(ex.language);
  change::PrMeta pr;
  std::shared_ptr<change::Change> c;
  if (ex.language == "pr") {
    c = std::make_shared<change::Change>();
    c->content = std::make_shared<change::MemoryContent>();
    auto nl = ex.code.find('\n');
    pr.title = trim(ex.code.substr(0, nl));
    if (nl != std::string::npos) pr.body = ex.code.substr(nl + 1);
  } else if (ex.language == "diff") {
    c = std::make_shared<change::Change>(change::make_patch_change(ex.code, diff_bases(ex.code), "example"));
    read_header(ex.code, path, pr, repos);
  } else {
    read_header(ex.code, path, pr, repos);
    c = std::make_shared<change::Change>(change::make_snippet_change(path, ex.code));
  }
  pr.number = 1;
  c->pr = pr;
  return c;
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s.empty() ? "none" : s;
}

// What is wrong with the markers of a bad example of rule `id` ("" = nothing): a marker naming
// another rule, or no marker at all (`pr` examples have no lines to mark).
std::string marker_problem(const dsl::RuleExample& ex, const std::string& id) {
  bool marked = false;
  for (const auto& [line, named] : example_markers(ex.code)) {
    if (named != id && named != "any")
      return "line " + std::to_string(line) + " marks `" + named + "`, not `" + id +
             "`; a marker names the rule of its example (or says `any`)";
    marked = true;
  }
  if (!marked && ex.language != "pr")
    return "a bad example must mark the lines it fires on (`# <- " + id + "`) or say `# <- any`";
  return {};
}

}  // namespace

const std::vector<std::string>& example_languages() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& l : kExampleLanguages) v.emplace_back(l.name);
    return v;
  }();
  return names;
}

std::vector<int> example_marker_lines(const std::string& code, const std::string& id) {
  std::vector<int> out;
  for (const auto& [line, named] : example_markers(code))
    if (named == id && (out.empty() || out.back() != line)) out.push_back(line);
  return out;
}

std::vector<std::pair<int, std::string>> example_markers(const std::string& code) {
  std::vector<std::pair<int, std::string>> out;
  auto id_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; };
  std::istringstream in(code);
  std::string l;
  for (int line = 1; std::getline(in, l); ++line) {
    for (const char* marker : {"# <- ", "// <- ", "<!-- <- "}) {
      const std::string m(marker);
      for (size_t at = l.find(m); at != std::string::npos; at = l.find(m, at + 1)) {
        size_t i = at + m.size();
        for (;;) {  // ID[, ID]...
          size_t b = i;
          while (i < l.size() && id_char(l[i])) ++i;
          if (i == b) break;
          out.emplace_back(line, l.substr(b, i - b));
          size_t j = i;
          while (j < l.size() && l[j] == ' ') ++j;
          if (j >= l.size() || l[j] != ',') break;
          ++j;
          while (j < l.size() && l[j] == ' ') ++j;
          i = j;
        }
      }
    }
  }
  return out;
}

int run_examples(const std::vector<std::string>& rulesets, const std::vector<std::string>& only_rules, bool verbose,
                 const std::string& sarif_path, std::ostream& out, std::ostream& err) {
  ExampleTotals t;
  report::RunInfo run;
  run.tool_version = REVIEW_VERSION;
  run.information_uri = "https://github.com/rocm/review-action";
  run.filter = "added";
  std::vector<dsl::Finding> all;
  std::map<std::string, std::string> texts;  // example path -> head text, for code frames
  bool load_error = false;
  for (const auto& file : rulesets) {
    dsl::LoadOptions lo;
    lo.example_languages = example_languages();
    dsl::LoadResult r = load_ruleset_arg(file, lo);
    for (const auto& d : r.diagnostics) err << dsl::format_diagnostic(d);
    if (!r.ok()) {
      load_error = true;
      continue;
    }
    run.rulesets.push_back(r.program->name());
    for (const auto& rule : r.program->rules()) run.rules.push_back(rule);
    for (const auto& rule : r.program->rules()) {
      if (!only_rules.empty() && std::find(only_rules.begin(), only_rules.end(), rule.id) == only_rules.end()) continue;
      int n = 0;
      for (const auto& ex : rule.examples) {
        ++n;
        std::string kind = std::string(ex.todo ? "todo-" : "") + (ex.bad ? "bad" : "good");
        std::string where = rule.source_file + ":" + std::to_string(ex.line);
        std::string problem;
        std::vector<int> lines;
        try {
          ExampleRepos repos;
          auto change = example_change(ex, &repos);
          facts::ChangeFacts facts(change);
          for (const auto& [name, files] : repos) {
            auto rc = std::make_shared<change::Change>();
            rc->content = std::make_shared<change::MemoryContent>(files, std::map<std::string, std::string>{});
            facts.add_repository({name, "(example)", "", "the example", std::make_shared<facts::ChangeFacts>(rc)});
          }
          // The example goes through the review's own pipeline (runner/pipeline/review.hpp) with
          // the default filter and no differential review.
          pipeline::ReviewOptions po;
          po.eval.only_rules = {rule.id};
          report::RunInfo scratch;
          auto reviewed = pipeline::review(change, {r.program}, facts, po, scratch);
          const auto& findings = reviewed.findings;
          for (const auto& d : reviewed.internal_diagnostics) problem += (problem.empty() ? "" : "; ") + d;
          int count = 0;
          for (const auto& f : findings) {
            if (f.rule_id != rule.id || f.suppressed) continue;
            if (!sarif_path.empty() && !f.file.empty()) {
              dsl::Finding g = f;
              g.file = "examples/" + rule.id + "/" + std::to_string(n) + "/" + f.file;
              if (auto text = change->content->head(f.file)) texts[g.file] = *text;
              all.push_back(std::move(g));
            }
            ++count;
            lines.push_back(f.line);
          }
          std::sort(lines.begin(), lines.end());
          lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
          if (problem.empty() && ex.bad) problem = marker_problem(ex, rule.id);
          if (problem.empty()) {
            if (ex.bad) {
              std::vector<int> marks = example_marker_lines(ex.code, rule.id);
              if (ex.language == "diff") {
                auto map = diff_marker_map(ex.code);
                for (int& m : marks) m = map.count(m) ? map[m] : -m;
              }
              if (count == 0) problem = "expected a finding, got none";
              for (int m : marks)
                if (problem.empty() && !std::binary_search(lines.begin(), lines.end(), m))
                  problem = "expected a finding on line " + std::to_string(m) + ", got lines " + join(lines);
            } else if (count > 0) {
              problem = "expected no finding, got lines " + join(lines);
            }
          }
        } catch (const change::InputError& e) {
          problem = "the example is not a valid input: " + e.where + ": " + e.message;
        } catch (const std::exception& e) {
          problem = std::string("internal error: ") + e.what();
        }
        std::string label = rule.id + " " + kind + " " + ex.language + " #" + std::to_string(n) + " (" + where + ")";
        if (ex.todo) {
          ++t.skipped;
          out << "TODO " << label << (problem.empty() ? ": now passes (the gap is closed; make it a plain example)" : ": " + problem) << "\n";
        } else if (problem.empty()) {
          ++t.passed;
          if (verbose) out << "PASS " << label << "\n";
        } else {
          ++t.failed;
          out << "FAIL " << label << ": " << problem << "\n";
        }
      }
    }
  }
  if (!sarif_path.empty()) {
    report::ReportOptions ro;
    ro.source = [&texts](const std::string& p) -> std::optional<std::string> {
      auto it = texts.find(p);
      if (it == texts.end()) return std::nullopt;
      return it->second;
    };
    std::string e;
    if (!write_file_atomically(sarif_path, report::render("sarif", run, all, ro), e)) err << "runner: " << e << "\n";
  }
  out << t.passed << " passed, " << t.failed << " failed, " << t.skipped << " skipped";
  if (load_error) out << " (a ruleset did not load: its examples did not run)";
  out << "\n";
  if (load_error) return 2;
  // Nothing tested is no pass (pytest's "no tests ran"): a ruleset whose rules hold no example
  // would otherwise turn a CI step that runs `runner test` green.
  if (t.passed + t.failed == 0) {
    err << "runner: no example ran, so nothing was tested: write `example bad` and `example good` blocks "
           "in its rules (docs/rule-language.md, under `rule`)\n";
    return 1;
  }
  return t.failed ? 1 : 0;
}

}  // namespace review::cli
