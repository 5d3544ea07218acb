// The schema of every registered fact source (source.hpp, registry.cpp). Field names are the
// contract with rulesets: rename nothing.
#include "runner/facts/schema.hpp"

#include "runner/facts/source.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {

const std::vector<dsl::SourceSchema>& fact_schema() {
  static const std::vector<dsl::SourceSchema> kSchema = [] {
    std::vector<dsl::SourceSchema> v;
    for (const auto& s : sources()) v.push_back(s->schema());
    return v;
  }();
  return kSchema;
}

bool is_nested_only(const dsl::SourceSchema& s) { return s.doc.rfind(util::kNestedDoc, 0) == 0; }

}  // namespace review::facts
