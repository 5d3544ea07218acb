// Reads by key (ChangeFacts::query_containing, the evaluator's demand-driven read of repository-wide
// sources): the files chosen are those whose text holds the key, fewer files are parsed, and rules
// find exactly what they find when every source is built whole, on random synthetic repositories.
#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "facts/change_builder.hpp"

using review::dsl::FactPtr;
using review::dsl::Scope;
using review::facts::testing::ChangeBuilder;

namespace {

const Scope kRepo{Scope::Kind::Repo, {}};

std::set<std::string> files_of(const std::vector<FactPtr>& facts) {
  std::set<std::string> out;
  for (const auto& f : facts) out.insert(f->file);
  return out;
}

// "file:line name" of every fact whose field `field` equals `value`, in order.
std::vector<std::string> matching(const std::vector<FactPtr>& facts, const char* field, const std::string& value) {
  std::vector<std::string> out;
  for (const auto& f : facts)
    if (f->get(field).to_text() == value) out.push_back(f->file + ":" + std::to_string(f->line));
  return out;
}

}  // namespace

namespace {

// Counts the texts asked of another content source, by path.
class CountingContent final : public review::change::ContentSource {
 public:
  explicit CountingContent(std::shared_ptr<review::change::ContentSource> inner) : inner_(std::move(inner)) {}
  std::optional<std::string> head(const std::string& path) override {
    ++reads[path];
    return inner_->head(path);
  }
  std::optional<std::string> base(const std::string& path) override {
    ++reads[path];
    return inner_->base(path);
  }
  std::vector<std::string> head_files() override { return inner_->head_files(); }
  std::map<std::string, int> reads;

 private:
  std::shared_ptr<review::change::ContentSource> inner_;
};

}  // namespace

TEST_CASE("a binary format is skipped by its name: its bytes are never read, by a read by key or a whole build", "[facts][bykey]") {
  // aiter holds 118 MB of compiled GPU kernels (`.co`); every pull-request run that read text
  // files repository-wide read them all through git to find a NUL byte in each.
  ChangeBuilder b;
  b.file("pkg/a.py", "X = 1\n", "X = beta_knob\n");
  b.unchanged("docs/knobs.md", "Set beta_knob to 1.\n");
  b.unchanged("hsa/gfx942/k.co", "beta_knob as text: still a code object by its name\n");
  b.unchanged("img/Logo.PNG", "beta_knob\n");
  b.unchanged("data/table.csv", "beta_knob,1\n");
  for (int i = 0; i < 8; ++i) b.unchanged("pkg/o" + std::to_string(i) + ".py", "Y = " + std::to_string(i) + "\n");
  b.change.content = b.content;
  auto counting = std::make_shared<CountingContent>(b.content);
  auto change = std::make_shared<review::change::Change>(b.change);
  change->content = counting;
  review::facts::ChangeFacts lazy(change);
  const auto* got = lazy.query_containing("lines", kRepo, {"beta_knob"});
  REQUIRE(got != nullptr);
  CHECK(files_of(*got) == std::set<std::string>{"data/table.csv", "docs/knobs.md", "pkg/a.py"});
  CHECK(counting->reads.count("hsa/gfx942/k.co") == 0);
  CHECK(counting->reads.count("img/Logo.PNG") == 0);
  CHECK(counting->reads["docs/knobs.md"] >= 1);
  auto notes = lazy.notes();
  CHECK(std::count(notes.begin(), notes.end(), "hsa/gfx942/k.co: skipped: binary file format (.co)") == 1);
  CHECK(std::count(notes.begin(), notes.end(), "img/Logo.PNG: skipped: binary file format (.png)") == 1);
  CHECK(lazy.incomplete().empty());

  // the whole build agrees, and reads them neither
  auto change2 = std::make_shared<review::change::Change>(b.change);
  auto counting2 = std::make_shared<CountingContent>(b.content);
  change2->content = counting2;
  review::facts::ChangeFacts whole(change2);
  CHECK(files_of(whole.query("lines", kRepo)).count("hsa/gfx942/k.co") == 0);
  CHECK(counting2->reads.count("hsa/gfx942/k.co") == 0);
  CHECK(counting2->reads.count("img/Logo.PNG") == 0);
  CHECK(whole.notes() == notes);
}

TEST_CASE("query_containing parses only the files whose text holds the words", "[facts][bykey]") {
  ChangeBuilder b;
  b.file("pkg/a.py", "def alpha():\n    return 1\n", "def alpha():\n    return beta_helper(2)\n");
  b.unchanged("pkg/b.py", "def beta_helper(x):\n    return x\n");
  b.unchanged("pkg/c.py", "import os\n\ndef gamma():\n    os.getcwd()\n");
  b.unchanged("pkg/d.py", "# mentions beta_helper in a comment only\nX = 1\n");
  for (int i = 0; i < 12; ++i) b.unchanged("pkg/other" + std::to_string(i) + ".py", "def f" + std::to_string(i) + "():\n    pass\n");
  // binary: parsed (for its note) whatever the key, by the sources that read its language
  b.unchanged("pkg/blob.py", std::string("beta\0data", 9));
  b.unchanged("pkg/blob.bin", std::string("beta\0data", 9));
  std::vector<std::string> parsed;
  auto lazy = b.facts();
  lazy->set_parse_hook([&](const std::string& p, bool) { parsed.push_back(p); });

  const auto* got = lazy->query_containing("symbols", kRepo, {"beta_helper"});
  REQUIRE(got != nullptr);
  // a.py calls it, b.py defines it, d.py names it in a comment (a superset is allowed)
  CHECK(files_of(*got) == std::set<std::string>{"pkg/a.py", "pkg/b.py", "pkg/d.py"});
  CHECK(std::set<std::string>(parsed.begin(), parsed.end()) ==
        std::set<std::string>{"pkg/a.py", "pkg/b.py", "pkg/blob.py", "pkg/d.py"});
  // a word inside a longer token selects the files of that token; every word must be there
  const auto* part = lazy->query_containing("functions", kRepo, {"helper"});
  REQUIRE(part != nullptr);
  CHECK(files_of(*part) == std::set<std::string>{"pkg/a.py", "pkg/b.py"});  // d.py has no function
  const auto* both = lazy->query_containing("functions", kRepo, {"beta", "gamma"});
  REQUIRE(both != nullptr);
  CHECK(both->empty());
  // cached per words: the same list again
  CHECK(lazy->query_containing("symbols", kRepo, {"beta_helper"}) == got);

  // the same facts as the whole build, in the same order
  auto whole = b.facts();
  const auto& all = whole->query("symbols", kRepo);
  CHECK(matching(*got, "name", "beta_helper") == matching(all, "name", "beta_helper"));
  CHECK(matching(*got, "name", "beta_helper").size() == 2);

  // not narrowed: sources not built file by file, other scopes, most files, a whole build done
  CHECK(lazy->query_containing("files", kRepo, {"beta_helper"}) == nullptr);
  CHECK(lazy->query_containing("symbols", Scope{Scope::Kind::Changed, {}}, {"beta_helper"}) == nullptr);
  CHECK(lazy->query_containing("symbols", kRepo, {"def"}) == nullptr);  // 15 of 18 texts
  CHECK(lazy->query_containing("symbols", kRepo, {}) == nullptr);
  lazy->query("calls", kRepo);
  CHECK(lazy->query_containing("calls", kRepo, {"beta_helper"}) == nullptr);
  CHECK_THROWS_AS(lazy->query_containing("nosuch", kRepo, {"x"}), review::dsl::FactsError);

  // symbols reads Python and C++ only: the text files were neither indexed nor parsed; lines
  // reads every language, so its read indexes them and parses the binary one for its note
  CHECK(std::find(parsed.begin(), parsed.end(), "pkg/blob.bin") == parsed.end());
  parsed.clear();
  const auto* lines = lazy->query_containing("lines", kRepo, {"beta_helper"});
  REQUIRE(lines != nullptr);
  CHECK(files_of(*lines) == std::set<std::string>{"pkg/a.py", "pkg/b.py", "pkg/d.py"});
  CHECK(parsed == std::vector<std::string>{"pkg/blob.bin"});
  whole->query("lines", kRepo);
  CHECK(lazy->notes() == whole->notes());  // the binary files' notes, as whole builds give them
}

