// The record shapes that only appear nested inside other facts: `location` (read of
// unbound_reads, a/b of clones) and `construct` (branch of unbound_reads). Querying them throws.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using T = dsl::Type;
using util::field;
using util::kNestedDoc;

class LocationShape final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"location", std::string(kNestedDoc) + "a place in a file: read of unbound_reads, a/b of clones", false,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "first line"),
                field("end_line", T::Int, "last line (0 = same as line)"),
                field("column", T::Int, "column, 0 when unknown"),
                field("added", T::Bool, "the first line is added"),
                field("text", T::String, "the text there"),
            }};
  }
  bool nested_only() const override { return true; }
};

class ConstructShape final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"construct", std::string(kNestedDoc) + "the construct an unbound read depends on", false,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "its first line"),
                field("kind", T::String, "if, match, for, while, try, with or del; binding (the line that binds it) for a definite read"),
            }};
  }
  bool nested_only() const override { return true; }
};

}  // namespace

std::unique_ptr<Source> make_location_shape() { return std::make_unique<LocationShape>(); }
std::unique_ptr<Source> make_construct_shape() { return std::make_unique<ConstructShape>(); }

}  // namespace review::facts
