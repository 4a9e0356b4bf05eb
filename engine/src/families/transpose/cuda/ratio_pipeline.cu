// The ratio decomposition (../ratio_decomposition.hpp) of a tall matrix as one persistent kernel
// that interleaves its two passes. Run one after the other, each pass reads and writes the whole
// matrix from device memory. Here the work is a list of items in ticket order (blocks take the
// next ticket with one atomic and keep going until the list ends): row items (one row of k·side
// elements, the row pass) and pair items (2 or 4 pairs of symmetric square-pass tiles). A band is
// one row of tiles (32 rows for k = 2, 16 for k = 4). With lookahead L, step s is
//
//   the row items of band s, then the pair items of tile column j = s - L: pairs (i, j), i <= j.
//
// A pair waits (spinning on its bands' counters) until the rows of its bands are done; it only
// waits for items of smaller tickets, which blocks already run, so the list always drains. What it
// gains: band j's tiles (j, i <= j) are squared L steps after the row pass wrote them, still in
// L2, so about half the matrix moves once instead of twice (1.5 passes of device traffic instead
// of 2). Measured on the H200 (16384 x 8192 int32, resources/results/probes/ratio_fused_probe.cu
// and this kernel): rows alone 91 % of a device copy, pairs alone 89 %, pipelined 50-51 % against
// 46.5-47 % for the two kernels. Wide matrices (square pass first) keep the two kernels: the
// mirrored order (pairs of band s, then the rows of band s - L, each row waiting for every pair of
// its band) ran at 38-41 % of a copy whatever the lookahead (2-64) or the fences, against 47 %.
#include "families/transpose/cuda/ratio_pipeline.cuh"

#include "core/cuda/check.hpp"
#include "families/transpose/cuda/ratio_decomposition.cuh"
#include "families/transpose/cuda/ratio_rows.cuh"
#include "core/cuda/vector16.cuh"

#include <algorithm>

namespace gigacheck::transpose::kernels {

using cuda::component;
using cuda::kPerVector;
using cuda::setComponent;
using cuda::Vec16;

namespace {

constexpr int kThreads = 256;  // 3 blocks per SM (64 KiB rows of shared memory): at most 85 registers
// Tile pairs per item: 32 KiB loaded per item either way (8 KiB tiles of 8-byte vectors, 4 KiB of
// 16-byte ones); 4 pairs of 8 KiB tiles spilled registers and ran slower (probe).
template <class C> constexpr int kPairsPerItem = kPerVector<C> == 2 ? 2 : 4;

// The items of the list, as counts. Column j's j + 1 pairs go pairsPerItem to an item.
struct Order {
    std::int64_t bands = 0, rowsPerBand = 0, lookahead = 0, pairsPerItem = 1;