TEST_CASE("the word index finds the files of a word among tens of thousands of tokens", "[facts][bykey]") {
  // 300 files of 120 tokens each, most of them in one file only (the token table grows many
  // times), names sharing prefixes and suffixes; the files chosen for a word are exactly those
  // whose text holds it (every word here is a run of word characters, so "a token containing
  // it" is "the text containing it")
  std::mt19937 rng(7);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  ChangeBuilder b;
  std::map<std::string, std::string> texts;
  for (int i = 0; i < 300; ++i) {
    std::string text;
    for (int k = 0; k < 120; ++k) {
      std::string tok = k % 3 == 0 ? "n" + std::to_string(pick(100000)) : k % 3 == 1 ? "v" + std::to_string(i * 1000 + k) + "_x" : "w" + std::to_string(pick(400));
      text += (k % 8 == 0 ? "\n" : k % 2 ? " = " : "(") + tok;
    }
    text += "\n";
    std::string path = "pkg/f" + std::to_string(i) + ".py";
    texts[path] = text;
    b.unchanged(path, text);
  }
  size_t checked = 0;
  for (const std::string word : {"v12005_x", "v12005", "w17", "w399", "n4242", "2005_x", "nomatch", "v299119_x"}) {
    INFO(word);
    std::set<std::string> want;
    for (const auto& [path, text] : texts)
      if (text.find(word) != std::string::npos) want.insert(path);
    if (want.size() * 2 > texts.size()) continue;  // a whole build instead
    auto facts = b.facts();  // fresh: nothing parsed yet
    std::set<std::string> parsed;
    facts->set_parse_hook([&](const std::string& p, bool) { parsed.insert(p); });
    const auto* got = facts->query_containing("lines", kRepo, {word});
    REQUIRE(got != nullptr);
    CHECK(parsed == want);
    CHECK(files_of(*got) == want);
    ++checked;
  }
  CHECK(checked >= 6);
}

TEST_CASE("a glob scope reads by key within its files", "[facts][bykey]") {
  ChangeBuilder b;
  b.file("src/a.py", "x = 1\n", "x = shared_name\n");
  for (int i = 0; i < 10; ++i) b.unchanged("src/f" + std::to_string(i) + ".py", "def g" + std::to_string(i) + "():\n    pass\n");
  b.unchanged("src/k.py", "def shared_name():\n    pass\n");
  b.unchanged("lib/k.py", "def shared_name():\n    pass\n");
  auto facts = b.facts();
  const auto* got = facts->query_containing("functions", Scope{Scope::Kind::Globs, {"src/**"}}, {"shared_name"});
  REQUIRE(got != nullptr);
  CHECK(matching(*got, "name", "shared_name") == std::vector<std::string>{"src/k.py:1"});
}

