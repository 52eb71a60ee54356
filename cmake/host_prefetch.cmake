# The host tree is built for the machine that builds it: its tests and
# benchmarks run there and nowhere else. sched/ asks for a line it will
# write with __builtin_prefetch(p, 1, ...) (sched/cache.h: the headers a core
# takes from another core's queue, whose state it stores before it runs
# them). On x86-64 the compiler turns that into a plain read prefetch
# (prefetcht0) unless it may use PREFETCHW (-mprfchw): the line then comes
# over shared, and the store has to ask for it again, for ownership, while
# the fence after it waits (sched/run_task.c). On this project's Intel host,
# 10^6 tasks spawned from one task, 2 workers (medians of 40 runs, four
# builds interleaved): 36.0 ms with PREFETCHW and the global queue's hints
# (sched/global_queue.h), 41.7 with the hints alone, 42.6 with PREFETCHW
# alone, 44.0 with neither; 1 worker 44.6 in every case. So the host tree
# uses it where this machine has it (CPUID 0x80000001, ECX bit 8: PRFCHW,
# Linux's "3dnowprefetch"); the boards' compilers already emit a prefetch
# for writing (aarch64: prfm pstl1keep; rv64gc has no prefetch at all).
# A cross build of the host tree cannot run the check (CMake's try_run), so
# it goes without; -DHIVE_HOST_PREFETCHW=OFF (or ON) decides instead of the
# check, as for any check result already in the cache.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND
   (NOT CMAKE_CROSSCOMPILING OR DEFINED HIVE_HOST_PREFETCHW))
  include(CheckCSourceRuns)
  set(CMAKE_REQUIRED_FLAGS -mprfchw)
  check_c_source_runs([[
#include <cpuid.h>
int main(void)
{
    unsigned a, b, c, d;
    static volatile char line[64];
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d) || !(c & (1u << 8)))
        return 1;
    __builtin_prefetch((const void *)line, 1, 3);
    line[0] = 1;
    return 0;
}
]] HIVE_HOST_PREFETCHW)
  unset(CMAKE_REQUIRED_FLAGS)
  if(HIVE_HOST_PREFETCHW)
    add_compile_options(-mprfchw)
  endif()
endif()
