// Timing pieces the fq sweep shares with `gigacheck bench online`.
#pragma once

#include "gigacheck/online_abft.hpp"

namespace gigacheck::online_abft {

// Compute time of a run from its spans: first op on the compute queue to the last one (the
// loads of A and B and the store of C are the same for every scheme and for the plain product).
double computeSeconds(const OnlineRecord& r);
// The plain n x n x n FP32 product on this backend, same process, median of reps: cuBLAS in-core
// on a GPU, OpenBLAS on the CPU.
double plainProductSeconds(BackendKind backend, std::int64_t n, int reps);
// On a GPU, the same with the fastest cuBLASLt configuration for n^3 (kept: its name); 0 elsewhere.
double tunedPlainProductSeconds(BackendKind backend, std::int64_t n, int reps, std::string* kept);
// On a GPU, the panel products of config's device path alone, in its column blocks, with no
// checksum pass and no check (cuda/panel_floor.hpp): the floor of any check schedule around cuBLAS.
// gemms: the configurations they ran. On the CPU: the steps as OpenBLAS products (one block).
// sumsAfterEachStep: and after each product the check's row and column sums of C, nothing else of
// a check (one read of C per step: the least any check costs; on the CPU a plain pass summing rows
// and columns in double, not the CPU check's own code).
double panelProductsAloneSeconds(const OnlineConfig& config, BackendKind backend, std::string* gemms,
                                 bool sumsAfterEachStep = false);

}  // namespace gigacheck::online_abft
