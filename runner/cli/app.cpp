#include "runner/cli/app.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "dsl/diagnostic.hpp"
#include "dsl/ruleset.hpp"
#include "runner/cli/config.hpp"
#include "runner/cli/examples.hpp"
#include "runner/cli/facts_dump.hpp"
#include "runner/cli/guard.hpp"
#include "runner/cli/memory_ceiling.hpp"
#include "runner/cli/merge.hpp"
#include "runner/cli/review.hpp"
#include "runner/cli/rulesets.hpp"
#include "runner/facts/schema.hpp"
#include "runner/report/reporter.hpp"

namespace review::cli {
namespace {

const char* kMainFooter = R"(Examples:
  runner --ruleset atom                          review the work tree against the default branch
  runner --ruleset atom --base origin/main --head HEAD
  runner --ruleset atom --diff pr.diff --repo .  a patch (e.g. `gh pr diff 12 > pr.diff`)
  runner --ruleset my.rules --base-dir old/ --head-dir new/
  runner --ruleset atom --pr pr.json --format sarif=review.sarif --format text
  runner --ruleset atom --all                    audit mode: every file of HEAD, as if newly added
  runner --ruleset atom --all --shard 2/4 --sarif audit-2.sarif
                                                 job 2 of a 4-job matrix; the next line joins them
  runner merge audit-*.sarif -o audit.sarif      one SARIF run, as one unsharded run reports it
  runner check --strict my.rules                 load-time checks of a ruleset
  runner test my.rules                           run the rules' examples
  runner explain D1b                             what a rule checks and why
  runner explain T-TIER --plan                   how the runner evaluates it (scans, index lookups)
  runner facts kernel.cpp --source statements    the facts a file yields, as rules see them

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage or ruleset error;
3 input error (git, diff, event, file); 4 incomplete review: a rule stopped by its time budget, a
file skipped for its size or the parser gave up on it, or the memory ceiling (--max-memory)
reached (the findings are still reported; the output names what was missed; --allow-incomplete
exits as if complete).)";

// A check that the option's value is one of `values`; otherwise the error names them and the
// closest ("--fail-on: takes block, warn, note or never, not `blocker`; did you mean `block`?").
CLI::Validator one_of(std::vector<std::string> values) {
  std::string list;
  for (size_t i = 0; i < values.size(); ++i) list += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
  return CLI::Validator(
      [values, list](std::string& v) -> std::string {
        if (std::find(values.begin(), values.end(), v) != values.end()) return "";
        return "takes " + list + ", not `" + v + "`" + dsl::did_you_mean(v, values);
      },
      "");
}

std::optional<dsl::Severity> parse_fail_on(const std::string& s) {
  if (s == "block") return dsl::Severity::Block;
  if (s == "warn") return dsl::Severity::Warn;
  if (s == "note") return dsl::Severity::Note;
  return std::nullopt;  // never
}

int cmd_check(const std::vector<std::string>& files, bool strict, std::ostream& out, std::ostream& err) {
  int rc = 0;
  for (const auto& f : files) {
    dsl::LoadOptions lo;
    lo.strict = strict;
    lo.example_languages = example_languages();
    dsl::LoadResult r = load_ruleset_arg(f, lo);
    int errors = 0, warnings = 0;
    for (const auto& d : r.diagnostics) {
      err << dsl::format_diagnostic(d);
      (d.level == dsl::Diagnostic::Level::Error ? errors : warnings)++;
    }
    if (!r.ok()) {
      rc = 2;
      out << f << ": " << errors << " error(s), " << warnings << " warning(s)\n";
    } else {
      const size_t n = r.program->rules().size();
      out << f << ": ok, " << n << (n == 1 ? " rule, " : " rules, ") << warnings << " warning(s)\n";
    }
  }
  return rc;
}

// Shows a rule; `all_examples` false shows its first bad and first good example and counts the
// rest (D1b has about 40: screens of them buried the rule itself).
void print_rule(const dsl::RuleMeta& r, bool all_examples, std::ostream& out) {
  out << r.id << " — " << r.title << "\n"
      << "  severity: " << dsl::severity_name(r.severity) << ", evidence: " << dsl::evidence_name(r.evidence) << "\n";
  if (!r.tags.empty()) {
    out << "  tags:";
    for (const auto& t : r.tags) out << " " << t;
    out << "\n";
  }
  // `severity WORD if COND` of a body: the first that holds sets a finding's severity
  auto severity_ifs = [&out](const std::vector<std::pair<dsl::Severity, std::string>>& clauses) {
    for (const auto& [sev, cond] : clauses)
      out << "  severity " << dsl::severity_name(sev) << " for a finding where (first that holds): " << cond << "\n";
  };
  severity_ifs(r.severity_ifs);
  if (!r.when.empty()) out << "  runs only when: " << r.when << "\n";
  out << "  declared at " << r.source_file << ":" << r.source_line << "\n\n";
  out << "problem: " << r.problem << "\nimpact:  " << r.impact << "\naction:  " << r.action << "\n";
  // the `also` bodies: their findings carry this id at their own severity and wording
  for (const auto& a : r.alsos) {
    out << "\nalso \"" << a.label << "\" (" << dsl::severity_name(a.severity) << "): " << a.problem << "\n";
    severity_ifs(a.severity_ifs);
  }
  if (!r.help.empty()) out << "\n" << r.help << (r.help.back() == '\n' ? "" : "\n");
  bool bad_shown = false, good_shown = false;
  size_t hidden = 0;
  for (const auto& ex : r.examples) {
    bool& shown = ex.bad ? bad_shown : good_shown;
    if (!all_examples && (ex.todo || shown)) {
      ++hidden;
      continue;
    }
    shown = true;
    out << "\nexample " << (ex.todo ? "todo-" : "") << (ex.bad ? "bad" : "good") << " " << ex.language << ":\n";
    std::istringstream in(ex.code);
    std::string line;
    while (std::getline(in, line)) out << "    " << line << "\n";
  }
  if (hidden)
    out << "\n" << hidden << " more example" << (hidden == 1 ? "" : "s") << ": runner explain " << r.id
        << " --examples\n";
}

int cmd_explain(const std::string& id, std::vector<std::string> rulesets, bool plan, bool all_examples,
                std::ostream& out, std::ostream& err) {
  const bool shipped = rulesets.empty();
  if (shipped) rulesets = shipped_ruleset_names();
  std::vector<std::string> known, failed;
  for (const auto& rs : rulesets) {
    dsl::LoadResult r = load_ruleset_arg(rs, {});
    if (!r.ok()) {
      for (const auto& d : r.diagnostics) err << dsl::format_diagnostic(d);
      failed.push_back(rs);
      continue;
    }
    for (const auto& rule : r.program->rules()) {
      if (rule.id == id) {
        if (plan) out << r.program->plan(id);
        else print_rule(rule, all_examples, out);
        return 0;
      }
      known.push_back(rule.id);
    }
  }
  if (!failed.empty()) {  // the rule may be in a ruleset that did not load: say so, not "no rule"
    err << "runner: cannot show rule `" << id << "`: " << failed[0]
        << (failed.size() > 1 ? " and " + std::to_string(failed.size() - 1) + " more" : std::string())
        << " did not load (the errors above); mend the ruleset (`runner check FILE`) and ask again\n";
    return 2;
  }
  err << "runner: no rule `" << id << "` in " << (rulesets.size() == 1 ? rulesets[0] : "the rulesets searched");
  // Suggest the closest id: a case-insensitive match first, then the nearest by edit distance.
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::string best;
  for (const auto& k : known)
    if (lower(k) == lower(id)) best = k;
  if (best.empty()) best = dsl::closest_name(id, known);
  if (!best.empty()) err << "; did you mean `" << best << "`?";
  if (shipped) err << " (only the shipped rulesets were searched: for a rule of your own, add `-r FILE`)";
  err << "\n";
  return 2;
}

void cmd_sources(std::ostream& out) {
  for (const auto& s : facts::fact_schema()) {
    if (facts::is_nested_only(s)) continue;
    out << s.name << (s.takes_scope ? "(scope)" : "") << " — " << s.doc << "\n";
    for (const auto& f : s.fields) {
      std::string type(dsl::type_name(f.type));
      if (!f.fact_source.empty()) type += "<" + f.fact_source + ">";
      out << "    " << f.name << std::string(f.name.size() < 16 ? 16 - f.name.size() : 1, ' ') << type
          << std::string(type.size() < 18 ? 18 - type.size() : 1, ' ') << f.doc << (f.in_text ? " [by key]" : "")
          << "\n";
    }
  }
  out << "\nEvery fact also has file, line, end_line and column.\n"
         "[by key]: the value is spelled in the file's text, so a lookup by it over repo, globs or another repository "
         "parses only the files whose text holds the key.\n"
         "Scopes: changed (default), base, repo, a glob list [\"a/**\", ...], a `let` name of globs, or a `let NAME = repo` name (another repository, loaded with --with NAME=PATH[@REV]).\n";
}

int cmd_list(std::ostream& out, std::ostream& err) {
  for (const auto& n : shipped_ruleset_names()) {
    dsl::LoadResult r = load_ruleset_arg(n, {});
    if (!r.ok()) {
      for (const auto& d : r.diagnostics) err << dsl::format_diagnostic(d);
      out << n << "  (does not load)\n";
      continue;
    }
    out << n << "  " << r.program->rules().size() << " rules  " << r.program->title() << "\n";
  }
  return 0;
}

}  // namespace


