# jemalloc as the runner's allocator (REVIEW_JEMALLOC=ON, the default). An audit allocates and
# frees tens of millions of small blocks (facts, strings, index lists); with glibc's allocator
# malloc/free were 11% of ROCm/aiter's audit CPU and page faults on freshly mapped memory 10%.
# The static archive (libjemalloc_pic.a from libjemalloc-dev) is linked into the runner binary
# only, so the binary stays self-contained (cmake/static_deps.cmake) and the unit tests keep the
# C library's allocator. Not with sanitizers (they bring their own allocator). When the archive
# is missing the runner links with the C library's allocator and says so.
# runner/facts/free_memory.cpp sets jemalloc's decay time (malloc_conf) and finds jemalloc at run
# time (a weak mallctl) to let its arenas' free pages decay after large releases, where glibc's
# heap is trimmed.
option(REVIEW_JEMALLOC "Link jemalloc statically into the runner binary as its allocator" ON)

# review_use_jemalloc(TARGET): links the static jemalloc into executable TARGET when enabled.
function(review_use_jemalloc target)
  if(NOT REVIEW_JEMALLOC OR REVIEW_SANITIZE)
    return()
  endif()
  find_library(REVIEW_JEMALLOC_ARCHIVE NAMES libjemalloc_pic.a libjemalloc.a)
  if(NOT REVIEW_JEMALLOC_ARCHIVE AND REVIEW_REQUIRE_STATIC)
    message(FATAL_ERROR "review: no libjemalloc_pic.a (REVIEW_REQUIRE_STATIC): install libjemalloc-dev, "
                        "or configure with -DREVIEW_JEMALLOC=OFF for the C library's allocator")
  elseif(NOT REVIEW_JEMALLOC_ARCHIVE)
    message(WARNING "review: no libjemalloc_pic.a (install libjemalloc-dev); the runner uses the C "
                    "library's allocator, about 8% slower on an audit")
    return()
  endif()
  # The archive defines malloc, free and the rest: the executable's references resolve to it
  # before the C library is searched. jemalloc needs the thread and dl libraries of glibc.
  target_link_libraries(${target} PRIVATE ${REVIEW_JEMALLOC_ARCHIVE} Threads::Threads ${CMAKE_DL_LIBS})
  message(STATUS "review: the runner links jemalloc (${REVIEW_JEMALLOC_ARCHIVE})")
endfunction()
