#include "runner/cli/review.hpp"

#include "dsl/diagnostic.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>

#include <cerrno>

#include "dsl/ruleset.hpp"
#include "runner/cli/memory_ceiling.hpp"
#include "runner/cli/progress.hpp"
#include "runner/cli/rulesets.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/cli/output.hpp"
#include "runner/github/publisher.hpp"
#include "runner/report/escape.hpp"
#include "runner/report/filter.hpp"
#include "runner/report/reporter.hpp"
#include "runner/report/suppress.hpp"
#include "runner/pipeline/review.hpp"

namespace review::cli {
namespace fs = std::filesystem;

namespace {

// The finding that reports an edit of the review policy; not a rule of any ruleset.
dsl::RuleMeta policy_edit_rule() {
  dsl::RuleMeta m;
  m.id = "review-policy-edit";
  m.title = "This pull request edits the review policy";
  m.severity = dsl::Severity::Warn;
  m.ruleset = "review-action";
  m.problem = "this pull request edits the review policy ({file})";
  m.impact = "the review used the base's version; the edit applies to every later review";
  m.action = "a maintainer reviews the policy change itself";
  m.help = "In a pull-request run the configuration, the rulesets given as paths and the baseline are read "
           "from the base commit (docs/github-action.md, Security model).";
  return m;
}

std::string repository_uri(const change::PrMeta& pr, const Environment& env) {
  if (pr.repository.empty()) return {};
  std::string server = env.get("GITHUB_SERVER_URL");
  if (server.empty()) server = "https://github.com";
  return server + "/" + pr.repository;
}

bool at_or_above(dsl::Severity s, std::optional<dsl::Severity> fail_on) {
  return fail_on && static_cast<int>(s) >= static_cast<int>(*fail_on);
}

}  // namespace

void print_timings(const dsl::EvalTimings& t, std::ostream& err) {
  double sources = 0, own = 0;
  for (const auto& [name, s] : t.sources) sources += s;
  for (const auto& r : t.rules) own += r.own_s;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  double process = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  char line[320];
  std::snprintf(line, sizeof line, "timings: CPU %.2f s in all; fact sources %.2f s, rules' own work %.2f s\n", process,
                sources, own);
  err << line;
  std::vector<std::pair<std::string, double>> by_source(t.sources.begin(), t.sources.end());
  std::stable_sort(by_source.begin(), by_source.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  // rows that print as 0.00 s are counted in one line, not listed
  constexpr double kShown = 0.005;
  size_t quiet = 0;
  for (const auto& [name, s] : by_source) {
    if (s < kShown) {
      ++quiet;
      continue;
    }
    std::snprintf(line, sizeof line, "timings: source %-20s %8.2f s\n", name.c_str(), s);
    err << line;
  }
  if (quiet) err << "timings: " << quiet << " more sources, each under 0.01 s\n";
  if (!by_source.empty())
    err << "timings: (a source's time includes parsing and analysing the files it was the first to read)\n";
  // "kind NAME" entries are the change-kind classifiers, listed as kinds, not rules
  auto what = [](const std::string& id) {
    return id.rfind("kind ", 0) == 0 ? std::make_pair(std::string("kind "), id.substr(5))
                                     : std::make_pair(std::string("rule "), id);
  };
  // Where memory peaked: the first rule or kind after which the process's high-water mark is the
  // highest (they run one after the other, so the peak was reached while it ran, with the fact
  // sources it was the first to read).
  const dsl::EvalTimings::Rule* peak = nullptr;
  const dsl::EvalTimings::Rule* before = nullptr;
  for (size_t i = 0; i < t.rules.size(); ++i)
    if (!peak || t.rules[i].peak_rss_kib > peak->peak_rss_kib) {
      peak = &t.rules[i];
      before = i > 0 ? &t.rules[i - 1] : nullptr;
    }
  std::vector<dsl::EvalTimings::Rule> rules = t.rules;
  // slowest first by what each cost in all: its own work and the sources it was the first to read
  // (a kind that builds every file's facts costs seconds while its own work is nothing)
  std::stable_sort(rules.begin(), rules.end(),
                   [](const auto& a, const auto& b) { return a.own_s + a.sources_s > b.own_s + b.sources_s; });
  quiet = 0;
  for (const auto& r : rules) {
    if (r.own_s + r.sources_s < kShown && !(peak && r.id == peak->id)) {  // the peak's rule is named below
      ++quiet;
      continue;
    }
    auto [kind, name] = what(r.id);
    std::snprintf(line, sizeof line, "timings: %s  %-20s %8.2f s own, %8.2f s building sources, %zu finding%s before filters\n",
                  kind.c_str(), name.c_str(), r.own_s, r.sources_s, r.findings, r.findings == 1 ? "" : "s");
    err << line;
  }
  if (quiet) err << "timings: " << quiet << " more rules or kinds, each under 0.01 s\n";
  if (!peak) return;
  auto mib = [](long kib) { return static_cast<double>(kib) / 1024; };
  auto [kind, name] = what(peak->id);
  std::snprintf(line, sizeof line, "timings: memory peak %.1f MiB, reached while %s%s ran", mib(peak->peak_rss_kib),
                kind.c_str(), name.c_str());
  err << line;
  if (before) {
    std::snprintf(line, sizeof line, " (+%.1f MiB over the peak before it, with the fact sources it read first)",
                  mib(peak->peak_rss_kib - before->peak_rss_kib));
    err << line;
  } else {
    err << " (the first to run)";
  }
  // the rule's peak is the whole run's unless reading the change or writing the outputs went higher
  if (ru.ru_maxrss > peak->peak_rss_kib + 512)
    std::snprintf(line, sizeof line,
                  "; the whole run's peak %.1f MiB (outside the rules: reading the change or writing the outputs)\n",
                  mib(ru.ru_maxrss));
  else
    std::snprintf(line, sizeof line, "; no later step went higher: it is the whole run's peak\n");
  err << line;
}

int run_review(const ReviewOptions& opts, const Environment& env, std::ostream& out, std::ostream& err,
               bool stdout_is_tty) {
  // 1. Rulesets.
  std::vector<std::shared_ptr<const dsl::Program>> programs;
  bool ruleset_error = false;
  for (const auto& name : opts.rulesets) {
    dsl::LoadResult r = load_ruleset_arg(name, {}, opts.policy.get());
    for (const auto& d : r.diagnostics) err << dsl::format_diagnostic(d);
    if (!r.ok()) ruleset_error = true;
    else programs.push_back(r.program);
  }
  if (ruleset_error) return 2;
  // One rule id, one rule: two loaded rulesets that both define an id would both run under it, and
  // suppressions, --rule, severity overrides and baselines could not tell them apart.
  {
    std::map<std::string, const dsl::RuleMeta*> by_id;
    bool duplicate = false;
    for (const auto& p : programs)
      for (const auto& r : p->rules()) {
        auto [it, fresh] = by_id.emplace(r.id, &r);
        if (fresh) continue;
        duplicate = true;
        auto at = [](const dsl::RuleMeta& m) { return m.source_file + ":" + std::to_string(m.source_line); };
        err << at(r) << ": error: rule id `" << r.id << "` is also defined at " << at(*it->second)
            << "; rule ids must be unique across the loaded rulesets: rename one, or load only one of the files\n";
      }
    if (duplicate) return 2;
  }

  // A rule id named on the command line (--rule) or in the configuration (severity:) that no
  // loaded rule has is a typo that would silently turn the check green.
  {
    std::vector<std::string> ids;
    for (const auto& p : programs)
      for (const auto& r : p->rules()) ids.push_back(r.id);
    auto unknown = [&](const std::string& id, const char* where) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) return false;
      std::string hint;
      for (const auto& k : ids)  // a case slip first (`D1B` for `D1b`), then the edit distance
        if (hint.empty() && k.size() == id.size() &&
            std::equal(k.begin(), k.end(), id.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
          hint = "; did you mean `" + k + "`?";
      if (hint.empty()) hint = dsl::did_you_mean(id, ids);
      err << "runner: " << where << " names rule `" << id << "`, which no loaded ruleset has" << hint
          << " (`runner list` and `runner explain ID` show the rules)\n";
      return true;
    };
    bool bad = false;
    for (const auto& id : opts.only_rules) bad = unknown(id, "--rule") || bad;
    for (const auto& id : opts.skip_rules) bad = unknown(id, "--exclude-rule") || bad;
    for (const auto& [id, sev] : opts.severity_overrides) bad = unknown(id, "the configuration's `severity:`") || bad;
    if (bad) return 2;
  }

  auto filter = report::parse_filter_mode(opts.filter);
  if (!filter) {
    err << "runner: --filter must be one of added, context, file, all (got \"" << opts.filter << "\")\n";
    return 2;
  }

  // The memory ceiling is watched from here on: loading the change, parsing and evaluating.
  MemoryWatch memory(opts.max_memory);

  // 2. The change.
  std::shared_ptr<change::Change> change;
  try {
    change = std::make_shared<change::Change>(load_change(opts.inputs, env));
  } catch (const change::InputError& e) {
    err << e.where << ": " << e.message << "\n";
    return 3;
  } catch (const std::invalid_argument& e) {
    err << "runner: " << e.what() << "\n";
    return 2;
  }
  // Sharding: every shard evaluates the whole change and keeps the findings it owns
  // (pipeline::review). Evaluating only the shard's own files is wrong for rules that join facts
  // across changed files: on ATOM, B6 found 141 across 8 shards against 1,693 unsharded.
  std::set<std::string> all_changed;
  if (opts.shard) {
    for (const auto& f : change->files) all_changed.insert(f.path);
    change::own_shard_notes(*change, *opts.shard);
  }
  // --quiet: the notes go nowhere; warnings and errors still reach `err`.
  std::ostringstream discarded;
  std::ostream& notes = opts.quiet ? static_cast<std::ostream&>(discarded) : err;
  // What is reviewed first, then what of it is left out (binary files, files over the size limit).
  if (opts.inputs.all) {
    notes << "note: reviewing every file of " << (opts.inputs.work_tree ? std::string("the work tree") : change->pr.head_sha.substr(0, 12))
        << " (audit mode): " << change->files.size() << (change->files.size() == 1 ? " file" : " files") << "\n";
  } else if (!opts.inputs.base_dir.empty()) {
    notes << "note: reviewing " << opts.inputs.base_dir << " -> " << opts.inputs.head_dir << ": " << change->files.size()
        << (change->files.size() == 1 ? " changed file" : " changed files") << "\n";
  } else if (!opts.inputs.diff.empty()) {
    notes << "note: reviewing the diff " << (opts.inputs.diff == "-" ? std::string("on stdin") : opts.inputs.diff) << ": "
        << change->files.size() << (change->files.size() == 1 ? " changed file" : " changed files") << "\n";
  } else if (!change->pr.base_sha.empty()) {
    // A git review: say what was compared, so "LGTM" on an empty change is not mistaken for a pass.
    const bool work_tree = change->work_tree;
    notes << "note: reviewing " << change->pr.base_sha.substr(0, 12) << ".."
        << (work_tree ? std::string("the work tree") : change->pr.head_sha.substr(0, 12)) << ": " << change->files.size()
        << (change->files.size() == 1 ? " changed file" : " changed files") << "\n";
  }
  pipeline::print_notes(change->notes, notes);

  // 3. The review pipeline (runner/pipeline/review.hpp): evaluate, configuration, filter,
  //    suppressions, baseline, differential review, order.
  facts::ChangeFacts::Options fopts;
  fopts.jobs = opts.jobs;
  fopts.max_file_bytes = opts.inputs.max_file_bytes;
  fopts.memory_exceeded = &memory.exceeded();
  facts::ChangeFacts facts(change, fopts);
  // Other repositories as named scopes: --with NAME=PATH[@REV] and `repos:` of the configuration.
  std::vector<facts::Repository> repositories;
  for (const auto& w : opts.with) {
    const dsl::RepoDecl* decl = nullptr;
    for (const auto& p : programs)
      for (const auto& d : p->data().repos)
        if (d.name == w.name && !decl) decl = &d;
    if (!decl) {
      std::vector<std::string> names;
      for (const auto& p : programs)
        for (const auto& d : p->data().repos) names.push_back(d.name);
      err << "runner: " << w.origin << " names the repository `" << w.name
          << "`, which no loaded ruleset declares (`let " << w.name << " = repo …`)" << dsl::did_you_mean(w.name, names)
          << "\n";
      return 2;
    }
    std::string rev = w.rev, from = w.rev.empty() ? std::string() : w.origin;
    // A path of the configuration file is relative to the reviewed repository's folder.
    std::string path = w.path;
    if (w.origin != "--with" && !path.empty() && path[0] != '/' && !opts.inputs.repo.empty())
      path = (std::filesystem::path(opts.inputs.repo) / path).string();
    if (rev.empty() && !decl->pin_file.empty()) {
      std::optional<std::string> text = change->content->head(decl->pin_file);
      std::optional<std::string> pin = text ? change::find_pin(*text, decl->pin) : std::nullopt;
      if (pin) {
        rev = *pin;
        from = decl->pin_file;
      } else {
        notes << "note: " << w.name << ": " << (text ? "no pinned revision found in " : "no file ") << decl->pin_file
            << " at the head, so " << path << " is read at its HEAD\n";
      }
    }
    if (rev.empty()) from = "HEAD";
    try {
      auto rc = std::make_shared<change::Change>(change::load_repository(path, rev));
      auto rf = std::make_shared<facts::ChangeFacts>(rc, fopts);
      repositories.push_back({w.name, path, rc->pr.head_sha, from, rf});
      facts.add_repository(repositories.back());
      notes << "note: " << w.name << ": reading " << path
          << (rc->pr.head_sha.empty() ? std::string(" (a folder)") : " at " + rc->pr.head_sha.substr(0, 12))
          << " (revision from " << from << ")\n";
    } catch (const change::InputError& e) {
      err << w.origin << " " << w.name << ": " << e.where << ": " << e.message
          << (from == decl->pin_file ? " (the revision pinned in " + decl->pin_file + "; fetch it into " + path + ")" : std::string())
          << "\n";
      return 3;
    }
  }
  // Long runs (audits) say how far they are: redrawn on a terminal, once a minute in CI logs.
  Progress progress(notes, opts.stderr_is_tty, opts.inputs.all ? change->files.size() : 0);
  facts.set_parse_hook([&progress](const std::string&, bool) { progress.file_parsed(); });
  report::RunInfo run;
  run.tool_version = REVIEW_VERSION;
  run.information_uri = "https://github.com/rocm/review-action";
  run.category = opts.category;
  run.pr = change->pr;
  run.head_sha = change->pr.head_sha;
  run.repository_uri = repository_uri(change->pr, env);
  run.filter = opts.filter;
  run.changed_files = static_cast<long>(change->files.size());

  // The baseline is read before the evaluation: a baseline that cannot be read stops the run.
  std::optional<std::set<std::string>> baseline;
  if (!opts.baseline.empty()) {
    std::optional<std::string> text;
    try {
      text = opts.policy ? opts.policy->read(opts.baseline) : PolicySource("", "").read(opts.baseline);
    } catch (const PolicyError& e) {
      err << "runner: " << e.message << "\n";
      return 3;
    }
    if (!text) {
      err << opts.baseline << ": cannot read the baseline file"
          << (opts.policy && !opts.policy->revision().empty() ? " in " + opts.policy->revision() : std::string()) << "\n";
      return 3;
    }
    try {
      std::istringstream in(*text);
      baseline = report::read_baseline(in, opts.baseline);
    } catch (const change::InputError& e) {
      err << e.where << ": " << e.message << "\n";
      return 3;
    }
  }

  pipeline::ReviewOptions po;
  po.eval.rule_budget = std::chrono::milliseconds(opts.rule_budget_ms);
  po.eval.only_rules = opts.only_rules;
  // A rule turned off (--exclude-rule, `severity: ID: off`) is not evaluated at all.
  po.eval.skip_rules = opts.skip_rules;
  for (const auto& [id, sev] : opts.severity_overrides)
    if (sev == "off") po.eval.skip_rules.push_back(id);
  po.eval.on_rule = [&progress](const std::string& id, size_t i, size_t n) { progress.rule(id, i, n); };
  po.eval.memory_exceeded = &memory.exceeded();
  dsl::EvalTimings timings;
  if (opts.timings) po.eval.timings = &timings;
  // Over the memory ceiling: what was stopped or never started is named, and the run goes on to
  // write every output (fail closed: the review is incomplete).
  po.on_evaluated = [&](const std::vector<std::string>& memory_stopped, report::RunInfo& r) {
    progress.finish();
    facts.set_parse_hook(nullptr);
    if (!memory.exceeded() && memory_stopped.empty()) return;
    std::string what;
    const size_t shown = 12;
    for (size_t i = 0; i < memory_stopped.size() && i < shown; ++i)
      what += (i ? ", " : "") + memory_stopped[i];
    if (memory_stopped.size() > shown) what += " and " + std::to_string(memory_stopped.size() - shown) + " more";
    std::string at = memory.seen_at() ? " (resident " + format_bytes(memory.seen_at()) + ")" : std::string();
    r.incomplete.push_back(
        "the memory ceiling of " + format_bytes(opts.max_memory) + at + " was reached" +
        (memory_stopped.empty() ? std::string(" after every rule had run")
                                : ": " + std::to_string(memory_stopped.size()) +
                                      (memory_stopped.size() == 1 ? " rule was" : " rules were") +
                                      " stopped or not evaluated (" + what + "), so " +
                                      (memory_stopped.size() == 1 ? "its" : "their") + " findings are missing") +
        "; raise --max-memory, or review fewer files at once (--shard)");
  };
  po.exclude = opts.exclude;
  po.severity_overrides = opts.severity_overrides;
  po.audit = opts.inputs.all;
  po.shard = opts.shard;
  po.all_changed = std::move(all_changed);
  po.filter = *filter;
  po.honour_added_suppressions = opts.inline_suppressions != "base-only";
  po.baseline = std::move(baseline);
  // The trust boundary: policy read from a revision (the base) does not see the change's edits to
  // it, and such an edit is itself something a maintainer must look at.
  std::optional<dsl::RuleMeta> policy_meta;
  if (opts.policy && !opts.policy->revision().empty()) {
    std::set<std::string> edited;
    for (const auto& cf : change->files) {
      if (opts.policy->paths().count(cf.path)) edited.insert(cf.path);
      if (!cf.old_path.empty() && opts.policy->paths().count(cf.old_path)) edited.insert(cf.old_path);
    }
    if (!edited.empty()) {
      policy_meta = policy_edit_rule();
      for (const auto& path : edited) {
        dsl::Finding f;
        f.rule_id = policy_meta->id;
        f.rule_title = policy_meta->title;
        f.severity = policy_meta->severity;
        f.file = path;
        f.touches_change = true;
        f.problem = "this pull request edits the review policy (" + path + ")";
        f.impact = "the review used the version of " + opts.policy->revision().substr(0, 12) +
                   ", so the edit had no effect on this review, and it will apply to every later one";
        f.action = "a maintainer reviews the policy change itself";
        po.extra_findings.push_back(std::move(f));
      }
    }
  }
  po.differential = opts.differential;
  po.differential_options.rule_budget = std::chrono::milliseconds(opts.rule_budget_ms);
  po.differential_options.jobs = opts.jobs;
  po.differential_options.max_file_bytes = opts.inputs.max_file_bytes;
  po.differential_options.memory_exceeded = &memory.exceeded();
  po.differential_options.repositories = repositories;
  po.notes = &notes;
  po.warnings = &err;
  pipeline::ReviewResult reviewed = pipeline::review(change, programs, facts, po, run);
  // The reports read the findings and the file texts, not the facts: free the models before
  // they are written (an audit's peak was the models and the reports' buffers together).
  facts.release_all();
  if (policy_meta) run.rules.push_back(*policy_meta);
  std::vector<dsl::Finding> findings = std::move(reviewed.findings);
  report::SourceLookup source = [change](const std::string& path) { return change->content->head(path); };

  int exit_code = 0;
  size_t blocking = 0;  // new, unsuppressed blocks
  for (const auto& f : findings) {
    if (f.suppressed || f.pre_existing) continue;
    if (at_or_above(f.severity, opts.fail_on)) exit_code = 1;
    if (f.severity == dsl::Severity::Block) ++blocking;
  }
  if (!run.incomplete.empty()) {
    for (const auto& g : run.incomplete) err << "incomplete: " << report::terminal_safe(g) << "\n";
    if (!opts.allow_incomplete) exit_code = kExitIncomplete;
  }
  run.exit_code = exit_code;

  // 5. Outputs: every one a reporter of the one table (report::make_reporter), driven through one
  //    report::FanOut, so one that fails stops none of the others. Files render into memory and
  //    are written atomically (output.hpp); the check run and the sticky comment publish through
  //    github::make_publisher. GitHub failures warn; they never change the exit code.
  std::vector<OutputSpec> outputs = opts.outputs;
  if (outputs.empty() && !opts.quiet) outputs.push_back({"text", ""});
  bool color = opts.color == "always" || (opts.color == "auto" && stdout_is_tty && env.get("NO_COLOR").empty());
  report::ReportOptions ropts;
  ropts.source = source;
  // The card's heading names the rulesets ("## ATOM PR #12 — title", RULES.md's verdict card).
  std::string title;
  for (const auto& p : programs) {
    std::string n = p->name();
    for (auto& ch : n) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    title += (title.empty() ? "" : " + ") + n;
  }
  ropts.summary_title = title;
  ropts.warn = [&err](std::string_view line) { err << "warning: " << line << "\n"; };
  report::FanOut fan;
  // The change's notes, and the review's own that it printed, went to stderr already (the
  // terminal shows both streams): a text report on the terminal leaves them out.
  std::vector<std::string> printed = change->notes;
  printed.insert(printed.end(), reviewed.printed_notes.begin(), reviewed.printed_notes.end());
  for (const auto& o : outputs) {
    bool to_stdout = o.path.empty() || o.path == "-";
    report::ReportOptions oo = ropts;
    oo.color = to_stdout && color && o.format == "text";
    fan.add_reporter(o.format, make_output(o, out, oo, to_stdout && o.format == "text" ? printed
                                                                                       : std::vector<std::string>{}));
  }
  if (!opts.check_run.empty() || opts.comment) {
    std::string token = env.get(opts.token_env);
    std::string repo = change->pr.repository;
    if (token.empty() || repo.empty()) {
      err << "warning: GitHub output skipped: " << (token.empty() ? "$" + opts.token_env + " is empty" : "the repository (owner/name) is unknown") << "\n";
    } else {
      github::PublisherOptions pub;
      if (!env.get("GITHUB_API_URL").empty()) pub.client.api_url = env.get("GITHUB_API_URL");
      pub.client.token = token;
      pub.client.run_budget = std::chrono::seconds(std::max(1, opts.api_deadline_s));
      pub.client.version = REVIEW_VERSION;
      pub.client.log = [&err](std::string_view line) { err << line << "\n"; };
      pub.repo = repo;
      pub.head_sha = change->pr.head_sha;
      pub.check_run_name = opts.check_run;
      pub.fail_on = opts.fail_on;
      // The comment's marker names the workflow and job: two jobs reviewing one pull request keep
      // two comments; only the token's own comment is ever edited (runner/github/comment.hpp).
      if (!env.get("GITHUB_WORKFLOW").empty() || !env.get("GITHUB_JOB").empty())
        pub.sticky.scope = env.get("GITHUB_WORKFLOW") + "/" + env.get("GITHUB_JOB");
      // Actions' GraphQL URL, when it is on the API's host (the token never goes elsewhere).
      auto origin = [](const std::string& u) {
        auto s = u.find("://");
        return s == std::string::npos ? std::string() : u.substr(0, u.find('/', s + 3));
      };
      std::string gql = env.get("GITHUB_GRAPHQL_URL");
      if (!gql.empty() && origin(gql) == origin(pub.client.api_url)) pub.sticky.graphql_url = gql;
      report::ReportOptions go = ropts;
      go.publisher = github::make_publisher(std::move(pub));
      if (!opts.check_run.empty()) fan.add_reporter("check-run", report::make_reporter("check-run", out, go));
      if (opts.comment) fan.add_reporter("comment", report::make_reporter("comment", out, go));
    }
  }
  fan.begin(run);
  // An output whose file cannot be made failed already: the run exits 3, and the outputs still
  // to be written say so (RunInfo::exit_code).
  if (!fan.failures().empty()) run.exit_code = 3;
  for (const auto& f : findings) fan.add(f);
  fan.finish(run);
  bool output_failed = false;
  bool stdout_said = false;  // an output to standard output already said it could not write
  for (const auto& f : fan.failures()) {
    err << "runner: " << f.message << "\n";
    output_failed = true;
    stdout_said = stdout_said || f.message.rfind(kStdoutWriteError, 0) == 0;
  }
  // Each file written is named, so a CI log says where the report went (standard output and the
  // GitHub outputs speak for themselves; a failed output said why above).
  for (const auto& o : outputs) {
    if (o.path.empty() || o.path == "-") continue;
    const auto& fails = fan.failures();
    if (std::none_of(fails.begin(), fails.end(), [&](const auto& f) { return f.reporter == o.format; }))
      notes << "note: wrote the " << o.format << " report to " << o.path << "\n";
  }
  // A BLOCK verdict that exits 0 is said last, so that nobody reads the exit code as a pass.
  if (!opts.fail_on && blocking > 0 && exit_code == 0)
    notes << "note: the verdict is BLOCK (" << blocking << " blocking finding" << (blocking == 1 ? "" : "s")
          << "), yet the exit code is 0 because fail-on is `never` (--fail-on, or fail-on: in the configuration); "
             "with the default, `block`, the job would fail\n";
  // An output that could not be written is an input/output error (3): the caller must not
  // mistake a missing SARIF file for a clean review. The other outputs were still written.
  // Standard output that could not take the report (a full disk, /dev/full, a closed pipe) is an
  // output error like a file that could not be written.
  out.flush();
  if (!out) {
    if (!stdout_said) err << "runner: " << stdout_write_error(errno) << "\n";
    output_failed = true;
  }
  if (opts.timings) print_timings(timings, err);  // after the outputs: the whole run's peak is known
  return output_failed ? 3 : exit_code;
}

}  // namespace review::cli
