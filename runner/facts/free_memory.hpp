#pragma once

namespace review::facts {

/// Gives the allocator's free pages back to the system, so that memory freed by one step (a
/// released fact source, the parsed models at the end of a review) is not still counted in the
/// resident size while a later step allocates its own. With jemalloc linked in (the runner
/// binary, cmake/jemalloc.cmake): every arena's free pages that have been free longer than its
/// decay time (3 s, free_memory.cpp's malloc_conf) are purged (`mallctl("arena.<all>.decay")`,
/// see jemalloc(3), MALLCTL_ARENAS_ALL); the pages freed just before stay mapped for the next
/// step to reuse. Otherwise, with glibc: malloc_trim(0), which walks the whole heap (glibc's
/// malloc_trim(3)). Elsewhere: nothing. Costs a walk of the allocator's free memory (tens of
/// milliseconds after a large release): call it after large releases only. Thread-safe; never
/// throws.
void return_free_memory();

}  // namespace review::facts
