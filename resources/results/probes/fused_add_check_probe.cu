// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 fused_add_check_probe.cu -lcublasLt -lcublas -o probe && ./probe [N]
// Issue 9 (online ABFT, FQ = 1): panel_stagger_probe measured that the accumulating panel GEMMs
// (beta = 1) cost ~3.5 % more than the same GEMMs with beta = 0: with one 256 x 128 CTA per SM the
// epilogue's read of C is not hidden. The check then reads C once more. Idea measured here: each step's
// GEMM writes its product P_j into a buffer of its own (beta = 0), and one pass beside the other
// block's GEMM adds it into C and takes the row and column sums of the result (the check's sums) on the
// way: C_j = C_{j-1} + P_j with the same 3 reads/writes of C per step as GEMM-epilogue + check, but
// off the SMs' critical path. Timed against one N^3 SGEMM beside each row, two column blocks on two
// streams with cuBLASLt algorithm 55 tile 24 (256 x 128, the engine's preferred panel tile):
//   beta 1 alone | beta 1 + a read-and-sum check after each step | beta 0 alone |
//   beta 0 + fused add-and-sum (one P buffer per block) | the same with two P buffers per block.
#include "probe_util.hpp"

#include <cmath>

// Row and column sums (double) of rows x cols floats at c (ld), as the engine's lean check sums:
// 4 warps, a strip of 256 columns (8 floats per lane), tileRows rows per block; with p != nullptr
// the block first adds p into c (c = c + p, written back) and sums the result.
constexpr int kWarps = 4, kStrip = 256;
__global__ void __launch_bounds__(kWarps * 32, 8)
    sumsKernel(const float* p, float* c, int64_t rows, int64_t cols, int64_t ld, double* rowSum, double* colSum, int64_t tileRows)
{
    __shared__ double part[kWarps][kStrip];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t c0 = int64_t(blockIdx.x) * kStrip, r0 = int64_t(blockIdx.y) * tileRows;
    const int64_t rEnd = min(r0 + tileRows, rows);
    double col[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int64_t i = r0 + warp; i < rEnd; i += kWarps) {
        float4* row = reinterpret_cast<float4*>(c + i * ld + c0);
        float4 x0 = row[lane], x1 = row[32 + lane];
        if (p) {
            const float4* prow = reinterpret_cast<const float4*>(p + i * ld + c0);
            const float4 p0 = prow[lane], p1 = prow[32 + lane];
            x0 = make_float4(x0.x + p0.x, x0.y + p0.y, x0.z + p0.z, x0.w + p0.w);
            x1 = make_float4(x1.x + p1.x, x1.y + p1.y, x1.z + p1.z, x1.w + p1.w);
            row[lane] = x0;
            row[32 + lane] = x1;
        }
        const float v[8] = {x0.x, x0.y, x0.z, x0.w, x1.x, x1.y, x1.z, x1.w};
        double s = 0;
#pragma unroll
        for (int e = 0; e < 8; ++e) {
            s += double(v[e]);
            col[e] += double(v[e]);
        }
        for (int o = 16; o; o >>= 1)
            s += __shfl_xor_sync(~0u, s, o);
        if (lane == 0)
            atomicAdd(rowSum + i, s);
    }
#pragma unroll
    for (int e = 0; e < 8; ++e)
        part[warp][(e < 4 ? 0 : 128) + lane * 4 + (e % 4)] = col[e];
    __syncthreads();
    for (int t = threadIdx.x; t < kStrip; t += blockDim.x) {
        double s = 0;
        for (int w = 0; w < kWarps; ++w)
            s += part[w][t];
        atomicAdd(colSum + c0 + t, s);
    }
}

