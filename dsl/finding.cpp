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

Severity severity_of(std::string_view word) {
  return word == "block" ? Severity::Block : word == "note" ? Severity::Note : Severity::Warn;
}

std::string_view evidence_name(Evidence e) { return e == Evidence::Verified ? "verified" : "inferred"; }

}  // namespace review::dsl
