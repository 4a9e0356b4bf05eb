// Issue 11: the ratio decomposition's two passes (row pass, square tile-pair pass) as one persistent
// kernel that runs them pipelined, so that a band of rows just row-passed is squared while it is
// still in L2. Tall 16384 x 8192 int32 (k = 2, side 8192): memory = 8192 rows of 16384 elements;
// a band = 32 rows (one row of 32 x 32 tiles of 8-byte vectors). Items in ticket order:
//   step s: the 32 row items of band s, then the tile pairs (I, J = s - L) for I <= J;
// a pair waits (spin on a per-band counter) until both its bands are row-passed. Band J's tiles at
// columns <= J come from L2 (row-passed L steps before), the others from DRAM: ~1.5 passes of
// traffic instead of 2. Against: cudaMemcpy D2D of the matrix, the two kernels one after the other.
// nvcc -std=c++20 -O3 -arch=sm_90 ratio_fused_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

using u64 = unsigned long long;
constexpr int K = 2, S = 32, E = 2;  // k, tile side in 8-byte vectors, vectors per 16 bytes

__device__ __forceinline__ std::int64_t sourceInRow(std::int64_t p, std::int64_t side) { return (p % K) * side + p / K; }
__device__ __forceinline__ int rotationOf(int t) { return (t >> 3) & 1; }


// L2 eviction priorities (createpolicy): keep the bands just row-passed, let everything else go first.
__device__ __forceinline__ unsigned long long policyEvictLast()
{
    unsigned long long p;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}
