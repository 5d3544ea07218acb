// Source `cmake_commands`: one fact per CMake command invocation.
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class CmakeCommandsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"cmake_commands", "one fact per CMake command invocation (may span lines)", true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "first line"),
                field("end_line", T::Int, "last line"),
                field("name", T::String, "command name, lowercased"),
                field("args", T::List, "arguments (bracket/quoted contents; \"(\" and \")\" for nested parentheses)"),
                field("argtext", T::String, "arguments joined by single spaces"),
                field("depth", T::Int, "number of enclosing if() blocks"),
                field("added", T::Bool, "some line of the invocation is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    for (const auto& c : m->cmake_commands) {
      auto f = dsl::make_fact("cmake_commands", r.path, c.line);
      f->end_line = c.end_line;
      f->set("name", Value(c.name));
      f->set("args", util::str_list(c.args));
      std::string joined;
      for (const auto& a : c.args) joined += (joined.empty() ? "" : " ") + a;
      f->set("argtext", Value(joined));
      f->set("depth", Value(c.depth));
      f->set("added", Value(r.added_range(c.line, c.end_line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_cmake_commands_source() { return std::make_unique<CmakeCommandsSource>(); }

}  // namespace review::facts
