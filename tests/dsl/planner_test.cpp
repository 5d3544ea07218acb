// The planner: golden plans (`runner explain --plan` prints these), and planned evaluation (index
// lookups, moved conditions) against the nested-loop reference on randomly generated facts.
#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <tuple>

#include <re2/re2.h>

#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;
using testing::MemoryFacts;

namespace {

std::string rule(const std::string& id, const std::string& body, const std::string& problem) {
  return "rule " + id + " \"" + id + "\" {\n" + body + "\n  problem \"" + problem +
         "\"\n  impact \"i\"\n  action \"Author must look\"\n  example bad text \"x\"\n}\n";
}

// Joins of every kind the planner answers with an index, moved conditions, captures, nulls,
// values of mixed types, list and string fields under `in`, and nested field paths.
const std::string kRules =
    rule("EQ", "  for l in lines(changed) where l.added\n"
               "  for f in files(changed) where f.path == l.file and f.tier == 1\n"
               "  unless exists p in lines(l.file) where p.line < l.line and p.code == l.code",
         "{l.file}:{l.line} {l.code}") +
    rule("MEMBER", "  for c in calls(repo) where c.callee ~ /^(?P<nm>\\w+)$/\n"
                   "  for fn in functions(repo) where nm in fn.calls and fn.file != c.file",
         "{nm} in {fn.name}") +
    rule("TAIL", "  for fn in functions(repo) where fn.name ~ /^(?P<hn>\\w+)$/\n"
                 "  for c in calls(repo) where c.callee ~ /(^|\\.){hn}$/ and c.file != fn.file",
         "{c.callee} calls {hn}") +
    rule("COUNT", "  for f in files(changed) where count(l in lines(repo) where l.file == f.path and l.added) >= 2",
         "{f.path}") +
    rule("MOVED", "  for l in lines(repo)\n"
                  "  for fn in functions(repo) where fn.file == l.file and l.line >= fn.start and l.line <= fn.end\n"
                  "  where l.added and fn.changed\n"
                  "  unless l.code == \"\"",
         "{fn.name} {l.code}") +
    rule("TYPES", "  for l in lines(repo) where l.added\n"
                  "  for f in files(repo) where f.blast == l.kind",
         "{f.path} {l.kind}") +
    rule("NULLS", "  for c in calls(repo)\n"
                  "  for a in assignments(repo) where a.function == c.function and a.line != c.line",
         "{a.file}:{a.line} {c.function}") +
    rule("PATH", "  for b in branches(repo)\n"
                 "  for d in dispatch_cases(repo) where d.dispatch.subject == b.subject",
         "{d.value} {b.subject}") +
    rule("CAPTURE", "  for l in lines(changed) where l.code ~ /(?P<w>[a-z]+)/\n"
                    "  for k in lines(repo) where k.code == w and k.file != l.file\n"
                    "  where exists fn in functions(k.file) where fn.name == w",
         "{w} at {k.file}:{k.line}") +
    rule("DEDUP", "  for l in lines(repo)\n"
                  "  for m in lines(repo) where m.code == l.code\n"
                  "  at m",
         "{m.code}") +
    // word indexes: the hole as a whole token, a token's start, its end, anywhere in it
    rule("WORD", "  for l in lines(changed) where l.code ~ /(?P<w>[a-z]+)/\n"
                 "  for k in lines(repo) where k.code ~ /\\b{w}\\b/ and k.file != l.file\n"
                 "  where exists j in lines(repo) where j.code ~ /^{w}/ and j.line != k.line\n"
                 "  unless exists e in lines(k.file) where e.code ~ /{w}\\s*$/ and e.line > k.line\n"
                 "  unless exists i in lines(repo) where i.code ~ /_{w}/",
         "{w} at {k.file}:{k.line}") +
    // a key equal to a capture of the binder's own regex; a list field (first element that matches)
    rule("CAPKEY", "  for c in calls(repo)\n"
                   "  for l in lines(repo) where l.code ~ /^([a-z]?)(?P<w>[a-z]*)/ and c.function == w\n"
                   "  for fn in functions(repo) where fn.calls ~ /^(?P<cw>[a-z]+)$/ and cw == c.function",
         "{c.function} {l.file}:{l.line} {fn.name}") +
    // ranges of an integer field: both bounds, one bound, strict or not, a bound on either side,
    // a field holding strings and nulls too (`<` is false on them), a bound that is no integer,
    // a lines(file) slice in line order and a repository-wide list that is not
    rule("RANGE", "  for fn in functions(repo)\n"
                  "  for l in lines(fn.file) where l.line >= fn.start and fn.end >= l.line\n"
                  "  unless exists p in lines(l.file) where p.line < l.line and p.line > fn.start and p.code == l.code\n"
                  "  where count(q in lines(repo) where q.line <= l.line - 3) >= 2\n"
                  "  unless exists f in files(repo) where f.tier < l.line and 1 <= f.tier\n"
                  "  unless exists k in lines(repo) where k.line > int(l.code)",
         "{fn.name} {l.file}:{l.line} {l.code}") +
    // a word lookup whose key is often no run of [A-Za-z0-9_] (empty, punctuation): the range
    // of the same `where` instead of a scan
    // key lookups narrowed by a range of the same `where`: a join by .function between two
    // lines, a word key, a member lookup (string fields are always candidates) and a bound that
    // is no integer
    rule("NARROW", "  for c in calls(repo) where c.callee ~ /^(?P<nw>[a-z]+)/\n"
                   "  for a in assignments(c.file) where a.function == c.function and a.line >= c.line - 4 and a.line < c.line + 4\n"
                   "  unless exists e in lines(a.file) where e.code ~ /\\b{nw}/ and e.line > a.line\n"
                   "  unless exists fn in functions(c.file) where nw in fn.calls and fn.line <= int(c.callee) and fn.line >= 2\n"
                   "  where exists k in lines(a.file) where k.code == nw and k.line != a.line and k.line <= a.line + 6",
         "{c.file}:{c.line} {a.line} {nw}") +
    // composite keys: several equalities of one `where` looked up together (nulls equal nulls,
    // mixed types never equal), and a key that is a list at run time (a scan)
    rule("MULTI", "  for c in calls(repo)\n"
                  "  for a in assignments(repo) where a.file == c.file and a.function == c.function and a.target == \"t\"\n"
                  "  unless exists l in lines(a.file) where l.file == c.file and l.code == c.callee and l.kind == a.function\n"
                  "  unless exists g in functions(repo) where g.file == c.file and g.calls == [c.function]",
         "{a.file}:{a.line} {c.callee}") +
    // loop-invariant binders memoised per binding of the last `for` they read: in a `for`'s
    // `where` (per c), in `after` (per a, per c, once per body) and one that reads the innermost
    // `for` (evaluated every time)
    rule("HOIST", "  for c in calls(repo) where c.callee ~ /^(?P<hw>[a-z]+)/\n"
                  "  for a in assignments(c.file) where a.line != c.line and exists f in files(repo) where f.path == c.file and f.tier != 1\n"
                  "  for l in lines(a.file) where l.line >= a.line - 3 and count(q in lines(c.file) where q.code == hw) >= 1\n"
                  "  unless exists k in lines(a.file) where k.code == c.callee and k.line < a.line\n"
                  "  unless exists fn in functions(repo) where hw in fn.calls\n"
                  "  where count(e in files(changed) where e.tier == 2) == 0\n"
                  "  unless exists m in lines(l.file) where m.line == l.line + 1 and m.added",
         "{c.file}:{c.line} {a.line} {l.line} {hw}") +
    // regex sets: a `for` and an `exists` over whole-tree scopes whose `where` has only a
    // regex on a field (a string, or a list of strings and other values), two rules' regexes on
    // one field in one set, the same pattern twice, a case-insensitive alternation
    rule("REGEX", "  for l in lines(changed) where l.code ~ /^[a-z]+$/ and l.added\n"
                  "  for fn in functions(repo) where fn.calls ~ /^(zed|y)$/ and fn.file != l.file\n"
                  "  unless exists e in lines(repo) where e.code ~ /(?i)ZED|\\(/ and e.line > l.line\n"
                  "  unless exists q in lines(repo) where q.code ~ /^[a-z]+$/ and q.line > l.line + 1",
         "{l.file}:{l.line} {l.code} {fn.name}") +
    // the literal prefilter of a regex set: regexes that need literals of three characters or
    // more (case-sensitive and not, anchored, an alternation of literals, a class between them)
    // beside ones no literal filters, on the same field as the REGEX rule's
    rule("LITERAL", "  for l in lines(changed) where l.code ~ /zed\\s*x/ or l.code ~ /(?i)Y_ZED/\n"
                    "  unless exists e in lines(repo) where e.code ~ /b_x|x\\.y/ and e.line > l.line\n"
                    "  unless exists k in lines(repo) where k.code ~ /^xze(d|n)$|^a[ x]x/ and k.line == l.line",
         "{l.file}:{l.line} {l.code}") +
    // a binder inside an `or` that binds captures: tabled by the paths it reads (c.file, b)
    rule("ORBIND", "  for c in calls(repo) where c.callee ~ /^q\\./ or (c.callee ~ /^(?P<b>[a-z]+)$/ and\n"
                   "      exists l in lines(c.file) where l.code ~ /\\b{b}\\b/ and l.added)",
         "{c.file}:{c.line} {c.callee}") +
    // an `or` of regexes on two fields, read as the union of their sets' matches, with a regex
    // conjunct beside it as a term (both met by the index); an `or` that binds captures
    rule("ORRX", "  for l in lines(changed) where (l.code ~ /^x/ or l.kind ~ /^a$/) and l.code ~ /y|zed/\n"
                 "  for k in lines(repo) where k.code ~ /^(?P<h>[a-z])/ or k.code ~ /(?P<h2>\\d)$/",
         "{l.file}:{l.line} {k.file}:{k.line} {h}{h2}") +
    rule("FALLBACK", "  for l in lines(changed) where l.code ~ /^(?P<s>[^a-z]*)/\n"
                     "  unless exists e in lines(l.file) where e.code ~ /^{s}[a-z]/ and e.line > l.line",
         "{l.file}:{l.line} [{s}]") +
    // integer keys: an index of ints looked up by ints (values repeat across files), and by
    // keys of every type (the string "1" and true never equal the integer 1)
    rule("INTEQ", "  for c in calls(repo)\n"
                  "  for l in lines(repo) where l.line == c.line and l.file != c.file",
         "{c.file}:{c.line} {l.file}:{l.line}") +
    rule("INTKEY", "  for f in files(repo)\n"
                   "  for l in lines(repo) where l.line == f.tier\n"
                   "  for g in files(repo) where g.tier == l.line",
         "{f.path} {l.file}:{l.line} {g.path}");

std::string pick(std::mt19937& g, const std::vector<std::string>& pool) {
  return pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(g)];
}

