// The one table of fact sources, and the Source defaults.
#include <algorithm>
#include <mutex>

#include "runner/facts/sources.hpp"

namespace review::facts {

Source::~Source() = default;
SourceContext::~SourceContext() = default;

std::vector<std::string> SourceContext::files_holding(const std::string&, Holding) { return repo_files(); }

namespace {

using Factory = std::unique_ptr<Source> (*)();

// Adding a source = one file + one factory in sources.hpp + one row here, in documentation order
// (`runner sources` prints this order; nested-only shapes come last).
constexpr Factory kSources[] = {
    &make_pr_source,          &make_files_source,          &make_lines_source,
    &make_added_lines_source, &make_removed_lines_source,  &make_functions_source,
    &make_calls_source,       &make_call_targets_source,   &make_assignments_source,    &make_statements_source,
    &make_branches_source,    &make_dispatch_cases_source, &make_unbound_reads_source, &make_classes_source,
    &make_methods_source,     &make_overrides_source,      &make_subclasses_source,    &make_attributes_source,
    &make_clones_source,      &make_siblings_source,       &make_symbols_source,
    &make_handlers_source,    &make_throws_source,         &make_checks_source,         &make_includes_source,
    &make_ifdefs_source,      &make_cmake_commands_source, &make_cmake_targets_source,
    &make_cmake_installs_source, &make_workflows_source,   &make_jobs_source,
    &make_steps_source,       &make_sections_source,       &make_repos_source,
    &make_location_shape,     &make_construct_shape,
};

}  // namespace

const std::vector<std::unique_ptr<Source>>& sources() {
  static const std::vector<std::unique_ptr<Source>> all = [] {
    std::vector<std::unique_ptr<Source>> v;
    for (Factory make : kSources) {
      v.push_back(make());
      v.back()->name_ = v.back()->schema().name;
    }
    return v;
  }();
  return all;
}

const Source* find_source(std::string_view name) {
  for (const auto& s : sources())
    if (s->name() == name) return s.get();
  return nullptr;
}

bool FileRef::added(int line) const { return !base && changed && changed->added_lines.count(line); }

bool FileRef::added_range(int a, int b) const {
  if (base || !changed) return false;
  auto it = changed->added_lines.lower_bound(a);
  return it != changed->added_lines.end() && *it <= b;
}

std::vector<dsl::FactPtr> Source::build(SourceContext& ctx, const dsl::Scope& scope) const {
  auto refs = ctx.files(scope);
  refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const FileRef& r) { return !reads(lang::language_of(r.path)); }),
             refs.end());
  ctx.prefetch(refs, uses_analyses());
  std::vector<dsl::FactPtr> out;
  for (const auto& r : refs) {
    const auto& fs = ctx.file_facts(name(), r);
    out.insert(out.end(), fs.begin(), fs.end());
  }
  return out;
}

std::optional<std::vector<dsl::FactPtr>> Source::build_in_files(SourceContext&, const dsl::Scope&,
                                                                 const std::vector<std::string>&,
                                                                 const std::vector<std::string>*) const {
  return std::nullopt;
}

std::vector<dsl::FactPtr> Source::build_file(SourceContext&, const FileRef&) const {
  throw dsl::FactsError{"fact source '" + name() + "' has no implementation"};
}

}  // namespace review::facts
