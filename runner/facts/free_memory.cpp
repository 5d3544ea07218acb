#include "runner/facts/free_memory.hpp"

#include <cstddef>

#ifdef __GLIBC__
#include <malloc.h>
#endif

// jemalloc's control interface (jemalloc(3)). Declared weak: it is defined only when the binary
// links jemalloc (the runner; the tests and sanitizer builds use the C library's allocator), and
// is null otherwise. A weak reference alone pulls no member out of an archive: it resolves
// because mallctl is defined in the same object of libjemalloc_pic.a as malloc (jemalloc.o),
// which the binary's strong references to malloc pull in (`nm runner` shows `T mallctl`).
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace review::facts {

void return_free_memory() {
  if (mallctl != nullptr) {
    // "arena.<MALLCTL_ARENAS_ALL>.purge": every arena at once (MALLCTL_ARENAS_ALL is 4096 in
    // jemalloc 5, jemalloc_macros.h; spelled here so that builds without its headers compile)
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace review::facts
