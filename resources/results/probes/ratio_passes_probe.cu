// Per-pass times of the ratio decomposition (cuda/ratio_decomposition.cu) against a device copy of
// the same bytes, in one process: which of the two passes costs what, and how far from the bound of
// two copies (50 %) they sit. Build and run on the device from the repository root:
//   nvcc -std=c++20 -O2 -arch=sm_90 -I engine/src -I engine/include \
//     resources/results/probes/ratio_passes_probe.cu -o /tmp/ratio_probe && /tmp/ratio_probe
// Output on the H200 at 91b6c0d: ratio_passes_probe_output_H200.txt.
#include "families/transpose/cuda/kernels.cu"
#include "families/transpose/cuda/ratio_decomposition.cu"
#include <cstdio>
#include <stdexcept>
namespace gigacheck::cuda {
void throwCudaError(cudaError_t code, const char* call, const char* file, int line) { fprintf(stderr, "%s %s %d: %s\n", call, file, line, cudaGetErrorString(code)); throw std::runtime_error("cuda"); }
void throwCublasError(cublasStatus_t, const char*, const char*, int) { throw std::runtime_error("cublas"); }
}
using namespace gigacheck::transpose;
template <class F> float timeIt(F f, int reps = 20) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); cudaDeviceSynchronize();
  float best = 1e9;
  for (int i = 0; i < reps; ++i) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); best = std::min(best, ms); }
  return best;
}
int main() {
  for (auto [m, n] : {std::pair<long, long>{16384, 8192}, {8192, 16384}, {16384, 4096}}) {
    const size_t bytes = size_t(m) * n * 4;
    float *x, *y; cudaMalloc(&x, bytes); cudaMalloc(&y, bytes);
    cudaMemset(x, 1, bytes);
    float copy = timeIt([&] { cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice); });
    auto cfg = kernels::ratioConfig(m, n);
    float rows = timeIt([&] { kernels::launchRowPass(x, cfg, (float*)nullptr, 0); });
    float square = timeIt([&] { kernels::launchSquarePass(x, cfg, 0); });
    float both = timeIt([&] { kernels::launchRatioDecomposition(x, cfg, (float*)nullptr, 0); });
    float sq4 = 0;
    if (m == 16384 && n == 8192) { sq4 = timeIt([&] { kernels::launchSquareInPlace(x, 8192, 0); }); }
    printf("%ldx%ld copy %.4f ms | row pass %.4f (%.1f%% of copy) | square pass %.4f (%.1f%%) | both %.4f (%.1f%% of copy, 2 passes bound 50) | 4-byte square 8192^2 (half the bytes) %.4f\n",
           m, n, copy, rows, 100 * copy / rows, square, 100 * copy / square, both, 100 * copy / both, sq4);
    cudaFree(x); cudaFree(y);
  }
}
