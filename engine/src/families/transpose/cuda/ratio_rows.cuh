// The ratio decomposition's row pass on one row of k·side 4-byte elements, 16-byte accesses,
// through a line of shared memory: used by the row-pass kernel (ratio_decomposition.cu) and by the
// pipelined kernel (ratio_pipeline.cu). Tall rows gather each output position from sourceInRow,
// wide ones scatter on the way in and write back in order, so the global side is always one
// coalesced read and one coalesced write of the row. Loads bypass L1 (another SM may have written
// the row since this SM last saw it); Streaming stores evict first (the two-kernel path), the others
// stay in L2 (the pipelined path squares the row soon after).
#pragma once

#include "core/cuda/vector16.cuh"
#include "families/transpose/ratio_decomposition.hpp"

#include <cstdint>

namespace gigacheck::transpose::kernels {

using cuda::component;
using cuda::kPerVector;
using cuda::setComponent;
using cuda::Vec16;

// row and line 16-byte aligned, K·side a multiple of 4; every thread of the block calls it.
// Threads: the block size where known at compile time (the pipelined kernel: 8 loads in flight
// per thread without a bound per step, measured 52 % against 43 % of a copy at 16384 x 8192), 0
// for blockDim.x (the row kernel: a known stride of 512 unrolled to 128 registers and ran slower).
template <class T, int K, bool Tall, bool Streaming, int Threads>
__device__ __forceinline__ void permuteRowVectors(T* row, std::int64_t side, T* line)
{
    const std::int64_t stride = Threads ? Threads : blockDim.x;
    using V = typename Vec16<T>::type;
    const std::int64_t quads = K * side / 4;
    auto store = [](V* to, const V& v) {
        if constexpr (Streaming)
            __stcs(to, v);
        else
            __stcg(to, v);
    };
    if constexpr (Tall) {
#pragma unroll 8
        for (std::int64_t q = threadIdx.x; q < quads; q += stride)
            reinterpret_cast<V*>(line)[q] = __ldcg(reinterpret_cast<const V*>(row) + q);
        __syncthreads();
        for (std::int64_t q = threadIdx.x; q < quads; q += stride) {
            const std::int64_t p = 4 * q;
            V o;
            o.x = line[ratio::sourceInRow(p, K, side)];
            o.y = line[ratio::sourceInRow(p + 1, K, side)];
            o.z = line[ratio::sourceInRow(p + 2, K, side)];
            o.w = line[ratio::sourceInRow(p + 3, K, side)];
            store(reinterpret_cast<V*>(row) + q, o);
        }
    } else {
#pragma unroll 8
        for (std::int64_t q = threadIdx.x; q < quads; q += stride) {
            const std::int64_t p = 4 * q;
            const V v = __ldcg(reinterpret_cast<const V*>(row) + q);
            line[ratio::sourceInRow(p, K, side)] = v.x;
            line[ratio::sourceInRow(p + 1, K, side)] = v.y;
            line[ratio::sourceInRow(p + 2, K, side)] = v.z;
            line[ratio::sourceInRow(p + 3, K, side)] = v.w;
        }
        __syncthreads();
        for (std::int64_t q = threadIdx.x; q < quads; q += stride)
            store(reinterpret_cast<V*>(row) + q, reinterpret_cast<const V*>(line)[q]);
    }
}

}  // namespace gigacheck::transpose::kernels
