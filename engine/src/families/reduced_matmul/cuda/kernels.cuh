// The GPU reduced matmul kernels (the reduced-matmul chapter's section 4.3), launch configurations beside them.
// A, B n x n row-major; C (n/2) x (n/2).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::reduced_matmul::kernels {

inline constexpr int kNaiveThreads = 1024;  // seed figure 4.1: a 1D grid of 1024-thread blocks

// One thread per C element, 4 products per k.
template <class T> void launchNaive4p(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s);
// One thread per C element, the pairs summed first: 1 product per k.
template <class T> void launchNaiveP(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s);
// TILE x TILE threads per C tile; each step loads a TILE x 2TILE slab of A and a 2TILE x TILE
// slab of B, summing the pairs into TILE x TILE shared tiles (seed figure 4.3). tile: 8, 16, 32.
template <class T> void launchTiled(int tile, const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s);
// ar (n/2 x n) = row pairs of A summed; br (n x n/2) = column pairs of B summed.
template <class T> void launchReduce(const T* a, const T* b, T* ar, T* br, std::int64_t n, cudaStream_t s);

}  // namespace gigacheck::reduced_matmul::kernels
