// Rectangular in place in two passes where one side is 2 or 4 times the other
// (../ratio_decomposition.hpp):
//
//   row pass (rowPassKernel): one row of k·side elements per block, read whole into shared memory
//     (16-byte loads where aligned), written back permuted: tall matrices gather each output
//     position from sourceInRow, wide ones scatter on the way in and write back in order, so the
//     global side is always one coalesced read and one coalesced write of the row;
//   square pass (kernels.cu, launchSquareInPlace): the side x side matrix of k-element vectors, a
//     vector being one 8-byte (k = 2) or 16-byte (k = 4) element of the tile-pair kernel.
//
// Tall: row pass, then square pass; wide: square pass, then row pass. Two reads and two writes of
// the matrix in all (C2R: three where gcd(m, n) > 1). Where the row fits the shared memory and the
// side is whole bands, ratio_pipeline.cu runs both passes interleaved in one kernel instead (half
// the matrix then moves through L2 between the passes).
#include "families/transpose/cuda/ratio_decomposition.cuh"

#include "core/cuda/check.hpp"
#include "families/transpose/cuda/kernels.cuh"
#include "families/transpose/cuda/ratio_pipeline.cuh"
#include "families/transpose/cuda/ratio_rows.cuh"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace gigacheck::transpose::kernels {

namespace {

// One row at a time per block (grid-striding over rows). K and Tall at compile time: the row
// permutation's divisions are shifts.
template <class T, int K, bool Tall>
__global__ void __launch_bounds__(kRatioRowThreads) rowPassKernel(T* __restrict__ x, std::int64_t side, bool vector, T* scratch)
{
    extern __shared__ __align__(16) unsigned char ratioShared[];
    const std::int64_t length = K * side;
    T* line = scratch ? scratch + std::int64_t(blockIdx.x) * length : reinterpret_cast<T*>(ratioShared);
    for (std::int64_t a = blockIdx.x; a < side; a += gridDim.x) {
        T* row = x + a * length;
        if (vector) {  // length % 4 == 0, row and line 16-byte aligned
            permuteRowVectors<T, K, Tall, true, 0>(row, side, line);
        } else {
            if constexpr (Tall) {
                for (std::int64_t p = threadIdx.x; p < length; p += blockDim.x)
                    line[p] = row[p];
                __syncthreads();
                for (std::int64_t p = threadIdx.x; p < length; p += blockDim.x)
                    row[p] = line[ratio::sourceInRow(p, K, side)];
            } else {
                for (std::int64_t p = threadIdx.x; p < length; p += blockDim.x)
                    line[ratio::sourceInRow(p, K, side)] = row[p];
                __syncthreads();
                for (std::int64_t p = threadIdx.x; p < length; p += blockDim.x)
                    row[p] = line[p];
            }
        }
        __syncthreads();
    }
}

template <class T, int K, bool Tall> void launchRows(T* x, const RatioConfig& cfg, T* scratch, cudaStream_t st)
{
    T* rowScratch = cfg.rowSharedBytes ? nullptr : scratch;
    const bool vector = cfg.shape.rowLength() % 4 == 0 && reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
                        reinterpret_cast<std::uintptr_t>(rowScratch) % 16 == 0;
    auto kernel = rowPassKernel<T, K, Tall>;
    if (cfg.rowSharedBytes > 48 * 1024)
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(cfg.rowSharedBytes)));
    kernel<<<unsigned(cfg.rowGrid), kRatioRowThreads, cfg.rowSharedBytes, st>>>(x, cfg.shape.side, vector, rowScratch);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchRowPass(T* x, const RatioConfig& cfg, T* scratch, cudaStream_t st)
{
    const bool tall = cfg.shape.tall;
    if (cfg.shape.k == 2)
        tall ? launchRows<T, 2, true>(x, cfg, scratch, st) : launchRows<T, 2, false>(x, cfg, scratch, st);
    else
        tall ? launchRows<T, 4, true>(x, cfg, scratch, st) : launchRows<T, 4, false>(x, cfg, scratch, st);
}

// The k-element vectors as one element of the square kernel (bit patterns only, never arithmetic).
template <class T> void launchSquarePass(T* x, const RatioConfig& cfg, cudaStream_t st)
{
    static_assert(sizeof(T) == 4);
    if (cfg.shape.k == 2)
        launchSquareInPlace(reinterpret_cast<unsigned long long*>(x), cfg.shape.side, st);
    else
        launchSquareInPlace(reinterpret_cast<uint4*>(x), cfg.shape.side, st);
}

}  // namespace

template <class T> RatioConfig ratioConfig(std::int64_t m, std::int64_t n)
{
    constexpr std::int64_t eb = 4;  // int32 / float32
    RatioConfig cfg;
    cfg.shape = ratio::shapeOf(m, n);
    if (!cfg.shape.applies())
        return cfg;
    int device = 0, optin = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const std::int64_t budget = std::max<std::int64_t>(optin, 48 * 1024);
    const std::int64_t rowBytes = cfg.shape.rowLength() * eb;
    const char* forced = std::getenv("GIGACHECK_TRANSPOSE_ROW_SCRATCH");
    if (rowBytes <= budget && !(forced && std::string_view(forced) == "1")) {
        cfg.rowSharedBytes = std::size_t(rowBytes);
        cfg.rowGrid = std::min<std::int64_t>(cfg.shape.side, 0x7fffffff);
        // The pipeline pays where the matrix exceeds the L2 (about twice): below, the two kernels'
        // second pass already reads from L2 (1024 x 2048: two kernels 58.7 % of a copy, pipelined
        // 32 %; 16384 x 8192: 46.8 against 51.3 %, H200). GIGACHECK_TRANSPOSE_RATIO_PIPELINE=1 / 0
        // forces it on / off (the tests run both at small sizes).
        int l2 = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        const double bytes = double(m) * double(n) * double(eb);
        const char* pipeline = std::getenv("GIGACHECK_TRANSPOSE_RATIO_PIPELINE");
        const bool wanted = pipeline ? std::string_view(pipeline) != "0" : bytes > 2.0 * double(l2);
        cfg.pipelined = wanted && pipelineApplies(cfg.shape, cfg.rowSharedBytes);
        if (cfg.pipelined)
            configureRatioPipeline<T>(cfg);
    } else {
        cfg.rowGrid = std::min(cfg.shape.side, 2 * std::int64_t(std::max(sms, 1)));  // one slot per block, 2 blocks per SM
    }
    return cfg;
}

template <class T> void launchRatioDecomposition(T* x, const RatioConfig& cfg, T* scratch, cudaStream_t st)
{
    if (!cfg.shape.applies())
        return;
    if (cfg.pipelined && reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && scratch) {
        launchRatioPipeline(x, cfg, reinterpret_cast<unsigned*>(scratch), st);
        return;
    }
    if (cfg.shape.tall) {
        launchRowPass(x, cfg, scratch, st);
        launchSquarePass(x, cfg, st);
    } else {
        launchSquarePass(x, cfg, st);
        launchRowPass(x, cfg, scratch, st);
    }
}

template RatioConfig ratioConfig<float>(std::int64_t, std::int64_t);
template RatioConfig ratioConfig<std::int32_t>(std::int64_t, std::int64_t);
template void launchRatioDecomposition<float>(float*, const RatioConfig&, float*, cudaStream_t);
template void launchRatioDecomposition<std::int32_t>(std::int32_t*, const RatioConfig&, std::int32_t*, cudaStream_t);

}  // namespace gigacheck::transpose::kernels