__device__ __forceinline__ unsigned long long policyEvictFirst()
{
    unsigned long long p;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    return p;
}
__device__ __forceinline__ int4 ldHint(const int4* a, unsigned long long pol)
{
    int4 v;
    asm volatile("ld.global.cg.L2::cache_hint.v4.s32 {%0,%1,%2,%3}, [%4], %5;" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(a), "l"(pol));
    return v;
}
__device__ __forceinline__ void stHint(int4* a, int4 v, unsigned long long pol)
{
    asm volatile("st.global.L2::cache_hint.v4.s32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(pol) : "memory");
}
__device__ __forceinline__ ulonglong2 ldHint(const ulonglong2* a, unsigned long long pol)
{
    ulonglong2 v;
    asm volatile("ld.global.cg.L2::cache_hint.v2.u64 {%0,%1}, [%2], %3;" : "=l"(v.x), "=l"(v.y) : "l"(a), "l"(pol));
    return v;
}
__device__ __forceinline__ void stHint(ulonglong2* a, ulonglong2 v, unsigned long long pol)
{
    asm volatile("st.global.L2::cache_hint.v2.u64 [%0], {%1,%2}, %3;" ::"l"(a), "l"(v.x), "l"(v.y), "l"(pol) : "memory");
}

// Row pass of memory row a (tall: gather), `line` = 2·side ints of shared memory.
template <int THREADS, bool STREAM, bool HINTS = false>
__device__ void rowPass(int* x, std::int64_t side, std::int64_t a, int* line)
{
    const unsigned long long first = HINTS ? policyEvictFirst() : 0, last = HINTS ? policyEvictLast() : 0;
    const std::int64_t length = K * side, quads = length / 4;
    int* row = x + a * length;
#pragma unroll 8
    for (std::int64_t q = threadIdx.x; q < quads; q += THREADS)
        reinterpret_cast<int4*>(line)[q] = HINTS ? ldHint(reinterpret_cast<const int4*>(row) + q, first) : __ldcg(reinterpret_cast<const int4*>(row) + q);
    __syncthreads();
    for (std::int64_t q = threadIdx.x; q < quads; q += THREADS) {
        const std::int64_t p = 4 * q;
        int4 o;
        o.x = line[sourceInRow(p, side)];
        o.y = line[sourceInRow(p + 1, side)];
        o.z = line[sourceInRow(p + 2, side)];
        o.w = line[sourceInRow(p + 3, side)];
        if (HINTS)
            stHint(reinterpret_cast<int4*>(row) + q, o, last);
        else if (STREAM)
            __stcs(reinterpret_cast<int4*>(row) + q, o);
        else
            __stcg(reinterpret_cast<int4*>(row) + q, o);
    }
}

// Swap of tiles (ti, tj) and (tj, ti) of the side x side matrix of 8-byte vectors (ti <= tj).
template <int THREADS>
__device__ void pairSwap(u64* x, std::int64_t n, std::int64_t ti, std::int64_t tj, u64 (*upper)[S + 1], u64 (*lower)[S + 1])
{
    constexpr int kRowsPerPass = (THREADS / 32) * 2, kPasses = S / kRowsPerPass > 0 ? S / kRowsPerPass : 1;
    const bool diagonal = ti == tj;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const std::int64_t r0 = ti * S, c0 = tj * S;
    if (warp * 2 < S) {
        const int t = lane & 15, h = lane >> 4, rotation = rotationOf(t);
        ulonglong2 u[kPasses], w[kPasses];
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int rr = warp * 2 + h + kRowsPerPass * k;
            u[k] = __ldcg(reinterpret_cast<const ulonglong2*>(x + (r0 + rr) * n + c0 + E * t));
            if (!diagonal)
                w[k] = __ldcg(reinterpret_cast<const ulonglong2*>(x + (c0 + rr) * n + r0 + E * t));
        }
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int rr = warp * 2 + h + kRowsPerPass * k;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & 1;
                upper[rr][E * t + c] = c ? u[k].y : u[k].x;
                if (!diagonal)
                    lower[rr][E * t + c] = c ? w[k].y : w[k].x;
            }
        }
    }
    __syncthreads();
    if (warp * 2 < S) {
        const int l = lane & 15, q = lane >> 4, rotation = rotationOf(l);
        u64(*const intoUpper)[S + 1] = diagonal ? upper : lower;
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int cl = warp * 2 + q + kRowsPerPass * k;
            ulonglong2 o;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & 1;
                (c ? o.y : o.x) = intoUpper[E * l + c][cl];
            }
            __stcs(reinterpret_cast<ulonglong2*>(x + (r0 + cl) * n + c0 + E * l), o);
            if (!diagonal) {
#pragma unroll
                for (int e = 0; e < E; ++e) {
                    const int c = (e + rotation) & 1;
                    (c ? o.y : o.x) = upper[E * l + c][cl];
                }
                __stcs(reinterpret_cast<ulonglong2*>(x + (c0 + cl) * n + r0 + E * l), o);
            }
        }
    }
}

// ---- the two passes as two kernels (today's shape) ----
template <int THREADS> __global__ void __launch_bounds__(THREADS) rowKernel(int* x, std::int64_t side)
{
    extern __shared__ __align__(16) unsigned char smem[];
    for (std::int64_t a = blockIdx.x; a < side; a += gridDim.x) {
        rowPass<THREADS, true>(x, side, a, reinterpret_cast<int*>(smem));
        __syncthreads();
    }
}
__device__ void tilePairOf(std::int64_t k, std::int64_t& i, std::int64_t& j)
{
    j = std::int64_t((sqrt(8.0 * double(k) + 1.0) - 1.0) / 2.0);
    while (j * (j + 1) / 2 > k) --j;
    while ((j + 1) * (j + 2) / 2 <= k) ++j;
    i = k - j * (j + 1) / 2;
}
__global__ void __launch_bounds__(256) squareKernel(u64* x, std::int64_t n)
{
    __shared__ u64 upper[S][S + 1], lower[S][S + 1];
    std::int64_t ti, tj;
    tilePairOf(blockIdx.x, ti, tj);
    pairSwap<256>(x, n, ti, tj, upper, lower);
}

