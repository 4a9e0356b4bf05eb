// A stand-alone probe (not built by CMake): how much of a GEMM a read of C beside it displaces,
// as a function of how many SMs the read occupies (issue 9, online ABFT's checks).
//   nvcc -O3 -arch=sm_90 check_footprint_probe.cu -lcublas -o probe && ./probe [N]
// Online ABFT with two column blocks and FQ = 1 runs, per block and step, a beta = 1 panel GEMM
// (N x 1024 x N/2) and then a check that reads the block's C once, on a stream of the greatest
// priority; the other block's GEMM holds the SMs meanwhile. A cuBLAS FP32 GEMM block fills an SM
// (registers), so a check block never shares an SM with it: the check displaces the GEMM for the
// SM-time it holds. A read spread over every SM in short blocks holds ~all SMs for its duration; a
// read by few persistent blocks with many loads in flight each may move the same bytes in less
// SM-time. Timed: the two blocks' 8 steps each (events on the first stream, both joined), with no
// read, and with a read after every step by grids of 16 .. 1056 blocks of 256 threads (unroll U
// independent float4 loads per thread).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#define BK(x) do { cublasStatus_t e = (x); if (e != CUBLAS_STATUS_SUCCESS) { printf("cublas %d line %d\n", int(e), __LINE__); exit(1);} } while (0)

__global__ void fill(float* p, size_t n) { for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = float((i * 2654435761u) % 1000) / 1000.f - 0.5f; }

