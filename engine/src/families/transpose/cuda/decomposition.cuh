// The rectangular in-place transpose on the GPU by the C2R decomposition (decomposition.hpp;
// Catanzaro, Keller, Garland, PPoPP 2014): three passes, each keeping every element inside one
// column or one row, through on-chip scratch (a row, or a strip of whole columns, in shared memory)
// or, when a row or a column does not fit there, a global scratch of a few rows / columns per block.
#pragma once

#include "families/transpose/decomposition.hpp"

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::transpose::kernels {

inline constexpr int kDecompositionThreads = 1024;
inline constexpr int kMaxStripColumns = 32;  // one 128-byte line of float32 per strip row

// How one orientation (m x n) is run: where each pass keeps its scratch and how many blocks run.
struct DecompositionConfig {
    // false: C2R on the m x n grid (m <= n); true: the inverse passes of C2R(n, m) on the memory
    // viewed as n rows of m (m > n). shape is the grid the passes see (shape.m = min(m, n) rows).
    bool inverse = false;
    c2r::Shape shape;
    // Row shuffle: one row per block; in shared memory (rowSharedBytes > 0) or in global scratch
    // (rowGrid slots of n elements).
    std::size_t rowSharedBytes = 0;
    std::int64_t rowGrid = 1;
    // Column passes: a strip of 2^columnLogWidth adjacent whole columns per block; in shared memory
    // (columnSharedBytes > 0) or in global scratch (columnGrid slots of m * width elements).
    int columnLogWidth = 0;
    std::size_t columnSharedBytes = 0;
    std::int64_t columnGrid = 1;
    // Opt-in (GIGACHECK_TRANSPOSE_CLUSTER=1): the column passes through 8-block clusters, a strip of
    // 2^columnLogWidth columns shared by the cluster, 2^clusterLogBand strip rows per block.
    bool cluster = false;
    int clusterLogBand = 0;
    // Elements of global scratch the configuration needs (0: all on chip).
    std::size_t scratchElements() const;
};

// The configuration for an m x n input on the current device (its shared memory per block and SM
// count): C2R or R2C so that columns have min(m, n) elements, the widest strip whose m x width elements fit the shared memory, a row in shared memory
// when n elements fit; else global scratch with one slot per block, 2 blocks per SM.
DecompositionConfig decompositionConfig(std::int64_t m, std::int64_t n);

// Transposes the m x n matrix at x in place (the result n x m); scratch: cfg.scratchElements()
// elements of device memory (may be null when that is 0). Passes 1 (if gcd > 1), 2, 3 on stream s.
template <class T> void launchDecomposition(T* x, const DecompositionConfig& cfg, T* scratch, cudaStream_t s);

}  // namespace gigacheck::transpose::kernels
