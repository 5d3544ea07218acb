// In-memory Facts for the rule-language tests: a schema mirroring DESIGN.md's fact-source table
// and facts added by hand. Counts queries so tests can assert laziness.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dsl/facts.hpp"

namespace review::dsl::testing {

inline std::vector<SourceSchema> test_schema() {
  using T = Type;
  auto src = [](std::string name, std::vector<FieldSchema> fields, bool scoped = true) {
    SourceSchema s;
    s.name = std::move(name);
    s.doc = "test source";
    s.takes_scope = scoped;
    s.fields = std::move(fields);
    return s;
  };
  auto f = [](std::string n, T t, std::string fs = "") { return FieldSchema{std::move(n), t, "", std::move(fs)}; };
  return {
      src("pr", {f("number", T::Int), f("title", T::String), f("body", T::String), f("text", T::String),
                 f("labels", T::List), f("base", T::String), f("head", T::String), f("author", T::String),
                 f("commits", T::List)}, false),
      src("files", {f("path", T::String), f("status", T::String), f("old_path", T::String),
                    f("language", T::String), f("tier", T::Int), f("blast", T::String), f("fails", T::String),
                    f("is_test", T::Bool), f("added_count", T::Int), f("removed_count", T::Int)}),
      src("lines", {f("text", T::String), f("code", T::String), f("comment", T::String), f("kind", T::String),
                    f("function", T::String), f("class", T::String), f("in_loop", T::Bool),
                    f("in_condition", T::Bool), f("added", T::Bool)}),
      src("functions", {f("name", T::String), f("qualified", T::String), f("class", T::String),
                        f("params", T::List), f("decorators", T::List), f("start", T::Int), f("end", T::Int),
                        f("changed", T::Bool), f("added", T::Bool), f("calls", T::List),
                        f("kwargs", T::String)}),
      src("calls", {f("callee", T::String), f("args", T::List), f("kwargs", T::List), f("kwarg_names", T::List), f("function", T::String),
                    f("in_loop", T::Bool), f("added", T::Bool)}),
      src("assignments", {f("target", T::String), f("value", T::String), f("function", T::String),
                          f("class", T::String), f("added", T::Bool)}),
      src("statements", {f("kind", T::String), f("text", T::String), f("code", T::String),
                         f("function", T::String), f("added", T::Bool)}),
      src("branches", {f("arms", T::Int), f("has_else", T::Bool), f("else_raises", T::Bool),
                       f("subject", T::String), f("function", T::String), f("added", T::Bool)}),
      src("dispatch_cases", {f("subject", T::String), f("value", T::String), f("dispatch", T::Fact, "branches"),
                             f("added", T::Bool)}),
      src("reads", {f("added", T::Bool)}),
      src("unbound_reads", {f("name", T::String), f("read", T::Fact, "reads"), f("branch", T::Fact, "reads"),
                            f("bound_in", T::String), f("unbound_path", T::String), f("cause", T::String),
                            f("guarded", T::Bool), f("guard", T::String)}),
      src("symbols", {f("name", T::String), f("kind", T::String)}),
      src("repos", {f("name", T::String), f("loaded", T::Bool), f("path", T::String), f("rev", T::String),
                    f("rev_from", T::String), f("pin_file", T::String)}, false),
      src("cmake_commands", {f("name", T::String), f("args", T::List), f("added", T::Bool)}),
      [&] {  // facts only of changed files, like the runner's added_lines and removed_lines
        SourceSchema s = src("removed_lines", {f("text", T::String), f("function", T::String)});
        s.changed_only = true;
        return s;
      }(),
      src("sections", {f("heading", T::String), f("level", T::Int), f("text", T::String), f("start", T::Int),
                       f("end", T::Int)}),
  };
}

class MemoryFacts : public Facts {
 public:
  /// facts[source] = every fact of that source; scopes filter by file: Changed = files listed in
  /// `changed`, Globs = glob match, Files = exact, Repo = all, Base = facts added with base=true.
  std::map<std::string, std::vector<FactPtr>> facts;
  std::map<std::string, std::vector<FactPtr>> base_facts;
  std::vector<std::string> changed;
  std::map<std::string, int> query_count;
  /// "query SOURCE(SCOPE)", "release SOURCE" and "release SOURCE(SCOPE)", in call order.
  std::vector<std::string> events;
  RulesetData configured;
  /// "SOURCE(SCOPE)@N" of every will_read call, in call order; N: how many events came before.
  std::vector<std::string> announced;

  const std::vector<SourceSchema>& schema() const override {
    static const std::vector<SourceSchema> s = test_schema();
    return s;
  }
  void configure(const RulesetData& d) override { configured = d; }
  const std::vector<FactPtr>& query(const std::string& source, const Scope& scope) override {
    ++query_count[source + "(" + scope.describe() + ")"];
    events.push_back("query " + source + "(" + scope.describe() + ")");
    std::string key = source + "|" + std::to_string(int(scope.kind)) + "|" + scope.describe();
    auto& out = cache_[key];
    out.clear();
    if (source == "explode") throw FactsError{"explode: cannot read input"};
    const auto& all = scope.kind == Scope::Kind::Base ? base_facts[source] : facts[source];
    for (const auto& f : all) {
      bool in = false;
      switch (scope.kind) {
        case Scope::Kind::Changed:
          in = f->file.empty() || std::find(changed.begin(), changed.end(), f->file) != changed.end();
          break;
        case Scope::Kind::Base:
        case Scope::Kind::Repo: in = true; break;
        case Scope::Kind::Globs:
          for (const auto& p : scope.patterns) in = in || glob_match(p, f->file);
          break;
        case Scope::Kind::Files:
          for (const auto& p : scope.patterns) in = in || p == f->file;
          break;
        case Scope::Kind::Named: break;  // no other repository in memory
      }
      if (in) out.push_back(f);
    }
    return out;
  }
  bool is_added(std::string_view, int) const override { return false; }
  /// Set: the base scope holds no file (an audit), so reads_no_file(base) answers true.
  bool no_base_files = false;
  bool reads_no_file(const Scope& scope) const override { return no_base_files && scope.kind == Scope::Kind::Base; }
  void will_read(const std::string& source, const Scope& scope) override {
    announced.push_back(source + "(" + scope.describe() + ")@" + std::to_string(events.size()));
  }
  /// Frees the cached results of `source` (a reference the evaluator kept would dangle: ASan
  /// builds catch a read after release).
  void release(const std::string& source) override {
    events.push_back("release " + source);
    for (auto it = cache_.begin(); it != cache_.end();)
      it = it->first.rfind(source + "|", 0) == 0 ? cache_.erase(it) : std::next(it);
  }
  /// Frees the cached results of `source` over `scope` only.
  void release_scope(const std::string& source, const Scope& scope) override {
    events.push_back("release " + source + "(" + scope.describe() + ")");
    cache_.erase(source + "|" + std::to_string(int(scope.kind)) + "|" + scope.describe());
  }

  /// Adds a fact; fields as (name, value) pairs.
  FactPtr add(const std::string& source, const std::string& file, int line,
              std::vector<std::pair<std::string, Value>> fields, bool base = false) {
    auto f = make_fact(source, file, line);
    for (auto& [n, v] : fields) f->set(n, v);
    FactPtr p = f;
    (base ? base_facts : facts)[source].push_back(p);
    return p;
  }

 private:
  std::map<std::string, std::vector<FactPtr>> cache_;
};

}  // namespace review::dsl::testing