namespace {

// A random repository: files defining, calling, importing and mentioning names of a small
// vocabulary, one changed file that adds uses of some of them.
ChangeBuilder random_repo(std::mt19937& rng) {
  std::vector<std::string> names;
  for (const char* stem : {"load_weights", "shuffle", "fused_moe", "quant_fp8", "rope", "gemm_a8w8", "topk",
                           "ckernel", "norm_fwd", "pad", "silu", "rms", "paged_attn", "mla", "kv_cache"})
    for (const char* suffix : {"", "2"}) names.push_back(std::string(stem) + suffix);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  auto name = [&] { return names[pick(names.size())]; };
  ChangeBuilder b;
  for (int i = 0; i < 60; ++i) {
    std::string text;
    int defs = static_cast<int>(pick(3));
    for (int d = 0; d < defs; ++d) text += "def " + name() + "(x, " + name() + "_out=None):\n    return x\n\n";
    if (pick(3) == 0) text += "from pkg.m" + std::to_string(pick(60)) + " import " + name() + "\n";
    if (pick(2) == 0) text += "y = ops." + name() + "(1, " + name() + "_out=2)\n";
    if (pick(3) == 0) text += "# see " + name() + "\n";
    if (pick(4) == 0) text += name() + "_impl = 1\n";
    if (pick(4) == 0) text += "class K" + std::to_string(pick(5)) + ":\n    def " + name() + "(self):\n        pass\n";
    text += "z" + std::to_string(i) + " = 0\n";
    b.unchanged("pkg/m" + std::to_string(i) + ".py", text);
  }
  std::string head = "import ops\n";
  for (int k = 0; k < 4; ++k) head += "v = ops." + name() + "(a, " + name() + "_out=b)\n";
  head += "def " + name() + "(q):\n    return q\n";
  b.file("pkg/changed.py", "import ops\n", head);
  return b;
}

std::string rule(const std::string& id, const std::string& body, const std::string& problem) {
  return "rule " + id + " \"" + id + "\" {\n" + body + "\n  problem \"" + problem +
         "\"\n  impact \"i\"\n  action \"Author must look\"\n  example bad text \"x\"\n}\n";
}

// Lookups the evaluator reads by key: equality on names (one word, two words), a dotted tail,
// `in` a list field, word holes (whole token, prefix, inside a token), in `for`, `exists` and
// `unless exists`, over repo and glob scopes.
const std::string kRules =
    rule("EQ", "  for c in calls(changed) where c.added and c.callee ~ /\\.(?P<n>\\w+)$/\n"
               "  for d in functions(repo) where d.name == n and d.file != c.file",
         "{n} at {d.file}:{d.line}") +
    rule("SYM", "  for c in calls(changed) where c.callee ~ /\\.(?P<n>\\w+)$/\n"
                "  unless exists s in symbols(repo) where s.name == n and s.kind == \"import\"",
         "{n} never imported") +
    rule("TAIL", "  for f in functions(changed) where f.added\n"
                 "  for c in calls(repo) where c.callee ~ /(^|\\.){f.name}$/",
         "{f.name} called at {c.file}:{c.line}") +
    rule("MEMBER", "  for c in calls(changed) where c.added\n"
                   "  for kw in c.kwarg_names\n"
                   "  for d in functions(repo) where kw in d.params and d.file != c.file",
         "{kw} of {d.qualified}") +
    rule("WORD", "  for f in functions(changed)\n"
                 "  for l in lines(repo) where l.text ~ /\\b{f.name}\\b/ and l.file != f.file",
         "{f.name} at {l.file}:{l.line}") +
    rule("PREFIX", "  for f in functions(changed)\n"
                   "  where exists l in lines(repo) where l.code ~ /\\b{f.name}_/ and l.file != f.file",
         "{f.name} has a variant") +
    rule("INSIDE", "  for f in functions(changed)\n"
                   "  for l in lines(\"pkg/**\") where l.comment ~ /{f.name}/",
         "{f.name} in a comment at {l.file}:{l.line}") +
    rule("QUAL", "  for c in calls(changed) where c.callee ~ /\\.(?P<n>\\w+)$/\n"
                 "  for d in functions(repo) where d.qualified == \"K3.\" + n",
         "{d.qualified}");

// "rule file:line problem" of every finding, in order.
std::vector<std::string> run(ChangeBuilder& b, bool by_key, size_t& parsed, const std::string& rules = kRules) {
  auto facts = b.facts();
  parsed = 0;
  facts->set_parse_hook([&](const std::string&, bool) { ++parsed; });
  auto loaded = review::dsl::load_ruleset("k.rules", rules, facts->schema(), nullptr, {});
  if (!loaded.ok()) {
    std::string d;
    for (const auto& x : loaded.diagnostics) d += x.message + "\n";
    FAIL(d);
  }
  review::dsl::EvalOptions o;
  o.read_by_key = by_key;
  o.rule_budget = std::chrono::milliseconds(60000);
  auto r = review::dsl::evaluate(*loaded.program, *facts, o);
  CHECK(r.internal_diagnostics.empty());
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.rule_id + " " + f.file + ":" + std::to_string(f.line) + " " + f.problem);
  return out;
}

}  // namespace

TEST_CASE("rules read by key find what they find over whole sources (random repositories)", "[facts][bykey]") {
  size_t findings = 0, lazy_parses = 0, whole_parses = 0;
  std::set<std::string> rules_hit;
  for (unsigned seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    ChangeBuilder b = random_repo(rng);
    size_t lazy_n = 0, whole_n = 0;
    auto lazy = run(b, true, lazy_n);
    auto whole = run(b, false, whole_n);
    REQUIRE(lazy == whole);
    findings += whole.size();
    for (const auto& f : whole) rules_hit.insert(f.substr(0, f.find(' ')));
    lazy_parses += lazy_n;
    whole_parses += whole_n;
  }
  // the comparison has something to compare: every rule fires on some repository
  CHECK(rules_hit == std::set<std::string>{"EQ", "INSIDE", "MEMBER", "PREFIX", "QUAL", "SYM", "TAIL", "WORD"});
  CHECK(findings > 100);
  CHECK(lazy_parses < whole_parses);
}

TEST_CASE("explain --plan says which lookups read a source by key", "[facts][bykey]") {
  auto facts = ChangeBuilder().facts();
  auto loaded = review::dsl::load_ruleset("k.rules", kRules, facts->schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("EQ") ==
        "plan EQ\n"
        "  for c in calls(changed): index calls(changed) by .callee matching /\\.(?P<n>\\w+)$/ (regex set)\n"
        "    check c.added\n"
        "    check (~ c.callee /\\.(?P<n>\\w+)$/)\n"
        "  for d in functions(repo): index functions(repo) by .name = n  (read by key: only files whose text holds it are parsed)\n"
        "    check (== d.name n)\n"
        "    check (!= d.file c.file)\n");
  CHECK(loaded.program->plan("SYM").find("read by key") != std::string::npos);
  CHECK(loaded.program->plan("MEMBER").find("index functions(repo) by .params holding kw  (read by key") != std::string::npos);
  // a changed-files scope is small: looked up in an index, not read by key
  CHECK(loaded.program->plan("WORD").find("for f in functions(changed): scan") != std::string::npos);
  CHECK(loaded.program->plan("EQ").find("calls(changed): index calls(changed) by .callee matching /\\.(?P<n>\\w+)$/ (regex set)\n") != std::string::npos);
}

