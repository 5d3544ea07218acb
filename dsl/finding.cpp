#include "dsl/finding.hpp"

namespace review::dsl {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Block: return "block";
    case Severity::Warn: return "warn";
    case Severity::Note: return "note";
  }
  return "note";
}

std::string_view evidence_name(Evidence e) { return e == Evidence::Verified ? "verified" : "inferred"; }

}  // namespace review::dsl
