#include "gemm/cuda/row_sum_partials.hpp"

#include "abft/cuda/faulted_value.cuh"
#include "core/cuda/check.hpp"
#include "core/cuda/dependent_launch.cuh"

namespace gigacheck::cuda {

namespace {

// A block takes 32 rows of C; its 8 warps split the tiles (each lane's loads independent, so a
// warp keeps several in flight) and add their sums through shared memory in a fixed order.
constexpr int kRowsPerBlock = 32, kTileGroups = 8;

__global__ void __launch_bounds__(kRowsPerBlock * kTileGroups)
    addRowSumPartialsKernel(const float* partials, std::int64_t tiles, std::int64_t splitTile, std::int64_t width,
                            std::int64_t rows, double* rowSums, float* splitSums, std::int64_t splitStride,
                            FaultAsComputed fault, FaultCell at)
{
    // A programmatic dependent of the GEMM that wrote the partials (launchAsDependent): its blocks are
    // placed as the GEMM's last tiles end and wait here until the GEMM has finished and its writes are
    // visible, before any read of the partials, C or its column sums. Then the check after it
    // (decideKernel, a programmatic dependent too) may be placed: its cluster takes SMs these small
    // blocks leave and waits until this kernel has finished. Not before the wait: placed during the
    // GEMM, the check's blocks would hold SMs that the products beside the GEMM still use.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;");
#endif
    __shared__ double part[2][kTileGroups][kRowsPerBlock];
    const int lane = threadIdx.x % kRowsPerBlock, group = threadIdx.x / kRowsPerBlock;
    const std::int64_t i = std::int64_t(blockIdx.x) * kRowsPerBlock + lane;
    // The faulted row's own thread: the cell and its column sum loaded first, under the partials' loads.
    const bool faults = group == 0 && fault.row >= 0 && i == fault.row;
    float* cell = faults ? at.c + fault.row * at.ldc + fault.col : nullptr;
    const float before = faults ? *cell : 0.0f;
    const double colSum = faults ? at.colSums[fault.col] : 0.0;
    double sum = 0, split = 0;
    if (i < rows) {
#pragma unroll 4
        for (std::int64_t t = group; t < splitTile; t += kTileGroups)
            sum += double(partials[t * width + i]);
        for (std::int64_t t = splitTile + group; t < tiles; t += kTileGroups)
            split += double(partials[t * width + i]);
    }
    part[0][group][lane] = sum;
    part[1][group][lane] = split;
    __syncthreads();
    if (group == 0 && i < rows) {
        double total = 0, splitTotal = 0;
#pragma unroll
        for (int g = 0; g < kTileGroups; ++g) {
            total += part[0][g][lane];
            splitTotal += part[1][g][lane];
        }
        if (faults) {
            const float after = faulted(before, fault);
            *cell = after;
            const double change = double(after) - double(before);
            total += change;
            at.colSums[fault.col] = colSum + change;
            fault.beforeAfter[0] = double(before);
            fault.beforeAfter[1] = double(after);
        }
        rowSums[i] += total;
        if (splitSums)
            splitSums[i * splitStride] = float(splitTotal);
    }
}

// A block per kRowsPerBlock rows of C.
dim3 gridFor(std::int64_t rows) { return dim3(unsigned((rows + kRowsPerBlock - 1) / kRowsPerBlock)); }

}  // namespace

void addRowSumPartials(const float* partials, std::int64_t tiles, std::int64_t width, std::int64_t rows,
                       double* rowSums, cudaStream_t s, const FaultAsComputed& fault, FaultCell at)
{
    if (rows <= 0 || tiles <= 0)
        return;
    // A programmatic dependent of the GEMM before it (the 16-bit kernels let dependents launch once
    // their last tiles' products are done: CUTLASS_ENABLE_GDC_FOR_SM90), so that its blocks are placed
    // as the GEMM's last tiles end, not launched after the GEMM's end.
    launchAsDependent(gridFor(rows), dim3(kRowsPerBlock * kTileGroups), addRowSumPartialsKernel, s, partials, tiles,
                      tiles, width, rows, rowSums, static_cast<float*>(nullptr), std::int64_t(0), fault, at);
}

void addRowSumPartialsSplit(const float* partials, std::int64_t tiles, std::int64_t splitTile, std::int64_t width,
                            std::int64_t rows, double* rowSums, float* splitSums, std::int64_t splitStride,
                            cudaStream_t s, const FaultAsComputed& fault, FaultCell at)
{
    if (rows <= 0 || tiles <= 0)
        return;
    launchAsDependent(gridFor(rows), dim3(kRowsPerBlock * kTileGroups), addRowSumPartialsKernel, s, partials, tiles,
                      splitTile, width, rows, rowSums, splitSums, splitStride, fault, at);
}

}  // namespace gigacheck::cuda
