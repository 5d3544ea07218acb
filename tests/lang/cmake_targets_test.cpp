// CMake build model: targets with their properties and links, install rules and what they cover.
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/cmake/cmake.hpp"
#include "runner/lang/cmake/targets.hpp"

using review::lang::cmake_installs;
using review::lang::cmake_targets;
using review::lang::parse_cmake;

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "|" : "") + v[i];
  return s;
}
}  // namespace

TEST_CASE("cmake targets: kinds, sources, alias, imported, properties and links of the same file", "[cmake]") {
  auto p = parse_cmake(
      "add_library(core SHARED a.cpp b.cpp)\n"
      "add_library(core_static STATIC EXCLUDE_FROM_ALL a.cpp)\n"
      "add_library(hdr INTERFACE)\n"
      "add_library(plain x.cpp)\n"
      "add_library(ns::core ALIAS core)\n"
      "add_library(ext SHARED IMPORTED GLOBAL)\n"
      "if(WIN32)\n"
      "  add_executable(tool WIN32 main.cpp)\n"
      "endif()\n"
      "set_target_properties(core tool PROPERTIES SOVERSION 2 OUTPUT_NAME mylib-tool)\n"
      "set_property(TARGET core APPEND PROPERTY COMPILE_DEFINITIONS A B)\n"
      "target_link_libraries(core PUBLIC fmt::fmt PRIVATE dl)\n"
      "target_link_libraries(tool core)\n");
  REQUIRE(!p.error);
  auto t = cmake_targets(p.commands);
  std::vector<std::string> s;
  for (const auto& x : t) s.push_back(x.name + ":" + x.kind + ":" + std::to_string(x.line) + ":" + std::to_string(x.depth));
  CHECK(join(s) == "core:shared:1:0|core_static:static:2:0|hdr:interface:3:0|plain:library:4:0|ns::core:alias:5:0|"
                   "ext:imported:6:0|tool:executable:8:1");
  CHECK(join(t[0].sources) == "a.cpp|b.cpp");
  CHECK(t[1].exclude_from_all);
  CHECK(join(t[1].sources) == "a.cpp");
  CHECK(t[4].alias_of == "core");
  CHECK(join(t[6].sources) == "main.cpp");
  CHECK(join(t[0].properties) == "SOVERSION=2|OUTPUT_NAME=mylib-tool|COMPILE_DEFINITIONS=A;B");
  CHECK(join(t[6].properties) == "SOVERSION=2|OUTPUT_NAME=mylib-tool");
  CHECK(join(t[0].links) == "PUBLIC:fmt::fmt|PRIVATE:dl");
  CHECK(join(t[6].links) == ":core");
}

TEST_CASE("cmake installs: TARGETS, FILES, DIRECTORY with patterns, variables, rocm wrappers", "[cmake]") {
  auto p = parse_cmake(
      "file(GLOB HDRS include/mylib/*.h)\n"                                                   // 1
      "set(EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/extra.h)\n"                                       // 2
      "install(TARGETS core tool EXPORT mylibTargets LIBRARY DESTINATION lib COMPONENT runtime\n"  // 3
      "        RUNTIME DESTINATION bin COMPONENT tools)\n"                                     // 4
      "install(FILES ${HDRS} ${EXTRA} DESTINATION include/mylib)\n"                            // 5
      "install(DIRECTORY include/ DESTINATION include FILES_MATCHING PATTERN \"*.hpp\" PATTERN \"*.h\")\n"  // 6
      "install(DIRECTORY ${CMAKE_SOURCE_DIR}/share/ DESTINATION share OPTIONAL)\n"             // 7
      "install(FILES ${GENERATED_DIR}/version.h $<TARGET_FILE:x> DESTINATION include)\n"       // 8
      "install(EXPORT mylibTargets NAMESPACE mylib:: DESTINATION lib/cmake)\n"                 // 9
      "rocm_install_targets(TARGETS core INCLUDE ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"       // 10
      "rocm_install(FILES ../top.h DESTINATION include)\n"                                     // 11
      "install(CODE \"message(hi)\")\n");                                                     // 12
  REQUIRE(!p.error);
  auto in = cmake_installs(p.commands, "lib/CMakeLists.txt");
  REQUIRE(in.size() == 9);
  CHECK(in[0].kind == "TARGETS");
  CHECK(join(in[0].targets) == "core|tool");
  CHECK(join(in[0].destinations) == "lib|bin");
  CHECK(in[0].component == "runtime");
  CHECK(in[0].export_name == "mylibTargets");
  CHECK(in[0].line == 3);
  CHECK(in[0].end_line == 4);
  CHECK(join(in[1].paths) == "include/mylib/*.h|${CMAKE_CURRENT_SOURCE_DIR}/extra.h");
  CHECK(join(in[1].covers) == "lib/include/mylib/*.h|lib/extra.h");
  CHECK(in[1].resolved);
  CHECK(join(in[2].covers) == "lib/include/**/*.hpp|lib/include/**/*.h");
  CHECK(join(in[2].patterns) == "*.hpp|*.h");
  CHECK(join(in[3].covers) == "share/**");
  CHECK(in[3].optional);
  CHECK(!in[4].resolved);
  CHECK(in[4].covers.empty());
  CHECK(in[5].kind == "EXPORT");
  CHECK(in[5].export_name == "mylibTargets");
  CHECK(in[6].kind == "TARGETS");
  CHECK(join(in[6].targets) == "core");
  CHECK(join(in[6].covers) == "lib/include/**");
  CHECK(join(in[7].covers) == "top.h");
  CHECK(in[8].kind == "CODE");
}

TEST_CASE("cmake installs: GLOB_RECURSE, root files, paths escaping the tree", "[cmake]") {
  auto p = parse_cmake(
      "file(GLOB_RECURSE H CONFIGURE_DEPENDS include/*.hpp)\n"
      "install(FILES ${H} DESTINATION include)\n"
      "install(FILES ../../outside.h /usr/include/sys.h DESTINATION include)\n"
      "install(TARGETS)\n"
      "install()\n");
  auto in = cmake_installs(p.commands, "CMakeLists.txt");
  REQUIRE(in.size() == 4);
  CHECK(join(in[0].covers) == "include/**/*.hpp");
  CHECK(!in[1].resolved);
  CHECK(in[1].covers.empty());
  CHECK(in[2].targets.empty());
  CHECK(in[3].kind == "");
}