Value mixed(std::mt19937& g) {
  switch (std::uniform_int_distribution<int>(0, 4)(g)) {
    case 0: return Value(int64_t{1});
    case 1: return Value(int64_t{2});
    case 2: return Value("1");
    case 3: return Value("a");
    default: return {};
  }
}

void random_facts(MemoryFacts& m, unsigned seed) {
  std::mt19937 g(seed);
  auto n = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  const std::vector<std::string> files = {"a.py", "b.py", "c/d.py", "e.py"};
  const std::vector<std::string> words = {"x", "y", "zed", "a.x", "q.y", "", "1"};
  const std::vector<std::string> names = {"x", "y", "zed", "w"};
  // tokens that hold, start, end or contain the hole values the word rules look up
  const std::vector<std::string> codes = {"ax", "xq", "b_x_c", "x(y)", "zed x", "y_zed", "xzed", "a x.y", "Y_Zed"};
  m.changed = {"a.py", "c/d.py"};
  for (const auto& f : files) {
    std::vector<std::pair<std::string, Value>> fields = {{"path", f}};
    Value t = mixed(g);
    if (!t.is_null()) fields.emplace_back("tier", t);
    Value b = mixed(g);  // a string field holding ints at run time: `==` never equates 1 and "1"
    if (!b.is_null()) fields.emplace_back("blast", b);
    m.add("files", f, 0, fields);
  }
  for (int i = 0, k = n(10, 40); i < k; ++i) {
    std::vector<std::pair<std::string, Value>> fields = {{"code", pick(g, n(0, 2) ? words : codes)},
                                                         {"added", Value(n(0, 1) == 1)}};
    Value kind = mixed(g);
    if (!kind.is_null()) fields.emplace_back("kind", kind);
    m.add("lines", pick(g, files), n(1, 12), fields);
  }
  std::vector<FactPtr> branches;
  for (int i = 0, k = n(0, 6); i < k; ++i)
    branches.push_back(m.add("branches", pick(g, files), n(1, 12), {{"subject", pick(g, names)}}));
  for (int i = 0, k = n(0, 10); i < k; ++i) {
    std::vector<std::pair<std::string, Value>> fields = {{"value", pick(g, words)}};
    if (!branches.empty() && n(0, 3) > 0) fields.emplace_back("dispatch", Value(branches[n(0, int(branches.size()) - 1)]));
    m.add("dispatch_cases", pick(g, files), n(1, 12), fields);
  }
  for (int i = 0, k = n(2, 10); i < k; ++i) {
    int start = n(1, 10);
    Value calls;
    if (n(0, 3) == 0) {
      calls = Value(pick(g, names) + "," + pick(g, names));  // a string: `in` is a substring test
    } else {
      Value::List l;
      for (int j = 0, c = n(0, 3); j < c; ++j) l.emplace_back(pick(g, names));
      if (n(0, 4) == 0) l.emplace_back(int64_t{1});
      calls = Value(std::move(l));
    }
    m.add("functions", pick(g, files), start,
          {{"name", pick(g, names)}, {"start", start}, {"end", start + n(0, 5)}, {"changed", Value(n(0, 1) == 1)},
           {"calls", calls}});
  }
  for (int i = 0, k = n(2, 14); i < k; ++i) {
    std::vector<std::pair<std::string, Value>> fields = {{"callee", pick(g, words) + (n(0, 1) ? "." + pick(g, names) : "")}};
    if (n(0, 2) > 0) fields.emplace_back("function", pick(g, names));
    m.add("calls", pick(g, files), n(1, 12), fields);
  }
  for (int i = 0, k = n(0, 8); i < k; ++i) {
    std::vector<std::pair<std::string, Value>> fields = {{"target", "t"}};
    if (n(0, 2) > 0) fields.emplace_back("function", pick(g, names));
    m.add("assignments", pick(g, files), n(1, 12), fields);
  }
  // every other seed: facts in file order then line order, as the runner's sources give them,
  // so that a file's facts are in line order and key lookups are narrowed by a range of lines
  if (seed % 2 == 0)
    for (auto& [source, list] : m.facts)
      std::stable_sort(list.begin(), list.end(), [](const FactPtr& x, const FactPtr& y) {
        return std::tie(x->file, x->line) < std::tie(y->file, y->line);
      });
}

std::string findings_text(const EvalResult& r) {
  std::string out;
  for (const auto& f : r.findings) {
    out += f.rule_id + " " + f.file + ":" + std::to_string(f.line) + " " + f.problem + " {";
    for (const auto& [k, v] : f.witness) out += k + "=" + v + ";";
    out += "}\n";
  }
  for (const auto& d : r.internal_diagnostics) out += "! " + d + "\n";
  return out;
}

