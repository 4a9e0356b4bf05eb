#include "gemm/cuda/operand_transpose.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::cuda {
namespace {

constexpr int kTile = 32;  // a warp's width; the tile's rows are read and written whole
constexpr int kRowsPerPass = 8;

// Through a shared tile, so that both the reads of b and the writes of bt are whole rows of 128
// bytes (the padding column keeps the column reads free of bank conflicts).
__global__ void transposeKernel(const float* b, std::int64_t rows, std::int64_t cols, std::int64_t ldb, float* bt,
                                std::int64_t ldbt)
{
    __shared__ float tile[kTile][kTile + 1];
    const std::int64_t row0 = std::int64_t(blockIdx.y) * kTile, col0 = std::int64_t(blockIdx.x) * kTile;
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
        const std::int64_t i = row0 + r, j = col0 + threadIdx.x;
        if (i < rows && j < cols)
            tile[r][threadIdx.x] = b[i * ldb + j];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
        const std::int64_t j = col0 + r, i = row0 + threadIdx.x;
        if (i < rows && j < cols)
            bt[j * ldbt + i] = tile[threadIdx.x][r];
    }
}

}  // namespace

void transposeOperand(const float* b, std::int64_t rows, std::int64_t cols, std::int64_t ldb, float* bt,
                      std::int64_t ldbt, cudaStream_t s)
{
    if (rows <= 0 || cols <= 0)
        return;
    const dim3 grid(unsigned((cols + kTile - 1) / kTile), unsigned((rows + kTile - 1) / kTile));
    transposeKernel<<<grid, dim3(kTile, kRowsPerPass), 0, s>>>(b, rows, cols, ldb, bt, ldbt);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
