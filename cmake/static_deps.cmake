# Self-contained binaries (REVIEW_STATIC_DEPS=ON, the default): every dependency that is not part
# of glibc is linked statically -- RE2 (and abseil, when the RE2 at hand needs it), tree-sitter,
# yaml-cpp, libstdc++ and libgcc -- so the runner starts on a machine that has none of the -dev
# packages (a hosted runner image, a restored cache, a container). libcurl stays dynamic: the
# hosted ubuntu-24.04 image ships libcurl.so.4 (libcurl4t64), and a static libcurl would drag in
# OpenSSL, nghttp2, libssh2 and more. tests/release/self_contained.sh checks the result.
#
# review_static_target(NAME PKG_PREFIX FALLBACK_TARGET)
#   Defines the INTERFACE target review::NAME. With REVIEW_STATIC_DEPS on, it links the static
#   archives named by pkg-config's --static libraries of PKG_PREFIX (each lib<name>.a found in the
#   module's library dirs or the system's); when one archive is missing it says which and links
#   FALLBACK_TARGET (the shared library) instead, so a machine without the .a still builds.
option(REVIEW_STATIC_DEPS "Link RE2, tree-sitter, yaml-cpp, libstdc++ and libgcc statically" ON)
option(REVIEW_REQUIRE_STATIC "A missing static archive is an error, not a fallback (scripts/release)" OFF)

# glibc's own libraries stay dynamic (they are on every Linux machine, and glibc is not meant to be
# linked statically).
set(REVIEW_GLIBC_LIBS c m dl rt pthread util resolv)

function(review_static_target name prefix fallback)
  add_library(review_${name} INTERFACE)
  add_library(review::${name} ALIAS review_${name})
  if(NOT REVIEW_STATIC_DEPS)
    target_link_libraries(review_${name} INTERFACE ${fallback})
    return()
  endif()
  set(archives "")
  set(system "")
  foreach(lib IN LISTS ${prefix}_STATIC_LIBRARIES)
    if(lib IN_LIST REVIEW_GLIBC_LIBS)
      list(APPEND system ${lib})
      continue()
    endif()
    unset(found CACHE)
    find_library(found NAMES lib${lib}.a HINTS ${${prefix}_STATIC_LIBRARY_DIRS} NO_CACHE)
    if(NOT found AND REVIEW_REQUIRE_STATIC)
      message(FATAL_ERROR "review: no static lib${lib}.a for ${name} (REVIEW_REQUIRE_STATIC): install "
                          "the -dev package that ships it, or build ${name} as a static library")
    elseif(NOT found)
      message(WARNING "review: no static lib${lib}.a for ${name}; linking ${fallback} dynamically "
                      "(the runner will need its shared library at run time)")
      target_link_libraries(review_${name} INTERFACE ${fallback})
      set(REVIEW_STATIC_${name} OFF PARENT_SCOPE)
      return()
    endif()
    list(APPEND archives ${found})
  endforeach()
  # The archives of one module may refer to each other in any order (abseil does): one group.
  target_link_libraries(review_${name} INTERFACE
    "-Wl,--start-group" ${archives} "-Wl,--end-group" ${system})
  target_include_directories(review_${name} INTERFACE ${${prefix}_INCLUDE_DIRS})
  target_compile_options(review_${name} INTERFACE ${${prefix}_CFLAGS_OTHER})
  target_link_options(review_${name} INTERFACE ${${prefix}_STATIC_LDFLAGS_OTHER})
  set(REVIEW_STATIC_${name} ON PARENT_SCOPE)
endfunction()

pkg_check_modules(YAMLCPP_PC REQUIRED yaml-cpp)
review_static_target(re2 RE2 PkgConfig::RE2)
review_static_target(tree_sitter TREESITTER PkgConfig::TREESITTER)
review_static_target(yaml_cpp YAMLCPP_PC yaml-cpp)

# libstdc++ and libgcc: the toolchain's own switches. Not with sanitizers (their runtimes expect
# the shared C++ library).
if(REVIEW_STATIC_DEPS AND NOT REVIEW_SANITIZE AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_link_options(-static-libstdc++ -static-libgcc)
endif()