/// Loads `text` as p.rules against the schema of MemoryFacts; any diagnostic fails the test.
LoadResult load_ok(const std::string& text) {
  MemoryFacts m;
  LoadResult r = load_ruleset("p.rules", text, m.schema(), nullptr, {});
  REQUIRE(r.ok());
  return r;
}

/// Evaluates `program` planned over facts that `fill` makes and with nested loops over a second
/// copy of them; checks both find the same; returns how many the planned run found.
size_t planned_equals_nested(const Program& program, const std::function<void(MemoryFacts&)>& fill) {
  MemoryFacts a, b;
  fill(a);
  fill(b);
  EvalOptions planned, nested;
  nested.use_plan = false;
  EvalResult ra = evaluate(program, a, planned);
  EvalResult rb = evaluate(program, b, nested);
  CHECK(findings_text(ra) == findings_text(rb));
  return ra.findings.size();
}

}  // namespace

TEST_CASE("planner: planned evaluation equals nested loops on random facts") {
  MemoryFacts schema_only;
  auto loaded = load_ruleset("p.rules", kRules, schema_only.schema(), nullptr, {});
  std::string errs;
  for (const auto& d : loaded.diagnostics)
    if (d.level == Diagnostic::Level::Error) errs += format_diagnostic(d);
  INFO(errs);
  REQUIRE(loaded.ok());
  size_t nonempty = 0;
  std::set<std::string> rules_that_fired;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    MemoryFacts a, b, c;
    random_facts(a, seed);
    random_facts(b, seed);
    random_facts(c, seed);
    MemoryFacts d;
    random_facts(d, seed);
    EvalOptions planned, nested, colliding, prefiltered;
    nested.use_plan = false;
    // every regex set prefiltered by its literals, whatever its size
    prefiltered.always_prefilter = true;
    // every key of a key index under one hash: each lookup yields every fact with a key, and
    // the conditions checked on each must still keep exactly the right ones
    colliding.colliding_keys = true;
    EvalResult ra = evaluate(*loaded.program, a, planned);
    EvalResult rb = evaluate(*loaded.program, b, nested);
    EvalResult rc = evaluate(*loaded.program, c, colliding);
    INFO("seed " << seed);
    REQUIRE(findings_text(ra) == findings_text(rb));
    REQUIRE(findings_text(rc) == findings_text(rb));
    REQUIRE(findings_text(evaluate(*loaded.program, d, prefiltered)) == findings_text(rb));
    nonempty += !ra.findings.empty();
    for (const auto& f : ra.findings) rules_that_fired.insert(f.rule_id);
  }
  // the generator must exercise every rule, or the comparison above proves little
  CHECK(nonempty > 150);
  CHECK(rules_that_fired == std::set<std::string>{"EQ", "MEMBER", "TAIL", "COUNT", "MOVED", "TYPES", "NULLS", "PATH",
                                                  "CAPTURE", "DEDUP", "WORD", "CAPKEY", "RANGE", "NARROW", "MULTI",
                                                  "HOIST", "REGEX", "FALLBACK", "INTEQ", "INTKEY", "ORBIND", "ORRX",
                                                  "LITERAL"});
}

