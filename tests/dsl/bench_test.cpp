// Micro-benchmark (hidden tag; run with: tests_dsl "[.bench]"): load + check + plan a generated
// 300-rule ruleset. Target < 50 ms. The figure is recorded in bench/README.md.
#include <chrono>
#include <iostream>

#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;

std::string generate_ruleset(int n) {
  std::string s = "ruleset gen \"generated\" { version 1 tests \"tests/**\" }\n"
                  "let serving = \"atom/entrypoints/**\", \"atom/model_engine/**\"\n"
                  "tier 1 \"t\" { \"atom/config.py\" blast \"b\" fails \"f\" }\n"
                  "kind perf \"perf\" when pr.text ~ /(?i)\\b(perf|faster)\\b/\n";
  for (int i = 0; i < n; ++i) {
    std::string id = "G" + std::to_string(i);
    s += "rule " + id + " \"generated rule " + std::to_string(i) + "\" {\n"
         "  severity " + (i % 3 == 0 ? "block" : "warn") + "\n"
         "  tags \"gen\", \"t" + std::to_string(i % 7) + "\"\n"
         "  for l in lines(changed) where l.added and l.code ~ /(?P<name>\\bfoo" + std::to_string(i) + "_(\\w+))/\n"
         "      and l.function !~ /^_?(detect|is|has)_/ and l.file like \"atom/**/*.py\"\n"
         "  for f in files(serving) where f.path == l.file and f.tier <= 2\n"
         "  unless exists o in lines(l.file) where not o.added and o.code ~ /\\b{name}\\b/\n"
         "  problem \"`{name}` at {l.file}:{l.line} in {l.function}\"\n"
         "  impact \"something goes wrong for {f.blast}\"\n"
         "  action \"Author must check `{name}`\"\n"
         "  example bad python \"\"\"\n    foo" + std::to_string(i) + "_x = 1   # <- " + id + "\n  \"\"\"\n"
         "  example good python \"\"\"\n    bar = 1\n  \"\"\"\n"
         "}\n";
  }
  return s;
}

TEST_CASE("bench: load+check 300 rules", "[.bench]") {
  std::string text = generate_ruleset(300);
  auto schema = testing::test_schema();
  LoadOptions o;
  o.strict = true;
  double best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    auto r = load_ruleset("gen.rules", text, schema, nullptr, o);
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(r.ok());
    REQUIRE(r.program->rules().size() == 300);
    best = std::min(best, ms);
  }
  std::cout << "load+check 300 rules (" << text.size() << " bytes): best of 5 = " << best << " ms\n";
  CHECK(best < 50.0);
}
