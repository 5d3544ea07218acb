#include "dsl/ruleset.hpp"

#include <set>

#include "dsl/checker.hpp"
#include "dsl/parser.hpp"
#include "dsl/plan.hpp"

namespace review::dsl {

namespace {
constexpr int kMaxUseDepth = 16;  // `use` chains deeper than this are reported, not followed
}

Program::Program(std::unique_ptr<ProgramImpl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;
const std::vector<RuleMeta>& Program::rules() const { return impl_->metas; }
const RulesetData& Program::data() const { return impl_->data; }
const std::string& Program::name() const { return impl_->name; }
const std::string& Program::title() const { return impl_->title; }
int Program::version() const { return impl_->version; }
std::vector<KindHit> Program::kinds() const {
  std::vector<KindHit> out;
  for (const auto* k : impl_->kinds) out.push_back({k->name, k->label});
  return out;
}

std::string Program::plan(std::string_view id) const {
  for (const auto& r : impl_->rules)
    if (r.rule->id == id) return describe_plan(*impl_, r);
  return "";
}

LoadResult load_ruleset(const std::string& file_name, const std::string& text,
                        const std::vector<SourceSchema>& schema, const Resolver& resolver,
                        const LoadOptions& opts) {
  LoadResult result;
  auto impl = std::make_unique<ProgramImpl>();
  std::map<std::string, std::string> texts;
  std::set<std::string> loaded;

  // Parse the main file, then every `use`d file (breadth-first, each file once).
  struct Pending { std::string name, text; int depth; };
  std::vector<Pending> queue = {{file_name, text, 0}};
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    Pending cur = queue[qi];
    if (!loaded.insert(cur.name).second) continue;
    texts[cur.name] = cur.text;
    ParseResult pr = parse_ruleset(cur.text, cur.name);
    for (auto& d : pr.diagnostics) result.diagnostics.push_back(std::move(d));
    auto file = std::make_unique<ast::File>(std::move(pr.file));
    for (const auto& u : file->uses) {
      auto found = resolver ? resolver(u.path, cur.name) : std::nullopt;
      Diagnostic d;
      d.file = cur.name;
      d.line = u.span.line;
      d.column = u.span.column;
      d.caret_len = u.span.length;
      d.source_line = source_line_at(cur.text, u.span.line);
      if (!found) {
        d.message = "cannot find `" + u.path + "` (looked beside " + cur.name + " and in the shipped rulesets)";
        result.diagnostics.push_back(d);
      } else if (cur.depth + 1 > kMaxUseDepth) {
        d.message = "`use` nested more than " + std::to_string(kMaxUseDepth) + " files deep";
        result.diagnostics.push_back(d);
      } else {
        queue.push_back({found->first, found->second, cur.depth + 1});
      }
    }
    impl->files.push_back(std::move(file));
  }

  std::vector<const ast::File*> files;
  for (const auto& f : impl->files) files.push_back(f.get());
  CheckResult checked = check_files(files, texts, schema, opts.strict, opts.action_prefixes, opts.example_languages);
  for (auto& d : checked.diagnostics) result.diagnostics.push_back(std::move(d));

  // Plan: data, lets, kinds, rules.
  const ast::File& main = *impl->files.front();
  impl->name = main.ruleset_name;
  impl->title = main.ruleset_title;
  impl->version = static_cast<int>(main.version);
  impl->regexes = std::move(checked.regexes);
  impl->schema = schema;
  for (const auto& f : impl->files) {
    for (const auto& g : f->test_globs) impl->data.test_globs.push_back(g);
    for (const auto& t : f->tiers)
      for (const auto& e : t.entries)
        impl->data.tiers.push_back({static_cast<int>(t.tier), t.label, e.glob, e.blast, e.fails});
    for (const auto& l : f->lets) {
      if (impl->lets.count(l.name) || !l.value) continue;
      impl->lets[l.name] = &l;
      impl->data.lets.emplace_back(l.name, let_value(*l.value));
      if (l.repo) impl->data.repos.push_back({l.name, l.pin_file, l.pin ? l.pin->text : std::string()});
    }
    for (const auto& k : f->kinds) impl->kinds.push_back(&k);
    for (const auto& r : f->rules) {
      PlannedRule pr;
      pr.rule = &r;
      RuleMeta& m = pr.meta;
      m.id = r.id;
      m.title = r.title;
      m.severity = severity_of(r.severity);
      m.evidence = r.evidence == "inferred" ? Evidence::Inferred : Evidence::Verified;
      m.tags = r.tags;
      m.problem = r.problem.raw;
      m.impact = r.impact.raw;
      m.action = r.action.raw;
      m.help = r.help;
      m.when = r.when_text;
      for (const auto& s : r.severity_ifs) m.severity_ifs.emplace_back(severity_of(s.severity), s.cond_text);
      for (const auto& a : r.alsos) {
        m.alsos.push_back({a.label, severity_of(a.severity), a.problem.raw, {}});
        for (const auto& s : a.severity_ifs) m.alsos.back().severity_ifs.emplace_back(severity_of(s.severity), s.cond_text);
      }
      for (const auto& x : r.examples) {
        RuleExample ex;
        ex.bad = x.kind == "bad" || x.kind == "todo-bad";
        ex.todo = x.kind.rfind("todo-", 0) == 0;
        ex.language = x.language;
        ex.code = x.code;
        ex.line = x.span.line;
        m.examples.push_back(std::move(ex));
      }
      m.ruleset = f->ruleset_name;
      m.source_file = f->name;
      m.source_line = r.id_span.line;
      pr.severity = m.severity;
      impl->rules.push_back(std::move(pr));
    }
  }
  std::string cycle;
  const ast::Rule* at_rule = nullptr;
  ast::Span at;
  if (!order_rules(impl->rules, checked.reads, cycle, at_rule, at)) {
    Diagnostic d;
    for (const auto& f : impl->files)
      for (const auto& r : f->rules)
        if (&r == at_rule) d.file = f->name;
    d.line = at.line;
    d.column = at.column;
    d.caret_len = at.length;
    d.message = cycle;
    d.source_line = source_line_at(texts[d.file], at.line);
    result.diagnostics.push_back(std::move(d));
  }
  for (const auto& r : impl->rules) impl->metas.push_back(r.meta);

  bool failed = false;
  for (const auto& d : result.diagnostics) failed = failed || d.level == Diagnostic::Level::Error;
  if (failed) return result;
  plan_program(*impl);
  result.program = std::make_shared<const Program>(std::move(impl));
  return result;
}

}  // namespace review::dsl