TEST_CASE("planner: golden plans") {
  MemoryFacts m;
  auto loaded = load_ruleset("p.rules", kRules, m.schema(), nullptr, {});
  REQUIRE(loaded.ok());
  const Program& p = *loaded.program;
  CHECK(p.plan("EQ") ==
        "plan EQ\n"
        "  for l in lines(changed): scan\n"
        "    check l.added\n"
        "  for f in files(changed): index files(changed) by .path = l.file and .tier = 1\n"
        "    check (== f.path l.file)\n"
        "    check (== f.tier 1)  (some fact first)\n"
        "  then\n"
        "    check unless (exists p lines(l.file) (and (< p.line l.line) (== p.code l.code)))  (once per l)\n"
        "  binders\n"
        "    exists p in lines(l.file): index lines(l.file) by .code = l.code, within .line in (-inf, l.line)\n");
  CHECK(p.plan("MEMBER") ==
        "plan MEMBER\n"
        "  for c in calls(repo): index calls(repo) by .callee matching /^(?P<nm>\\w+)$/ (regex set)\n"
        "    check (~ c.callee /^(?P<nm>\\w+)$/)\n"
        "  for fn in functions(repo): index functions(repo) by .calls holding nm\n"
        "    check (in nm fn.calls)\n"
        "    check (!= fn.file c.file)\n");
  CHECK(p.plan("TAIL") ==
        "plan TAIL\n"
        "  for fn in functions(repo): index functions(repo) by .name matching /^(?P<hn>\\w+)$/ (regex set)\n"
        "    check (~ fn.name /^(?P<hn>\\w+)$/)\n"
        "  for c in calls(repo): index calls(repo) by .callee after its last '.' = hn\n"
        "    check (~ c.callee /(^|\\.){hn}$/)\n"
        "    check (!= c.file fn.file)\n");
  CHECK(p.plan("COUNT") ==
        "plan COUNT\n"
        "  for f in files(changed): scan\n"
        "    check (>= (count l lines(repo) (and (== l.file f.path) l.added)) 2)\n"
        "  binders\n"
        "    count l in lines(repo): index lines(repo) by .file = f.path  (once per value of f.path)\n");
  // one-variable conditions move to the scan of their variable; the `unless` becomes a check
  CHECK(p.plan("MOVED") ==
        "plan MOVED\n"
        "  for l in lines(repo): scan\n"
        "    check l.added  (moved)\n"
        "    check unless (== l.code \"\")  (moved)\n"
        "  for fn in functions(repo): index functions(repo) by .file = l.file, within .start in (-inf, l.line]\n"
        "    check (== fn.file l.file)\n"
        "    check (>= l.line fn.start)\n"
        "    check (<= l.line fn.end)\n"
        "  then\n"
        "    check fn.changed\n");
  CHECK(p.plan("PATH") ==
        "plan PATH\n"
        "  for b in branches(repo): scan\n"
        "  for d in dispatch_cases(repo): index dispatch_cases(repo) by .dispatch.subject = b.subject\n"
        "    check (== d.dispatch.subject b.subject)\n");
  // a key that reads a capture of the same `where` cannot be looked up before that `where` runs
  CHECK(p.plan("CAPTURE") ==
        "plan CAPTURE\n"
        "  for l in lines(changed): index lines(changed) by .code matching /(?P<w>[a-z]+)/ (regex set)\n"
        "    check (~ l.code /(?P<w>[a-z]+)/)\n"
        "  for k in lines(repo): index lines(repo) by .code = w\n"
        "    check (== k.code w)\n"
        "    check (!= k.file l.file)\n"
        "  then\n"
        "    check (exists fn functions(k.file) (== fn.name w))  (once per value of k, w)\n"
        "  binders\n"
        "    exists fn in functions(k.file): index functions(k.file) by .name = w\n");
  CHECK(p.plan("WORD") ==
        "plan WORD\n"
        "  for l in lines(changed): index lines(changed) by .code matching /(?P<w>[a-z]+)/ (regex set)\n"
        "    check (~ l.code /(?P<w>[a-z]+)/)\n"
        "  for k in lines(repo): index lines(repo) by .code word = w\n"
        "    check (~ k.code /\\b{w}\\b/)\n"
        "    check (!= k.file l.file)\n"
        "  then\n"
        "    check (exists j lines(repo) (and (~ j.code /^{w}/) (!= j.line k.line)))  (once per value of k, w)\n"
        "    check unless (exists e lines(k.file) (and (~ e.code /{w}\\s*$/) (> e.line k.line)))  (once per value of k, w)\n"
        "    check unless (exists i lines(repo) (~ i.code /_{w}/))  (once per l)\n"
        "  binders\n"
        "    exists j in lines(repo): index lines(repo) by .code word starting w\n"
        "    exists e in lines(k.file): index lines(k.file) by .code word ending w, within .line in (k.line, +inf)\n"
        "    exists i in lines(repo): index lines(repo) by .code word containing w\n");
  CHECK(p.plan("CAPKEY") ==
        "plan CAPKEY\n"
        "  for c in calls(repo): scan\n"
        "  for l in lines(repo): index lines(repo) by .code capturing w = c.function\n"
        "    check (~ l.code /^([a-z]?)(?P<w>[a-z]*)/)\n"
        "    check (== c.function w)\n"
        "  for fn in functions(repo): index functions(repo) by .calls capturing cw = c.function\n"
        "    check (~ fn.calls /^(?P<cw>[a-z]+)$/)\n"
        "    check (== cw c.function)\n");
  CHECK(p.plan("MULTI") ==
        "plan MULTI\n"
        "  for c in calls(repo): scan\n"
        "  for a in assignments(repo): index assignments(repo) by .file = c.file and .function = c.function and .target = \"t\"\n"
        "    check (== a.file c.file)\n"
        "    check (== a.function c.function)\n"
        "    check (== a.target \"t\")  (some fact first)\n"
        "  then\n"
        "    check unless (exists l lines(a.file) (and (== l.file c.file) (== l.code c.callee) (== l.kind a.function)))\n"
        "    check unless (exists g functions(repo) (and (== g.file c.file) (== g.calls [c.function])))  (once per c)\n"
        "  binders\n"
        "    exists l in lines(a.file): index lines(a.file) by .file = c.file and .code = c.callee and .kind = a.function"
        "  (once per value of a.file, a.function, c.callee, c.file)\n"
        "    exists g in functions(repo): index functions(repo) by .file = c.file and .calls = [c.function]\n");
  // binders that read only earlier `for`s: once per binding of the last one they read
  CHECK(p.plan("HOIST") ==
        "plan HOIST\n"
        "  for c in calls(repo): index calls(repo) by .callee matching /^(?P<hw>[a-z]+)/ (regex set)\n"
        "    check (~ c.callee /^(?P<hw>[a-z]+)/)\n"
        "  for a in assignments(c.file): scan\n"
        "    check (!= a.line c.line)\n"
        "    check (exists f files(repo) (and (== f.path c.file) (!= f.tier 1)))  (once per c)\n"
        "  for l in lines(a.file): index lines(a.file) by .line in [(- a.line 3), +inf)\n"
        "    check (>= l.line (- a.line 3))\n"
        "    check (>= (count q lines(c.file) (== q.code hw)) 1)  (once per c)\n"
        "  then\n"
        "    check (== (count e files(changed) (== e.tier 2)) 0)  (once)\n"
        "    check unless (exists k lines(a.file) (and (== k.code c.callee) (< k.line a.line)))  (once per a)\n"
        "    check unless (exists fn functions(repo) (in hw fn.calls))  (once per c)\n"
        "    check unless (exists m lines(l.file) (and (== m.line (+ l.line 1)) m.added))  (once per value of l)\n"
        "  binders\n"
        "    exists f in files(repo): index files(repo) by .path = c.file\n"
        "    count q in lines(c.file): index lines(c.file) by .code = hw\n"
        "    exists k in lines(a.file): index lines(a.file) by .code = c.callee, within .line in (-inf, a.line)\n"
        "    exists fn in functions(repo): index functions(repo) by .calls holding hw\n"
        "    count e in files(changed): index files(changed) by .tier = 2\n"
        "    exists m in lines(l.file): index lines(l.file) by .line = (+ l.line 1)\n");
  // regexes without holes: the facts each matches, from one regex set per source and field
  CHECK(p.plan("REGEX") ==
        "plan REGEX\n"
        "  for l in lines(changed): index lines(changed) by .code matching /^[a-z]+$/ (regex set)\n"
        "    check (~ l.code /^[a-z]+$/)  (met by the index)\n"
        "    check l.added\n"
        "  for fn in functions(repo): index functions(repo) by .calls matching /^(zed|y)$/ (regex set)\n"
        "    check (~ fn.calls /^(zed|y)$/)  (met by the index)  (some fact first)\n"
        "    check (!= fn.file l.file)\n"
        "  then\n"
        "    check unless (exists e lines(repo) (and (~ e.code /(?i)ZED|\\(/) (> e.line l.line)))  (once per l)\n"
        "    check unless (exists q lines(repo) (and (~ q.code /^[a-z]+$/) (> q.line (+ l.line 1))))  (once per l)\n"
        "  binders\n"
        "    exists e in lines(repo): index lines(repo) by .code matching /(?i)ZED|\\(/ (regex set), within .line in (l.line, +inf)\n"
        "    exists q in lines(repo): index lines(repo) by .code matching /^[a-z]+$/ (regex set), within .line in ((+ l.line 1), +inf)\n");
  // a single regex is the lookup, the `or` a term; an `or` alone is the union of its regexes'
  // matches (re-checked where it binds captures)
  CHECK(p.plan("ORRX") ==
        "plan ORRX\n"
        "  for l in lines(changed): index lines(changed) by .code matching /y|zed/ (regex set), matched by .code /^x/ or .kind /^a$/\n"
        "    check (or (~ l.code /^x/) (~ l.kind /^a$/))  (met by the index)\n"
        "    check (~ l.code /y|zed/)  (met by the index)\n"
        "  for k in lines(repo): index lines(repo) by .code matching /^(?P<h>[a-z])/ or .code matching /(?P<h2>\\d)$/ (regex set)\n"
        "    check (or (~ k.code /^(?P<h>[a-z])/) (~ k.code /(?P<h2>\\d)$/))\n");
  CHECK(p.plan("NOPE").empty());
}

// MemoryFacts whose `calls` source builds the facts of a few files on its own
// (SourceSchema::by_files), its field `target` (a fact) the partner whose file can narrow that
// too (SourceSchema::partner), recording the files and partners of every such read.
class FewFiles : public MemoryFacts {
 public:
  std::vector<std::vector<std::string>> asked;
  std::vector<std::optional<std::vector<std::string>>> partners_asked;
  const std::vector<SourceSchema>& schema() const override {
    static const std::vector<SourceSchema> s = [] {
      auto v = testing::test_schema();
      for (auto& x : v)
        if (x.name == "calls") {
          x.by_files = true;
          x.partner = "target";
          x.fields.push_back({"target", review::dsl::Type::Fact, "the called function's place", "calls"});
        }
      return v;
    }();
    return s;
  }
  const std::vector<FactPtr>* query_in_files(const std::string& source, const Scope& scope,
                                             const std::vector<std::string>& files,
                                             const std::vector<std::string>* partners) override {
    asked.push_back(files);
    partners_asked.push_back(partners ? std::optional(*partners) : std::nullopt);
    auto& out = few_[asked.size()];
    for (const auto& f : query(source, scope)) {
      Value t = f->get("target");
      bool partner = !partners || (t.is_fact() && std::binary_search(partners->begin(), partners->end(), t.as_fact()->file));
      if (std::binary_search(files.begin(), files.end(), f->file) && partner) out.push_back(f);
    }
    return &out;
  }

 private:
  std::map<size_t, std::vector<FactPtr>> few_;
};

