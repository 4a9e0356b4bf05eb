// The GPU transpose kernels (the transpose paper's section 4 and beyond). Each names what it computes; its
// launch configuration sits beside it. Row-major throughout; the result of an m x n input is n x m.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::transpose::kernels {

inline constexpr int kTile = 32;        // 32 x 32 tiles: one warp spans a tile row
inline constexpr int kTileRows = 8;     // 32 x 8 threads, 4 tile rows each
inline constexpr int kSeedThreadsX = 8;   // seed section 5.2: thread block 8 x 32
inline constexpr int kSeedThreadsY = 32;
inline constexpr int kPaddedTile = 64;     // padded, 16-byte path: a 64 x 64 tile per block
inline constexpr int kPairTile = 64;       // inplace square, 16-byte path: 64 x 64 tile pairs

// Whether the padded kernel's 16-byte path applies (row lengths keep every row 16-byte aligned; the
// launchers also check the pointers and fall back to the scalar kernels otherwise).
inline bool paddedUsesVectors(std::int64_t m, std::int64_t n) { return m % 4 == 0 && n % 4 == 0; }

// "naive": one thread per element; the thread above the diagonal swaps X(r, c) and X(c, r).
// Row reads are coalesced, the mirror's are strided by n (one sector per thread).
template <class T> void launchNaiveInPlace(T* x, std::int64_t n, cudaStream_t s);

// "coalesced": seed Algorithm 3 as written: 8 x 32 threads, both symmetric 32 x 32 tiles of a
// pair through (unpadded) shared memory, the full n/32 x n/32 grid with the blocks below the
// diagonal returning at once.
template <class T> void launchSeedCoalesced(T* x, std::int64_t n, cudaStream_t s);

// "inplace", square, scalar path (n % 4 != 0): one block per tile pair (i <= j, a triangular grid, no idle blocks),
// 32 x 8 threads, padded shared tiles (no bank conflicts), 8 loads in flight per thread before
// the first store. Works on the `tiles` g x g squares of an ld-strided matrix laid out as a grid
// with `tilesPerRow` per row (the square case: one tile, g = ld = n).
template <class T>
void launchTilePairSwap(T* x, std::int64_t g, std::int64_t ld, std::int64_t tiles, std::int64_t tilesPerRow, cudaStream_t s);

// "padded": out of place, any m x n. 16-byte path (m, n multiples of 4): 64 x 64 tiles through a
// 64 x 65 shared tile, streaming stores; else the scalar 32 x 33 tile, 32 x 8 threads.
template <class T> void launchPadded(const T* in, T* out, std::int64_t m, std::int64_t n, cudaStream_t s);

// "inplace", square n x n: the 16-byte tile-pair kernel (64 x 64 tiles of 4-byte elements) where
// n % 4 == 0, else launchTilePairSwap. Also instantiated for 8-byte (unsigned long long) and
// 16-byte (uint4) elements: the ratio decomposition's square pass of 2- and 4-element vectors
// (32 x 32 and 16 x 16 tiles, 256-byte tile rows all the same; the 16-byte path where n is a
// multiple of 2 / 1). (Rectangular in place: cuda/decomposition.cuh, cuda/ratio_decomposition.cuh.)
template <class T> void launchSquareInPlace(T* x, std::int64_t n, cudaStream_t s);

}  // namespace gigacheck::transpose::kernels
