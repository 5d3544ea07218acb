// YAML front end: GitHub Actions workflow files (.github/workflows/*.yml), parsed with yaml-cpp
// into the parts a review reads: triggers, jobs, steps, each with its 1-based line from
// yaml-cpp's marks. Key names and shapes follow GitHub's "Workflow syntax for GitHub Actions"
// (on, jobs.<id>.runs-on / strategy.matrix / if / timeout-minutes / needs / steps[*]).
//
//   auto w = review::lang::parse_workflow("on: pull_request\njobs:\n  t:\n    runs-on: mi300\n");
//   w.triggers[0].event == "pull_request";  w.jobs[0].runs_on == "mi300";  w.jobs[0].line == 3;
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace review::lang {

/// A YAML syntax error, or a workflow whose top level is not a mapping, with its 1-based position.
struct YamlError {
  int line = 0, column = 0;
  std::string message;
  /// "line:column: message"
  std::string describe() const;
};

/// One event of `on:` (a scalar, a list of names, or a mapping of names to their filters).
struct WorkflowTrigger {
  std::string event;                    ///< "pull_request", "push", "schedule", "workflow_dispatch", ...
  int line = 0;
  std::vector<std::string> paths;       ///< `paths`, then `paths-ignore` entries prefixed with '!'
  std::vector<std::string> branches;    ///< `branches`, then `branches-ignore` entries prefixed with '!'
  std::vector<std::string> types;       ///< activity types (`types: [labeled]`)
};

struct WorkflowStep {
  int index = 0;                        ///< 0-based position in the job
  int line = 0, end_line = 0;           ///< the step's first line .. the line before the next step (or the job's end)
  std::string name, id, uses, run, condition, shell;  ///< `name`, `id`, `uses`, `run`, `if`, `shell` ("" when absent)
  int run_line = 0;                     ///< line of the `run` value, 0 when absent
  std::vector<std::string> with;        ///< `with:` entries as "key=value"
  std::vector<std::string> env;         ///< `env:` entries as "key=value"
  bool continue_on_error = false;       ///< `continue-on-error: true`
};

struct WorkflowJob {
  std::string id;
  int line = 0, end_line = 0;           ///< the id line .. the line before the next job (or the file's end)
  std::string name;
  std::string runs_on;                  ///< as written: a scalar, a list joined by ", ", or "group=G labels=a, b"
  std::vector<std::string> runner_labels;  ///< the labels (and group) of `runs-on`, one each
  int runs_on_line = 0;
  std::vector<std::string> matrix;      ///< `strategy.matrix`: "key=v1, v2" per key; include/exclude as "include=k=v ..."
  std::string condition;                ///< `if`
  int timeout_minutes = 0;              ///< 0 when absent, -1 when not a number (an expression)
  std::vector<std::string> needs;
  std::string uses;                     ///< a reusable workflow called by the job
  std::string container;                ///< `container` (its image)
  bool continue_on_error = false;
  std::vector<WorkflowStep> steps;
};

struct Workflow {
  std::string name;
  std::vector<WorkflowTrigger> triggers;
  std::vector<WorkflowJob> jobs;
  std::optional<YamlError> error;       ///< set: nothing above is meaningful
};

/// True for a GitHub workflow path: `.github/workflows/` + a name ending in .yml or .yaml (at the
/// repository root, as GitHub reads them).
bool is_workflow_path(std::string_view path);

/// Parses a workflow file. Never throws: malformed YAML (yaml-cpp's parser errors, nesting past
/// yaml-cpp's depth guard) and a top level that is not a mapping set `error` with the position.
/// Shapes GitHub would reject deeper down (a job that is not a mapping, a step list that is a
/// scalar) are skipped, not errors. Flattened texts (runs-on, matrix, with, env) are cut at 4,000
/// bytes and 200 entries, so alias bombs stay small.
Workflow parse_workflow(std::string_view text);

}  // namespace review::lang