TEST_CASE("planner: a `for` over a source built for a few files reads only the files earlier `for`s name") {
  const std::string text =
      rule("FEW", "  for f in files(changed) where f.tier == 1\n"
                  "  for c in calls(repo) where c.file == f.path and c.callee == \"run\"",
           "{c.file}:{c.line}") +
      rule("ALSO", "  for f in files(changed) where f.tier == 1\n"
                   "  for c in calls(repo) where c.file == f.path and c.callee == \"stop\"",
           "{c.file}:{c.line}");
  FewFiles schema_only;
  auto loaded = load_ruleset("p.rules", text, schema_only.schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("FEW") ==
        "plan FEW\n"
        "  for f in files(changed): index files(changed) by .tier = 1\n"
        "    check (== f.tier 1)\n"
        "  for c in calls(repo): index calls(repo) by .file = f.path and .callee = \"run\"  (built for the files the "
        "earlier `for`s name)\n"
        "    check (== c.file f.path)\n"
        "    check (== c.callee \"run\")  (some fact first)\n");
  auto fill = [](MemoryFacts& m) {
    m.changed = {"a.py", "b.py", "c.py"};
    m.add("files", "a.py", 0, {{"path", Value("a.py")}, {"tier", Value(1)}});
    m.add("files", "b.py", 0, {{"path", Value("b.py")}, {"tier", Value(0)}});
    m.add("files", "c.py", 0, {{"path", Value("c.py")}, {"tier", Value(1)}});
    for (const char* file : {"a.py", "b.py", "c.py", "d.py"})
      for (int line = 1; line <= 3; ++line)
        m.add("calls", file, line, {{"callee", Value(line == 2 ? "stop" : "run")}});
  };
  FewFiles few;
  MemoryFacts whole;
  fill(few);
  fill(whole);
  EvalOptions reference;
  reference.read_by_key = false;
  EvalResult got = evaluate(*loaded.program, few, {});
  EvalResult want = evaluate(*loaded.program, whole, reference);
  CHECK(findings_text(got) == findings_text(want));
  CHECK(findings_text(got).find("b.py") == std::string::npos);
  CHECK(got.findings.size() == 6);  // a.py and c.py: two `run` each, one `stop` each
  // the tier-1 files, once per rule, and never the whole source
  CHECK(few.asked == std::vector<std::vector<std::string>>{{"a.py", "c.py"}, {"a.py", "c.py"}});
  CHECK(few.query_count["calls(repo)"] == 2);  // by the two reads of a few files only
  CHECK(whole.query_count["calls(repo)"] >= 1);
}

TEST_CASE("planner: a later `for` that looks up a partner's file narrows the few files' read to its files") {
  // PAIR: only calls whose target lies in a tier-2 file reach a finding; LOOSE: the later `for`
  // is looked up by the call's own file, not its partner's, so nothing narrows the read
  const std::string text =
      rule("PAIR", "  for f in files(changed) where f.tier == 1\n"
                   "  for c in calls(repo) where c.file == f.path\n"
                   "  for g in files(repo) where g.path == c.target.file and g.tier == 2",
           "{c.file}:{c.line} -> {g.path}") +
      rule("LOOSE", "  for f in files(changed) where f.tier == 1\n"
                    "  for c in calls(repo) where c.file == f.path\n"
                    "  for g in files(repo) where g.path == c.file and g.tier == 1",
           "{c.file}:{c.line}");
  FewFiles schema_only;
  auto loaded = load_ruleset("p.rules", text, schema_only.schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("PAIR") ==
        "plan PAIR\n"
        "  for f in files(changed): index files(changed) by .tier = 1\n"
        "    check (== f.tier 1)\n"
        "  for c in calls(repo): index calls(repo) by .file = f.path  (built for the files the earlier `for`s name, "
        "paired with the files `for g` admits)\n"
        "    check (== c.file f.path)\n"
        "  for g in files(repo): index files(repo) by .path = c.target.file and .tier = 2\n"
        "    check (== g.path c.target.file)\n"
        "    check (== g.tier 2)  (some fact first)\n");
  CHECK(loaded.program->plan("LOOSE").find("paired") == std::string::npos);
  auto fill = [](MemoryFacts& m) {
    m.changed = {"a.py", "b.py", "c.py", "t.py", "u.py"};
    for (auto [path, tier] : {std::pair{"a.py", 1}, {"b.py", 0}, {"c.py", 1}, {"t.py", 2}, {"u.py", 0}})
      m.add("files", path, 0, {{"path", Value(path)}, {"tier", Value(tier)}});
    m.add("files", "v.py", 0, {{"path", Value("v.py")}, {"tier", Value(2)}});  // at head, unchanged
    int line = 0;
    for (const char* file : {"a.py", "b.py", "c.py"})
      for (const char* target : {"t.py", "u.py", "v.py", "w.py"}) {
        auto t = review::dsl::make_fact("functions", target, 1);
        m.add("calls", file, ++line, {{"callee", Value("run")}, {"target", Value(FactPtr(t))}});
      }
  };
  FewFiles few;
  MemoryFacts whole;
  fill(few);
  fill(whole);
  EvalOptions reference;
  reference.read_by_key = false;
  EvalResult got = evaluate(*loaded.program, few, {});
  EvalResult want = evaluate(*loaded.program, whole, reference);
  CHECK(findings_text(got) == findings_text(want));
  // PAIR: a.py and c.py's calls into t.py and v.py; LOOSE: every call of a.py and c.py
  CHECK(got.findings.size() == 4 + 8);
  // PAIR asks for the tier-1 files' calls into the tier-2 files (w.py has no file fact, u.py
  // is tier 0); LOOSE for the tier-1 files' calls, whatever their partner
  REQUIRE(few.partners_asked.size() == 2);
  CHECK(few.partners_asked[0] == std::optional(std::vector<std::string>{"t.py", "v.py"}));
  CHECK(few.partners_asked[1] == std::nullopt);
  CHECK(few.asked == std::vector<std::vector<std::string>>{{"a.py", "c.py"}, {"a.py", "c.py"}});
}

TEST_CASE("planner: golden plan of range lookups") {
  MemoryFacts m;
  auto loaded = load_ruleset("p.rules", kRules, m.schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("RANGE") ==
        "plan RANGE\n"
        "  for fn in functions(repo): scan\n"
        "  for l in lines(fn.file): index lines(fn.file) by .line in [fn.start, fn.end]\n"
        "    check (>= l.line fn.start)\n"
        "    check (>= fn.end l.line)\n"
        "  then\n"
        "    check (>= (count q lines(repo) (<= q.line (- l.line 3))) 2)  (once per value of l)\n"
        "    check unless (exists p lines(l.file) (and (< p.line l.line) (> p.line fn.start) (== p.code l.code)))\n"
        "    check unless (exists f files(repo) (and (< f.tier l.line) (<= 1 f.tier)))  (once per value of l)\n"
        "    check unless (exists k lines(repo) (> k.line (int() l.code)))  (once per value of l)\n"
        "  binders\n"
        "    exists p in lines(l.file): index lines(l.file) by .code = l.code, within .line in (fn.start, l.line)"
        "  (once per value of fn.start, l.code, l.file, l.line)\n"
        "    count q in lines(repo): index lines(repo) by .line in (-inf, (- l.line 3)]\n"
        "    exists f in files(repo): index files(repo) by .tier in [1, l.line)\n"
        "    exists k in lines(repo): index lines(repo) by .line in ((int() l.code), +inf)\n");
}

TEST_CASE("planner: a key reading a capture of its own where is not looked up") {
  auto loaded = load_ok(rule("SELF", "  for l in lines(changed)\n"
                                     "  for k in lines(repo) where k.code ~ /(?P<w>\\w+)/ and k.text == w",
                             "{w}"));
  // (the regex itself, without holes, is a regex-set lookup; the capture is no key)
  CHECK(loaded.program->plan("SELF").find("for k in lines(repo): index lines(repo) by .code matching /(?P<w>\\w+)/ (regex set)\n") != std::string::npos);
  CHECK(loaded.program->plan("SELF").find("by .text") == std::string::npos);
}