int main(int argc, char** argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const int64_t m = argc > 1 ? atoll(argv[1]) : 16384, b = 1024, steps = m / b;
    const int64_t w = m / 2, ld = (w + 2 + 31) / 32 * 32;
    printf("device: %s, %d SMs; N = %lld, two column blocks of %lld, %lld steps of b = %lld\n", prop.name, sms,
           (long long)m, (long long)w, (long long)steps, (long long)b);
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cublasLtHandle_t lt;
    BK(cublasLtCreate(&lt));
    int least = 0, greatest = 0;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t s[2], lane[2];
    for (int k = 0; k < 2; ++k) {
        CK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithPriority(&lane[k], cudaStreamNonBlocking, greatest));
    }
    std::vector<cudaEvent_t> ev(8 * steps + 8);
    for (auto& e : ev)
        CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

    float *A, *B, *Bt, *C[2], *C0, *P[2][2], *Cref;
    double* sums[2];
    CK(cudaMalloc(&A, sizeof(float) * m * m));
    CK(cudaMalloc(&B, sizeof(float) * m * ld));  // the panels of one block: rows of B, ld columns
    CK(cudaMalloc(&Bt, sizeof(float) * m * m));
    CK(cudaMalloc(&C0, sizeof(float) * m * ld));
    CK(cudaMalloc(&Cref, sizeof(float) * m * ld));
    for (int k = 0; k < 2; ++k) {
        CK(cudaMalloc(&C[k], sizeof(float) * m * ld));
        for (int x = 0; x < 2; ++x)
            CK(cudaMalloc(&P[k][x], sizeof(float) * m * ld));
        CK(cudaMalloc(&sums[k], sizeof(double) * (m + ld)));
        CK(cudaMemset(sums[k], 0, sizeof(double) * (m + ld)));
    }
    fill<<<1024, 256>>>(A, size_t(m * m), 1);
    fill<<<1024, 256>>>(B, size_t(m * ld), 2);
    fill<<<1024, 256>>>(Bt, size_t(m * m), 5);
    fill<<<1024, 256>>>(C0, size_t(m * ld), 3);
    CK(cudaDeviceSynchronize());
    const Lt panel = makeLt(lt, m, b, w, m, ld, ld, 24);
    const float one = 1.f, zero = 0.f;
    float* Cfull;
    CK(cudaMalloc(&Cfull, sizeof(float) * m * m));
    auto sgemm = [&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(m), int(m), &one, Bt, int(m), A, int(m), &zero, Cfull, int(m))); };
    const float full = medianMs(sgemm, 5);
    printf("one SGEMM %lld^3: %.3f ms, %.1f TFLOP/s\n", (long long)m, full, 2.0 * m * m * m / full / 1e9);

    const int64_t strips = w / kStrip;
    const int64_t perStrip = std::max<int64_t>(1, sms / strips);
    auto sums_ = [&](int k, const float* p, float* c, cudaStream_t st, int64_t blocksPerStrip) {
        const int64_t tileRows = (m + blocksPerStrip - 1) / blocksPerStrip;
        sumsKernel<<<dim3(unsigned(strips), unsigned(blocksPerStrip)), kWarps * 32, 0, st>>>(p, c, m, w, ld, sums[k],
                                                                                           sums[k] + m, tileRows);
        CK(cudaGetLastError());
    };
    // mode 0: beta 1; 1: beta 1 + sums after each step; 2: beta 0 into P; 3: beta 0 into P + fused add
    // (one P per block); 4: the same with two P per block (the next GEMM does not wait for the add).
    auto series = [&](int mode, int64_t blocksPerStrip) {
        CK(cudaEventRecord(ev[0], 0));
        for (int k = 0; k < 2; ++k)
            CK(cudaStreamWaitEvent(s[k], ev[0]));
        int e = 1;
        std::vector<std::vector<cudaEvent_t>> checked(2, std::vector<cudaEvent_t>(size_t(steps)));
        for (int64_t j = 0; j < steps; ++j)
            for (int k = 0; k < 2; ++k) {
                const float* a = A + j * b;
                const float* bp = B + j * b * ld;  // the same B rows for both blocks: timing only
                const bool fused = mode >= 3 && j > 0;
                float* out = fused ? P[k][mode == 4 ? j % 2 : 0] : (mode == 2 ? P[k][0] : C[k]);
                if (mode == 4 && j >= 2)  // P[j % 2] was last read by the add of step j - 2
                    CK(cudaStreamWaitEvent(s[k], checked[k][size_t(j - 2)]));
                ltMatmul(panel, a, bp, out, (mode <= 1) && j > 0 ? 1.f : 0.f, s[k]);
                if (mode == 0 || mode == 2)
                    continue;
                CK(cudaEventRecord(ev[e], s[k]));
                CK(cudaStreamWaitEvent(lane[k], ev[e++]));
                sums_(k, fused ? out : nullptr, C[k], lane[k], blocksPerStrip);
                checked[k][size_t(j)] = ev[e++];
                CK(cudaEventRecord(checked[k][size_t(j)], lane[k]));
                // One P (and the check of C in place): the block's next GEMM waits for this pass. With two
                // P, only step 0's GEMM wrote C: step 1's GEMM waits for its check before... nothing (it
                // writes P), the add of step 1 follows the check on the same lane.
                if (mode != 4)
                    CK(cudaStreamWaitEvent(s[k], checked[k][size_t(j)]));
            }
        for (int k = 0; k < 2; ++k) {
            CK(cudaEventRecord(ev[e], s[k]));
            CK(cudaStreamWaitEvent(0, ev[e++]));
            CK(cudaEventRecord(ev[e], lane[k]));
            CK(cudaStreamWaitEvent(0, ev[e++]));
        }
    };

    // Correctness of the fused path: block 0's C after the series against beta 1's.
    CK(cudaMemcpy(C[0], C0, sizeof(float) * m * ld, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(C[1], C0, sizeof(float) * m * ld, cudaMemcpyDeviceToDevice));
    series(0, perStrip);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(Cref, C[0], sizeof(float) * m * ld, cudaMemcpyDeviceToDevice));
    series(3, perStrip);
    CK(cudaDeviceSynchronize());
    {
        std::vector<float> x(size_t(m * ld)), y(size_t(m * ld));
        CK(cudaMemcpy(x.data(), Cref, sizeof(float) * m * ld, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(y.data(), C[0], sizeof(float) * m * ld, cudaMemcpyDeviceToHost));
        double diff = 0, big = 0;
        for (int64_t i = 0; i < m; ++i)
            for (int64_t jj = 0; jj < w; ++jj) {
                diff = std::max(diff, std::fabs(double(x[size_t(i * ld + jj)]) - y[size_t(i * ld + jj)]));
                big = std::max(big, std::fabs(double(x[size_t(i * ld + jj)])));
            }
        printf("fused add against beta 1 (block 0, one series): max |diff| %.3g of max |C| %.3g\n", diff, big);
    }

    const char* names[] = {"beta 1 (the engine's panel products)", "beta 1 + read-and-sum check each step",
                           "beta 0 into P (no add)", "beta 0 + fused add-and-sum, one P", "beta 0 + fused add-and-sum, two P"};
    for (int round = 0; round < 2; ++round) {
        const float ref = medianMs(sgemm, 5);
        printf("round %d: SGEMM %.3f ms\n", round + 1, ref);
        for (int mode = 0; mode <= 4; ++mode) {
            const float t = medianMs([&] { series(mode, perStrip); }, 5);
            printf("  %-42s %8.3f ms  %+6.2f %%\n", names[mode], t, 100.0 * (t / ref - 1.0));
        }
        for (int64_t bps : {int64_t(1), int64_t(2), 2 * perStrip}) {
            const float t1 = medianMs([&] { series(1, bps); }, 5), t3 = medianMs([&] { series(3, bps); }, 5);
            printf("  %lld blocks per strip: check %+6.2f %%, fused one P %+6.2f %%\n", (long long)bps,
                   100.0 * (t1 / ref - 1.0), 100.0 * (t3 / ref - 1.0));
        }
    }
    // The passes alone: one check / one fused add of a block, nothing beside.
    // (on the legacy stream, which medianMs's events time)
    const float check1 = medianMs([&] { sums_(0, nullptr, C[0], 0, perStrip); }, 9);
    const float add1 = medianMs([&] { sums_(0, P[0][0], C[0], 0, perStrip); }, 9);
    const double half = double(m) * double(w) * 4.0;
    printf("alone, one block: check %.3f ms (%.0f GB/s), fused add %.3f ms (%.0f GB/s of 3 passes)\n", check1,
           half / check1 / 1e6, add1, 3 * half / add1 / 1e6);
    return 0;
}
