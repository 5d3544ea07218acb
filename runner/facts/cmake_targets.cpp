// Source `cmake_targets`: one fact per add_library / add_executable, with the properties and
// links the same file sets on it (runner/lang/cmake/targets.hpp).
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"
#include "runner/lang/cmake/targets.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

class CmakeTargetsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"cmake_targets", "one fact per CMake target a file defines (add_library, add_executable)", true,
            {
                field("file", T::String, "path of the CMake file"),
                field("line", T::Int, "first line of the add_* command"),
                field("end_line", T::Int, "last line of the command"),
                field("name", T::String, "target name as written"),
                field("kind", T::String, "static, shared, module, object, interface, library (type from BUILD_SHARED_LIBS), executable, imported or alias"),
                field("command", T::String, "add_library or add_executable"),
                field("sources", T::List, "source arguments as written"),
                field("exclude_from_all", T::Bool, "EXCLUDE_FROM_ALL"),
                field("alias_of", T::String, "the aliased target, \"\" unless kind is alias"),
                field("properties", T::List, "\"KEY=value\" set on it in the same file (set_target_properties, set_property(TARGET))"),
                field("output_name", T::String, "the last OUTPUT_NAME property set in the same file, else the target name"),
                field("links", T::List, "\"VISIBILITY:item\" linked in the same file (target_link_libraries; \"\" visibility for the plain signature)"),
                field("depth", T::Int, "number of enclosing if() blocks"),
                field("added", T::Bool, "some line of the add_* command is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m || m->cmake_commands.empty()) return out;
    for (const auto& t : lang::cmake_targets(m->cmake_commands)) {
      auto f = dsl::make_fact("cmake_targets", r.path, t.line);
      f->end_line = t.end_line;
      f->set("name", Value(t.name));
      f->set("kind", Value(t.kind));
      f->set("command", Value(t.command));
      f->set("sources", util::str_list(t.sources));
      f->set("exclude_from_all", Value(t.exclude_from_all));
      f->set("alias_of", Value(t.alias_of));
      f->set("properties", util::str_list(t.properties));
      std::string output = t.name;
      for (const auto& p : t.properties)
        if (p.rfind("OUTPUT_NAME=", 0) == 0) output = p.substr(12);
      f->set("output_name", Value(output));
      f->set("links", util::str_list(t.links));
      f->set("depth", Value(t.depth));
      f->set("added", Value(r.added_range(t.line, t.end_line)));
      out.push_back(f);
    }
    return out;
  }
};

class CmakeInstallsSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"cmake_installs", "one fact per CMake install rule (install, rocm_install, rocm_install_targets)", true,
            {
                field("file", T::String, "path of the CMake file"),
                field("line", T::Int, "first line of the command"),
                field("end_line", T::Int, "last line of the command"),
                field("command", T::String, "install, rocm_install or rocm_install_targets"),
                field("kind", T::String, "TARGETS, FILES, PROGRAMS, DIRECTORY, EXPORT, SCRIPT, CODE, ... (\"\" when unknown)"),
                field("targets", T::List, "TARGETS: the target names (variables set in the same file expanded)"),
                field("paths", T::List, "FILES / PROGRAMS / DIRECTORY arguments (variables set in the same file expanded)"),
                field("covers", T::List, "repository-relative globs of the source files it ships (\"include/**\", \"include/**/*.h\", \"src/a.h\")"),
                field("resolved", T::Bool, "every path resolved to a glob (false: some path holds an unknown variable or generator expression)"),
                field("destinations", T::List, "DESTINATION values"),
                field("component", T::String, "first COMPONENT, \"\" when none"),
                field("export", T::String, "EXPORT set name, \"\" when none"),
                field("patterns", T::List, "PATTERN / REGEX arguments"),
                field("optional", T::Bool, "OPTIONAL"),
                field("depth", T::Int, "number of enclosing if() blocks"),
                field("added", T::Bool, "some line of the command is added"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m || m->cmake_commands.empty()) return out;
    for (const auto& i : lang::cmake_installs(m->cmake_commands, r.path)) {
      auto f = dsl::make_fact("cmake_installs", r.path, i.line);
      f->end_line = i.end_line;
      f->set("command", Value(i.command));
      f->set("kind", Value(i.kind));
      f->set("targets", util::str_list(i.targets));
      f->set("paths", util::str_list(i.paths));
      f->set("covers", util::str_list(i.covers));
      f->set("resolved", Value(i.resolved));
      f->set("destinations", util::str_list(i.destinations));
      f->set("component", Value(i.component));
      f->set("export", Value(i.export_name));
      f->set("patterns", util::str_list(i.patterns));
      f->set("optional", Value(i.optional));
      f->set("depth", Value(i.depth));
      f->set("added", Value(r.added_range(i.line, i.end_line)));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_cmake_targets_source() { return std::make_unique<CmakeTargetsSource>(); }
std::unique_ptr<Source> make_cmake_installs_source() { return std::make_unique<CmakeInstallsSource>(); }

}  // namespace review::facts