TEST_CASE("planner: a regex hole is a word key only when every match must contain it") {
  MemoryFacts m;
  auto plan_of = [&](const std::string& regex) {
    std::string text = rule("R", "  for l in lines(changed) where l.code ~ /(?P<w>\\w+)/\n"
                                 "  for k in lines(repo) where k.code ~ /" + regex + "/",
                            "{w}");
    auto loaded = load_ruleset("p.rules", text, m.schema(), nullptr, {});
    REQUIRE(loaded.ok());
    std::string plan = loaded.program->plan("R");
    auto at = plan.find("for k in lines(repo): ");
    REQUIRE(at != std::string::npos);
    const size_t n = std::string("for k in lines(repo): ").size();
    return plan.substr(at + n, plan.find('\n', at) - at - n);
  };
  CHECK(plan_of("\\b{w}\\s*=") == "index lines(repo) by .code word = w");
  CHECK(plan_of("\\({w}\\s*[,)]") == "index lines(repo) by .code word = w");
  CHECK(plan_of("([^)]*[\\s,.])?{w}\\s*[,)]") == "index lines(repo) by .code word ending w");
  CHECK(plan_of("x{w}\\s*=?") == "index lines(repo) by .code word containing w");
  CHECK(plan_of("\\b{w}[a,]") == "index lines(repo) by .code word starting w");
  // an alternation inside a group beside the hole leaves the hole in every match
  CHECK(plan_of("(atomicAdd|atomic_max)\\s*\\(\\s*&?{w}\\b") == "index lines(repo) by .code word ending w");
  CHECK(plan_of("(^|\\.){w}\\(") == "index lines(repo) by .code word ending w");
  // a hole in every top-level alternative (of the pattern, or of one group that is the whole
  // pattern) is in every match: bounded on a side where every alternative bounds it
  CHECK(plan_of("\\b{w}\\s*=|\\(\\s*{w}\\b") == "index lines(repo) by .code word = w");
  CHECK(plan_of("\\b{w}\\s*=|a\\s*{w}\\b") == "index lines(repo) by .code word ending w");
  // optional spaces before the hole: bounded when what precedes them is
  CHECK(plan_of("def\\s+{w}\\b") == "index lines(repo) by .code word = w");
  CHECK(plan_of("^\\s*{w}\\s*=") == "index lines(repo) by .code word = w");
  CHECK(plan_of("x\\s?{w}\\(") == "index lines(repo) by .code word ending w");
  CHECK(plan_of("\\\\s*{w}\\b") == "index lines(repo) by .code word ending w");  // `\\s*`: a literal s
  CHECK(plan_of("(\\b{w}\\b|x{w}\\()") == "index lines(repo) by .code word ending w");
  CHECK(plan_of("(?:\\b{w}\\b|\\b{w}\\.)") == "index lines(repo) by .code word = w");
  CHECK(plan_of("(?P<g>[ (]{w}\\)|{w}\\.x)") == "index lines(repo) by .code word ending w");
  CHECK(plan_of("(a|b)\\s{w}\\b|\\b{w}\\.(c|d)") == "index lines(repo) by .code word = w");
  // ... not when one alternative lacks it, or holds it only inside a group or optionally
  CHECK(plan_of("(a|b){w}|c") == "scan");
  CHECK(plan_of("(?P<g>\\b{w}|y)") == "scan");
  CHECK(plan_of("(x{w})|(y{w})") == "scan");
  CHECK(plan_of("\\b{w}\\b|a({w})?") == "scan");
  CHECK(plan_of("(\\b{w}|a)(b|{w})") == "scan");
  CHECK(plan_of("[(|]{w}") == "index lines(repo) by .code word containing w");  // a `|` in a class splits nothing
  // optional, inside a group, in an alternation, case-insensitive, quantified: never a key
  CHECK(plan_of("a({w})?") == "scan");
  CHECK(plan_of("(a{w})") == "scan");
  CHECK(plan_of("\\b{w}\\b|b") == "scan");
  CHECK(plan_of("(?i)\\b{w}\\b") == "scan");
  CHECK(plan_of("\\b{w}?") == "scan");
  CHECK(plan_of("\\b{w}*") == "scan");
}

TEST_CASE("planner: word lookups keep every fact the regex matches") {
  // hole values that are not word runs (a dot, empty, spaces) fall back to the scan
  auto loaded = load_ok(rule("R", "  for l in lines(changed) where l.code ~ /^(?P<w>.*)$/\n"
                                  "  for k in lines(repo) where k.code ~ /\\b{w}\\b/",
                             "{w} {k.file}:{k.line}"));
  CHECK(planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
          f.changed = {"a.py"};
          for (const char* code : {"a.x", "x", "", "x y", "foo_bar", "bar"})
            f.add("lines", "a.py", 1, {{"code", Value(code)}});
          for (const char* code : {"a.x = 1", "(x)", "x_y", "foo_bar(2)", "bar.baz", "x y", "1 x", "", "xx"})
            f.add("lines", "b.py", 2, {{"code", Value(code)}});
        }) >= 6);
}

TEST_CASE("planner: word lookups over thousands of distinct tokens keep every fact the regex matches") {
  // 2,000 tokens of 1-8 characters over 600 lines: many share a length and end characters, so
  // the index's recent-token slots are taken over again and again (a stale slot would lose or
  // misfile a line)
  auto loaded = load_ok(rule("R", "  for l in lines(changed) where l.code ~ /^key (?P<w>\\w+)$/\n"
                                  "  for k in lines(repo) where k.code ~ /\\b{w}\\b/",
                             "{w} {k.file}:{k.line}"));
  REQUIRE(loaded.program->plan("R").find("word") != std::string::npos);
  CHECK(planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
          f.changed = {"a.py"};
          std::mt19937 rng(7);
          std::vector<std::string> toks;
          const std::string alphabet = "abcxyz_019";
          for (int t = 0; t < 2000; ++t) {
            std::string w(1 + rng() % 8, 'a');
            for (auto& c : w) c = alphabet[rng() % alphabet.size()];
            toks.push_back(w);
          }
          for (int i = 0; i < 40; ++i) f.add("lines", "a.py", i + 1, {{"code", Value("key " + toks[rng() % 300])}});
          for (int i = 0; i < 600; ++i) {
            std::string code;
            for (int n = 0; n < 6; ++n) code += toks[rng() % toks.size()] + (n % 2 ? "." : " ");
            f.add("lines", "b.py", i + 1, {{"code", Value(code)}});
          }
        }) >= 20);
}

TEST_CASE("planner: a regex set's answers for recurring values equal nested loops") {
  // 9,000 lines: 6,000 distinct values (more than the index's table of recent values holds, so
  // slots are taken over), values that recur far apart, and values too long to keep; three
  // rules' regexes on one field share a set
  auto loaded = load_ok(rule("A", "  for l in lines(changed) where l.code ~ /^k\\d+5$/", "{l.line}") +
                        rule("B", "  for l in lines(changed) where l.code ~ /zz|^r[0-4]/", "{l.line}") +
                        rule("C", "  for l in lines(changed) where l.code ~ /\\d{3}$/ and l.line > 10", "{l.line}"));
  REQUIRE(loaded.program->plan("A").find("regex set") != std::string::npos);
  CHECK(planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
          f.changed = {"a.py"};
          std::mt19937 rng(11);
          for (int i = 0; i < 9000; ++i) {
            std::string code;
            switch (rng() % 4) {
              case 0: code = "k" + std::to_string(rng() % 6000); break;             // many distinct
              case 1: code = "r" + std::to_string(rng() % 9); break;                // recurring
              case 2: code = std::string(300 + rng() % 3, 'z') + std::to_string(rng() % 1000); break;  // too long
              default: code = std::string(rng() % 3, ' '); break;                   // blank-like
            }
            f.add("lines", "a.py", i + 1, {{"code", Value(code)}});
          }
        }) >= 3000);
}

