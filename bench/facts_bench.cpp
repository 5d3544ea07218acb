// facts_bench FOLDER [--rounds N] [--limit N] [--pass all|parse|extract|analyses|eager|digest|bytes] [--ext .py]
//
// Times, in this one process and over the same in-memory texts (every file under FOLDER whose
// name ends with --ext, default ".py", `.git` skipped, sorted by path):
//   parse     tree-sitter parse alone (one parser, tree deleted right away);
//   extract   review::lang::analyze_file with the analyses off (parse + SourceModel extraction);
//   analyses  analyze_file, then the analyses (unbound reads, branch chains) on every model, the
//             way the runner does it: run on first access, on a second parse of the kept text;
//   eager     the same with AnalyzeOptions::analyses = true (the analyses on the extraction's
//             tree, no second parse).
// Each pass runs --rounds times (default 3), passes interleaved; the figure kept is the least
// process CPU time (CLOCK_PROCESS_CPUTIME_ID) of the rounds, so neighbours on a shared machine
// inflate it less than wall time. The last `analyses` round keeps every model alive until the
// end, so the peak RSS printed (getrusage ru_maxrss) includes a whole-repository model set.
// --pass digest prints a hash of every extracted model (to check a speed change kept the output).
// --pass runs one pass once (for `valgrind --tool=callgrind` instruction counts per pass).
// Output: one `key value` line per figure (seconds, ratios, KiB), for bench/facts_vs_parse.sh.
#include <malloc.h>
#include <sys/resource.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "runner/lang/model.hpp"

extern "C" const TSLanguage* tree_sitter_python(void);
extern "C" const TSLanguage* tree_sitter_cpp(void);

namespace fs = std::filesystem;

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Input {
  std::string path;  // relative to FOLDER
  std::string text;
};

size_t sink = 0;  // keeps the optimiser from dropping work

double pass_parse(const std::vector<Input>& in) {
  TSParser* p = ts_parser_new();
  double t0 = cpu_seconds();
  for (const auto& f : in) {
    bool py = review::lang::language_of(f.path) == review::lang::Language::Python;
    ts_parser_set_language(p, py ? tree_sitter_python() : tree_sitter_cpp());
    TSTree* t = ts_parser_parse_string(p, nullptr, f.text.data(), static_cast<uint32_t>(f.text.size()));
    if (t) {
      sink += ts_node_child_count(ts_tree_root_node(t));
      ts_tree_delete(t);
    }
  }
  double t1 = cpu_seconds();
  ts_parser_delete(p);
  return t1 - t0;
}

double pass_extract(const std::vector<Input>& in) {
  review::lang::AnalyzeOptions o;
  o.analyses = false;
  double t0 = cpu_seconds();
  for (const auto& f : in) sink += review::lang::analyze_file(f.path, f.text, o)->lines.size();
  return cpu_seconds() - t0;
}

double pass_analyses(const std::vector<Input>& in, bool eager, std::vector<std::shared_ptr<const review::lang::SourceModel>>* keep,
                     size_t* unbound, size_t* chains) {
  review::lang::AnalyzeOptions o;
  o.analyses = eager;
  double t0 = cpu_seconds();
  size_t u = 0, c = 0;
  for (const auto& f : in) {
    auto m = review::lang::analyze_file(f.path, f.text, o);
    u += m->unbound_reads().size();
    c += m->branch_chains().size();
    if (keep) keep->push_back(std::move(m));
  }
  double t = cpu_seconds() - t0;
  if (unbound) *unbound = u;
  if (chains) *chains = c;
  return t;
}

// FNV-1a over the extracted model fields (not the analyses): equal digests before and after a
// speed change show the extraction's output is unchanged on the whole checkout.
uint64_t digest(const std::vector<Input>& in) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  auto num = [&](long v) { mix(std::to_string(v)); };
  review::lang::AnalyzeOptions o;
  o.analyses = false;
  for (const auto& f : in) {
    auto m = review::lang::analyze_file(f.path, f.text, o);
    num(m->has_errors);
    for (size_t i = 0; i < m->lines.size(); ++i) {
      const auto& l = m->lines[i];
      mix(m->code(i)); mix(m->comment(i)); num(l.function); num(l.cls); num(l.in_loop); num(l.in_condition);
    }
    for (const auto& x : m->functions) { mix(x.qualified); mix(x.cls); mix(x.signature); num(x.start_line); num(x.end_line);
      for (const auto& p : x.params) { mix(p.name); mix(p.default_value); mix(p.text); }
      for (const auto& d : x.decorators) mix(d);
      for (const auto& c : x.calls) mix(c); }
    for (const auto& x : m->classes) { mix(x.qualified); num(x.start_line); num(x.end_line); for (const auto& b : x.bases) mix(b); }
    for (const auto& x : m->calls) { mix(x.callee); mix(x.text); mix(x.function); num(x.line); num(x.column); num(x.end_line); num(x.in_loop);
      for (const auto& a : x.args) mix(a);
      for (const auto& [k, v] : x.kwargs) { mix(k); mix(v); } }
    for (const auto& x : m->assignments) { mix(x.target); mix(x.value); mix(x.op); mix(x.function); mix(x.cls); mix(x.text); num(x.line); }
    for (const auto& x : m->statements) { mix(x.kind); mix(x.text); mix(review::lang::statement_code(*m, x)); num(x.column); mix(x.function); num(x.line); num(x.end_line); num(x.header_end); }
    for (const auto& x : m->imports) { mix(x.module); num(x.line); for (const auto& n : x.names) mix(n); }
  }
  return h;
}