namespace {

// Every fact as "file:line field=value …" (fields in name order), one per line.
// Only the facts of classes of `only_files`: located there, or (`other_file`) naming one of them
// in that field; with `by_other_only`, only the latter.
std::string dump_all(const std::vector<FactPtr>& facts, const std::set<std::string>* only_files,
                     const char* other_file = nullptr, bool by_other_only = false) {
  std::string out;
  for (const auto& f : facts) {
    bool keep = !only_files || (!by_other_only && only_files->count(f->file)) ||
                (other_file && only_files->count(f->get(other_file).to_text()));
    if (!keep) continue;
    out += f->file + ":" + std::to_string(f->line);
    for (const auto& [k, v] : f->fields) out += " " + k + "=" + v.to_text();
    out += "\n";
  }
  return out;
}

// Random Python class hierarchies over 50 files: repeated names (ambiguous bases), bases from
// other files, nested bases through attributes (`nn.Module`), methods and `self.` attributes.
ChangeBuilder random_classes(std::mt19937& rng, std::set<std::string>& changed, bool all_added = false) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const std::vector<std::string> methods = {"forward", "load", "reset", "step", "__init__"};
  auto cls = [&] { return "Layer" + std::to_string(pick(30)); };
  auto klass = [&](const std::string& name) {
    std::string bases;
    int n = static_cast<int>(pick(3));
    for (int i = 0; i < n; ++i) {
      int kind = static_cast<int>(pick(5));
      std::string b = kind == 0 ? "nn.Module" : kind == 1 ? "mod." + cls() : cls();
      bases += (i ? ", " : "") + b;
    }
    // heads as written in real trees: one line, a bracketed list over lines with comments and
    // a keyword whose string holds `:` and `)`, a backslash continuation
    std::string text;
    switch (bases.empty() ? 0 : pick(3)) {
      case 0: text = "class " + name + (bases.empty() ? "" : "(" + bases + ")") + ":\n"; break;
      case 1: text = "class " + name + "(  # bases\n    " + bases + ",\n    tag=\"):x\",  # (\n):\n"; break;
      default: text = "class " + name + " \\\n        (" + bases + "):\n"; break;
    }
    int m = 1 + static_cast<int>(pick(3));
    for (int i = 0; i < m; ++i) {
      const std::string& mn = methods[pick(methods.size())];
      text += "    def " + mn + "(self):\n        self.a" + std::to_string(pick(4)) + " = self.a" +
              std::to_string(pick(4)) + "\n";
    }
    return text + "\n";
  };
  ChangeBuilder b;
  for (int i = 0; i < 50; ++i) {
    std::string text = "import torch.nn as nn\n\n";
    int k = static_cast<int>(pick(3));
    for (int j = 0; j < k; ++j) text += klass(cls());
    // uses of class names that are no class head: a call, a comment, prose in a docstring
    // (`class` there starts a head scan that must not hide the real heads after it)
    text += "x = " + cls() + "()  # " + cls() + "\n";
    if (pick(3) == 0) text = "\"\"\"Unlike class " + cls() + "(" + cls() + " here.\"\"\"\n" + text;
    if (all_added) b.added("pkg/f" + std::to_string(i) + ".py", text);
    else b.unchanged("pkg/f" + std::to_string(i) + ".py", text);
  }
  for (int c = 0; c < 2; ++c) {
    std::string path = "pkg/changed" + std::to_string(c) + ".py";
    std::string base = "import torch.nn as nn\n\n" + klass(cls());
    b.file(path, base, base + klass(cls()));
    changed.insert(path);
  }
  return b;
}

}  // namespace

TEST_CASE("class facts of the changed files: the demand-driven class model equals the whole one", "[facts][bykey]") {
  const Scope kChanged{Scope::Kind::Changed, {}};
  const Scope kAll{Scope::Kind::Globs, {"**"}};  // a glob scope builds the model of every file
  size_t lazy_parses = 0, whole_parses = 0, facts_seen = 0;
  for (unsigned seed = 1; seed <= 25; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::set<std::string> changed;
    ChangeBuilder b = random_classes(rng, changed);
    auto lazy = b.facts();
    auto whole = b.facts();
    size_t nl = 0, nw = 0;
    lazy->set_parse_hook([&](const std::string&, bool) { ++nl; });
    whole->set_parse_hook([&](const std::string&, bool) { ++nw; });
    for (const char* source : {"classes", "methods", "attributes", "subclasses", "overrides"}) {
      INFO(source);
      // facts located outside the changed files that belong to their classes
      const char* other = std::string(source) == "overrides" ? "base_file"
                          : std::string(source) == "subclasses" ? "class_file" : nullptr;
      bool sub = std::string(source) == "subclasses";  // located at the subclass, wherever it is
      std::string got = dump_all(lazy->query(source, kChanged), &changed, other, sub);
      std::string want = dump_all(whole->query(source, kAll), &changed, other, sub);
      REQUIRE(got == want);
      facts_seen += std::count(got.begin(), got.end(), '\n');
    }
    lazy_parses += nl;
    whole_parses += nw;
  }
  CHECK(facts_seen > 300);
  CHECK(lazy_parses < whole_parses);
}

TEST_CASE("class facts of a few files when every Python file is changed: one model of every file", "[facts][bykey]") {
  const Scope kAll{Scope::Kind::Globs, {"**"}};
  size_t facts_seen = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::set<std::string> changed;
    ChangeBuilder b = random_classes(rng, changed, true);  // an audit's shape: every file added
    b.unchanged("native/k.cpp", "class K {};\n");  // not Python: no matter
    auto few = b.facts();
    auto whole = b.facts();
    std::set<std::string> parsed;
    few->set_parse_hook([&](const std::string& p, bool base_side) {
      if (!base_side) parsed.insert(p);
    });
    const std::set<std::string> asked = {"pkg/f3.py", "pkg/f17.py"};
    const Scope kFew{Scope::Kind::Files, {asked.begin(), asked.end()}};
    for (const char* source : {"classes", "methods", "attributes", "subclasses", "overrides"}) {
      INFO(source);
      const char* other = std::string(source) == "overrides" ? "base_file"
                          : std::string(source) == "subclasses" ? "class_file" : nullptr;
      bool sub = std::string(source) == "subclasses";
      std::string got = dump_all(few->query(source, kFew), &asked, other, sub);
      REQUIRE(got == dump_all(whole->query(source, kAll), &asked, other, sub));
      facts_seen += std::count(got.begin(), got.end(), '\n');
    }
    CHECK(parsed.size() == 52);  // every Python file's model, built once for every source
  }
  CHECK(facts_seen > 50);
}