TEST_CASE("planner: regex sets split by program size, over two fields, equal nested loops") {
  // A regex of more than 512 RE2 instructions is matched in an RE2::Set of its own, the small
  // ones beside it in another; no literal of three characters filters any of them, so all go
  // through the sets. `code` is indexed by three regexes over lines(changed) and over
  // lines(repo) (the second index reuses the first's compiled sets), `kind` by two.
  std::string big = "(?P<x>\\b(";
  for (int i = 0; i < 40; ++i) big += (i ? "|" : "") + std::string("\\w*(?:i") + std::to_string(i % 10) + "|j" + std::to_string(i) + ")\\w*";
  big += ")\\s*\\*\\s*[A-Z][A-Z0-9_]*\\b[^;]*)";
  REQUIRE(re2::RE2(big).ok());
  REQUIRE(re2::RE2(big).ProgramSize() > 512);
  // one `let` regex in both lists, first in each: each list still has its own compiled sets
  auto loaded = load_ok("let big = /" + big + "/\n" +
                        rule("BIG", "  for l in lines(changed) where l.code ~ big", "{l.line}") +
                        rule("NB", "  for l in lines(changed) where l.code ~ /\\S/", "{l.line}") +
                        rule("EQ", "  for l in lines(changed) where l.code ~ /^\\s*\\w+\\s*=/", "{l.line}") +
                        rule("RBIG", "  for l in lines(repo) where l.kind ~ big and l.line > 2", "{l.file}:{l.line}") +
                        rule("RNB", "  for l in lines(repo) where l.kind ~ /\\S/ and l.line > 2", "{l.file}:{l.line}") +
                        rule("REQ", "  for l in lines(repo) where l.code ~ /^\\s*\\w+\\s*=/ and l.line > 2", "{l.file}:{l.line}"));
  REQUIRE(loaded.program->plan("BIG").find("regex set") != std::string::npos);
  REQUIRE(loaded.program->plan("RBIG").find("regex set") != std::string::npos);
  CHECK(planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
          f.changed = {"a.py"};
          std::mt19937 rng(23);
          const char* names[] = {"i3", "xj17y", "row", "ABC", "k", "j39", "tok"};
          const char* kinds[] = {"", "  j5 * Q", "tok = 1", "i3 * ABC;"};
          for (int i = 0; i < 3000; ++i) {
            std::string code(rng() % 3, ' ');
            switch (rng() % 4) {
              case 0: code += std::string(names[rng() % 7]) + " * " + names[rng() % 7]; break;
              case 1: code += std::string(names[rng() % 7]) + " = " + std::to_string(rng() % 50); break;
              case 2: code += "f(" + std::string(names[rng() % 7]) + ");"; break;
              default: break;  // blank
            }
            // `kind` holds another line's text: the same regexes, other answers
            f.add("lines", i % 3 ? "a.py" : "b.py", i + 1, {{"code", Value(code)}, {"kind", Value(kinds[rng() % 4])}});
          }
        }) >= 1000);
}

TEST_CASE("evaluator: a regex asked of recurring texts answers as RE2 does for each") {
  // per-file scopes, so each line's regex is asked as a condition (no regex set index): two
  // rules ask the same hole-free regex of the same lines, 4,000 lines with 2,500 distinct texts
  // (more than the evaluator keeps answers for), recurring ones, and ones too long to keep
  auto loaded = load_ok(rule("A", "  for f in files(changed)\n  for l in lines(f.path) where l.code ~ /q[0-4]7/", "{l.line}") +
                        rule("B", "  for f in files(changed)\n  for l in lines(f.path) where l.code ~ /q[0-4]7/ and l.line > 0",
                             "{l.line}"));
  MemoryFacts f;
  f.changed = {"a.py", "b.py"};
  f.add("files", "a.py", 0, {{"path", Value("a.py")}});
  f.add("files", "b.py", 0, {{"path", Value("b.py")}});
  std::mt19937 rng(5);
  std::set<std::string> expected;
  for (int i = 0; i < 4000; ++i) {
    std::string code;
    switch (rng() % 3) {
      case 0: code = "q" + std::to_string(rng() % 2500); break;
      case 1: code = "q" + std::to_string(rng() % 12) + "7"; break;
      default: code = std::string(300, ' ') + "q" + std::to_string(rng() % 90); break;
    }
    const char* file = i % 2 ? "b.py" : "a.py";
    f.add("lines", file, i + 1, {{"code", Value(code)}});
    if (re2::RE2::PartialMatch(code, "q[0-4]7")) expected.insert(std::string(file) + ":" + std::to_string(i + 1));
  }
  EvalResult r = evaluate(*loaded.program, f, EvalOptions{});
  std::set<std::string> got_a, got_b;
  for (const auto& x : r.findings) (x.rule_id == "A" ? got_a : got_b).insert(x.file + ":" + x.problem);  // the problem is l.line
  CHECK(expected.size() > 300);
  CHECK(got_a == expected);
  CHECK(got_b == expected);
}

TEST_CASE("planner: a word lookup beside a grouped alternation keeps every fact the regex matches") {
  auto loaded = load_ok(rule("R", "  for l in lines(changed) where l.code ~ /^(?P<w>.*)$/\n"
                                  "  for k in lines(l.file) where k.code ~ /(add|max_)\\(\\s*&?{w}\\b/",
                             "{w} {k.file}:{k.line}"));
  REQUIRE(loaded.program->plan("R").find("word ending w") != std::string::npos);
  CHECK(planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
          f.changed = {"a.py"};
          int line = 1;
          for (const char* code : {"buf", "x", "", "a.b", "buf2", "add(buf)", "max_(&buf, 1)", "add( x)", "max_(xbuf)",
                                   "add(a.b)", "add(buf2)", "sub(buf)", "max_(  &x)"})
            f.add("lines", "a.py", line++, {{"code", Value(code)}});
        }) >= 5);
}

TEST_CASE("planner: a join narrowed by a word lookup keeps every fact the regex matches") {
  // one function of 300 lines (more candidates than a join reads without its word lookup) and
  // a short one; the word regex is an alternation holding the name in both alternatives
  auto loaded = load_ok(rule("R", "  for l in lines(changed) where l.code ~ /^use (?P<w>\\w*)$/\n"
                                  "  for k in lines(l.file) where k.function == l.function and k.line != l.line\n"
                                  "      and k.code ~ /cast\\(\\w*{w}\\s*\\)|\\b{w}\\.to\\(/",
                             "{w} {k.file}:{k.line}"));
  const std::string plan = loaded.program->plan("R");
  INFO(plan);
  REQUIRE(plan.find("by .function = l.function, narrowed by .code word ending w when many") != std::string::npos);
  size_t found = planned_equals_nested(*loaded.program, [](MemoryFacts& f) {
    f.changed = {"a.py"};
    std::mt19937 rng(11);
    const char* names[] = {"x", "xy", "yx", "x_1", "row", "arow", "rows", ""};
    const char* shapes[] = {"cast({})", "cast( {} )", "{}.to(t)", "a{}.to(t)", "{}_b.to(t)", "cast(a{})",
                            "k = {}", "{} + 1", "cast({}.to(t))", "p.{}.to(x)"};
    for (int i = 1; i <= 340; ++i) {
      std::string code;
      if (i % 37 == 1) {
        code = std::string("use ") + names[rng() % 8];
      } else {
        std::string shape = shapes[rng() % 10];
        code = shape.replace(shape.find("{}"), 2, names[rng() % 8]);
      }
      f.add("lines", "a.py", i, {{"code", Value(code)}, {"function", Value(i <= 300 ? "big" : "small")}});
    }
  });
  CHECK(found >= 40);
}