// ---- fused ----
// Up to P tile pairs (i0 + p, j) in one item: all their tiles loaded before any is stored, so a
// block has P times the bytes of one pair in flight.
template <int THREADS, int P, bool HINTS>
__device__ void pairSwapMany(u64* x, std::int64_t n, std::int64_t i0, int count, std::int64_t j, u64* shared)
{
    const unsigned long long first = HINTS ? policyEvictFirst() : 0;
    constexpr int kRowsPerPass = (THREADS / 32) * 2, kPasses = (S + kRowsPerPass - 1) / kRowsPerPass;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    auto upperOf = [&](int p) { return reinterpret_cast<u64(*)[S + 1]>(shared + std::size_t(2 * p) * S * (S + 1)); };
    auto lowerOf = [&](int p) { return reinterpret_cast<u64(*)[S + 1]>(shared + std::size_t(2 * p + 1) * S * (S + 1)); };
    const std::int64_t c0 = j * S;
    {
        const int t = lane & 15, h = lane >> 4, rotation = rotationOf(t);
        ulonglong2 u[P][kPasses], w[P][kPasses];
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const std::int64_t r0 = (i0 + p) * S;
#pragma unroll
            for (int k = 0; k < kPasses; ++k) {
                const int rr = warp * 2 + h + kRowsPerPass * k;
                if (p < count && rr < S) {
                    const ulonglong2* pu = reinterpret_cast<const ulonglong2*>(x + (r0 + rr) * n + c0 + E * t);
                    const ulonglong2* pw = reinterpret_cast<const ulonglong2*>(x + (c0 + rr) * n + r0 + E * t);
                    u[p][k] = HINTS ? ldHint(pu, first) : __ldcg(pu);
                    if (i0 + p != j)
                        w[p][k] = HINTS ? ldHint(pw, first) : __ldcg(pw);
                }
            }
        }
#pragma unroll
        for (int p = 0; p < P; ++p) {
            auto upper = upperOf(p);
            auto lower = lowerOf(p);
#pragma unroll
            for (int k = 0; k < kPasses; ++k) {
                const int rr = warp * 2 + h + kRowsPerPass * k;
                if (p < count && rr < S) {
#pragma unroll
                    for (int e = 0; e < E; ++e) {
                        const int c = (e + rotation) & 1;
                        upper[rr][E * t + c] = c ? u[p][k].y : u[p][k].x;
                        if (i0 + p != j)
                            lower[rr][E * t + c] = c ? w[p][k].y : w[p][k].x;
                    }
                }
            }
        }
    }
    __syncthreads();
    const int l = lane & 15, q = lane >> 4, rotation = rotationOf(l);
#pragma unroll
    for (int p = 0; p < P; ++p) {
        if (p >= count)
            break;
        const std::int64_t r0 = (i0 + p) * S;
        const bool diagonal = i0 + p == j;
        auto upper = upperOf(p);
        auto intoUpper = diagonal ? upper : lowerOf(p);
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int cl = warp * 2 + q + kRowsPerPass * k;
            if (cl >= S)
                continue;
            ulonglong2 o;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & 1;
                (c ? o.y : o.x) = intoUpper[E * l + c][cl];
            }
            if (HINTS) stHint(reinterpret_cast<ulonglong2*>(x + (r0 + cl) * n + c0 + E * l), o, first);
            else __stcs(reinterpret_cast<ulonglong2*>(x + (r0 + cl) * n + c0 + E * l), o);
            if (!diagonal) {
#pragma unroll
                for (int e = 0; e < E; ++e) {
                    const int c = (e + rotation) & 1;
                    (c ? o.y : o.x) = upper[E * l + c][cl];
                }
                if (HINTS) stHint(reinterpret_cast<ulonglong2*>(x + (c0 + cl) * n + r0 + E * l), o, first);
                else __stcs(reinterpret_cast<ulonglong2*>(x + (c0 + cl) * n + r0 + E * l), o);
            }
        }
    }
}

