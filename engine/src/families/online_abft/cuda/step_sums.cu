// The device side of the checks on the step-sums kernel's sums (see step_sums.hpp).
#include "families/online_abft/cuda/step_sums.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::online_abft::cuda {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::Index;
using gigacheck::cuda::VerifyOut;

namespace {

// Slot layout (inputs.hpp stepChecksumsWidth): C's checksum column and corner [0, rows], its
// checksum row [rows + 1, rows + cols], the row bounds [rows + cols + 1, 2 rows + cols + 1], the
// column bounds [2 rows + cols + 2, 2 rows + 2 cols + 2].
__global__ void saveChecksumsKernel(const float* c, Index ldc, Index rows, Index cols, AuxView aux, double* saved)
{
    const Index width = 2 * (rows + cols) + 3;
    for (Index e = Index(blockIdx.x) * blockDim.x + threadIdx.x; e < width; e += Index(gridDim.x) * blockDim.x) {
        if (e <= rows)
            saved[e] = c[e * ldc + cols];
        else if (e <= rows + cols)
            saved[e] = c[rows * ldc + (e - rows - 1)];
        else if (e <= 2 * rows + cols + 1)
            saved[e] = aux.rowScale()[e - rows - cols - 1];
        else
            saved[e] = aux.colScale()[e - 2 * rows - cols - 2];
    }
}

__global__ void loadStepKernel(const double* step, const double* saved, float* c, Index ldc, Index rows, Index cols,
                               AuxView aux)
{
    double* rowSums = aux.scratch0();
    double* colSums = aux.scratch1();
    const Index width = 2 * (rows + cols) + 3;
    for (Index e = Index(blockIdx.x) * blockDim.x + threadIdx.x; e < width; e += Index(gridDim.x) * blockDim.x) {
        if (e < rows)
            rowSums[e] = step[e];
        else if (e < rows + cols)
            colSums[e - rows] = step[e];
        else if (e == rows + cols) {  // the entries after the sums, as zeroProductSums leaves them
            rowSums[rows] = 0;
            colSums[cols] = 0;
        }
        if (e <= rows)
            c[e * ldc + cols] = float(saved[e]);
        else if (e <= rows + cols)
            c[rows * ldc + (e - rows - 1)] = float(saved[e]);
        else if (e <= 2 * rows + cols + 1)
            aux.rowScale()[e - rows - cols - 1] = saved[e];
        else
            aux.colScale()[e - 2 * rows - cols - 2] = saved[e];
    }
}

unsigned blocksOver(Index n) { return unsigned(n / 256 + 1 < 1024 ? n / 256 + 1 : 1024); }

// One block: a check corrects few cells (at most kMaxListed).
__global__ void carryCorrectionsKernel(const VerifyOut* out, double* later, int laterSteps, Index rows, Index cols)
{
    const int count = out->correctionCount < gigacheck::cuda::kMaxListed ? out->correctionCount
                                                                         : gigacheck::cuda::kMaxListed;
    for (int n = 0; n < count; ++n) {
        if (out->direction[n] == 2)  // a checksum cell: not in C's sums
            continue;
        const double change = out->after[n] - out->before[n];
        for (int s = threadIdx.x; s < laterSteps; s += blockDim.x) {
            double* sums = later + Index(s) * (rows + cols);
            sums[out->corrRow[n]] += change;
            sums[rows + out->corrCol[n]] += change;
        }
    }
}

}  // namespace

void saveChecksums(const float* c, Index ldc, Index rows, Index cols, AuxView aux, double* saved, cudaStream_t s)
{
    saveChecksumsKernel<<<blocksOver(2 * (rows + cols) + 3), 256, 0, s>>>(c, ldc, rows, cols, aux, saved);
    CUDA_CHECK_LAUNCH();
}

void loadStep(const double* step, const double* saved, float* c, Index ldc, Index rows, Index cols, AuxView aux,
              cudaStream_t s)
{
    loadStepKernel<<<blocksOver(2 * (rows + cols) + 3), 256, 0, s>>>(step, saved, c, ldc, rows, cols, aux);
    CUDA_CHECK_LAUNCH();
}

void carryCorrections(const VerifyOut* out, double* later, int laterSteps, Index rows, Index cols, cudaStream_t s)
{
    if (laterSteps <= 0)
        return;
    carryCorrectionsKernel<<<1, 128, 0, s>>>(out, later, laterSteps, rows, cols);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::online_abft::cuda
