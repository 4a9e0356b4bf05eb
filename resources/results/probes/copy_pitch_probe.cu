// Why the host link slows down under load (issue 13 item 3): H2D rate of the out-of-core block
// copies (rows x width out of a host matrix of a given pitch), back to back, alone and beside
// cuBLAS SGEMMs of 3277^3 on another stream. Build and run on the device:
//   nvcc -O2 -arch=sm_90 resources/results/probes/copy_pitch_probe.cu -lcublas -o /tmp/p && /tmp/p
// Output on the H200: copy_pitch_probe_output_H200.txt.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
int main() {
  const size_t hostBytes = size_t(1) << 30;  // one 16384^2 FP32 matrix
  char* host; cudaHostAlloc((void**)&host, hostBytes, cudaHostAllocDefault);
  char* dev; cudaMalloc(&dev, size_t(256) << 20);
  const int n = 3277;
  float *a, *b, *c; cudaMalloc(&a, sizeof(float) * n * n); cudaMalloc(&b, sizeof(float) * n * n); cudaMalloc(&c, sizeof(float) * n * n);
  cudaMemset(a, 0, sizeof(float) * n * n); cudaMemset(b, 0, sizeof(float) * n * n);
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t cs, gs; cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking); cudaStreamCreateWithFlags(&gs, cudaStreamNonBlocking);
  cublasSetStream(h, gs);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const float one = 1, zero = 0;
  struct Case { size_t width, pitch, rows; const char* what; };
  const Case cases[] = {{13108, 65536, 3277, "s3 16384/256MiB A,B block"}, {6556, 65536, 5462, "s2 A block"}, {21848, 65536, 1639, "s2 B block"},
                        {13108, 26216, 3277, "13 KB rows, pitch 2x"}, {43692, 131072, 4096, "44 KB rows (32768 / 4 GiB blocks)"}};
  printf("%-34s %8s %8s %6s  alone GB/s  beside GEMM GB/s\n", "case", "width", "pitch", "rows");
  for (const Case& k : cases) {
    const size_t rows = std::min(k.rows, hostBytes / k.pitch);
    const size_t dpitch = (k.width + 127) / 128 * 128;
    double rate[2];
    for (int loaded = 0; loaded < 2; ++loaded) {
      if (loaded) for (int i = 0; i < 40; ++i) cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
      cudaEventRecord(e0, cs);
      for (int r = 0; r < 10; ++r)
        cudaMemcpy2DAsync(dev, dpitch, host + (r % 4) * k.width, k.pitch, k.width, rows, cudaMemcpyHostToDevice, cs);
      cudaEventRecord(e1, cs); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      rate[loaded] = 10.0 * rows * k.width / (ms * 1e6);
      cudaDeviceSynchronize();
    }
    printf("%-34s %8zu %8zu %6zu  %10.1f  %16.1f\n", k.what, k.width, k.pitch, rows, rate[0], rate[1]);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
