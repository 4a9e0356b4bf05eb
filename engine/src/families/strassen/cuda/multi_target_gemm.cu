// Main loop: the register-tiled loop the blocked GEMM family's optimized kernel runs too
// (core/cuda/gemm_tile.cuh: 128 x 128 block tile, 8 x 8 register tile per thread, 16-byte loads,
// double-buffered shared memory), with the seed's epilogue: the accumulators go to every target
// with its sign.
#include "families/strassen/cuda/multi_target_gemm.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/gemm_tile.cuh"
#include "gemm/cuda/tile_epilogue.cuh"

namespace gigacheck::strassen::device {

namespace {

using Index = std::int64_t;
using cuda::tile::kBM;
using cuda::tile::kBN;

template <class T, int BK, bool VEC, bool ATOMIC>
__global__ void __launch_bounds__(cuda::tile::kThreads, sizeof(T) == 4 ? 2 : 1)
    multiTargetKernel(Index m, Index n, Index q, const T* __restrict__ a, Index lda, const T* __restrict__ b, Index ldb,
                      const Targets<T> targets)
{
    const Index m0 = Index(blockIdx.y) * kBM, q0 = Index(blockIdx.x) * kBN;
    T acc[8][8];
    cuda::tile::tileProduct<T, BK, VEC>(m, n, q, a, lda, b, ldb, m0, q0, acc);
    // The seed's epilogue: C_l += M; C_m -= M; ... from the same accumulators.
    for (int t = 0; t < targets.count; ++t) {
        T* c = targets.c[t];
        const Index ldc = targets.ldc[t];
        const T sign = targets.sign[t];
        cuda::tile::forEachTileCell(m, q, m0, q0, acc, [&](Index r, Index col, T v) {
            if constexpr (ATOMIC)
                atomicAdd(c + r * ldc + col, sign * v);
            else
                c[r * ldc + col] += sign * v;
        });
    }
}

unsigned blocks(Index extent, Index per) { return unsigned((extent + per - 1) / per); }

}  // namespace

template <class T>
void launchMultiTargetGemm(std::int64_t m, std::int64_t n, std::int64_t q, const T* a, std::int64_t lda, const T* b,
                           std::int64_t ldb, const Targets<T>& targets, cudaStream_t s, Epilogue epilogue)
{
    if (m <= 0 || q <= 0 || targets.count == 0)
        return;
    const dim3 grid(blocks(q, kBN), blocks(m, kBM));
    const bool vec = cuda::tile::vectorizable(a, lda, b, ldb);
    // BK as the blocked GEMM family chose: 16 for FP32, 8 for FP64 (48 KB static shared memory).
    constexpr int bk = sizeof(T) == 4 ? 16 : 8;
    const bool atomic = epilogue == Epilogue::Atomic;
    if (vec && !atomic)
        multiTargetKernel<T, bk, true, false><<<grid, 256, 0, s>>>(m, n, q, a, lda, b, ldb, targets);
    else if (!atomic)
        multiTargetKernel<T, bk, false, false><<<grid, 256, 0, s>>>(m, n, q, a, lda, b, ldb, targets);
    else if (vec)
        multiTargetKernel<T, bk, true, true><<<grid, 256, 0, s>>>(m, n, q, a, lda, b, ldb, targets);
    else
        multiTargetKernel<T, bk, false, true><<<grid, 256, 0, s>>>(m, n, q, a, lda, b, ldb, targets);
    CUDA_CHECK(cudaGetLastError());
}

void loadMultiTargetKernels()
{
    cudaFuncAttributes attributes;
    // The read-modify-write epilogue only: the atomic one serves the bench's comparison, which
    // loads it with an untimed pass of its own.
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, multiTargetKernel<float, 16, true, false>));
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, multiTargetKernel<float, 16, false, false>));
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, multiTargetKernel<double, 8, true, false>));
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, multiTargetKernel<double, 8, false, false>));
}

template void launchMultiTargetGemm<float>(std::int64_t, std::int64_t, std::int64_t, const float*, std::int64_t,
                                           const float*, std::int64_t, const Targets<float>&, cudaStream_t, Epilogue);
template void launchMultiTargetGemm<double>(std::int64_t, std::int64_t, std::int64_t, const double*, std::int64_t,
                                            const double*, std::int64_t, const Targets<double>&, cudaStream_t, Epilogue);

}  // namespace gigacheck::strassen::device
