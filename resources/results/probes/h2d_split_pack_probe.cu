// Issue 13 (the link under load), after host packing (72570c9) measured slower than direct 2D
// copies at 32768 / 256 MiB: is the host's packing rate the limit, and would splitting one block's
// 2D copy over several streams (several copy engines) instead keep the link busy beside a GEMM?
// The s2 blocks of 32768^3 FP32 under 256 MiB: A 4682 x 2341 (9.4 KB rows), B 2341 x 4682
// (18.7 KB rows) out of a 128 KiB-pitch pinned host matrix.
//   nvcc -O2 -arch=sm_90 resources/results/probes/h2d_split_pack_probe.cu -lcublas -o /tmp/sp && /tmp/sp
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static void packRows(char* dst, const char* src, size_t rows, size_t width, size_t pitch, int threads)
{
  std::vector<std::thread> ts;
  const size_t chunk = (rows + threads - 1) / threads;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([=] {
      for (size_t r = t * chunk; r < std::min(rows, (t + 1) * chunk); ++r) std::memcpy(dst + r * width, src + r * pitch, width);
    });
  for (auto& t : ts) t.join();
}

int main() {
  const size_t pitch = 131072, hostRows = 8192, hostBytes = pitch * hostRows;  // 1 GiB of a 32768-wide matrix
  char* host; cudaHostAlloc((void**)&host, hostBytes, cudaHostAllocDefault);
  memset(host, 1, hostBytes);
  char* staging; cudaHostAlloc((void**)&staging, size_t(64) << 20, cudaHostAllocDefault);
  memset(staging, 0, size_t(64) << 20);
  char* dev; cudaMalloc(&dev, size_t(256) << 20);
  const int n = 4682;
  float *a, *b, *c; cudaMalloc(&a, sizeof(float) * n * n); cudaMalloc(&b, sizeof(float) * n * n); cudaMalloc(&c, sizeof(float) * n * n);
  cudaMemset(a, 0, sizeof(float) * n * n); cudaMemset(b, 0, sizeof(float) * n * n);
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t gs; cudaStreamCreateWithFlags(&gs, cudaStreamNonBlocking);
  cudaStream_t cs[4]; for (auto& s : cs) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasSetStream(h, gs);
  cudaEvent_t e0, e1, ej[4]; cudaEventCreate(&e0); cudaEventCreate(&e1); for (auto& e : ej) cudaEventCreate(&e);
  const float one = 1, zero = 0;

  printf("# host packing rate (memcpy of rows into pinned staging), GB/s of block bytes\n");
  struct Block { size_t width, rows; const char* what; };
  const Block blocks[] = {{9364, 4682, "s2 A block 9.4 KB rows"}, {18728, 2341, "s2 B block 18.7 KB rows"}};
  for (const Block& k : blocks)
    for (int threads : {1, 2, 4, 8, 12, 16}) {
      double best = 1e9;
      for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        packRows(staging, host + (rep % 4) * k.width, k.rows, k.width, pitch, threads);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      printf("pack %-26s threads %2d  %6.1f GB/s\n", k.what, threads, k.rows * k.width / best / 1e9);
    }

  printf("# one block's 2D copy split by rows over S streams, alone and beside SGEMMs of %d^3, GB/s\n", n);
  for (const Block& k : blocks)
    for (int split : {1, 2, 4}) {
      double rate[2];
      for (int loaded = 0; loaded < 2; ++loaded) {
        if (loaded) for (int i = 0; i < 60; ++i) cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
        cudaEventRecord(e0, cs[0]);
        for (int s = 1; s < split; ++s) cudaStreamWaitEvent(cs[s], e0);
        const size_t part = (k.rows + split - 1) / split;
        for (int r = 0; r < 10; ++r)
          for (int s = 0; s < split; ++s) {
            const size_t r0 = s * part, nr = std::min(k.rows, r0 + part) - r0;
            cudaMemcpy2DAsync(dev + r0 * k.width, k.width, host + (r % 4) * k.width + r0 * pitch, pitch, k.width, nr,
                              cudaMemcpyHostToDevice, cs[s]);
          }
        for (int s = 1; s < split; ++s) { cudaEventRecord(ej[s], cs[s]); cudaStreamWaitEvent(cs[0], ej[s]); }
        cudaEventRecord(e1, cs[0]); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        rate[loaded] = 10.0 * k.rows * k.width / (ms * 1e6);
        cudaDeviceSynchronize();
      }
      printf("split %-25s streams %d  alone %6.1f  beside GEMM %6.1f\n", k.what, split, rate[0], rate[1]);
    }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
