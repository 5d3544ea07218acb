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

// jemalloc's options as built into the program (jemalloc(3), "malloc_conf"; MALLOC_CONF in the
// environment still overrides them). Free dirty pages are given back to the system over 3 s
// instead of jemalloc's default 10 s: a review step that frees a fact source is followed within
// a second or two by steps that allocate as much again, and reuse the pages still mapped instead
// of faulting in new ones. Measured on audits of ROCm/ATOM and ROCm/aiter (bench/RESULTS.md,
// Session 29): a forced purge after each large release made 117,309 and 244,933 page faults;
// decay at 3 s, 97,856 and 205,889, with aiter's peak unchanged (480 MiB); at 10 s the peak rose
// to 482-498 MiB. Unused (a plain global) when the C library's allocator is linked instead.
extern "C" {
__attribute__((used)) const char* malloc_conf = "dirty_decay_ms:3000";
}

namespace review::facts {

void return_free_memory() {
  if (mallctl != nullptr) {
    // "arena.<MALLCTL_ARENAS_ALL>.decay": every arena at once (MALLCTL_ARENAS_ALL is 4096 in
    // jemalloc 5, jemalloc_macros.h; spelled here so that builds without its headers compile).
    // Purges the free pages whose decay time (above) is up, now rather than at jemalloc's next
    // allocation tick; not the `purge` of every free page, whose pages the next step would
    // fault in again.
    mallctl("arena.4096.decay", nullptr, nullptr, nullptr, 0);
    return;
  }
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace review::facts
