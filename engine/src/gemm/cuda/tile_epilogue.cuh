// The epilogue of the register-tiled GEMM (core/cuda/gemm_tile.cuh): every accumulator of this
// thread's 8 x 8 register tile handed to store(row, col, value), cells outside m x q skipped. The
// GEMM layer's optimized kernel stores C (+)= the tile with it; Strassen's multi-target kernel
// adds the tile to each target with its sign.
#pragma once

#include "core/cuda/gemm_tile.cuh"

namespace gigacheck::cuda::tile {

// The thread's cells: rows ty * 4 + i and 64 + ty * 4 + i of the block tile at (m0, q0), columns
// tx * 4 + j and 64 + tx * 4 + j (tileProduct's layout; tx, ty: the thread's place in 16 x 16).
template <class T, class Store>
__device__ __forceinline__ void forEachTileCell(Index m, Index q, Index m0, Index q0, const T (&acc)[8][8], Store&& store)
{
    const int tx = int(threadIdx.x) % 16, ty = int(threadIdx.x) / 16;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const Index r = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (r >= m)
            continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const Index col = q0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
            if (col < q)
                store(r, col, acc[i][j]);
        }
    }
}

}  // namespace gigacheck::cuda::tile
