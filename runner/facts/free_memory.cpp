#include "runner/facts/free_memory.hpp"

#include <cstddef>
#include <string>

#ifdef __GLIBC__
#include <malloc.h>
#endif

// jemalloc's control interface (jemalloc(3)). Declared weak: it is defined only when the binary
// links jemalloc (the runner; the tests and sanitizer builds use the C library's allocator), and
// is null otherwise.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace review::facts {

void return_free_memory() {
  if (mallctl != nullptr) {
    // MALLCTL_ARENAS_ALL is 4096 in jemalloc 5 (jemalloc_macros.h): every arena at once
    static const std::string all = "arena." + std::to_string(4096) + ".purge";
    mallctl(all.c_str(), nullptr, nullptr, nullptr, 0);
    return;
  }
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace review::facts
