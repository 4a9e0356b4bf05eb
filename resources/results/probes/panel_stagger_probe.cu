// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 panel_stagger_probe.cu -lcublasLt -lcublas -o probe && ./probe
// Issue 9 (online ABFT, FQ = 1 at 16384): why do 16 accumulating panel GEMMs (K = 1024 each) cost
// ~3-5 % more than one 16384^3 SGEMM with the same tuned configuration, and can it be taken back?
// Hypothesis: every CTA of a wave starts together (all slots free at a kernel's start and at each wave's
// end), so the two CTAs of an SM reach their epilogue (read C, write C: 128 KiB for a 128 x 128 tile) at
// the same moment and the SM computes nothing meanwhile. A kernel that holds one CTA slot of every SM
// for part of a tile's lifetime before each product (the "stagger") would offset the two CTAs, so that
// one computes while the other reads and writes C. Measured here, each against one m^3 SGEMM timed
// beside it: the engine's pattern (two column blocks on two streams), one block of full width, the
// same with the stagger at 1/4, 1/2 and 3/4 of a CTA's lifetime, and beta = 0 (what the epilogue's read
// of C costs), for the two best configurations of panel_gemm_search_probe (tiles 128 x 128 and 256 x 128).
#include "probe_util.hpp"

#include <unistd.h>