// Step s: the S row items of band s (withRows), then the pair items of column j = s - lookahead
// (withPairs): pairs (i, j), i <= j, P to an item.
struct Order {
    std::int64_t bands, lookahead, P;
    bool withRows = true, withPairs = true;
    __host__ __device__ std::int64_t rowsBefore(std::int64_t s) const { return withRows ? S * (s < bands ? s : bands) : 0; }
    __host__ __device__ std::int64_t pairItemsBefore(std::int64_t c) const  // columns < c
    {
        if (!withPairs)
            return 0;
        const std::int64_t q = c / P, r = c % P;
        return c + P * q * (q - 1) / 2 + r * q;
    }
    __host__ __device__ std::int64_t before(std::int64_t s) const  // items of steps < s
    {
        std::int64_t c = s - lookahead < bands ? s - lookahead : bands;
        c = c < 0 ? 0 : c;
        return rowsBefore(s) + pairItemsBefore(c);
    }
    __host__ __device__ std::int64_t total() const { return before(bands + lookahead); }
};

template <int THREADS, int MINB, int P, bool HINTS>
__global__ void __launch_bounds__(THREADS, MINB) fusedKernel(int* x, std::int64_t side, Order order, unsigned long long* ticket, int* ready, bool wait)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ std::int64_t itemShared[2];
    const std::int64_t total = order.total();
    if (threadIdx.x == 0)
        itemShared[0] = std::int64_t(atomicAdd(ticket, 1ull));
    for (int parity = 0;; parity ^= 1) {
        __syncthreads();
        const std::int64_t item = itemShared[parity];
        if (item >= total)
            return;
        if (threadIdx.x == 0)  // the next ticket's atomic overlaps this item's work
            itemShared[parity ^ 1] = std::int64_t(atomicAdd(ticket, 1ull));
        std::int64_t lo = 0, hi = order.bands + order.lookahead;  // the step: largest s with before(s) <= item
        while (lo < hi) {
            const std::int64_t mid = (lo + hi + 1) / 2;
            if (order.before(mid) <= item) lo = mid; else hi = mid - 1;
        }
        const std::int64_t s = lo, within = item - order.before(s);
        const std::int64_t rowsHere = order.withRows && s < order.bands ? S : 0;
        if (within < rowsHere) {
            rowPass<THREADS, false, HINTS>(x, side, s * S + within, reinterpret_cast<int*>(smem));
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence();
                atomicAdd(ready + s, 1);
            }
        } else {
            const std::int64_t j = s - order.lookahead, i0 = (within - rowsHere) * P;
            const int count = int(j + 1 - i0 < P ? j + 1 - i0 : P);
            if (threadIdx.x == 0 && order.withRows && wait) {
                for (int p = 0; p < count; ++p)
                    while (*(volatile int*)(ready + i0 + p) < S)
                        __nanosleep(32);
                while (*(volatile int*)(ready + j) < S)
                    __nanosleep(32);
                __threadfence();
            }
            __syncthreads();
            pairSwapMany<THREADS, P, HINTS>(reinterpret_cast<u64*>(x), side, i0, count, j, reinterpret_cast<u64*>(smem));
        }
    }
}

__global__ void fillKernel(int* x, std::int64_t count)
{
    for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::int64_t(gridDim.x) * blockDim.x)
        x[i] = int(i);
}