TEST_CASE("the class model looks for subclasses in the files naming the class in a class head", "[facts][bykey]") {
  ChangeBuilder b;
  const std::string base = "class Base:\n    def forward(self):\n        return 1\n";
  b.file("pkg/base.py", base, base + "\nclass Other:\n    pass\n");
  // subclasses whose heads span lines: brackets with comments and a string holding `):`,
  // a backslash continuation, and a `class` in a docstring before the real head
  b.unchanged("pkg/sub_a.py", "import pkg.base as pb\n\nclass SubA(  # (\n    pb.Base,\n    tag=\"):\",\n):\n    pass\n");
  b.unchanged("pkg/sub_b.py", "\"\"\"Like class Thing(Other, this\"\"\"\nfrom pkg.base import Base\n\nclass SubB \\\n    (Base):\n    pass\n");
  b.unchanged("pkg/sub_c.py", "from pkg.sub_a import SubA\n\nclass SubC(\n    SubA\n):\n    pass\n");
  // files that use the names without subclassing them
  for (int i = 0; i < 12; ++i)
    b.unchanged("pkg/use" + std::to_string(i) + ".py",
                "from pkg.base import Base, Other\n\nx = Base()  # SubA, SubB\ny = Other()\n\ndef f(k=Base):\n    return k\n");
  b.unchanged("pkg/prose.py", "\"\"\"A class Base(SubA is named here.\"\"\"\nX = 1\n");  // kept: `class` in prose
  b.unchanged("native/base.cpp", "class Derived : public Base {};\n");  // not Python
  auto facts = b.facts();
  std::set<std::string> parsed;
  facts->set_parse_hook([&](const std::string& p, bool base_side) {
    if (!base_side) parsed.insert(p);
  });
  std::string inherited;
  for (const auto& f : facts->query("methods", Scope{Scope::Kind::Changed, {}}))
    inherited += f->get("qualified").to_text() + " <- " + f->get("inherited_by").to_text() + "\n";
  CHECK(inherited == "Base.forward <- SubA, SubB, SubC\n");
  CHECK(parsed == std::set<std::string>{"pkg/base.py", "pkg/prose.py", "pkg/sub_a.py", "pkg/sub_b.py", "pkg/sub_c.py"});
}

namespace {

// B5b's shape: a name and a keyword from the change, the references to that name across the
// repository, then the calls on those lines passing that keyword. The name is held by most
// files (a one-key read would build the whole source); the keyword by few.
const std::string kFileKeyRules =
    rule("FILEKEY", "  for c0 in calls(changed) where c0.added and c0.callee ~ /^(?P<n>\\w+)$/\n"
                    "  for kw in c0.kwarg_names\n"
                    "  for u in symbols(repo) where u.kind == \"reference\" and u.name == n and u.file != c0.file\n"
                    "  for c in calls(u.file) where c.line == u.line and kw in c.kwarg_names",
         "{n}({kw}=) at {c.file}:{c.line}");
// The later lookup's key reads `u` itself: no file key.
const std::string kOwnKeyRule =
    rule("OWNKEY", "  for c0 in calls(changed) where c0.added and c0.callee ~ /^(?P<n>\\w+)$/\n"
                   "  for u in symbols(repo) where u.name == n\n"
                   "  for c in calls(u.file) where c.callee == u.qualified",
         "{c.file}:{c.line}");

// 40 files calling a few names with keywords from a small set (same-line and other-line calls,
// keywords in comments and in other names), and a changed file adding calls of those names.
ChangeBuilder random_calls(std::mt19937& rng) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const std::vector<std::string> names = {"kernel", "launch", "run"};
  const std::vector<std::string> kws = {"alpha", "beta", "gamma", "delta", "eps", "zeta", "theta", "iota",
                                        "kappa", "lam", "mu", "nu", "xi", "omicron", "rho", "sigma"};
  ChangeBuilder b;
  for (int i = 0; i < 40; ++i) {
    std::string text = "import ops\n";
    int calls = 1 + static_cast<int>(pick(2));
    for (int k = 0; k < calls; ++k) {
      std::string kw = kws[pick(kws.size())];
      switch (pick(4)) {
        case 0: text += "y = " + names[pick(names.size())] + "(x, " + kw + "=1)\n"; break;
        case 1: text += "y = ops." + names[pick(names.size())] + "(x, " + kw + "=1, " + kws[pick(kws.size())] + "=2)\n"; break;
        case 2: text += "y = " + names[pick(names.size())] + "(x)\nz = other(" + kw + "=1)\n"; break;
        default: text += "# " + kw + "\ny = " + names[pick(names.size())] + "(x)\n" + kw + "_v = 3\n"; break;
      }
    }
    b.unchanged("pkg/m" + std::to_string(i) + ".py", text);
  }
  std::string head;
  for (int k = 0; k < 3; ++k) head += "w = " + names[pick(names.size())] + "(a, " + kws[pick(kws.size())] + "=b)\n";
  b.file("pkg/changed.py", "w = 0\n", head);
  return b;
}

}  // namespace

TEST_CASE("a read by key also asks for the keys of later lookups in the same file (random repositories)", "[facts][bykey]") {
  size_t findings = 0, lazy_parses = 0, whole_parses = 0;
  for (unsigned seed = 1; seed <= 25; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    ChangeBuilder b = random_calls(rng);
    size_t lazy_n = 0, whole_n = 0;
    auto lazy = run(b, true, lazy_n, kFileKeyRules);
    auto whole = run(b, false, whole_n, kFileKeyRules);
    REQUIRE(lazy == whole);
    findings += whole.size();
    lazy_parses += lazy_n;
    whole_parses += whole_n;
  }
  WARN("findings " << findings << ", parses " << lazy_parses << " read by key, " << whole_parses << " whole");
  CHECK(findings > 20);
  // each name is held by most files: without the keyword's key the read would build the source
  // whole (as many parses as the whole build)
  CHECK(lazy_parses * 2 < whole_parses);
}

