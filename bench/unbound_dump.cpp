// unbound_dump FOLDER [--time] [--verbose]
// Prints `path:line:col name` for every possibly-unbound read found in every .py file under
// FOLDER (paths relative to FOLDER, sorted), then, with --time, the time spent parsing alone
// and parsing + analysis (process CPU seconds), each over all files, both passes in this one process.
#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "runner/lang/python/unbound.hpp"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: unbound_dump FOLDER [--time] [--verbose]\n";
    return 2;
  }
  fs::path root = argv[1];
  bool timing = false, verbose = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--time") timing = true;
    else if (a == "--verbose") verbose = true;
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
    if (it->is_regular_file() && it->path().extension() == ".py") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> sources;
  size_t bytes = 0;
  for (auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    sources.push_back(ss.str());
    bytes += sources.back().size();
  }
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  // Process CPU time: the machine is shared, so wall time mostly measures the neighbours.
  struct clock {
    using time_point = std::chrono::duration<double>;
    static time_point now() {
      timespec ts{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      return time_point(static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9);
    }
  };

  // Pass 1: parse alone.
  auto t0 = clock::now();
  size_t nodes = 0;
  for (auto& s : sources) {
    TSTree* t = ts_parser_parse_string(parser, nullptr, s.data(), static_cast<uint32_t>(s.size()));
    nodes += ts_node_child_count(ts_tree_root_node(t));
    ts_tree_delete(t);
  }
  auto t1 = clock::now();
  // Pass 2: parse + analysis.
  std::vector<std::string> lines;
  double analysis = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    auto& s = sources[i];
    TSTree* t = ts_parser_parse_string(parser, nullptr, s.data(), static_cast<uint32_t>(s.size()));
    auto ta = clock::now();
    auto found = review::analysis::find_unbound_reads(ts_tree_root_node(t), s);
    analysis += std::chrono::duration<double>(clock::now() - ta).count();
    std::string rel = fs::relative(files[i], root).string();
    for (auto& u : found) {
      std::string l = rel + ":" + std::to_string(u.read_line) + ":" + std::to_string(u.read_column) + " " + u.name;
      if (verbose)
        l += std::string("  [") + (u.definite ? "definite " : "possibly ") + u.cause + " " + u.branch_kind + "@" + std::to_string(u.branch_line) + "; bound in " + u.bound_in +
             "; unbound when " + u.unbound_path + "; " + u.scope_kind + " " + u.function + "]";
      lines.push_back(std::move(l));
    }
    ts_tree_delete(t);
  }
  auto t2 = clock::now();
  ts_parser_delete(parser);
  for (auto& l : lines) std::cout << l << "\n";
  if (timing) {
    double parse = std::chrono::duration<double>(t1 - t0).count();
    double both = std::chrono::duration<double>(t2 - t1).count();
    std::fprintf(stderr, "files %zu bytes %zu top-level-nodes %zu\n", files.size(), bytes, nodes);
    std::fprintf(stderr, "parse alone: %.3f s; parse+analysis: %.3f s (analysis itself %.3f s); ratio %.2f\n", parse,
                 both, analysis, both / parse);
  }
  return 0;
}