namespace {
// After an unexpected-argument error: one "did you mean" line for each unknown `--flag` that is
// close to a long option of the subcommand being parsed (or of the main command). Returns how
// many lines it printed.
int suggest_flags(const CLI::App& app, std::ostream& err) {
  int printed = 0;
  const CLI::App* cmd = &app;
  for (const CLI::App* sub : app.get_subcommands()) cmd = sub;
  std::vector<std::string> names;
  for (const CLI::Option* o : cmd->get_options())
    for (const auto& n : o->get_lnames()) names.push_back("--" + n);
  for (const std::string& arg : cmd->remaining()) {
    if (arg.rfind("--", 0) != 0) continue;
    std::string word = arg.substr(0, arg.find('='));
    std::string c = review::dsl::closest_name(word, names);
    if (!c.empty()) err << "runner: unknown option " << word << "; did you mean " << c << "?\n", ++printed;
  }
  return printed;
}

// CLI11's help formatter (2.1) ends each option group with a blank line and then writes one more
// between groups: two blank lines where one separates the rest of the help. This one keeps one.
// It does not wrap descriptions either (some were 400 characters on one line): this one wraps
// an option's description at kHelpWidth, its next lines under its first.
class HelpFormatter final : public CLI::Formatter {
 public:
  static constexpr size_t kHelpWidth = 100;
  static constexpr size_t kDescColumn = 30;  ///< CLI11's default column width: where descriptions start

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    std::string s = CLI::Formatter::make_help(app, std::move(name), mode);
    for (size_t at = s.find("\n\n\n"); at != std::string::npos; at = s.find("\n\n\n", at)) s.erase(at, 1);
    std::string out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) out += wrapped(line) + "\n";
    if (!s.empty() && s.back() != '\n') out.pop_back();
    return out;
  }

 private:
  /// `line` as is when it fits or is no option line (a description at kDescColumn after spaces);
  /// else cut at spaces into lines of at most kHelpWidth (a word longer than that stays whole).
  static std::string wrapped(const std::string& line) {
    if (line.size() <= kHelpWidth || line.size() <= kDescColumn || line[kDescColumn - 1] != ' ' ||
        line[kDescColumn] == ' ' || line.rfind("  ", 0) != 0)
      return line;
    std::string out = line.substr(0, kDescColumn);
    const std::string indent(kDescColumn, ' ');
    std::istringstream words(line.substr(kDescColumn));
    size_t used = kDescColumn;
    for (std::string w; words >> w;) {
      if (used > kDescColumn && used + 1 + w.size() > kHelpWidth) {
        out += "\n" + indent;
        used = kDescColumn;
      }
      if (used > kDescColumn) out += ' ', ++used;
      out += w;
      used += w.size();
    }
    return out;
  }
};
}  // namespace

