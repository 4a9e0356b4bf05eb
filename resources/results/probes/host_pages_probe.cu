// Issue 13 (the link under load): does the H2D rate of the out-of-core block copies (narrow rows out
// of a wide row-major host matrix) depend on how the host matrix was pinned? copy_pitch_probe showed
// 13 KB rows at a 64 KiB pitch drop from 47.5 GB/s alone to 31.5 beside SGEMMs, while the same rows
// at a 26 KiB pitch keep 54.8. Hypothesis: address translation of 4 KiB host pages (one page walk per
// row); 2 MiB pages would remove it. Three ways to pin the same 1 GiB, each copy alone and beside
// cuBLAS SGEMMs on another stream:
//   cudaHostAlloc (the engine today), malloc + cudaHostRegister, mmap + MADV_HUGEPAGE + cudaHostRegister.
//   nvcc -O2 -arch=sm_90 resources/results/probes/host_pages_probe.cu -lcublas -o /tmp/hp && /tmp/hp
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static char* pinned(int how, size_t bytes)
{
    void* p = nullptr;
    if (how == 0) {
        cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
    } else if (how == 1) {
        p = std::malloc(bytes);
        std::memset(p, 1, bytes);
        cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    } else {
        const size_t huge = size_t(2) << 20;
        void* m = mmap(nullptr, bytes + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(m) + huge - 1) / huge * huge);
        if (madvise(p, bytes, MADV_HUGEPAGE) != 0) std::printf("madvise failed\n");
        std::memset(p, 1, bytes);
        cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    }
    return static_cast<char*>(p);
}

int main()
{
    const size_t hostBytes = size_t(1) << 30;
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
    const Case cases[] = {{13108, 65536, 3277, "13 KB rows, 64 KiB pitch (s3 16384/256MiB)"}, {6556, 65536, 5462, "6.6 KB rows, 64 KiB pitch (s2 A)"},
                          {18724, 131072, 2341, "18.7 KB rows, 128 KiB pitch (s2 32768)"}, {9364, 131072, 4681, "9.4 KB rows, 128 KiB pitch (s2 32768 A)"},
                          {13108, 26216, 3277, "13 KB rows, 26 KiB pitch"}, {size_t(64) << 20, size_t(64) << 20, 1, "contiguous 64 MiB"}};
    const char* kinds[] = {"cudaHostAlloc", "malloc+register", "THP mmap+register"};
    std::printf("%-44s %-18s  alone GB/s  beside GEMM GB/s\n", "case", "host memory");
    for (int how = 0; how < 3; ++how) {
        char* host = pinned(how, hostBytes);
        if (!host || cudaGetLastError() != cudaSuccess) { std::printf("%s: allocation failed\n", kinds[how]); continue; }
        for (const Case& k : cases) {
            const size_t rows = std::min(k.rows, hostBytes / k.pitch);
            const size_t dpitch = (k.width + 127) / 128 * 128;
            if (dpitch * rows > (size_t(256) << 20)) continue;
            double rate[2];
            for (int loaded = 0; loaded < 2; ++loaded) {
                if (loaded) for (int i = 0; i < 40; ++i) cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
                cudaEventRecord(e0, cs);
                for (int r = 0; r < 10; ++r)
                    cudaMemcpy2DAsync(dev, dpitch, host + (r % 4) * (k.rows == 1 ? 0 : k.width), k.pitch, k.width, rows, cudaMemcpyHostToDevice, cs);
                cudaEventRecord(e1, cs); cudaEventSynchronize(e1);
                float ms; cudaEventElapsedTime(&ms, e0, e1);
                rate[loaded] = 10.0 * rows * k.width / (ms * 1e6);
                cudaDeviceSynchronize();
            }
            std::printf("%-44s %-18s  %10.1f  %16.1f\n", k.what, kinds[how], rate[0], rate[1]);
        }
    }
    std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
