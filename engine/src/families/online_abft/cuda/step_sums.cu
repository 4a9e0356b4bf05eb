// The device side of the checks on the step-sums kernel's sums (see step_sums.hpp).
#include "families/online_abft/cuda/step_sums.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::online_abft::cuda {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::Index;

namespace {

// One thread per entry of a step's lines (rows + cols + 1) and bounds (rows + cols + 2). The first
// slot is read only: a step already summed up (a check may be reading it) or the first step.
__global__ void sumStepsKernel(float* lines, Index ldLines, double* bounds, Index ldBounds, Index rows, Index cols,
                               int steps)
{
    const Index e = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e < rows + cols + 1) {
        double sum = double(lines[e]);
        for (int p = 1; p < steps; ++p) {
            sum += double(lines[p * ldLines + e]);
            lines[p * ldLines + e] = float(sum);
        }
    }
    if (e < rows + cols + 2) {
        double sum = bounds[e];
        for (int p = 1; p < steps; ++p) {
            sum += bounds[p * ldBounds + e];
            bounds[p * ldBounds + e] = sum;
        }
    }
}

// Lines: C's checksum column [0, rows), then its row with the corner [rows, rows + cols]; bounds:
// rowScale [0, rows], then colScale [rows + 1, rows + cols + 1].
__global__ void loadStepKernel(const double* sums, const float* lines, const double* bounds, float* c, Index ldc,
                               Index rows, Index cols, AuxView aux)
{
    double* rowSums = aux.scratch0();
    double* colSums = aux.scratch1();
    for (Index e = Index(blockIdx.x) * blockDim.x + threadIdx.x; e < rows + cols + 2; e += Index(gridDim.x) * blockDim.x) {
        if (e < rows)
            rowSums[e] = sums[e];
        else if (e < rows + cols)
            colSums[e - rows] = sums[e];
        else if (e == rows + cols) {  // the entries after the sums, as zeroProductSums leaves them
            rowSums[rows] = 0;
            colSums[cols] = 0;
        }
        if (e < rows)
            c[e * ldc + cols] = lines[e];
        else if (e <= rows + cols)
            c[rows * ldc + (e - rows)] = lines[e];
        if (e <= rows)
            aux.rowScale()[e] = bounds[e];
        else
            aux.colScale()[e - rows - 1] = bounds[e];
    }
}

unsigned blocksOver(Index n) { return unsigned(n / 256 + 1 < 1024 ? n / 256 + 1 : 1024); }

}  // namespace

void sumSteps(float* lines, Index ldLines, double* bounds, Index ldBounds, Index rows, Index cols, int steps,
              cudaStream_t s)
{
    const Index n = rows + cols + 2;
    sumStepsKernel<<<unsigned((n + 255) / 256), 256, 0, s>>>(lines, ldLines, bounds, ldBounds, rows, cols, steps);
    CUDA_CHECK_LAUNCH();
}

void loadStep(const double* sums, const float* lines, const double* bounds, float* c, Index ldc, Index rows,
              Index cols, AuxView aux, cudaStream_t s)
{
    loadStepKernel<<<blocksOver(rows + cols + 2), 256, 0, s>>>(sums, lines, bounds, c, ldc, rows, cols, aux);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::online_abft::cuda