int run(int argc, char** argv) {
  // Every line the runner prints is safe in a CI log (runner/cli/guard.hpp); run_review writes
  // its stdout outputs itself, the `github` format's workflow commands raw.
  CommandGuard out_guard(std::cout.rdbuf()), err_guard(std::cerr.rdbuf());
  std::ostream out(&out_guard), err(&err_guard);
  CLI::App app{"runner: executable review checklists for pull requests (review-action " REVIEW_VERSION ")"};
  app.set_version_flag("--version", std::string("runner ") + REVIEW_VERSION);
  app.footer(kMainFooter);
  app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands, which inherit it
  app.require_subcommand(0, 1);

  ReviewOptions o;
  std::vector<std::string> formats;
  std::string sarif, write_baseline, fail_on = "block";
  std::string config, shard, policy_from;
  std::vector<std::string> with_specs;  // --with NAME=PATH[@REV]
  bool no_config = false;
  app.add_option("--config", config, "Review configuration: rulesets, fail-on, filter, baseline, exclude, severity, repos (default: .github/review.yml at the root of the repository, when it exists; read from --policy-from when given)");
  app.add_flag("--no-config", no_config, "Do not read .github/review.yml by default");
  app.add_option("--policy-from", policy_from,
                 "Read the review policy (--config, rulesets given as paths and what they `use`, the baseline) "
                 "from this revision of --repo, e.g. a pull request's base, not from the work tree; a change "
                 "to the policy is reported as a finding. The action passes the base commit (default: the work tree)")
      ->type_name("REV");
  app.add_option("-r,--ruleset", o.rulesets, "Ruleset: a shipped name (see `runner list`) or a .rules path; repeatable (default: the configuration's rulesets:)");
  auto* g_in = "Input";
  app.add_option("--repo", o.inputs.repo, "Repository folder (default: ., or $GITHUB_WORKSPACE in Actions; with --diff, none unless given)")->group(g_in);
  app.add_option("--base", o.inputs.base, "Base revision (default: --pr's or the event's base, else the merge-base with origin/HEAD, main or master)")->group(g_in);
  app.add_option("--head", o.inputs.head, "Head revision (default: --pr's or the event's head, else HEAD)")->group(g_in);
  app.add_flag("--work-tree", o.inputs.work_tree, "Head = the work tree, uncommitted changes included (the default with no revisions); not with --head, --diff, --base-dir/--head-dir")->group(g_in);
  app.add_flag("--all", o.inputs.all, "Audit mode: review every file of the head (--head, default HEAD, or --work-tree) as if newly added, against an empty tree; binary files and files over --max-file-size are skipped, each with a note; not with --base, --diff, --base-dir/--head-dir, --event")->group(g_in);
  app.add_option("--shard", shard, "Report only the findings in the changed files whose path hash falls in shard I of N, e.g. 2/4 in job 2 of a 4-job matrix (with --all or a pull request); every shard still evaluates the whole change, because rules join facts across files, so shards split the outputs, not the work; `runner merge` joins the shards' SARIF files (default: every file)")->type_name("I/N")->group(g_in);
  app.add_option("--diff", o.inputs.diff, "A unified diff file (- = stdin), e.g. from `gh pr diff`; only its hunks are known unless --repo names a checkout of its head (default: none; git is read)")->group(g_in);
  app.add_option("--base-dir", o.inputs.base_dir, "Compare two folders: the base side (default: none)")->group(g_in);
  app.add_option("--head-dir", o.inputs.head_dir, "Compare two folders: the head side (default: none)")->group(g_in);
  app.add_option("--event", o.inputs.event, "GitHub pull_request event payload (default: none; in Actions, $GITHUB_EVENT_PATH)")->group(g_in);
  app.add_option("--pr", o.inputs.pr, "JSON of `gh pr view --json number,title,body,labels,baseRefOid,headRefOid`; its baseRefOid and headRefOid are the revisions reviewed unless --base/--head are given (default: none)")->group(g_in);
  app.add_option("--title", o.inputs.title, "Pull-request title (default: from --pr or the event; when two revisions are reviewed without them, the head commit's subject)")->group(g_in);
  app.add_option("--body", o.inputs.body, "Pull-request body (default: from --pr or the event; when two revisions are reviewed without them, the head commit's message body)")->group(g_in);
  app.add_option("--label", o.inputs.labels, "Pull-request label (repeatable; default: from --pr or the event)")->group(g_in);
  app.add_option("--max-file-size", o.inputs.max_file_bytes, "Skip files larger than this many bytes, in every input mode (default: 2097152, 2 MiB)")->group(g_in);
  app.add_option("--with", with_specs,
                 "Another repository as a fact scope, NAME=PATH[@REV] (repeatable): rules read it as `functions(NAME)` "
                 "where the ruleset says `let NAME = repo …`; without @REV, the revision the ruleset's pin file names, "
                 "else HEAD (default: none)")
      ->type_name("NAME=PATH[@REV]")
      ->group(g_in);
  app.add_option("--max-diff-size", o.inputs.max_diff_bytes, "Refuse a --diff larger than this many bytes (default: 268435456, 256 MiB)")->group(g_in);
  auto* g_out = "Output";
  app.add_option("-f,--format", formats, "Output FORMAT or FORMAT=FILE, repeatable: text, json, sarif, github, summary (the verdict card in Markdown, as a GitHub step summary shows it), markdown (the same card under a name for a file, e.g. markdown=review-ops.md), rdjson (reviewdog), codeclimate (GitLab code quality), baseline (fingerprints for a later --baseline). At most one goes to standard output (default: text to the terminal, unless a format goes to standard output or text goes to a file)")->group(g_out);
  app.add_flag("-q,--quiet", o.quiet, "Print no report on the terminal (unless a --format goes to standard output) and no notes; warnings and errors still print; the exit code is unchanged")->group(g_out);
  app.add_option("--sarif", sarif, "Shorthand for --format sarif=FILE (default: none)")->group(g_out);
  auto* fail_on_opt = app.add_option("--fail-on", fail_on, "Exit 1 when a finding is at or above: block, warn, note, never (default: block, or the configuration's fail-on:)")
      ->check(one_of({"block", "warn", "note", "never"}))->group(g_out);
  auto* filter_opt = app.add_option("--filter", o.filter, "Report findings on: added lines, context (hunks), file (changed files), all (default: added, or the configuration's filter:)")
      ->check(one_of({"added", "context", "file", "all"}))->group(g_out);
  app.add_option("--color", o.color, "Colour: auto (a terminal, unless NO_COLOR is set), always, never (default: auto)")
      ->check(one_of({"auto", "always", "never"}))->group(g_out);
  app.add_option("--category", o.category, "SARIF automationDetails.id (default: review-action/<ruleset>/)")->group(g_out);
  app.add_option("--baseline", o.baseline, "Suppress findings whose fingerprints are in FILE (default: the configuration's baseline:, else none)")->group(g_out);
  app.add_option("--write-baseline", write_baseline, "Shorthand for --format baseline=FILE: the fingerprints of this run's unsuppressed findings, which a later --baseline FILE accepts (default: none)")->group(g_out);
  bool no_differential = false;
  app.add_flag("--no-differential", no_differential,
               "Judge findings the base already has like new ones (default: a finding off the added lines that the "
               "same rule also reports on the base is pre-existing and does not set the verdict)")->group(g_out);
  app.add_option("--rule", o.only_rules, "Report only this rule id (repeatable; default: every rule)")->group(g_out);
  app.add_option("--exclude-rule", o.skip_rules,
                 "Do not run this rule id (repeatable; like `severity: ID: off` in the configuration; a rule "
                 "whose findings another rule reads still runs, silently; default: none)")->group(g_out);
  auto* g_gh = "GitHub";
  app.add_option("--check-run", o.check_run, "Publish a check run of this NAME on the head commit (needs checks: write; default: none)")->group(g_gh);
  app.add_flag("--comment", o.comment, "Keep one verdict comment on the pull request, updated in place")->group(g_gh);
  app.add_option("--api-deadline", o.api_deadline_s,
                 "Seconds for all GitHub API work of the run together (check run, comment), retries and "
                 "rate-limit waits included (default: 120); what is not done by then is reported, never waited for")
      ->check(CLI::Range(1, 3600))->group(g_gh);
  app.add_option("--token-env", o.token_env, "Environment variable holding the API token (default: GITHUB_TOKEN)")->group(g_gh);
  app.add_option("-j,--jobs", o.jobs, "Parser threads for repository-wide rules (default: 0, all cores)");
  auto* budget_opt = app.add_option("--rule-budget-ms", o.rule_budget_ms,
                                    "Time budget per rule in milliseconds (default: 2000; 60000 with --all); a rule "
                                    "stopped by it makes the review incomplete (exit 4)");
  std::string max_memory;
  app.add_option("--max-memory", max_memory,
                 "Memory ceiling of the run, e.g. 2G, 512M or 40% (default: 50% of the machine's memory or of "
                 "its cgroup's limit, now " + format_bytes(default_memory_ceiling()) + "); past it, the rule running "
                 "stops, no later rule or file starts, and every output is still written, naming what was skipped: "
                 "the review is incomplete (exit 4)")
      ->type_name("SIZE");
  app.add_flag("--timings", o.timings,
               "After the run, print on standard error where its CPU time went: each fact source (building "
               "its facts and indexes), slowest first; each rule and kind with its own work and the sources it "
               "was the first to read, slowest first by their sum; the process's total; then the rule during "
               "which resident memory peaked, and by how much it rose there");
  app.add_flag("--allow-incomplete", o.allow_incomplete,
               "Exit as if the review were complete when a rule was stopped by its budget, a file was skipped "
               "for size or not parsed, or the memory ceiling was reached (the outputs still say what was missed)");

  auto* check = app.add_subcommand("check", "Check rulesets at load time: syntax, names, types, regexes, message gates");
  std::vector<std::string> check_files, check_rs;
  bool strict = false;
  check->add_option("files", check_files, "Ruleset files or shipped names");
  check->add_option("-r,--ruleset", check_rs, "A ruleset file or shipped name, as for a review (repeatable; same as a positional one)");
  check->add_flag("--strict", strict, "Treat warnings (e.g. a rule without a bad example) as errors");
  check->footer("Example: runner check --strict rulesets/atom");

  auto* test = app.add_subcommand("test", "Run every rule's examples: bad ones must fire (on `# <- ID` lines), good ones must not");
  std::vector<std::string> test_files, test_rs, test_rules;
  bool verbose = false;
  test->add_option("files", test_files, "Ruleset files or shipped names");
  test->add_option("-r,--ruleset", test_rs, "A ruleset file or shipped name, as for a review (repeatable; same as a positional one)");
  test->add_option("--rule", test_rules, "Only this rule id (repeatable)");
  test->add_flag("-v,--verbose", verbose, "Also list passing examples");
  std::string test_sarif;
  test->add_option("--sarif", test_sarif, "Also write the examples' findings as one SARIF file");
  test->footer("Example: runner test rulesets/atom --rule D1b -v    runner test -r team.rules");

  auto* explain = app.add_subcommand("explain", "Show a rule: severity, problem/impact/action, help and examples");
  std::string explain_id;
  std::vector<std::string> explain_rs;
  explain->add_option("id", explain_id, "Rule id, e.g. D1b")->required();
  explain->add_option("-r,--ruleset", explain_rs, "Search these rulesets (default: every shipped one)");
  bool explain_plan = false;
  explain->add_flag("--plan", explain_plan,
                    "Print the rule's execution plan instead: per `for`, scan or index lookup, and the conditions "
                    "checked there ((moved) = checked as soon as the variables it reads are bound, not where it "
                    "was written); `then`: the conditions checked once every `for` is bound; `binders`: how each "
                    "exists/count finds its facts. docs/rule-language.md, \"Plans\", explains every mark");
  bool explain_examples = false;
  explain->add_flag("--examples", explain_examples,
                    "Print every example of the rule (default: its first bad and first good one, and how many more)");
  explain->footer("Example: runner explain D1b    runner explain MY1 -r team.rules    runner explain T-TIER --plan");

  auto* sources = app.add_subcommand("sources", "List the fact sources rules can query, with their fields and types");
  sources->footer("Example: runner sources | less");
  auto* facts_cmd = app.add_subcommand(
      "facts", "Show the facts a file yields, with the field names of `runner sources` (for rule authors)");
  std::string facts_file, facts_source;
  bool facts_json = false;
  facts_cmd->add_option("file", facts_file, "A source file, read as a newly added file (its extension picks the language)")
      ->required();
  facts_cmd->add_option("--source", facts_source, "Only this fact source, e.g. statements (default: every source)");
  facts_cmd->add_flag("--json", facts_json, "One JSON document instead of one line per fact");
  facts_cmd->footer("Example: runner facts kernel.cpp --source statements");
  auto* list = app.add_subcommand("list", "List the shipped rulesets and their rule counts");
  list->footer("Example: runner list");

  auto* merge = app.add_subcommand("merge", "Join SARIF files (e.g. from several jobs) into one file, one run per tool and category");
  std::vector<std::string> merge_in;
  std::string merge_out;
  merge->add_option("inputs", merge_in, "SARIF files")->required();
  merge->add_option("-o,--output", merge_out, "Output file (default: stdout)");
  merge->footer("Example: runner merge python.sarif cpp.sarif -o review.sarif");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    // A mistyped option: the suggestion alone says more than CLI11's list of the leftover words.
    if (suggest_flags(app, err) > 0) {
      err << "Run with --help for more information.\n";
      return 2;
    }
    app.exit(e, out, err);
    return 2;
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e, out, err);
    return rc == 0 ? 0 : 2;
  }

  try {
    // `runner check|test FILE…` or `-r FILE` as in a review: both, in the order given
    auto rulesets_of = [&](const char* cmd, std::vector<std::string> files, const std::vector<std::string>& rs)
        -> std::optional<std::vector<std::string>> {
      files.insert(files.end(), rs.begin(), rs.end());
      if (files.empty()) {
        err << "runner " << cmd << ": no ruleset given; pass a ruleset file or shipped name, e.g. `runner " << cmd
            << " team.rules` or `runner " << cmd << " -r atom`\n";
        return std::nullopt;
      }
      return files;
    };
    if (*check) {
      auto files = rulesets_of("check", check_files, check_rs);
      return files ? cmd_check(*files, strict, out, err) : 2;
    }
    if (*test) {
      auto files = rulesets_of("test", test_files, test_rs);
      return files ? run_examples(*files, test_rules, verbose, test_sarif, out, err) : 2;
    }
    if (*explain) return cmd_explain(explain_id, explain_rs, explain_plan, explain_examples, out, err);
    if (*sources) {
      cmd_sources(out);
      return 0;
    }
    if (*list) return cmd_list(out, err);
    if (*facts_cmd) return dump_facts(facts_file, facts_source, facts_json, out, err);
    if (*merge) return merge_sarif_files(merge_in, merge_out, out, err);
    o.max_memory = default_memory_ceiling();
    if (!max_memory.empty()) {
      std::string e;
      std::optional<std::size_t> m = parse_memory_size(max_memory, e);
      if (!m) {
        err << "runner: " << e << "\n";
        return 2;
      }
      o.max_memory = *m;
    }
    // An audit is a batch job over the whole tree: repository-wide rules get time to finish.
    if (o.inputs.all && budget_opt->count() == 0) o.rule_budget_ms = 60000;

    try {
      std::string repo = o.inputs.repo;
      if (repo.empty() && std::getenv("GITHUB_ACTIONS") && std::string(std::getenv("GITHUB_ACTIONS")) == "true" &&
          std::getenv("GITHUB_WORKSPACE"))
        repo = std::getenv("GITHUB_WORKSPACE");
      o.policy = std::make_shared<PolicySource>(repo, policy_from);
    } catch (const PolicyError& e) {
      err << "runner: " << e.message << "\n";
      return 3;
    }
    // The repository's own configuration, as the action reads it: .github/review.yml at the root
    // of the repository under review, read through the policy source -- from --policy-from's
    // revision when given (a pull request's base), so a pull request that adds or edits it changes
    // nothing about its own review.
    if (config.empty() && !no_config && o.inputs.base_dir.empty() && o.inputs.head_dir.empty()) {
      std::string repo = o.inputs.repo;
      if (repo.empty() && std::getenv("GITHUB_ACTIONS") && std::string(std::getenv("GITHUB_ACTIONS")) == "true" &&
          std::getenv("GITHUB_WORKSPACE"))
        repo = std::getenv("GITHUB_WORKSPACE");
      if (auto path = default_config_path(repo)) {
        try {
          if (o.policy->read(*path)) {
            config = *path;
            if (!o.quiet)
              err << "note: using the configuration " << o.policy->display(config)
                  << (policy_from.empty() ? std::string() : " of " + policy_from)
                  << " (--config FILE or --no-config to change)\n";
          }
        } catch (const PolicyError& e) {
          err << "runner: " << e.message << "\n";
          return 3;
        }
      }
    }
    if (!config.empty()) {
      try {
        std::optional<std::string> text = o.policy->read(config);
        if (!text && policy_from.empty()) throw ConfigError{config + ": cannot read the configuration file"};
        if (!text)
          err << "note: no configuration " << o.policy->display(config) << " in " << policy_from
              << ", where the review policy is read from; the defaults apply\n";
        ReviewConfig c = text ? parse_review_config(*text, config) : ReviewConfig{};
        if (o.rulesets.empty()) o.rulesets = c.rulesets;
        if (c.fail_on && fail_on_opt->count() == 0) fail_on = *c.fail_on;
        if (c.filter && filter_opt->count() == 0) o.filter = *c.filter;
        if (c.baseline && o.baseline.empty()) o.baseline = *c.baseline;
        o.exclude = c.exclude;
        o.severity_overrides = c.severity;
        o.inline_suppressions = c.inline_suppressions;
        for (const auto& [n, spec] : c.repos) {
          bool given = false;  // --with NAME wins over the file
          for (const auto& w : with_specs) given = given || w.rfind(n + "=", 0) == 0;
          if (given) continue;
          try {
            auto w = change::parse_with(n + "=" + spec);
            w.origin = config;
            o.with.push_back(std::move(w));
          } catch (const std::invalid_argument& e) {
            throw ConfigError{config + ": repos: " + e.what()};
          }
        }
      } catch (const ConfigError& e) {
        err << e.message << "\n";
        return 3;
      } catch (const PolicyError& e) {
        err << "runner: " << e.message << "\n";
        return 3;
      }
    }
    for (const auto& spec : with_specs) {
      try {
        o.with.push_back(change::parse_with(spec));
      } catch (const std::invalid_argument& e) {
        err << "runner: " << e.what() << "\n";
        return 2;
      }
    }
    if (!shard.empty()) {
      try {
        o.shard = change::parse_shard(shard);
      } catch (const std::invalid_argument& e) {
        err << "runner: " << e.what() << "\n";
        return 2;
      }
    }
    if (o.rulesets.empty()) {
      err << "runner: no ruleset given; pass --ruleset NAME (shipped:";
      for (const auto& n : shipped_ruleset_names()) err << " " << n;
      err << ") or --ruleset FILE.rules\n";
      return 2;
    }
    for (const auto& f : formats) {
      auto eq = f.find('=');
      OutputSpec s{f.substr(0, eq), eq == std::string::npos ? "" : f.substr(eq + 1)};
      const auto& known = report::report_formats();
      if (std::find(known.begin(), known.end(), s.format) == known.end()) {
        err << "runner: unknown format \"" << s.format << "\"; use one of:";
        for (const auto& k : known) err << " " << k;
        err << dsl::did_you_mean(s.format, std::vector<std::string>(known.begin(), known.end())) << "\n";
        return 2;
      }
      o.outputs.push_back(s);
    }
    if (!sarif.empty()) o.outputs.push_back({"sarif", sarif});
    if (!write_baseline.empty()) o.outputs.push_back({"baseline", write_baseline});
    for (const auto& s : o.outputs)
      if (!s.path.empty() && s.path != "-") o.inputs.own_outputs.push_back(s.path);
    // Standard output holds one document: two formats there would run together unparseably.
    {
      std::vector<std::string> to_stdout;
      for (const auto& s : o.outputs)
        if (s.path.empty() || s.path == "-") to_stdout.push_back(s.format);
      if (to_stdout.size() > 1) {
        err << "runner: --format " << to_stdout[0] << " and --format " << to_stdout[1]
            << " would both write to standard output; give all but one a file (--format FORMAT=FILE)\n";
        return 2;
      }
    }
    // Text goes to the terminal unless a format already writes to standard output, text goes to a
    // file, or --quiet.
    if (!o.quiet && std::none_of(o.outputs.begin(), o.outputs.end(), [](const OutputSpec& s) {
          return s.path.empty() || s.path == "-" || s.format == "text";
        }))
      o.outputs.insert(o.outputs.begin(), OutputSpec{"text", ""});
    o.fail_on = parse_fail_on(fail_on);
    out.flush();
    o.differential = !no_differential;
    o.stderr_is_tty = ::isatty(2) != 0;
    return run_review(o, environment_from_process({o.token_env}), std::cout, err, ::isatty(1) != 0);
  } catch (const std::exception& e) {
    err << "runner: internal error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace review::cli
