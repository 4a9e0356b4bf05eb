// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 copy_after_idle_probe.cu -lcublas -o probe && ./probe
// Issue 13 (predicted within 10 %): s1's block loads under 256 MiB run at ~0.73 of the rate the
// cost model's table gives them, and a calibration that copies the run's own loads twice back to
// back finds the table's rate (x0.99-1.07, results README, sixteenth session). s1's loads follow
// a product each, during which the link is idle. This probe times one s1 load (16384^2 FP32 host
// matrix, pinned; 5462 rows of 13108 bytes at a 64 KiB pitch, 71.6 MB) after the link was idle
// for a gap of 0 to 128 ms: host asleep (GPU idle) and GPU busy with a spinning kernel on every SM
// (as during a product), then the same load once more right after (warm).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void spin(long long cycles)
{
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const size_t n = 16384, rows = 5462, rowBytes = 3277 * 4, pitch = n * 4;
    float* host = nullptr;
    CK(cudaMallocHost(&host, n * n * 4));
    for (size_t i = 0; i < n * n; i += 1024)
        host[i] = float(i);
    char* dev = nullptr;
    const size_t devPitch = (rowBytes + 127) / 128 * 128;
    CK(cudaMalloc(&dev, rows * devPitch * 2));
    cudaStream_t copy, work;
    CK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
    cudaEvent_t a, b, c;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventCreate(&c));
    int clockKHz = 0;
    CK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
    const double mb = double(rows) * double(rowBytes) / 1e6;
    printf("device %s; one load: %zu rows of %zu bytes at a %zu-byte pitch, %.1f MB\n", prop.name, rows, rowBytes, pitch, mb);
    printf("%-10s %-8s %-22s %-22s\n", "idle gap", "during", "first load GB/s (med)", "second load GB/s (med)");
    int block = 0;
    auto load = [&](cudaStream_t s) {
        // Each time another block row of A (as s1 walks the matrix): a different part of the host matrix.
        const char* src = reinterpret_cast<const char*>(host) + size_t(block % 3) * 5461 * pitch + size_t(block / 3 % 5) * 3276 * 4;
        ++block;
        CK(cudaMemcpy2DAsync(dev, devPitch, src, pitch, rowBytes, rows, cudaMemcpyHostToDevice, s));
    };
    for (int busy = 0; busy < 2; ++busy) {
        for (double gapMs : {0.0, 0.5, 2.0, 4.0, 8.0, 32.0, 128.0}) {
            std::vector<double> first, second;
            for (int r = 0; r < 7; ++r) {
                load(copy);  // the link warm
                CK(cudaStreamSynchronize(copy));
                if (gapMs > 0) {
                    if (busy) {
                        spin<<<prop.multiProcessorCount * 4, 128, 0, work>>>((long long)(gapMs * clockKHz));
                        CK(cudaStreamSynchronize(work));
                    } else {
                        std::this_thread::sleep_for(std::chrono::microseconds(long(gapMs * 1000)));
                    }
                }
                CK(cudaEventRecord(a, copy));
                load(copy);
                CK(cudaEventRecord(b, copy));
                load(copy);
                CK(cudaEventRecord(c, copy));
                CK(cudaEventSynchronize(c));
                float t1 = 0, t2 = 0;
                CK(cudaEventElapsedTime(&t1, a, b));
                CK(cudaEventElapsedTime(&t2, b, c));
                first.push_back(mb / t1);
                second.push_back(mb / t2);
            }
            std::sort(first.begin(), first.end());
            std::sort(second.begin(), second.end());
            printf("%7.1f ms %-8s %6.1f (%.1f-%.1f)        %6.1f (%.1f-%.1f)\n", gapMs, busy ? "GPU busy" : "GPU idle",
                   first[3], first.front(), first.back(), second[3], second.front(), second.back());
        }
    }

    // s1's own pattern (16384^3 under 256 MiB, 3x5x3): per product the A block (5462 rows of 13108
    // bytes) and the B block (3277 rows of 21848 bytes), both out of 64 KiB-pitch host matrices,
    // back to back on one copy stream; the product (a 3.9 ms spin) waits for both; the next loads
    // wait for the product (their buffers). Without the spin: the loads back to back.
    float* hostB = nullptr;
    CK(cudaMallocHost(&hostB, n * n * 4));
    for (size_t i = 0; i < n * n; i += 1024)
        hostB[i] = float(i);
    char* devB = nullptr;
    const size_t bRows = 3277, bRowBytes = 5462 * 4, bDevPitch = (bRowBytes + 127) / 128 * 128;
    CK(cudaMalloc(&devB, bRows * bDevPitch));
    const double bMb = double(bRows) * double(bRowBytes) / 1e6;
    // The product as a spin (SMs busy, device memory quiet) and as the real cuBLAS SGEMM of the
    // blocks (5462 x 5462 x 3277 on device buffers: ~0.5 GB of device memory traffic).
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) { printf("no cuBLAS\n"); return 1; }
    cublasSetStream(handle, work);
    float *ga = nullptr, *gb = nullptr, *gc = nullptr;
    CK(cudaMalloc(&ga, size_t(5462) * 3296 * 4));
    CK(cudaMalloc(&gb, size_t(3277) * 5472 * 4));
    CK(cudaMalloc(&gc, size_t(5462) * 5472 * 4));
    CK(cudaMemset(ga, 0, size_t(5462) * 3296 * 4));
    CK(cudaMemset(gb, 0, size_t(3277) * 5472 * 4));
    const float one = 1.f;
    for (int withProduct = 0; withProduct < 3; ++withProduct) {
        std::vector<double> rate, rateA, rateB;
        cudaEvent_t loaded, done;
        CK(cudaEventCreateWithFlags(&loaded, cudaEventDisableTiming));
        CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
        for (int step = 0; step < 45; ++step) {
            const int i = step / 15, k = step % 5, j = step / 5 % 3;
            const char* srcA = reinterpret_cast<const char*>(host) + size_t(i) * 5461 * pitch + size_t(k) * 3276 * 4;
            const char* srcB = reinterpret_cast<const char*>(hostB) + size_t(k) * 3276 * pitch + size_t(j) * 5461 * 4;
            if (withProduct && step > 0)
                CK(cudaStreamWaitEvent(copy, done));
            CK(cudaEventRecord(a, copy));
            CK(cudaMemcpy2DAsync(dev, devPitch, srcA, pitch, rowBytes, rows, cudaMemcpyHostToDevice, copy));
            CK(cudaEventRecord(c, copy));
            CK(cudaMemcpy2DAsync(devB, bDevPitch, srcB, pitch, bRowBytes, bRows, cudaMemcpyHostToDevice, copy));
            CK(cudaEventRecord(b, copy));
            if (withProduct) {
                CK(cudaEventRecord(loaded, copy));
                CK(cudaStreamWaitEvent(work, loaded));
                if (withProduct == 1)
                    spin<<<prop.multiProcessorCount * 4, 128, 0, work>>>((long long)(3.9 * clockKHz));
                else
                    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 5462, 5462, 3277, &one, gb, 5472, ga, 3296, &one, gc, 5472);
                CK(cudaEventRecord(done, work));
            }
            CK(cudaEventSynchronize(b));
            float t = 0, ta = 0;
            CK(cudaEventElapsedTime(&t, a, b));
            CK(cudaEventElapsedTime(&ta, a, c));
            rate.push_back((mb + bMb) / t);
            rateA.push_back(mb / ta);
            rateB.push_back(bMb / (t - ta));
        }
        CK(cudaDeviceSynchronize());
        std::sort(rate.begin(), rate.end());
        std::sort(rateA.begin(), rateA.end());
        std::sort(rateB.begin(), rateB.end());
        printf("s1 pattern, A + B loads (%.1f MB) %s: median %.1f GB/s (%.1f-%.1f)\n", mb + bMb,
               withProduct == 0 ? "back to back" : withProduct == 1 ? "each pair after a 3.9 ms spin" : "each pair after the SGEMM", rate[rate.size() / 2], rate.front(),
               rate.back());
        printf("    the A load (first after the product) %.1f GB/s, the B load (after the A load) %.1f GB/s (medians)\n",
               rateA[rateA.size() / 2], rateB[rateB.size() / 2]);
    }
    return 0;
}
