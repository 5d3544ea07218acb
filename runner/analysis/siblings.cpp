#include "runner/analysis/siblings.hpp"

namespace review::analysis {

const std::vector<std::string>& default_sibling_suffixes() {
  static const std::vector<std::string> s = {
      "_prefill_opt", "_opt",   "_decode",     "_prefill", "_v2",     "_v3",     "_v4",
      "_fwd",         "_bwd",   "_fp8",        "_bf16",    "_fp16",   "_fp4",    "_int8",
      "_int4",        "_asm",   "_ck",         "_triton",  "_gluon",  "_persistent", "_splitk",
      "_2stage",      "_1stage", "_fast",      "_ref",     "_naive",  "_fused"};
  return s;
}

std::optional<std::string> variant_suffix(std::string_view changed, std::string_view other,
                                          const std::vector<std::string>& suffixes) {
  if (changed == other || changed.empty() || other.empty()) return std::nullopt;
  std::vector<std::string_view> all;
  all.emplace_back();
  for (auto& s : suffixes)
    if (!s.empty()) all.emplace_back(s);
  std::optional<std::string> best;
  size_t best_len = 0;
  for (std::string_view a : all) {
    // every split of `changed` into STEM + a + TAIL
    for (size_t p = 1; p + a.size() <= changed.size(); ++p) {
      if (changed.substr(p, a.size()) != a) continue;
      std::string_view stem = changed.substr(0, p);
      std::string_view tail = changed.substr(p + a.size());
      if (!tail.empty() && tail.front() != '_') continue;
      for (std::string_view b : all) {
        if (b == a) continue;
        if (other.size() != stem.size() + b.size() + tail.size()) continue;
        if (other.substr(0, stem.size()) != stem || other.substr(stem.size(), b.size()) != b ||
            other.substr(stem.size() + b.size()) != tail)
          continue;
        size_t len = std::max(a.size(), b.size());
        if (len > best_len) {
          best_len = len;
          best = std::string(b.empty() ? a : b);
        }
      }
    }
  }
  return best;
}

}  // namespace review::analysis
