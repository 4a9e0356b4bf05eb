// Cache misses of one CPU transpose call, simulated by Callgrind (valgrind --tool=callgrind
// --cache-sim=yes) with the seed's i7-9750H caches (kSimulatedCaches: the same misses on any
// machine, comparable with the seed's Table 1 size by size), counted inside the kernel's function
// only (--toggle-collect): the seed's Table 1 ran Cachegrind over its whole program. Hardware counters
// are not used: perf reports them unsupported on the machines this was written on (VMs).
#pragma once

#include "gigacheck/transpose.hpp"

#include <string>

namespace gigacheck::transpose {

// The seed's i7-9750H: L1d 32 KiB 8-way per core, L3 12 MiB 16-way (Cachegrind's last level:
// the seed's "L2" column); 64-byte lines. 12 MiB in 16 ways is not a power-of-two number of sets,
// which valgrind refuses; on the seed's machine Cachegrind itself simulated its L3 as 24-way
// (8192 sets, the same 12 MiB), and so does this.
inline constexpr const char* kSimulatedCaches = "D1 32 KiB 8-way, LL 12 MiB 24-way, 64-byte lines (the transpose paper's i7-9750H as Cachegrind simulates it)";
inline constexpr const char* kSimulatedCacheOptions = "--D1=32768,8,64 --LL=12582912,24,64";

struct CacheMisses {
    bool measured = false;
    std::string why;  // when not measured: valgrind missing, the run failed, ...
    double reads = 0, l1ReadMisses = 0, llReadMisses = 0;
};

// Runs `cli transpose --shape NxN --variant v --backend cpu --reps 0` (one call, cold caches)
// under Callgrind. cli: this gigacheck executable.
CacheMisses simulateCacheMisses(const std::string& cli, Variant v, std::int64_t n, ElementType type);

}  // namespace gigacheck::transpose