    // sum over u = 1..x of ceil(u / P): the pair items of columns 0..x - 1.
    __host__ __device__ std::int64_t pairItemsUpTo(std::int64_t x) const
    {
        const std::int64_t P = pairsPerItem;
        const std::int64_t q = x / P, r = x % P;
        return x + P * q * (q - 1) / 2 + r * q;
    }
    __host__ __device__ static std::int64_t clamp(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
    // Items of the steps before s: rows of bands < s, pairs of columns < s - L.
    __host__ __device__ std::int64_t before(std::int64_t s) const
    {
        return rowsPerBand * clamp(s, 0, bands) + pairItemsUpTo(clamp(s - lookahead, 0, bands));
    }
    __host__ __device__ std::int64_t total() const { return before(bands + lookahead); }
    __device__ std::int64_t stepOf(std::int64_t item) const  // the largest s with before(s) <= item
    {
        std::int64_t lo = 0, hi = bands + lookahead;
        while (lo < hi) {
            const std::int64_t mid = (lo + hi + 1) / 2;
            if (before(mid) <= item)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }
};

template <class C> __device__ __forceinline__ int rotationOf(int t) { return ((t >> 3) * (kPerVector<C> / 2)) & (kPerVector<C> - 1); }

// Swaps count (<= kPairsPerItem<C>) pairs of symmetric S x S tiles of the side x side matrix of
// carriers C (the k-element vectors), pair p being (ti + p, tj) with ti + p <= tj: every
// tile loaded before any is stored (twice the bytes in flight of one pair), through padded shared
// tiles with the component order rotated per 8-lane group (no bank conflicts), as the square
// kernel's tilePairSwapVectorKernel. Loads bypass L1 (other SMs wrote the rows); stores stream.
template <class C> __device__ void swapPairs(C* x, std::int64_t n, std::int64_t ti, std::int64_t tj, int count, C* shared)
{
    using V = typename Vec16<C>::type;
    constexpr int E = kPerVector<C>, S = 16 * E, kRows = (kThreads / 32) * 2, kPasses = S / kRows;
    constexpr int P = kPairsPerItem<C>;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    auto tile = [&](int p, int which) { return reinterpret_cast<C(*)[S + 1]>(shared + std::size_t(2 * p + which) * S * (S + 1)); };
    {
        const int t = lane & 15, h = lane >> 4, rotation = rotationOf<C>(t);
        V u[P][kPasses], w[P][kPasses];
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const std::int64_t r0 = (ti + p) * S, c0 = tj * S;
#pragma unroll
            for (int k = 0; k < kPasses; ++k) {
                const int rr = warp * 2 + h + kRows * k;
                if (p < count) {
                    u[p][k] = __ldcg(reinterpret_cast<const V*>(x + (r0 + rr) * n + c0 + E * t));
                    if (r0 != c0)
                        w[p][k] = __ldcg(reinterpret_cast<const V*>(x + (c0 + rr) * n + r0 + E * t));
                }
            }
        }
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const bool diagonal = ti + p == tj;
#pragma unroll
            for (int k = 0; k < kPasses; ++k) {
                const int rr = warp * 2 + h + kRows * k;
                if (p < count) {
#pragma unroll
                    for (int e = 0; e < E; ++e) {
                        const int c = (e + rotation) & (E - 1);
                        tile(p, 0)[rr][E * t + c] = component<C>(u[p][k], c);
                        if (!diagonal)
                            tile(p, 1)[rr][E * t + c] = component<C>(w[p][k], c);
                    }
                }
            }
        }
    }
    __syncthreads();
    const int l = lane & 15, q = lane >> 4, rotation = rotationOf<C>(l);
#pragma unroll
    for (int p = 0; p < P; ++p) {
        if (p >= count)
            break;
        const std::int64_t r0 = (ti + p) * S, c0 = tj * S;
        const bool diagonal = r0 == c0;
        C(*const upper)[S + 1] = tile(p, 0);
        C(*const intoUpper)[S + 1] = diagonal ? upper : tile(p, 1);
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int cl = warp * 2 + q + kRows * k;
            V o;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & (E - 1);
                setComponent<C>(o, c, intoUpper[E * l + c][cl]);
            }
            __stcs(reinterpret_cast<V*>(x + (r0 + cl) * n + c0 + E * l), o);
            if (!diagonal) {
#pragma unroll
                for (int e = 0; e < E; ++e) {
                    const int c = (e + rotation) & (E - 1);
                    setComponent<C>(o, c, upper[E * l + c][cl]);
                }
                __stcs(reinterpret_cast<V*>(x + (c0 + cl) * n + r0 + E * l), o);
            }
        }
    }
}

// The counters' synchronisation, as CUTLASS's semaphore: the block's writes, ordered before thread
// 0's release by the barrier, are visible to whoever acquires the count (a __threadfence and an
// atomicAdd per row measured 1 point of a copy slower).
__device__ __forceinline__ void releaseAdd(unsigned* counter, unsigned v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(counter), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned acquireLoad(const unsigned* counter)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
    return v;
}
__device__ __forceinline__ void waitFor(const unsigned* counter, unsigned target)
{
    while (acquireLoad(counter) < target)
        __nanosleep(32);
}

// counters[0]: the ticket; counters[1 + b]: the rows of band b done.
template <class T, class C, int K>
__global__ void __launch_bounds__(kThreads, 3) pipelineKernel(T* x, std::int64_t side, Order order, unsigned* counters)
{
    extern __shared__ __align__(16) unsigned char pipelineShared[];
    __shared__ std::int64_t itemOf[2];
    unsigned* const ticket = counters;
    unsigned* const rowsDone = counters + 1;
    const std::int64_t total = order.total(), bands = order.bands, rowsPerBand = order.rowsPerBand;
    if (threadIdx.x == 0)
        itemOf[0] = atomicAdd(ticket, 1u);
    for (int parity = 0;; parity ^= 1) {
        __syncthreads();  // itemOf[parity] written, and the shared memory of the last item read
        const std::int64_t item = itemOf[parity];
        if (item >= total)
            return;
        if (threadIdx.x == 0)  // the next ticket's atomic overlaps this item's work
            itemOf[parity ^ 1] = atomicAdd(ticket, 1u);
        const std::int64_t s = order.stepOf(item), within = item - order.before(s);
        const std::int64_t rowsHere = s < bands ? rowsPerBand : 0;  // then the pairs of column s - L
        if (within < rowsHere) {
            permuteRowVectors<T, K, true, false, kThreads>(x + (s * rowsPerBand + within) * K * side, side,
                                                           reinterpret_cast<T*>(pipelineShared));
            __syncthreads();
            if (threadIdx.x == 0)
                releaseAdd(rowsDone + s, 1u);
        } else {
            const std::int64_t tj = s - order.lookahead, ti = (within - rowsHere) * kPairsPerItem<C>;
            const int count = int(Order::clamp(tj + 1 - ti, 0, kPairsPerItem<C>));
            if (threadIdx.x == 0) {  // the rows of every band the pairs touch
                waitFor(rowsDone + tj, unsigned(rowsPerBand));
                for (int p = 0; p < count; ++p)
                    waitFor(rowsDone + ti + p, unsigned(rowsPerBand));
            }
            __syncthreads();
            swapPairs<C>(reinterpret_cast<C*>(x), side, ti, tj, count, reinterpret_cast<C*>(pipelineShared));
        }
    }
}

