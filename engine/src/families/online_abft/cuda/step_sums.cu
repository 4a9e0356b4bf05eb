// The device side of the checks on the step-sums kernel's sums (see step_sums.hpp).
#include "families/online_abft/cuda/step_sums.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::online_abft::cuda {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::Index;
using gigacheck::cuda::VerifyOut;

namespace {

__global__ void loadStepSumsKernel(const double* step, Index rows, Index cols, double* rowSums, double* colSums)
{
    for (Index e = Index(blockIdx.x) * blockDim.x + threadIdx.x; e <= rows + cols; e += Index(gridDim.x) * blockDim.x) {
        if (e < rows)
            rowSums[e] = step[e];
        else if (e < rows + cols)
            colSums[e - rows] = step[e];
        else {  // the entries after the sums, as zeroProductSums leaves them
            rowSums[rows] = 0;
            colSums[cols] = 0;
        }
    }
}

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

void loadStepSums(const double* step, Index rows, Index cols, AuxView aux, cudaStream_t s)
{
    const Index n = rows + cols + 1;
    const unsigned blocks = unsigned(n / 256 + 1 < 1024 ? n / 256 + 1 : 1024);
    loadStepSumsKernel<<<blocks, 256, 0, s>>>(step, rows, cols, aux.scratch0(), aux.scratch1());
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
