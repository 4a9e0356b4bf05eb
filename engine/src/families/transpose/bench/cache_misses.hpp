// Cache misses of one CPU transpose call, simulated by Callgrind (valgrind --tool=callgrind
// --cache-sim=yes) with this machine's cache sizes, counted inside the kernel's function only
// (--toggle-collect): the seed's Table 1 ran Cachegrind over its whole program. Hardware counters
// are not used: perf reports them unsupported on the machines this was written on (VMs).
#pragma once

#include "gigacheck/transpose.hpp"

#include <string>

namespace gigacheck::transpose {

struct CacheMisses {
    bool measured = false;
    std::string why;  // when not measured: valgrind missing, the run failed, ...
    double reads = 0, l1ReadMisses = 0, llReadMisses = 0;
};

// Runs `cli transpose --shape NxN --variant v --backend cpu --reps 0` (one call, cold caches)
// under Callgrind. cli: this gigacheck executable.
CacheMisses simulateCacheMisses(const std::string& cli, Variant v, std::int64_t n, ElementType type);

}  // namespace gigacheck::transpose