// Holds one GEMM CTA's worth of an SM (1024 threads x <= 32 registers = half the register file; the
// shared memory keeps a second one off the same SM) for `ns` nanoseconds.
__global__ void __launch_bounds__(1024, 1) occupy(long long ns)
{
    extern __shared__ float scratch[];
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
    if (t == 0)
        scratch[threadIdx.x] = 0;  // never: keeps the shared memory request
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    printf("device: %s, %d SMs\n", prop.name, sms);
    const int occupyShared = 120 << 10;
    CK(cudaFuncSetAttribute(occupy, cudaFuncAttributeMaxDynamicSharedMemorySize, occupyShared));
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cublasLtHandle_t lt;
    BK(cublasLtCreate(&lt));
    int least = 0, greatest = 0;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t s[2], urgent;
    for (auto& st : s)
        CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&urgent, cudaStreamNonBlocking, greatest));
    std::vector<cudaEvent_t> ev(64);
    for (auto& event : ev)
        CK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));

    const int64_t m = 16384, b = 1024, steps = m / b;
    const int64_t w2 = m / 2, ld2 = (w2 + 2 + 31) / 32 * 32, ld1 = (m + 2 + 31) / 32 * 32;
    float *A, *B, *C, *C1;
    CK(cudaMalloc(&A, sizeof(float) * m * m));
    CK(cudaMalloc(&B, sizeof(float) * m * ld1));
    CK(cudaMalloc(&C, sizeof(float) * m * ld1));
    CK(cudaMalloc(&C1, sizeof(float) * m * ld2));
    fill<<<1024, 256>>>(A, size_t(m * m), 1);
    fill<<<1024, 256>>>(B, size_t(m * ld1), 2);
    fill<<<1024, 256>>>(C, size_t(m * ld1), 3);
    fill<<<1024, 256>>>(C1, size_t(m * ld2), 4);
    const float one = 1.f, zero = 0.f;
    auto sgemm = [&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(m), int(m), &one, B, int(m), A, int(m), &zero, C, int(m))); };
    const float full = medianMs(sgemm, 7);
    printf("one SGEMM %lld^3: %.3f ms, %.1f TFLOP/s\n", (long long)m, full, 2.0 * m * m * m / full / 1e9);

    struct Tile { uint32_t id, swizzle, rows, cols; };
    for (Tile t : {Tile{20, 1, 128, 128}, Tile{24, 1, 256, 128}}) {
        const Lt half = makeLt(lt, m, b, w2, m, ld2, ld2, t.id, t.swizzle);
        const Lt whole = makeLt(lt, m, b, m, m, ld1, ld1, t.id, t.swizzle);
        const float one1 = medianMs([&] { ltMatmul(whole, A, B, C, 1.f, 0); }, 9);
        const int64_t tiles = (m / t.rows) * (m / t.cols);
        int perSm = 0;
        // CTA lifetime: the product's time over its waves (slots = SMs x CTAs per SM, from the measured
        // time of a grid of one wave against a grid of many is too noisy; take 2 per SM for 128 x 128).
        perSm = t.rows == 128 ? 2 : 1;
        const double waves = double(tiles) / (sms * perSm);
        const double lifeNs = one1 * 1e6 / waves;
        printf("\ntile %u x %u (algo 55 tile %u swizzle %u): one full-width panel product %.3f ms, %.1f waves of %d per SM, "
               "a CTA lives ~%.0f us\n", t.rows, t.cols, t.id, t.swizzle, one1, waves, perSm, lifeNs * 1e-3);

        auto twoBlocks = [&](float beta) {
            CK(cudaEventRecord(ev[0], 0));
            for (auto st : s)
                CK(cudaStreamWaitEvent(st, ev[0]));
            for (int64_t j = 0; j < steps; ++j)
                for (int k = 0; k < 2; ++k)
                    ltMatmul(half, A + j * b, B + j * b * ld2, k ? C1 : C, beta, s[k]);
            for (int k = 0; k < 2; ++k) {
                CK(cudaEventRecord(ev[1 + k], s[k]));
                CK(cudaStreamWaitEvent(0, ev[1 + k]));
            }
        };
        auto oneBlock = [&](float beta, double staggerNs) {
            CK(cudaEventRecord(ev[0], 0));
            CK(cudaStreamWaitEvent(s[0], ev[0]));
            for (int64_t j = 0; j < steps; ++j) {
                if (staggerNs > 0) {
                    // Both wait for the previous product; the urgent stream's kernel takes its slots first.
                    CK(cudaEventRecord(ev[2 + j], s[0]));
                    CK(cudaStreamWaitEvent(urgent, ev[2 + j]));
                    occupy<<<sms, 1024, occupyShared, urgent>>>((long long)staggerNs);
                }
                ltMatmul(whole, A + j * b, B + j * b * ld1, C, beta, s[0]);
            }
            CK(cudaEventRecord(ev[1], s[0]));
            CK(cudaStreamWaitEvent(0, ev[1]));
            CK(cudaEventRecord(ev[63], urgent));
            CK(cudaStreamWaitEvent(0, ev[63]));
        };
        for (int round = 0; round < 1; ++round) {  // two rounds in the first output file
            const float ref = medianMs(sgemm, 5);
            auto show = [&](const char* what, float ms) {
                printf("  %-46s %8.3f ms  %+6.2f %% over the SGEMM (%.3f ms)\n", what, ms, 100.0 * (ms / ref - 1.0), ref);
            };
            show("two column blocks, two streams, beta 1", medianMs([&] { twoBlocks(1.f); }, 5));
            show("one block, one stream, beta 1", medianMs([&] { oneBlock(1.f, 0); }, 5));
            show("one block, beta 0 (no read of C)", medianMs([&] { oneBlock(0.f, 0); }, 5));
            show("two column blocks, beta 0", medianMs([&] { twoBlocks(0.f); }, 5));
            for (double f : {0.25, 0.5, 0.75}) {
                char what[64];
                snprintf(what, sizeof what, "one block, stagger %.2f of a CTA's life", f);
                show(what, medianMs([&] { oneBlock(1.f, f * lifeNs); }, 5));
            }
            // Bursts after 200 ms idle: is a lone product's time what a sustained series gets?
            for (int n : {1, 2, 4, 8, 16, 32}) {
                std::vector<float> per;
                for (int r = 0; r < 3; ++r) {
                    CK(cudaDeviceSynchronize());
                    usleep(200000);
                    cudaEvent_t a, z;
                    CK(cudaEventCreate(&a));
                    CK(cudaEventCreate(&z));
                    CK(cudaEventRecord(a, s[0]));
                    for (int i = 0; i < n; ++i)
                        ltMatmul(whole, A + (i % steps) * b, B + (i % steps) * b * ld1, C, 1.f, s[0]);
                    CK(cudaEventRecord(z, s[0]));
                    CK(cudaEventSynchronize(z));
                    float ms = 0;
                    CK(cudaEventElapsedTime(&ms, a, z));
                    per.push_back(ms / n);
                    CK(cudaEventDestroy(a));
                    CK(cudaEventDestroy(z));
                }
                std::sort(per.begin(), per.end());
                printf("  after 200 ms idle, %2d products back to back: %.3f ms each (median of 3)\n", n, per[1]);
            }
            const float lone = medianMs([&] { occupy<<<sms, 1024, occupyShared, urgent>>>((long long)(0.5 * lifeNs)); CK(cudaStreamSynchronize(urgent)); }, 5);
            printf("  (the stagger kernel alone at 0.50: %.3f ms)\n", lone);
        }
    }
    return 0;
}