TEST_CASE("explain --plan names the later lookups' keys a read by key asks for", "[facts][bykey]") {
  auto facts = ChangeBuilder().facts();
  auto loaded = review::dsl::load_ruleset("k.rules", kFileKeyRules + kOwnKeyRule, facts->schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("FILEKEY") ==
        "plan FILEKEY\n"
        "  for c0 in calls(changed): index calls(changed) by .callee matching /^(?P<n>\\w+)$/ (regex set)\n"
        "    check c0.added\n"
        "    check (~ c0.callee /^(?P<n>\\w+)$/)\n"
        "  for kw in c0.kwarg_names: scan\n"
        "  for u in symbols(repo): index symbols(repo) by .name = n and .kind = \"reference\"  (read by key: only "
        "files whose text holds it and the key of `(in kw c.kwarg_names)` are parsed)\n"
        "    check (== u.kind \"reference\")  (some fact first)\n"
        "    check (== u.name n)\n"
        "    check (!= u.file c0.file)\n"
        "  for c in calls(u.file): index calls(u.file) by .line = u.line\n"
        "    check (== c.line u.line)\n"
        "    check (in kw c.kwarg_names)\n");
  CHECK(loaded.program->plan("OWNKEY").find("(read by key: only files whose text holds it are parsed)") != std::string::npos);
}

namespace {

// B5e's shape: a module and a name from the change, then the imports of that name from that
// module across the repository. The name is held by most files (a one-key read would build the
// whole source); the module by few: the other lookup of the same `where` narrows the read.
const std::string kOwnWhereRule =
    rule("OWNWHERE", "  for c0 in calls(changed) where c0.added and c0.callee ~ /^(?P<m>\\w+)\\.(?P<n>\\w+)$/\n"
                     "  for u in symbols(repo) where u.kind == \"import\" and u.name == n and u.qualified ~ /(^|\\.){m}\\.{n}$/",
         "{m}.{n} imported at {u.file}:{u.line}");

// 40 files importing a few names from modules of a larger set (as `from`, plain and aliased
// imports, and the module in a comment), and a changed file adding calls `module.name(...)`.
ChangeBuilder random_imports(std::mt19937& rng) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const std::vector<std::string> names = {"kernel", "launch", "run"};
  auto mod = [&] {  // no module name inside another
    size_t k = pick(16);
    return std::string("mod") + static_cast<char>('a' + k / 4) + static_cast<char>('a' + k % 4);
  };
  ChangeBuilder b;
  for (int i = 0; i < 40; ++i) {
    std::string text;
    int imports = 1 + static_cast<int>(pick(2));
    for (int k = 0; k < imports; ++k) {
      const std::string& n = names[pick(names.size())];
      switch (pick(4)) {
        case 0: text += "from pkg." + mod() + " import " + n + "\n"; break;
        case 1: text += "from " + mod() + " import " + n + " as " + n + "_v\n"; break;
        case 2: text += "import pkg." + mod() + "\n"; break;
        default: text += "# " + mod() + "\nfrom pkg import " + n + "\n"; break;
      }
    }
    text += "y = " + names[pick(names.size())] + "(1)\n";
    b.unchanged("pkg/m" + std::to_string(i) + ".py", text);
  }
  std::string head;
  for (int k = 0; k < 3; ++k) head += "w = " + mod() + "." + names[pick(names.size())] + "(a)\n";
  b.file("pkg/changed.py", "w = 0\n", head);
  return b;
}

}  // namespace

TEST_CASE("a read by key also asks for the keys of the other lookups of its own where (random repositories)", "[facts][bykey]") {
  size_t findings = 0, lazy_parses = 0, whole_parses = 0;
  for (unsigned seed = 1; seed <= 25; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    ChangeBuilder b = random_imports(rng);
    size_t lazy_n = 0, whole_n = 0;
    auto lazy = run(b, true, lazy_n, kOwnWhereRule);
    auto whole = run(b, false, whole_n, kOwnWhereRule);
    REQUIRE(lazy == whole);
    findings += whole.size();
    lazy_parses += lazy_n;
    whole_parses += whole_n;
  }
  WARN("findings " << findings << ", parses " << lazy_parses << " read by key, " << whole_parses << " whole");
  CHECK(findings > 10);
  // each name is held by most files: without the module's key the read would build the source
  // whole (as many parses as the whole build)
  CHECK(lazy_parses * 2 < whole_parses);

  auto facts = ChangeBuilder().facts();
  auto loaded = review::dsl::load_ruleset("k.rules", kOwnWhereRule, facts->schema(), nullptr, {});
  REQUIRE(loaded.ok());
  CHECK(loaded.program->plan("OWNWHERE").find("(read by key: only files whose text holds it and the key of "
                                              "`(~ u.qualified /(^|\\.){m}\\.{n}$/)` are parsed)") != std::string::npos);
}

namespace {

// The differential review's base run (runner/pipeline/differential.cpp): the base texts read as
// the head side of a change of their own, over the head's file list.
class BaseAsHead final : public review::change::ContentSource {
 public:
  explicit BaseAsHead(std::shared_ptr<review::change::ContentSource> inner) : inner_(std::move(inner)) {}
  std::optional<std::string> head(const std::string& path) override { return inner_->base(path); }
  std::optional<std::string> base(const std::string&) override { return std::nullopt; }
  std::vector<std::string> head_files() override { return inner_->head_files(); }

 private:
  std::shared_ptr<review::change::ContentSource> inner_;
};

}  // namespace

