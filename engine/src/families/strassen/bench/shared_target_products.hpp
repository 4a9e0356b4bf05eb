// Atomics against ordering: the products of one msmes product stage share C
// blocks (stage 2: M1..M4 each reach two of C0..C3, every block twice; stage 5: M0, M5, M6 meet in
// C0 and C3), so they must not add into a block at the same time. The seed ran them at once with
// atomic adds; this lab orders them. Measured on one level of size n (products n/2 cubed, the
// multi-target kernel), each way timed as the whole stage, median of the repetitions:
//   serial:  one stream in issue order, read-modify-write epilogue (what `--leaf kernel` runs);
//   ordered: rounds of products with disjoint targets, each product of a round on its own stream,
//            a round waiting for the one before (stage 2: {M1, M4} then {M2, M3}), read-modify-write;
//   atomic:  every product of the stage on its own stream at once, atomicAdd epilogue (the seed's);
//   racy:    as atomic with the read-modify-write epilogue (what the ordering prevents): its wrong
//            cells, counted against serial, show the race (it may or may not strike in a run).
// Inputs are small integers, so every order of the sums is exact: serial, ordered and atomic must
// agree bit for bit, and any cell that differs lost an update. CUDA: cuda/shared_target_products.cu.
#pragma once

#include "gigacheck/types.hpp"

#include <cstdint>
#include <vector>

namespace gigacheck::strassen {

struct SharedTargetTiming {
    std::int64_t n = 0;  // the level's size: A, B, C are n x n, the products (n/2)^3
    Precision precision = Precision::F32;
    int stage = 0;     // msmes stage (2 or 5)
    int products = 0;  // products in the stage
    int rounds = 0;    // rounds of the ordered way
    double serialSeconds = 0, orderedSeconds = 0, atomicSeconds = 0, racySeconds = 0;
    bool orderedExact = false, atomicExact = false;  // equal to serial bit for bit
    std::int64_t racyWrongCells = 0;                 // cells of C the racy way got wrong (last repetition)
};

// Both product stages of msmes at size n on the given CUDA device. Throws BackendError without CUDA.
std::vector<SharedTargetTiming> measureSharedTargetProducts(int device, std::int64_t n, Precision precision,
                                                            int repetitions);

}  // namespace gigacheck::strassen