int main(int argc, char** argv)
{
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 8192, m = K * n, count = m * n;  // tall m x n
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device %s, L2 %d MB, %d SMs; tall %lld x %lld int32 (%.0f MiB)\n", prop.name, prop.l2CacheSize >> 20,
                prop.multiProcessorCount, (long long)m, (long long)n, count * 4.0 / (1 << 20));
    int *x, *y;
    CK(cudaMalloc(&x, count * 4));
    CK(cudaMalloc(&y, count * 4));
    unsigned long long* ticket;
    int* ready;
    const std::int64_t bands = n / S;
    CK(cudaMalloc(&ticket, 8));
    CK(cudaMalloc(&ready, bands * 4));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<int> host(count);
    auto check = [&](const char* what) {
        CK(cudaMemcpy(host.data(), x, count * 4, cudaMemcpyDeviceToHost));
        std::int64_t bad = 0;
        for (std::int64_t j = 0; j < n; ++j)  // result n x m: (j, i) = X(i, j) = i·n + j
            for (std::int64_t i = 0; i < m; ++i)
                bad += host[j * m + i] != int(i * n + j);
        std::printf("  %s: %s (%lld wrong)\n", what, bad ? "WRONG" : "correct", (long long)bad);
    };
    auto time = [&](auto&& f, bool fill) {
        std::vector<float> t;
        for (int r = 0; r < 7; ++r) {
            if (fill) fillKernel<<<1024, 256>>>(x, count);
            CK(cudaDeviceSynchronize());
            cudaEventRecord(a);
            f();
            cudaEventRecord(b);
            CK(cudaEventSynchronize(b));
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        return double(t[t.size() / 2]);
    };
    const double copy = time([&] { CK(cudaMemcpyAsync(y, x, count * 4, cudaMemcpyDeviceToDevice)); }, false);
    std::printf("device copy %.3f ms (%.0f GB/s read+write)\n", copy, 2.0 * count * 4 / copy * 1e-6);
    const int rowBytes = int(K * n * 4);
    CK(cudaFuncSetAttribute(rowKernel<512>, cudaFuncAttributeMaxDynamicSharedMemorySize, rowBytes));
    const double two = time([&] {
        rowKernel<512><<<unsigned(n), 512, rowBytes>>>(x, n);
        squareKernel<<<unsigned(bands * (bands + 1) / 2), 256>>>(reinterpret_cast<u64*>(x), n);
    }, true);
    std::printf("two kernels: %.3f ms = %.1f %% of copy\n", two, 100 * copy / two);
    fillKernel<<<1024, 256>>>(x, count);
    rowKernel<512><<<unsigned(n), 512, rowBytes>>>(x, n);
    squareKernel<<<unsigned(bands * (bands + 1) / 2), 256>>>(reinterpret_cast<u64*>(x), n);
    check("two kernels");
    auto tryFused = [&](auto kernel, int threads, int P, const char* label) {
        const int shared = std::max(rowBytes, int(2 * P * S * (S + 1) * 8));
        CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
        int perSm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, shared));
        const unsigned grid = unsigned(perSm * prop.multiProcessorCount);
        for (std::int64_t lookahead : {std::int64_t(4), std::int64_t(8), std::int64_t(12)})
            for (int mode : {0, 1, 2, 3}) {
                Order order{bands, lookahead, P, mode != 2, mode != 1};
                auto run = [&] {
                    CK(cudaMemsetAsync(ticket, 0, 8));
                    CK(cudaMemsetAsync(ready, 0, bands * 4));
                    kernel<<<grid, threads, shared>>>(x, n, order, ticket, ready, mode != 3);
                };
                const double fused = time(run, true);
                std::printf("fused %s%s, %d blocks/SM, lookahead %lld: %.3f ms = %.1f %% of copy\n", label,
                            mode == 1 ? " ROWS ONLY" : mode == 2 ? " PAIRS ONLY" : mode == 3 ? " NO WAITS (wrong result)" : "", perSm, (long long)lookahead, fused,
                            100 * copy / fused);
                if (mode == 0 && lookahead == 8) {
                    fillKernel<<<1024, 256>>>(x, count);
                    run();
                    CK(cudaDeviceSynchronize());
                    check("fused");
                }
            }
    };
    tryFused(fusedKernel<256, 3, 2, false>, 256, 2, "256 threads P=2");
    tryFused(fusedKernel<256, 3, 2, true>, 256, 2, "256 threads P=2 L2 hints");
    return 0;
}