TEST_CASE("a base run reusing the head run's models and word index finds what it finds alone (random repositories)", "[facts][bykey]") {
  size_t findings = 0, alone_parses = 0, reusing_parses = 0, donor_parses_during = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    ChangeBuilder b = random_repo(rng);
    // more of the change: edited files (a name defined, a call dropped), one added, one deleted
    for (int k = 0; k < 6; ++k) {
      std::string path = "pkg/m" + std::to_string(pick(60)) + ".py";
      if (b.change.find(path)) continue;
      std::string old = b.content->head_texts_[path];
      std::string now = k % 2 ? old + "def rope_" + std::to_string(k) + "(q):\n    return q\n" : old.substr(0, old.size() / 2) + "\n";
      b.file(path, old, now);
    }
    b.added("pkg/new.py", "def shuffle(x):\n    return silu(x)\n");
    std::string gone = "pkg/m" + std::to_string(pick(60)) + ".py";
    if (!b.change.find(gone)) {
      b.file(gone, b.content->head_texts_[gone], "", review::change::FileStatus::Deleted);
      b.content->head_texts_.erase(gone);
    }

    size_t donor_n = 0, n = 0;
    auto donor = b.facts();
    donor->set_parse_hook([&](const std::string&, bool) { ++donor_n; });
    {
      auto loaded = review::dsl::load_ruleset("k.rules", kRules, donor->schema(), nullptr, {});
      REQUIRE(loaded.ok());
      review::dsl::EvalOptions o;
      o.rule_budget = std::chrono::milliseconds(60000);
      review::dsl::evaluate(*loaded.program, *donor, o);
    }
    const size_t donor_before = donor_n;

    // the base change: the changed files with a base version, every line added
    auto base = std::make_shared<review::change::Change>();
    base->content = std::make_shared<BaseAsHead>(b.content);
    for (const auto& f : b.change.files) {
      if (f.status == review::change::FileStatus::Added) continue;
      ChangeBuilder one;
      one.added(f.path, *b.content->base(f.path));
      base->files.push_back(one.change.files.front());
    }
    auto same = [content = b.content](const std::string& p) {
      auto s = content->same_text(p);
      return s && *s;
    };
    auto evaluate = [&](review::facts::ChangeFacts::Options o, size_t& parses) {
      auto facts = std::make_shared<review::facts::ChangeFacts>(base, std::move(o));
      facts->set_parse_hook([&](const std::string&, bool) { ++parses; });
      auto loaded = review::dsl::load_ruleset("k.rules", kRules, facts->schema(), nullptr, {});
      REQUIRE(loaded.ok());
      review::dsl::EvalOptions eo;
      eo.rule_budget = std::chrono::milliseconds(60000);
      auto r = review::dsl::evaluate(*loaded.program, *facts, eo);
      std::vector<std::string> out;
      for (const auto& f : r.findings) out.push_back(f.rule_id + " " + f.file + ":" + std::to_string(f.line) + " " + f.problem);
      // the word index: the files of some words, read by key
      for (const std::string w : {"rope", "silu", "shuffle", "kv_cache2", "ops", "x"}) {
        const auto* got = facts->query_containing("symbols", kRepo, {w});
        out.push_back(w + ":" + (got ? std::to_string(files_of(*got).size()) + " files" : std::string("whole")));
        if (got)
          for (const auto& f : files_of(*got)) out.push_back("  " + f);
      }
      return out;
    };
    size_t alone_n = 0;
    auto alone = evaluate({}, alone_n);
    review::facts::ChangeFacts::Options o;
    o.donor = donor.get();
    o.same_text = same;
    auto reusing = evaluate(o, n);
    REQUIRE(reusing == alone);
    findings += alone.size();
    alone_parses += alone_n;
    reusing_parses += n;
    donor_parses_during += donor_n - donor_before;
  }
  WARN("base runs: " << alone_parses << " parses alone, " << reusing_parses << " reusing the head run's");
  CHECK(findings > 100);
  CHECK(reusing_parses * 2 < alone_parses);  // most files are the same on both sides
  CHECK(donor_parses_during == 0);            // the head run is only read
}