// Reads rows x w floats (ld) once, grid-stride over float4s, U loads in flight per thread; one
// atomic per block (the sums themselves do not matter here, the traffic and footprint do).
template <int U>
__global__ void __launch_bounds__(256) readC(const float* c, int64_t rows, int64_t w, int64_t ld, float* out)
{
    const int64_t per = w / 4, total = rows * per;
    const int64_t stride = int64_t(gridDim.x) * blockDim.x;
    float s = 0;
    for (int64_t base = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; base < total; base += stride * U) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int64_t i = base + u * stride;
            v[u] = i < total ? reinterpret_cast<const float4*>(c + (i / per) * ld)[i % per] : make_float4(0, 0, 0, 0);
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
            s += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

// The rest of the engine's check after its sums (abft_kernels.cu verifyImpl): a mark over every
// line, a one-block decision, two recompute launches and a one-thread finish -- here kernels of the
// same shapes doing token work, to time the chain and not its arithmetic.
__global__ void markLike(float* v, int64_t n) { const int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; if (t < n) v[t] = v[t] * 0.5f + 1.f; }
__global__ void __launch_bounds__(1024) decideLike(const float* v, int64_t n, float* out)
{
    float s = 0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s = fmaxf(s, v[i]);
    for (int o = 16; o; o >>= 1) s = fmaxf(s, __shfl_xor_sync(~0u, s, o));
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}
__global__ void noWork(const float* flag) { if (flag[0] < -1e30f) printf("never\n"); }

int main(int argc, char** argv)
{
    const int64_t N = argc > 1 ? atoll(argv[1]) : 8192, b = 1024, half = N / 2, steps = N / b;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float *A, *B, *C, *out, *scratch;
    CK(cudaMalloc(&A, sizeof(float) * N * N));
    CK(cudaMalloc(&B, sizeof(float) * N * N));
    CK(cudaMalloc(&C, sizeof(float) * N * N));
    CK(cudaMalloc(&out, sizeof(float)));
    CK(cudaMalloc(&scratch, sizeof(float) * 2 * N));
    CK(cudaMemset(scratch, 0, sizeof(float) * 2 * N));
    fill<<<1024, 256>>>(A, size_t(N * N));
    fill<<<1024, 256>>>(B, size_t(N * N));
    fill<<<1024, 256>>>(C, size_t(N * N));
    int lo, hi;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t st[2], lane[2];
    cublasHandle_t h[2];
    cudaEvent_t fork[2], join[2], t0, t1, done1;
    for (int i = 0; i < 2; ++i) {
        CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithPriority(&lane[i], cudaStreamNonBlocking, hi));
        BK(cublasCreate(&h[i]));
        BK(cublasSetStream(h[i], st[i]));
        CK(cudaEventCreateWithFlags(&fork[i], cudaEventDisableTiming));
        CK(cudaEventCreateWithFlags(&join[i], cudaEventDisableTiming));
    }
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventCreateWithFlags(&done1, cudaEventDisableTiming));
    const float one = 1.f;
    // Row-major C (N x N) = A (N x N) B (N x N) as column-major C^T = B^T A^T; block j: columns
    // [j * half, (j + 1) * half) of C.
    const auto run = [&](int grid, int unroll) {
        CK(cudaEventRecord(t0, st[0]));
        CK(cudaStreamWaitEvent(st[1], t0, 0));
        for (int64_t k = 0; k < steps; ++k)
            for (int j = 0; j < 2; ++j) {
                if (unroll == -2) {  // the checksum passes beside the product: the A panel and the B panel read once
                    CK(cudaEventRecord(fork[j], st[j]));
                    CK(cudaStreamWaitEvent(lane[j], fork[j], 0));
                    readC<4><<<528, 256, 0, lane[j]>>>(A + k * b, N, b, N, out);
                    readC<4><<<528, 256, 0, lane[j]>>>(B + k * b * N + j * half, b, half, N, out);
                }
                BK(cublasSgemm(h[j], CUBLAS_OP_N, CUBLAS_OP_N, int(half), int(N), int(b), &one, B + k * b * N + j * half,
                               int(N), A + k * b, int(N), &one, C + j * half, int(N)));
                if (unroll == -2) {
                    CK(cudaEventRecord(join[j], lane[j]));
                    CK(cudaStreamWaitEvent(st[j], join[j], 0));
                    continue;
                }
                if (grid == 0)
                    continue;
                CK(cudaEventRecord(fork[j], st[j]));
                CK(cudaStreamWaitEvent(lane[j], fork[j], 0));
                if (unroll == 0 || unroll == -1) {  // the engine's chain: memsets, sums, mark, decide, 2 + 1 small
                    CK(cudaMemsetAsync(scratch, 0, sizeof(float) * N, lane[j]));
                    CK(cudaMemsetAsync(scratch + N, 0, sizeof(float) * N, lane[j]));
                    readC<4><<<grid, 256, 0, lane[j]>>>(C + j * half, N, half, N, out);
                    if (unroll == 0) {
                        markLike<<<int((N + 1 + 255) / 256), 256, 0, lane[j]>>>(scratch, N);
                        decideLike<<<1, 1024, 0, lane[j]>>>(scratch, 2 * N, out);
                        noWork<<<int((half + 255) / 256), 256, 0, lane[j]>>>(out);
                        noWork<<<int((N + 8) / 8), 256, 0, lane[j]>>>(out);
                        noWork<<<1, 1, 0, lane[j]>>>(out);
                    } else {  // mark folded into the decision, the recomputes and the finish into one launch
                        decideLike<<<1, 1024, 0, lane[j]>>>(scratch, 2 * N, out);
                        noWork<<<int((N + 8) / 8), 256, 0, lane[j]>>>(out);
                    }
                } else if (unroll == 1)
                    readC<1><<<grid, 256, 0, lane[j]>>>(C + j * half, N, half, N, out);
                else if (unroll == 4)
                    readC<4><<<grid, 256, 0, lane[j]>>>(C + j * half, N, half, N, out);
                else
                    readC<8><<<grid, 256, 0, lane[j]>>>(C + j * half, N, half, N, out);
                CK(cudaEventRecord(join[j], lane[j]));
                CK(cudaStreamWaitEvent(st[j], join[j], 0));
            }
        CK(cudaEventRecord(done1, st[1]));
        CK(cudaStreamWaitEvent(st[0], done1, 0));
        CK(cudaEventRecord(t1, st[0]));
        CK(cudaEventSynchronize(t1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        return ms;
    };
    // One read of a half alone, the same grids: its duration and achieved bandwidth.
    const auto alone = [&](int grid, int unroll) {
        CK(cudaEventRecord(t0, lane[0]));
        for (int r = 0; r < 10; ++r) {
            if (unroll == 1)
                readC<1><<<grid, 256, 0, lane[0]>>>(C, N, half, N, out);
            else if (unroll == 4)
                readC<4><<<grid, 256, 0, lane[0]>>>(C, N, half, N, out);
            else
                readC<8><<<grid, 256, 0, lane[0]>>>(C, N, half, N, out);
        }
        CK(cudaEventRecord(t1, lane[0]));
        CK(cudaEventSynchronize(t1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        return ms / 10;
    };
    const auto median = [&](int grid, int unroll) {
        std::vector<float> t;
        run(grid, unroll);
        for (int r = 0; r < 7; ++r)
            t.push_back(run(grid, unroll));
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    };
    const double bytes = double(N) * double(half) * 4.0;
    printf("N = %lld, two column blocks, %lld steps of b = %lld, %d SMs\n", (long long)N, (long long)steps,
           (long long)b, sms);
    const float base = median(0, 1);
    std::vector<float> plain;
    for (int r = 0; r < 8; ++r) {
        CK(cudaEventRecord(t0, st[0]));
        BK(cublasSgemm(h[0], CUBLAS_OP_N, CUBLAS_OP_N, int(N), int(N), int(N), &one, B, int(N), A, int(N), &one, C, int(N)));
        CK(cudaEventRecord(t1, st[0]));
        CK(cudaEventSynchronize(t1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        if (r > 0)
            plain.push_back(ms);
    }
    std::sort(plain.begin(), plain.end());
    printf("one SGEMM of N^3: %.3f ms; the panel GEMMs of the two blocks only: %.3f ms (%+.2f%%)\n", plain[plain.size() / 2],
           base, 100.0 * (base / plain[plain.size() / 2] - 1.0));
    printf("%-6s %-6s %-12s %-12s %-12s %-10s\n", "grid", "unroll", "read alone", "GB/s alone", "with reads", "added");
    // The whole chain after a wide read (unroll 0), and with three of its launches folded (-1).
    for (int mode : {0, -1}) {
        const float t = median(528, mode);
        printf("chain %-2d (528 blocks, sums + %s): with reads %.3f ms, %+.2f%% (%.1f us per check)\n", mode,
               mode == 0 ? "2 memsets, mark, decide, 2 recomputes, finish" : "2 memsets, decide, 1 recompute", t,
               100.0 * (t / base - 1.0), 1e3 * (t - base) / double(2 * steps));
    }
    const float passes = median(-2, -2);
    printf("checksum passes beside each product (A and B panels read once, no check): %.3f ms, %+.2f%%\n", passes,
           100.0 * (passes / base - 1.0));
    const float read528 = median(528, 4);
    printf("read alone after each step (528 blocks): %.3f ms, %+.2f%%\n", read528, 100.0 * (read528 / base - 1.0));
    if (argc > 2)
        return 0;
    for (int unroll : {1, 4, 8})
        for (int grid : {16, 33, 66, 132, 264, 528, 1056}) {
            const float a = alone(grid, unroll);
            const float t = median(grid, unroll);
            printf("%-6d %-6d %-12.4f %-12.0f %-12.3f %+.2f%% (%.1f us per read)\n", grid, unroll, a, bytes / (a * 1e6),
                   t, 100.0 * (t / base - 1.0), 1e3 * (t - base) / double(2 * steps));
        }
    return 0;
}