// The same over the analyses' results (branch chains of every file).
uint64_t analyses_digest(const std::vector<Input>& in) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  auto num = [&](long v) { mix(std::to_string(v)); };
  review::lang::AnalyzeOptions o;
  o.analyses = true;
  for (const auto& f : in) {
    auto m = review::lang::analyze_file(f.path, f.text, o);
    for (const auto& c : m->branch_chains()) {
      num(c.line); num(c.end_line); mix(c.kind); mix(c.subject); mix(c.function); num(c.has_else); num(c.else_raises); mix(c.else_kind);
      for (const auto& a : c.arms) { mix(a.condition); num(a.line); for (const auto& [x, y] : a.compares) { mix(x); mix(y); } for (const auto& x : a.ops) mix(x); }
    }
    num(static_cast<long>(m->unbound_reads().size()));
  }
  return h;
}

}  // namespace

// Heap bytes a model's fields hold, by field (--pass bytes): a string counts its buffer when it is
// not in the small-string buffer (libstdc++ keeps up to 15 characters inline), a vector its
// capacity times the element size. malloc's own per-block overhead is not counted here; the
// `measured` line (mallinfo2 before and after keeping every model) includes it.
struct Bytes {
  std::vector<std::pair<std::string, size_t>> by;
  void add(const std::string& k, size_t n) {
    for (auto& [name, v] : by)
      if (name == k) { v += n; return; }
    by.emplace_back(k, n);
  }
};
size_t heap(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }
template <class T> size_t vec(const std::vector<T>& v) { return v.capacity() * sizeof(T); }
size_t strs(const std::vector<std::string>& v) {
  size_t n = vec(v);
  for (const auto& x : v) n += heap(x);
  return n;
}