TEST_CASE("planner: a tabled anti-join equals nested loops, whether its keys repeat or not") {
  // 120 lines "w<i % 5> <i>"; each rule pairs every line l with every added line k (9,600
  // pairs, past a table's trial of 4,096 lookups). TABLED's anti-join reads (k, w), and w takes
  // 5 values: the table answers most lookups. UNIQUE's reads (k, u), and u is l's own number:
  // its keys never repeat, so after the trial its table is dropped and the condition evaluated
  // as written.
  const std::string text =
      rule("TABLED", "  for l in lines(changed) where l.code ~ /^(?P<w>w\\d) /\n"
                     "  for k in lines(changed) where k.added\n"
                     "  unless exists p in lines(k.file) where p.code ~ /^{w} / and p.line > k.line + 4",
           "{w} {k.line}") +
      rule("UNIQUE", "  for l in lines(changed) where l.code ~ / (?P<u>\\d+)$/\n"
                     "  for k in lines(changed) where k.added\n"
                     "  unless exists p in lines(k.file) where p.code ~ / {u}$/ and p.line > k.line",
           "{u} {k.line}");
  MemoryFacts schema_only;
  auto loaded = load_ruleset("t.rules", text, schema_only.schema(), nullptr, {});
  for (const auto& d : loaded.diagnostics) FAIL_CHECK(format_diagnostic(d));
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("TABLED").find("(once per value of k, w)") != std::string::npos);
  CHECK(loaded.program->plan("UNIQUE").find("(once per value of k, u)") != std::string::npos);
  auto fill_lines = [](MemoryFacts& m) {
    m.changed = {"a.py"};
    for (int i = 1; i <= 120; ++i)
      m.add("lines", "a.py", i, {{"code", "w" + std::to_string(i % 5) + " " + std::to_string(i)}, {"added", Value(i % 3 != 0)}});
  };
  MemoryFacts a, b;
  fill_lines(a);
  fill_lines(b);
  EvalOptions planned, nested;
  planned.rule_budget = nested.rule_budget = std::chrono::milliseconds(60000);
  nested.use_plan = false;
  EvalResult ra = evaluate(*loaded.program, a, planned);
  EvalResult rb = evaluate(*loaded.program, b, nested);
  REQUIRE(ra.internal_diagnostics.empty());
  size_t tabled = 0, unique = 0;
  for (const auto& f : ra.findings) (f.rule_id == "TABLED" ? tabled : unique)++;
  // TABLED: the pairs whose k has no later line of l's word 5 lines on (k > 95 or so);
  // UNIQUE: the pairs whose k is at or after l
  CHECK(tabled > 0);
  CHECK(tabled < 120 * 80);
  CHECK(unique > 4000);
  CHECK(findings_text(ra) == findings_text(rb));
}

TEST_CASE("planner: a binder inside an `or` is tabled by the field paths it reads, and equals nested loops") {
  // a.py: lines 1-3 "w0 x", "w1 x", "w2 x", then "w<i % 5> <i>" to line 100; b.py: "w<i % 5> <i>"
  // only. A line fires when its file has the x line of its word: every key (c.file, w) repeats
  // about 20 times, and a table keyed without w (a.py's first answer for all its words) or
  // without c.file (b.py's lines taking a.py's answers) would find other lines.
  const std::string text = rule("ORBIND", "  for c in lines(changed) where c.code ~ /^k / or (c.code ~ /^(?P<w>w\\d) / and\n"
                                          "      exists p in lines(c.file) where p.code ~ /^{w} x$/)",
                                "{c.file}:{c.line}");
  MemoryFacts schema_only;
  auto loaded = load_ruleset("t.rules", text, schema_only.schema(), nullptr, {});
  for (const auto& d : loaded.diagnostics) FAIL_CHECK(format_diagnostic(d));
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("ORBIND").find("exists p in lines(c.file): index lines(c.file) by .code word = w  (once per value of c.file, w)\n") !=
        std::string::npos);
  auto fill = [](MemoryFacts& m) {
    m.changed = {"a.py", "b.py"};
    for (int i = 1; i <= 100; ++i) {
      std::string w = "w" + std::to_string(i % 5) + " " + std::to_string(i);
      m.add("lines", "a.py", i, {{"code", i <= 3 ? "w" + std::to_string(i - 1) + " x" : w}});
    }
    for (int i = 1; i <= 100; ++i) m.add("lines", "b.py", i, {{"code", "w" + std::to_string(i % 5) + " " + std::to_string(i)}});
  };
  // a.py's three x lines, and its lines 4-100 of w0, w1 or w2 (20 + 19 + 19)
  CHECK(planned_equals_nested(*loaded.program, fill) == 3 + 58);
}

TEST_CASE("planner: the literal prefilter of a holed regex keeps every match RE2 finds") {
  // Each required hole's value must occur in the text before RE2 is asked; the reference is
  // RE2 itself on the pattern with the values inserted (quoted), for every (l, k) pair.
  MemoryFacts m;
  const std::vector<std::string> cases = {
      "\\b{w}\\s*=",  // required, bounded
      "{w}{v}\\(",    // two adjacent required holes
      "x{w}?y",       // quantified: not required
      "(a|{w})",      // in a group and an alternation: not required
      "(?i)^{w}",     // case-insensitive: not required
      "[{w}]z",       // inside a class: not required
  };
  const std::vector<std::string> hole_values = {"x", "ab", "", "a.b", "X", "(", "y_z"};
  const std::vector<std::string> texts = {"x = 1", "ab(", "a.b = 2", "xy", "y", "X(", "yz", "axy", "Ab", "((", "y_z=3",
                                          "a", "xab(", "zz", "abab(", ""};
  for (const auto& pattern : cases) {
    std::string text = rule("R", "  for l in lines(changed) where l.code ~ /^(?P<w>[^|]*)\\|(?P<v>.*)$/\n"
                                 "  for k in lines(repo) where k.text ~ /" + pattern + "/",
                            "{l.code} {k.text}");
    auto loaded = load_ruleset("p.rules", text, m.schema(), nullptr, {});
    INFO(pattern);
    REQUIRE(loaded.ok());
    MemoryFacts f;
    f.changed = {"a.py"};
    for (const auto& w : hole_values)
      for (const auto& v : {std::string("b"), std::string("")}) f.add("lines", "a.py", 1, {{"code", Value(w + "|" + v)}});
    for (const auto& t : texts) f.add("lines", "b.py", 2, {{"text", Value(t)}, {"code", Value("-")}});
    EvalResult r = evaluate(*loaded.program, f, {});
    std::set<std::string> got, want;
    for (const auto& x : r.findings) got.insert(x.problem);
    for (const auto& w : hole_values)
      for (const auto& v : {std::string("b"), std::string("")}) {
        std::string p = pattern;
        auto put = [&](const std::string& hole, const std::string& value) {
          auto at = p.find(hole);
          if (at != std::string::npos) p.replace(at, hole.size(), re2::RE2::QuoteMeta(value));
        };
        put("{w}", w);
        put("{v}", v);
        re2::RE2 re(p, re2::RE2::Quiet);
        if (!re.ok()) continue;  // `[]z`: RE2 rejects the instance, and the rule matches nothing
        for (const auto& t : texts)
          if (re2::RE2::PartialMatch(t, re)) want.insert(w + "|" + v + " " + t);
        // lines(repo) holds the changed lines too: their text field is absent (no match)
      }
    CHECK(got == want);
    CHECK(!want.empty());
  }
}
