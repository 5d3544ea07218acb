// The C/C++ front end (tree-sitter extraction) with the branch analysis.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/lang/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  review::lang::AnalyzeOptions o;
  o.analyses = true;
  auto m = review::lang::analyze_file("fuzz.cpp", std::string_view(reinterpret_cast<const char*>(data), size), o);
  (void)m->unbound_reads();
  (void)m->branch_chains();
  (void)m->analysis_note();
  return 0;
}