void model_bytes(const review::lang::SourceModel& m, Bytes& b) {
  b.add("text_lines", m.text_lines.bytes());
  b.add("lines (LineInfo structs)", vec(m.lines));
  if (m.store) {  // the buffers the lines point into
    b.add("lines.text (store)", m.store->text.capacity() + 1);
    b.add("lines.code (store)", (m.store->code.empty() ? 0 : m.store->code.capacity() + 1) +
                                    m.store->code_at.capacity() * sizeof(uint32_t));
    b.add("lines.comment (store)", (m.store->comments.empty() ? 0 : m.store->comments.capacity() + 1) +
                                       (m.store->comment_lines.capacity() + m.store->comment_starts.capacity()) *
                                           sizeof(uint32_t));
  }
  size_t fn = vec(m.functions);
  for (const auto& f : m.functions) {
    fn += heap(f.name) + heap(f.qualified) + heap(f.cls) + heap(f.signature) + strs(f.decorators) + vec(f.calls) + vec(f.params);
    for (const auto& p : f.params) fn += heap(p.name) + heap(p.default_value) + heap(p.text);
  }
  b.add("functions", fn);
  size_t cl = vec(m.classes);
  for (const auto& c : m.classes) cl += heap(c.name) + heap(c.qualified) + strs(c.bases);
  b.add("classes", cl);
  size_t ca = vec(m.calls);
  for (const auto& c : m.calls) {
    ca += vec(c.args) + vec(c.kwargs);  // function: a view into function_names
  }
  b.add("calls", ca);  // their callee, text, arguments and keywords are views into the store
  size_t as = vec(m.assignments);
  for (const auto& a : m.assignments) as += heap(a.target);  // value, op, text, function, cls: views
  b.add("assignments", as);
  size_t st = vec(m.statements);
  b.add("statements", st);  // kind, text and function: views
  size_t fnames = 0;
  if (m.function_names)
    for (const auto& n : *m.function_names) fnames += sizeof(std::string) + heap(n);
  b.add("function_names", fnames);
  size_t im = vec(m.imports);
  for (const auto& x : m.imports) im += heap(x.module) + strs(x.names);
  b.add("imports", im);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: facts_bench FOLDER [--rounds N] [--limit N] [--pass all|parse|extract|analyses|eager|digest|bytes] [--ext .py]\n";
    return 2;
  }
  fs::path root = argv[1];
  int rounds = 3;
  size_t limit = 0;
  std::string pass = "all", ext = ".py";
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "facts_bench: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--rounds") rounds = std::max(1, std::atoi(next().c_str()));
    else if (a == "--limit") limit = static_cast<size_t>(std::atol(next().c_str()));
    else if (a == "--pass") pass = next();
    else if (a == "--ext") ext = next();
    else {
      std::cerr << "facts_bench: unknown option " << a << "\n";
      return 2;
    }
  }
  if (pass != "all" && pass != "parse" && pass != "extract" && pass != "analyses" && pass != "eager" &&
      pass != "digest" && pass != "bytes") {
    std::cerr << "facts_bench: --pass must be all, parse, extract, analyses, eager, digest or bytes\n";
    return 2;
  }

  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory() && it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    std::string name = it->path().filename().string();
    if (it->is_regular_file() && name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      files.push_back(it->path());
  }
  if (ec) {
    std::cerr << "facts_bench: cannot list " << root << ": " << ec.message() << "\n";
    return 1;
  }
  std::sort(files.begin(), files.end());
  if (limit && files.size() > limit) files.resize(limit);
  std::vector<Input> in;
  size_t bytes = 0;
  for (auto& f : files) {
    std::ifstream s(f, std::ios::binary);
    std::stringstream ss;
    ss << s.rdbuf();
    in.push_back({fs::relative(f, root).string(), ss.str()});
    bytes += in.back().text.size();
  }
  std::printf("files %zu\nbytes %zu\n", in.size(), bytes);

  if (pass == "digest") {
    std::printf("digest %016llx\n", static_cast<unsigned long long>(digest(in)));
    std::printf("analyses_digest %016llx\n", static_cast<unsigned long long>(analyses_digest(in)));
    return 0;
  }
  if (pass == "bytes") {
    // Every model kept, as an audit keeps them (analyses off: the lazy state keeps the text until
    // they run); bytes by field, then the allocator's count before and after.
    review::lang::AnalyzeOptions o;
    o.analyses = false;
    std::vector<std::shared_ptr<const review::lang::SourceModel>> keep;
    size_t before = mallinfo2().uordblks;
    for (const auto& f : in) keep.push_back(review::lang::analyze_file(f.path, f.text, o));
    size_t after = mallinfo2().uordblks;
    Bytes b;
    for (const auto& m : keep) model_bytes(*m, b);
    size_t sum = 0;
    for (const auto& [k, v] : b.by) {
      std::printf("bytes %-28s %10zu  %6.1f MiB  %5.1fx text\n", k.c_str(), v, v / 1048576.0,
                  static_cast<double>(v) / static_cast<double>(bytes ? bytes : 1));
      sum += v;
    }
    std::printf("bytes %-28s %10zu  %6.1f MiB  %5.1fx text\n", "sum of fields", sum, sum / 1048576.0,
                static_cast<double>(sum) / static_cast<double>(bytes ? bytes : 1));
    std::printf("bytes %-28s %10zu  %6.1f MiB  %5.1fx text\n", "measured (mallinfo2)", after - before,
                (after - before) / 1048576.0, static_cast<double>(after - before) / static_cast<double>(bytes ? bytes : 1));
    return 0;
  }
  if (pass != "all") {
    double t = pass == "parse" ? pass_parse(in) : pass == "extract" ? pass_extract(in)
                                                           : pass_analyses(in, pass == "eager", nullptr, nullptr, nullptr);
    std::printf("%s_cpu_s %.3f\n", pass.c_str(), t);
    return 0;
  }

  double parse = 1e30, extract = 1e30, analyses = 1e30, eager = 1e30;
  size_t unbound = 0, chains = 0;
  std::vector<std::shared_ptr<const review::lang::SourceModel>> keep;
  for (int r = 0; r < rounds; ++r) {
    parse = std::min(parse, pass_parse(in));
    extract = std::min(extract, pass_extract(in));
    keep.clear();
    eager = std::min(eager, pass_analyses(in, true, nullptr, nullptr, nullptr));
    analyses = std::min(analyses, pass_analyses(in, false, r + 1 == rounds ? &keep : nullptr, &unbound, &chains));
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("rounds %d\n", rounds);
  std::printf("parse_cpu_s %.3f\n", parse);
  std::printf("extract_cpu_s %.3f\n", extract);
  std::printf("analyses_cpu_s %.3f\n", analyses);
  std::printf("extract_over_parse %.2f\n", extract / parse);
  std::printf("eager_cpu_s %.3f\n", eager);
  std::printf("analyses_over_parse %.2f\n", analyses / parse);
  std::printf("analyses_only_over_parse %.2f\n", (analyses - extract) / parse);
  std::printf("eager_over_parse %.2f\n", eager / parse);
  std::printf("unbound_reads %zu\nbranch_chains %zu\n", unbound, chains);
  std::printf("models_kept %zu\n", keep.size());
  std::printf("peak_rss_kib %ld\n", ru.ru_maxrss);
  std::fprintf(stderr, "(sink %zu)\n", sink);
  return 0;
}
