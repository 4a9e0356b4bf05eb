// Line sums of an operand block copy in double (operand_sums.hpp): one read of the block, before
// its encoding; the comparison with the entry checksums happens on the host once the op is done.
#include "families/blocked_gemm/cuda/operand_sums.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::blocked_gemm {

namespace {

constexpr int kTile = 32;  // columns per thread block; as many row groups

// Column c of the block: row group ty sums rows ty, ty + 32, ...; coalesced 32 columns a row.
template <class T>
__global__ void columnSumsKernel(const T* m, std::int64_t rows, std::int64_t cols, std::int64_t ld, double* out)
{
    __shared__ double partial[kTile][kTile + 1];
    const std::int64_t c = std::int64_t(blockIdx.x) * kTile + threadIdx.x;
    double s = 0;
    if (c < cols)
        for (std::int64_t r = threadIdx.y; r < rows; r += kTile)
            s += double(m[r * ld + c]);
    partial[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        double total = 0;
        for (int g = 0; g < kTile; ++g)
            total += partial[g][threadIdx.x];
        out[c] = total;
    }
}

// One warp per row: the lanes stride along it, then a shuffle reduction.
template <class T>
__global__ void rowSumsKernel(const T* m, std::int64_t rows, std::int64_t cols, std::int64_t ld, double* out)
{
    const std::int64_t r = std::int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = int(threadIdx.x % 32);
    if (r >= rows)
        return;
    const T* row = m + r * ld;
    double s = 0;
    for (std::int64_t c = lane; c < cols; c += 32)
        s += double(row[c]);
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0)
        out[r] = s;
}

}  // namespace

void operandColumnSums(Precision p, const void* block, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                       double* out, cudaStream_t s)
{
    if (cols <= 0)
        return;
    const dim3 threads(kTile, kTile), grid(unsigned((cols + kTile - 1) / kTile));
    if (p == Precision::F64)
        columnSumsKernel<<<grid, threads, 0, s>>>(static_cast<const double*>(block), rows, cols, ld, out);
    else
        columnSumsKernel<<<grid, threads, 0, s>>>(static_cast<const float*>(block), rows, cols, ld, out);
    CUDA_CHECK_LAUNCH();
}

void operandRowSums(Precision p, const void* block, std::int64_t rows, std::int64_t cols, std::int64_t ld, double* out,
                    cudaStream_t s)
{
    if (rows <= 0)
        return;
    constexpr int kWarps = 8;
    const unsigned grid = unsigned((rows + kWarps - 1) / kWarps);
    if (p == Precision::F64)
        rowSumsKernel<<<grid, kWarps * 32, 0, s>>>(static_cast<const double*>(block), rows, cols, ld, out);
    else
        rowSumsKernel<<<grid, kWarps * 32, 0, s>>>(static_cast<const float*>(block), rows, cols, ld, out);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::blocked_gemm