template <class C> constexpr std::int64_t bandRowsOf() { return 16 * kPerVector<C>; }

template <class C> Order orderOf(const RatioConfig& cfg)
{
    Order order;
    order.bands = cfg.shape.side / bandRowsOf<C>();
    order.rowsPerBand = bandRowsOf<C>();
    order.lookahead = cfg.pipelineLookahead;
    order.pairsPerItem = kPairsPerItem<C>;
    return order;
}

// The kernel's attributes and grid, once per configuration (host calls between the timing events
// and the launch would count as the kernel's time).
template <class T, class C, int K> void configure(RatioConfig& cfg)
{
    constexpr std::int64_t S = bandRowsOf<C>();
    const ratio::Shape& shape = cfg.shape;
    // About 16 MiB of bands between a band's row pass and its squaring (the H200's L2 is 60 MB;
    // 8 steps of 2 MiB bands measured best at 16384 x 8192, 4 and 12 slower).
    const std::int64_t bandBytes = S * shape.rowLength() * std::int64_t(sizeof(T));
    cfg.pipelineLookahead = std::clamp<std::int64_t>((std::int64_t(16) << 20) / std::max<std::int64_t>(bandBytes, 1), 4, 16);
    cfg.pipelineSharedBytes =
        std::max<std::size_t>(std::size_t(shape.rowLength()) * sizeof(T), std::size_t(2 * kPairsPerItem<C> * S * (S + 1)) * sizeof(C));
    auto kernel = pipelineKernel<T, C, K>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(cfg.pipelineSharedBytes)));
    int device = 0, sms = 0, perSm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kThreads, cfg.pipelineSharedBytes));
    cfg.pipelineBlocks = std::min<std::int64_t>(std::max(perSm, 1) * std::int64_t(sms), orderOf<C>(cfg).total());
}

template <class T, class C, int K> void launch(T* x, const RatioConfig& cfg, unsigned* counters, cudaStream_t st)
{
    CUDA_CHECK(cudaMemsetAsync(counters, 0, pipelineCounterWords(cfg.shape) * sizeof(unsigned), st));
    pipelineKernel<T, C, K><<<unsigned(cfg.pipelineBlocks), kThreads, cfg.pipelineSharedBytes, st>>>(x, cfg.shape.side, orderOf<C>(cfg), counters);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

bool pipelineApplies(const ratio::Shape& s, std::size_t rowSharedBytes)
{
    if (!s.applies() || !s.tall || rowSharedBytes == 0)
        return false;
    const std::int64_t rows = pipelineBandRows(s.k);
    // The ticket is 32 bits: far more items than any matrix that fits a device.
    return s.side % rows == 0 && (s.k * s.side) % 4 == 0 && s.side / rows <= 65536;
}

template <class T> void configureRatioPipeline(RatioConfig& cfg)
{
    static_assert(sizeof(T) == 4);
    if (cfg.shape.k == 2)
        configure<T, unsigned long long, 2>(cfg);
    else
        configure<T, uint4, 4>(cfg);
}

template <class T> void launchRatioPipeline(T* x, const RatioConfig& cfg, unsigned* counters, cudaStream_t st)
{
    if (cfg.shape.k == 2)
        launch<T, unsigned long long, 2>(x, cfg, counters, st);
    else
        launch<T, uint4, 4>(x, cfg, counters, st);
}

template void configureRatioPipeline<float>(RatioConfig&);
template void configureRatioPipeline<std::int32_t>(RatioConfig&);
template void launchRatioPipeline<float>(float*, const RatioConfig&, unsigned*, cudaStream_t);
template void launchRatioPipeline<std::int32_t>(std::int32_t*, const RatioConfig&, unsigned*, cudaStream_t);

}  // namespace gigacheck::transpose::kernels
