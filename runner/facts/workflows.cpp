// Sources `workflows`, `jobs` and `steps`: GitHub workflow files (.github/workflows/*.yml|yaml)
// through the YAML front end (runner/lang/yaml/workflow.hpp). A file that is not valid YAML
// yields no facts and makes the review incomplete ("not analysed", with the position), so a rule
// that looks for a missing filter never passes silently on a file it could not read.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"
#include "runner/lang/yaml/workflow.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

// The workflow of one file side, or nullptr (not a workflow path, no text, or malformed: then
// reported through ctx.incomplete).
std::shared_ptr<const lang::Workflow> workflow_of(SourceContext& ctx, const FileRef& r) {
  if (!lang::is_workflow_path(r.path)) return nullptr;
  auto m = ctx.model(r.path, r.base);
  if (!m || m->skipped) return nullptr;
  std::string text;
  for (const auto& l : m->text_lines) {
    text += l;
    text += '\n';
  }
  auto w = std::make_shared<lang::Workflow>(lang::parse_workflow(text));
  if (w->error) {
    ctx.incomplete((r.base ? "base of " : "") + r.path + ": not analysed: workflow YAML error at " + w->error->describe());
    return nullptr;
  }
  return w;
}

class WorkflowsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"workflows", "one fact per GitHub workflow file (.github/workflows/*.yml, *.yaml), parsed as YAML", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "1"),
                field("name", T::String, "`name:`, \"\" when absent"),
                field("triggers", T::List, "event names of `on:` (list of strings)"),
                field("pull_request", T::Bool, "triggered by pull_request or pull_request_target"),
                field("pr_paths", T::List, "paths of the pull_request(_target) triggers; paths-ignore entries prefixed with '!'"),
                field("pr_branches", T::List, "branches of those triggers; branches-ignore entries prefixed with '!'"),
                field("pr_types", T::List, "activity types of those triggers (\"labeled\", ...)"),
                field("on_line", T::Int, "line of the first trigger, 0 when none"),
                field("jobs", T::Int, "number of jobs"),
                field("added", T::Bool, "some line of the file is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto w = workflow_of(ctx, r);
    if (!w) return out;
    auto f = dsl::make_fact("workflows", r.path, 1);
    std::vector<std::string> events, paths, branches, types;
    bool pr = false;
    for (const auto& t : w->triggers) {
      events.push_back(t.event);
      if (t.event != "pull_request" && t.event != "pull_request_target") continue;
      pr = true;
      paths.insert(paths.end(), t.paths.begin(), t.paths.end());
      branches.insert(branches.end(), t.branches.begin(), t.branches.end());
      types.insert(types.end(), t.types.begin(), t.types.end());
    }
    f->set("name", Value(w->name));
    f->set("triggers", util::str_list(events));
    f->set("pull_request", Value(pr));
    f->set("pr_paths", util::str_list(paths));
    f->set("pr_branches", util::str_list(branches));
    f->set("pr_types", util::str_list(types));
    f->set("on_line", Value(w->triggers.empty() ? 0 : w->triggers.front().line));
    f->set("jobs", Value(static_cast<int>(w->jobs.size())));
    f->set("added", Value(r.changed && !r.base && !r.changed->added_lines.empty()));
    out.push_back(f);
    return out;
  }
};

class JobsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"jobs", "one fact per job of a GitHub workflow file", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "line of the job id"),
                field("end_line", T::Int, "the line before the next job (or the file's last line)"),
                field("id", T::String, "job id"),
                field("name", T::String, "`name:`, \"\" when absent"),
                field("runs_on", T::String, "`runs-on` as written: a label, labels joined by \", \", or \"group=G labels=a, b\""),
                field("runner_labels", T::List, "the runner labels (and group) of `runs-on`, one each"),
                field("runs_on_line", T::Int, "line of the `runs-on` value, 0 when absent"),
                field("matrix", T::List, "`strategy.matrix` entries as \"key=v1, v2\" (include/exclude flattened)"),
                field("condition", T::String, "the job's `if:`, \"\" when absent"),
                field("timeout_minutes", T::Int, "`timeout-minutes`: 0 when absent, -1 when an expression"),
                field("needs", T::List, "job ids of `needs`"),
                field("uses", T::String, "the reusable workflow the job calls, \"\" when none"),
                field("container", T::String, "`container` image, \"\" when none"),
                field("steps", T::Int, "number of steps"),
                field("added", T::Bool, "the job id line is added"),
                field("runs_on_added", T::Bool, "the `runs-on` line is added"),
                field("changed", T::Bool, "some line of the job is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto w = workflow_of(ctx, r);
    if (!w) return out;
    for (const auto& j : w->jobs) {
      auto f = dsl::make_fact("jobs", r.path, j.line);
      f->end_line = j.end_line;
      f->set("id", Value(j.id));
      f->set("name", Value(j.name));
      f->set("runs_on", Value(j.runs_on));
      f->set("runner_labels", util::str_list(j.runner_labels));
      f->set("runs_on_line", Value(j.runs_on_line));
      f->set("matrix", util::str_list(j.matrix));
      f->set("condition", Value(j.condition));
      f->set("timeout_minutes", Value(j.timeout_minutes));
      f->set("needs", util::str_list(j.needs));
      f->set("uses", Value(j.uses));
      f->set("container", Value(j.container));
      f->set("steps", Value(static_cast<int>(j.steps.size())));
      f->set("added", Value(r.added(j.line)));
      f->set("runs_on_added", Value(j.runs_on_line > 0 && r.added(j.runs_on_line)));
      f->set("changed", Value(r.added_range(j.line, j.end_line)));
      out.push_back(f);
    }
    return out;
  }
};

class StepsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"steps", "one fact per step of a job of a GitHub workflow file", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "the step's first line"),
                field("end_line", T::Int, "the line before the next step (or the job's last line)"),
                field("job", T::String, "id of the job"),
                field("index", T::Int, "0-based position in the job"),
                field("name", T::String, "`name:`, \"\" when absent"),
                field("id", T::String, "`id:`, \"\" when absent"),
                field("uses", T::String, "the action used (\"actions/checkout@v4\"), \"\" for run steps"),
                field("run", T::String, "the `run` script, \"\" when absent"),
                field("run_line", T::Int, "line of the `run` value, 0 when absent"),
                field("shell", T::String, "`shell:`, \"\" when absent"),
                field("with", T::List, "`with:` inputs as \"key=value\""),
                field("env", T::List, "`env:` entries as \"key=value\""),
                field("condition", T::String, "the step's `if:`, \"\" when absent"),
                field("continue_on_error", T::Bool, "`continue-on-error: true`"),
                field("added", T::Bool, "some line of the step is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto w = workflow_of(ctx, r);
    if (!w) return out;
    for (const auto& j : w->jobs)
      for (const auto& s : j.steps) {
        auto f = dsl::make_fact("steps", r.path, s.line);
        f->end_line = s.end_line;
        f->set("job", Value(j.id));
        f->set("index", Value(s.index));
        f->set("name", Value(s.name));
        f->set("id", Value(s.id));
        f->set("uses", Value(s.uses));
        f->set("run", Value(s.run));
        f->set("run_line", Value(s.run_line));
        f->set("shell", Value(s.shell));
        f->set("with", util::str_list(s.with));
        f->set("env", util::str_list(s.env));
        f->set("condition", Value(s.condition));
        f->set("continue_on_error", Value(s.continue_on_error));
        f->set("added", Value(r.added_range(s.line, s.end_line)));
        out.push_back(f);
      }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_workflows_source() { return std::make_unique<WorkflowsSource>(); }
std::unique_ptr<Source> make_jobs_source() { return std::make_unique<JobsSource>(); }
std::unique_ptr<Source> make_steps_source() { return std::make_unique<StepsSource>(); }

}  // namespace review::facts
