#include "runner/analysis/branches.hpp"

#include <algorithm>
#include <cctype>

namespace review::analysis {

std::string squash_space(std::string_view t) {
  std::string out;
  for (char c : t)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '\\') out += c;
  return out;
}
std::string collapse_space(std::string_view t) {
  std::string out;
  bool sp = false;
  for (char c : t) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      sp = !out.empty();
      continue;
    }
    if (sp) out += ' ';
    sp = false;
    out += c;
  }
  return out;
}
std::string lower_ascii(std::string_view t) {
  std::string o(t);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

void finish_chain(BranchChain& c, const std::vector<std::vector<ArmCompare>>& per_arm) {
  // subject common to every arm
  if (!per_arm.empty()) {
    std::vector<std::string> cands;
    for (auto& x : per_arm[0])
      if (std::find(cands.begin(), cands.end(), x.subject) == cands.end()) cands.push_back(x.subject);
    for (auto& cand : cands) {
      bool all = true;
      for (auto& arm : per_arm)
        if (std::none_of(arm.begin(), arm.end(), [&](const ArmCompare& x) { return x.subject == cand; })) all = false;
      if (all) {
        c.subject = cand;
        break;
      }
    }
  }
  c.else_raises = !c.else_kind.empty();
}

void add_arm(BranchChain& c, std::vector<std::vector<ArmCompare>>& per_arm, std::string condition, int line,
             std::vector<ArmCompare> cmps) {
  BranchArm a;
  a.condition = std::move(condition);
  a.line = line;
  for (auto& x : cmps) {
    a.compares.emplace_back(x.subject, x.value);
    a.ops.push_back(x.op);
  }
  c.arms.push_back(std::move(a));
  per_arm.push_back(std::move(cmps));
}

}  // namespace review::analysis