TEST_CASE("the word index over some languages, extended later, reads what a whole build gives", "[facts][bykey]") {
  // Files of every language interleaved in path order (the second language's files come before
  // and between the first's, so an extended index must sort its lists again), names in
  // strings, comments and longer tokens, non-ASCII text, paths with spaces, a deleted file
  // holding the name on its base side only, binary files of two languages.
  ChangeBuilder b;
  std::map<std::string, std::string> head;
  auto add = [&](const std::string& path, const std::string& text) {
    b.unchanged(path, text);
    head[path] = text;
  };
  for (int i = 0; i < 6; ++i) {
    std::string n = std::to_string(i);
    add("m" + n + "/a b.py", "def beta_name" + n + "():\n    return \"gamma_key\"  # beta_name\n");
    add("m" + n + "/a b.txt", "beta_name gamma_key é ü\n");
    add("m" + n + "/c.cpp", "int gamma_key" + n + "() { return beta_name(1); }  // ümlaut\n");
    add("m" + n + "/d.md", "# beta_name\n`gamma_key()`\n");
    add("m" + n + "/CMakeLists.txt", "add_library(beta_name" + n + " x.cpp)\n");
    add("m" + n + "/z.py", "def other" + n + "():\n    return 'naïve' + str(" + n + ")\n");
    for (int k = 0; k < 4; ++k) add("m" + n + "/fill" + std::to_string(k) + ".py", "x" + n + std::to_string(k) + " = 1\n");
  }
  add("m2/blob.py", std::string("beta_name\0", 10));
  add("m3/blob.txt", std::string("gamma\0", 6));
  b.file("m4/gone.py", "def beta_name_gone():\n    pass\n", "", review::change::FileStatus::Deleted);
  add("m1/base.py", "class Base:\n    def run(self):\n        pass\n");
  add("m0/base.hpp", "class Base { void run(); };\n");  // C++: never a base of a Python class
  const std::string changed = "class K(Base):\n    pass\nx = beta_name(gamma_key)\n";
  b.file("m5/new é.py", "x = 1\n", changed);
  head["m5/new é.py"] = changed;

  // what a read by key must give: the whole build's facts of the files whose text holds every word
  auto want = [&](const std::string& source, const std::vector<std::string>& words) {
    auto whole = b.facts();
    std::vector<std::string> out;
    for (const auto& f : whole->query(source, kRepo)) {
      const std::string& t = head.at(f->file);
      if (std::all_of(words.begin(), words.end(), [&](const std::string& w) { return t.find(w) != std::string::npos; }))
        out.push_back(f->file + ":" + std::to_string(f->line) + ":" + std::to_string(f->column));
    }
    return out;
  };
  using Read = std::pair<std::string, std::vector<std::string>>;
  const std::vector<Read> reads = {{"symbols", {"beta_name"}},  {"lines", {"gamma_key"}},
                                   {"call_targets", {"beta_name"}}, {"functions", {"gamma_key"}},
                                   {"lines", {"beta_name", "gamma_key"}}, {"calls", {"beta_name"}},
                                   {"symbols", {"ta_na"}}};
  std::map<std::string, std::vector<std::string>> expected;
  for (const auto& [source, words] : reads) expected[source + " " + words[0] + (words.size() > 1 ? "+" : "")] = want(source, words);
  std::vector<size_t> order(reads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  int narrowed = 0;
  for (int round = 0; round < 4; ++round) {  // several orders of the languages asked for
    INFO("round " << round);
    if (round == 1) std::reverse(order.begin(), order.end());
    if (round >= 2) std::shuffle(order.begin(), order.end(), std::mt19937(round));
    auto facts = b.facts();
    for (size_t i : order) {
      const auto& [source, words] = reads[i];
      INFO(source << " " << words[0]);
      const auto* got = facts->query_containing(source, kRepo, words);
      if (!got) continue;  // most files hold it: a whole build
      ++narrowed;
      std::vector<std::string> have;
      for (const auto& f : *got) have.push_back(f->file + ":" + std::to_string(f->line) + ":" + std::to_string(f->column));
      CHECK(have == expected[source + " " + words[0] + (words.size() > 1 ? "+" : "")]);
    }
    // the class model asks for Python files only, whatever the index holds by then
    const auto& ks = facts->query("classes", Scope{Scope::Kind::Changed, {}});
    REQUIRE(ks.size() == 1);
    CHECK(ks[0]->get("base_classes").to_text() == "Base");
    CHECK(ks[0]->get("methods").to_text().empty());
    CHECK(ks[0]->get("inherited_methods").to_text() == "run");
  }
  CHECK(narrowed >= 20);
}

TEST_CASE("binary files, always read, do not count as files holding the key", "[facts][bykey]") {
  // 30 binary files (always candidates, for their notes) and 10 texts, the key in one of them:
  // a narrowed read, not a whole build because 31 of 40 files are chosen
  ChangeBuilder b;
  for (int i = 0; i < 30; ++i) b.unchanged("bin/k" + std::to_string(i) + ".co", std::string("x\0y", 3));
  for (int i = 0; i < 10; ++i) b.unchanged("pkg/f" + std::to_string(i) + ".py", i == 3 ? "rare_key = 1\n" : "x = 1\n");
  auto facts = b.facts();
  const auto* got = facts->query_containing("lines", kRepo, {"rare_key"});
  REQUIRE(got != nullptr);
  CHECK(files_of(*got) == std::set<std::string>{"pkg/f3.py"});
  const auto* sym = facts->query_containing("symbols", kRepo, {"rare_key"});  // Python only: 1 of 10 + 30 unread
  REQUIRE(sym != nullptr);
  CHECK(files_of(*sym) == std::set<std::string>{"pkg/f3.py"});
}

TEST_CASE("may_hold: false only for a file the word index read without the token", "[facts][bykey]") {
  ChangeBuilder b;
  b.file("pkg/a.py", "X = 1\n", "X = 2  # review: ignore[B1] reason\n");
  b.unchanged("pkg/b.py", "def quiet():\n    return 'reviewer ignored'\n");  // tokens inside longer ones only
  b.unchanged("docs/notes.md", "review: ignore[X] in prose\n");
  b.unchanged("pkg/blob.py", std::string("review\0ignore", 13));  // binary: kept as a candidate
  auto facts = b.facts();
  // no word index yet: every file may hold every word, and asking builds none
  CHECK(facts->may_hold("pkg/b.py", "ignore"));
  CHECK(facts->may_hold("pkg/b.py", "nothing_here"));
  REQUIRE(facts->query_containing("lines", kRepo, {"quiet"}) != nullptr);  // builds it (every language)
  CHECK(facts->may_hold("pkg/a.py", "review"));
  CHECK(facts->may_hold("pkg/a.py", "ignore"));
  CHECK_FALSE(facts->may_hold("pkg/b.py", "ignore"));  // "ignored" is another token
  CHECK_FALSE(facts->may_hold("pkg/b.py", "review"));
  CHECK(facts->may_hold("pkg/b.py", "quiet"));
  CHECK(facts->may_hold("docs/notes.md", "ignore"));
  CHECK_FALSE(facts->may_hold("docs/notes.md", "quiet"));
  CHECK(facts->may_hold("pkg/blob.py", "anything"));
  CHECK(facts->may_hold("not/listed.py", "anything"));
}

TEST_CASE("the word index reads a parsed file's text from its model, not from the content again", "[facts][bykey]") {
  ChangeBuilder b;
  b.file("pkg/a.py", "def alpha():\n    return 1\n", "def alpha():\n    return beta_helper(2)\n");
  b.unchanged("pkg/b.py", "def beta_helper(x):\n    return x\n");
  for (int i = 0; i < 6; ++i) b.unchanged("pkg/o" + std::to_string(i) + ".py", "def f" + std::to_string(i) + "():\n    pass\n");
  b.change.content = b.content;
  auto change = std::make_shared<review::change::Change>(b.change);
  auto counting = std::make_shared<CountingContent>(b.content);
  change->content = counting;
  review::facts::ChangeFacts facts(change);
  facts.query("functions", kRepo);  // parses every Python file of the tree
  const auto before = counting->reads;
  CHECK(before.at("pkg/b.py") == 1);
  const auto* got = facts.query_containing("symbols", kRepo, {"beta_helper"});
  REQUIRE(got != nullptr);
  CHECK(files_of(*got) == std::set<std::string>{"pkg/a.py", "pkg/b.py"});
  CHECK(counting->reads == before);  // the index took the models' texts
}

TEST_CASE("the word index does not take a model rebuilt from the hunks for the file's text", "[facts][bykey]") {
  // a diff without its files (no content at all): the files are the changed ones, their models
  // hold the hunk lines only, and a.py's hunk lacks its `def alpha` line
  ChangeBuilder b;
  b.file("pkg/a.py", "def alpha():\n    return 1\n", "def alpha():\n    return 2\n");
  b.file("pkg/c.py", "def gamma():\n    pass\n", "def gamma():\n    return 3\n");
  auto& hunk = b.change.files[0].hunks[0];
  hunk.lines.erase(hunk.lines.begin());  // the context line `def alpha():`
  hunk.old_start = hunk.new_start = 2;
  hunk.old_count = hunk.new_count = 1;
  b.content->head_texts_.clear();
  b.content->base_texts_.clear();
  auto facts = b.facts();
  REQUIRE(facts->model("pkg/a.py", false) != nullptr);  // parsed, from the hunks
  CHECK(facts->model("pkg/a.py", false)->text_lines.size() == 2);
  const auto* got = facts->query_containing("symbols", kRepo, {"gamma"});
  REQUIRE(got != nullptr);
  CHECK(files_of(*got) == std::set<std::string>{"pkg/c.py"});
  CHECK(facts->may_hold("pkg/a.py", "alpha"));  // its text is unknown: a candidate of every word
  CHECK(facts->may_hold("pkg/a.py", "gamma"));
}
