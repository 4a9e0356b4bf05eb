// Rectangular in-place transpose on the GPU: the C2R decomposition of
//   B. Catanzaro, A. Keller, M. Garland, "A Decomposition for In-place Matrix Transposition",
//   PPoPP 2014,
// index math in ../decomposition.hpp (shared with the CPU reference cpu/decomposition.cpp, which
// the tests run without a GPU). With g = gcd(m, n), b = n / g, the m x n row-major matrix becomes
// its n x m transpose in three passes, none of which needs a second matrix:
//
// (m <= n; for m > n the inverse passes of C2R(n, m) run in reverse order on the memory viewed as
// n rows of m, so that the column passes always see min(m, n) rows: decomposition.hpp)
//
//   1. columnsKernel<Prerotate> (only when g > 1): every column c rotated down by c / b. A block
//      loads a strip of W adjacent whole columns (m x W elements) into shared memory, coalesced
//      along the strip's rows, and writes each element back from its rotated source row.
//   2. shuffleRowsKernel: one row per block: read coalesced, scattered into shared memory by the
//      row's permutation, written back coalesced (16-byte stores where n % 4 == 0).
//   3. columnsKernel<Post>: as 1, with the column shuffle's gather.
//
// So the matrix goes through memory 3 times (2 when gcd(m, n) = 1), each pass a read and a write
// of every element: counts.cpp says so. The per-element index arithmetic uses the walkers of
// decomposition.hpp (additions and compares, no division per element). When one row (n elements)
// or one strip of a single column (m elements) does not fit the shared memory, the pass keeps its
// scratch in a global buffer instead: one slot (a row, or m x W elements) per block, grid-striding,
// O(max(m, n)) per block, never a second matrix.
#include "families/transpose/cuda/decomposition.cuh"

#include "core/cuda/check.hpp"
#include "core/cuda/vector16.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace gigacheck::transpose::kernels {

using cuda::component;
using cuda::kPerVector;
using cuda::setComponent;
using cuda::Vec16;

namespace {

using c2r::Index;

constexpr int kRowUnroll = 4;
constexpr int kColumnUnroll = 8;
constexpr int kClusterBlocks = 8;

template <class T> __device__ __forceinline__ T* scratchOf(T* scratch, std::int64_t slot)
{
    extern __shared__ __align__(16) unsigned char decompositionShared[];
    return scratch ? scratch + slot : reinterpret_cast<T*>(decompositionShared);
}

// Pass 2. Row r of the m x n grid: each element scattered to its column in the scratch row, then
// the row written back in order (Inverse: the row copied in order, then gathered).
template <class T, bool Inverse>
__global__ void __launch_bounds__(kDecompositionThreads) shuffleRowsKernel(T* __restrict__ x, c2r::Shape s, bool vector, T* scratch)
{
    T* line = scratchOf(scratch, std::int64_t(blockIdx.x) * s.n);
    const c2r::ShuffleStep step = c2r::shuffleStep(s, std::int64_t(blockDim.x));
    const c2r::ShuffleStep& unrolled = step;  // the unrolled loop advances one block width per element too
    const c2r::ShuffleWalker first(s, threadIdx.x);
    using V = typename Vec16<T>::type;
    for (Index r = blockIdx.x; r < s.m; r += gridDim.x) {
        T* row = x + r * s.n;
        c2r::ShuffleWalker w = first;
        if constexpr (!Inverse) {
            for (Index c0 = threadIdx.x; c0 < s.n; c0 += Index(kRowUnroll) * blockDim.x) {
                T v[kRowUnroll];
                Index to[kRowUnroll];
#pragma unroll
                for (int u = 0; u < kRowUnroll; ++u) {
                    const Index c = c0 + Index(u) * blockDim.x;
                    if (c < s.n) {
                        v[u] = row[c];
                        to[u] = w.destination(s, r);
                    }
                    w.advance(s, unrolled);
                }
#pragma unroll
                for (int u = 0; u < kRowUnroll; ++u)
                    if (c0 + Index(u) * blockDim.x < s.n)
                        line[to[u]] = v[u];
            }
            __syncthreads();
            if (vector) {
                const V* from = reinterpret_cast<const V*>(line);
                V* into = reinterpret_cast<V*>(row);
                for (Index q = threadIdx.x; q < s.n / 4; q += blockDim.x)
                    into[q] = from[q];
            } else {
                for (Index c = threadIdx.x; c < s.n; c += blockDim.x)
                    row[c] = line[c];
            }
        } else {
            if (vector) {
                const V* from = reinterpret_cast<const V*>(row);
                V* into = reinterpret_cast<V*>(line);
                for (Index q = threadIdx.x; q < s.n / 4; q += blockDim.x)
                    into[q] = from[q];
            } else {
                for (Index c = threadIdx.x; c < s.n; c += blockDim.x)
                    line[c] = row[c];
            }
            __syncthreads();
            for (Index c = threadIdx.x; c < s.n; c += blockDim.x) {
                row[c] = line[w.destination(s, r)];
                w.advance(s, step);
            }
        }
        __syncthreads();
    }
}

enum class ColumnPass { Prerotate, Post, PostInverse, PrerotateInverse };

// Passes 1 and 3 (and their inverses). A strip of W = 2^logW adjacent whole columns: loaded into the scratch (m x W,
// row-major: a warp's load covers 32 / W strip rows of W contiguous elements), then every element
// written back from its source row in the same column. blockDim.x is a multiple of W, so each
// thread keeps one column of the strip and walks rows row0, row0 + rowStep, ... Post and the
// rotations gather on the way out; PostInverse scatters on the way in (strip row postSource(i, j)
// takes element (i, j)) and writes the strip back in order.
template <class T, ColumnPass Pass>
__global__ void __launch_bounds__(kDecompositionThreads) columnsKernel(T* __restrict__ x, c2r::Shape s, int logW, T* scratch)
{
    const Index width = Index(1) << logW;
    T* strip = scratchOf(scratch, std::int64_t(blockIdx.x) * (s.m << logW));
    const int lane = int(threadIdx.x & (width - 1));
    const Index row0 = threadIdx.x >> logW, rowStep = blockDim.x >> logW;
    const Index strips = (s.n + width - 1) >> logW;
    const c2r::PostStep post = c2r::postStep(s, rowStep);
    for (Index st = blockIdx.x; st < strips; st += gridDim.x) {
        const Index j = (st << logW) + lane;
        const bool live = j < s.n;
        if (live) {
            c2r::PostWalker scatter(s, row0, j);  // PostInverse only
            for (Index i0 = row0; i0 < s.m; i0 += Index(kColumnUnroll) * rowStep) {
                T v[kColumnUnroll];
                Index to[kColumnUnroll];
#pragma unroll
                for (int u = 0; u < kColumnUnroll; ++u) {
                    const Index i = i0 + Index(u) * rowStep;
                    if (i < s.m)
                        v[u] = x[i * s.n + j];
                    if constexpr (Pass == ColumnPass::PostInverse) {
                        to[u] = scatter.source(s);
                        scatter.advance(s, post);
                    } else {
                        to[u] = i;
                    }
                }
#pragma unroll
                for (int u = 0; u < kColumnUnroll; ++u) {
                    const Index i = i0 + Index(u) * rowStep;
                    if (i < s.m)
                        strip[(to[u] << logW) + lane] = v[u];
                }
            }
        }
        __syncthreads();
        if (live) {
            if constexpr (Pass == ColumnPass::Prerotate) {
                const Index k = j / s.b;  // < g <= m
                Index from = row0 - k;
                if (from < 0)
                    from += s.m;
                for (Index i = row0; i < s.m; i += rowStep) {
                    x[i * s.n + j] = strip[(from << logW) + lane];
                    from += rowStep;
                    if (from >= s.m)
                        from -= s.m;
                }
            } else if constexpr (Pass == ColumnPass::PrerotateInverse) {
                const Index k = j / s.b;  // < g <= m
                Index from = row0 + k;
                if (from >= s.m)
                    from -= s.m;
                for (Index i = row0; i < s.m; i += rowStep) {
                    x[i * s.n + j] = strip[(from << logW) + lane];
                    from += rowStep;
                    if (from >= s.m)
                        from -= s.m;
                }
            } else if constexpr (Pass == ColumnPass::Post) {
                c2r::PostWalker w(s, row0, j);
                for (Index i = row0; i < s.m; i += rowStep) {
                    x[i * s.n + j] = strip[(w.source(s) << logW) + lane];
                    w.advance(s, post);
                }
            } else {
                for (Index i = row0; i < s.m; i += rowStep)
                    x[i * s.n + j] = strip[(i << logW) + lane];
            }
        }
        __syncthreads();
    }
}

// Opt-in (GIGACHECK_TRANSPOSE_CLUSTER=1), passes 1 and 3 through a thread-block cluster: the 8
// blocks of a cluster share one strip of W = 32 (16, 8) columns, each block holding a band of 2^logBand
// strip rows in its shared memory, so that every global access is a whole 128-byte (64-, 32-byte)
// strip row; the permutation crosses bands through distributed shared memory (map_shared_rank).
// Gathers read the source band remotely; PostInverse scatters into it.
template <class T, ColumnPass Pass>
__global__ void __cluster_dims__(kClusterBlocks, 1, 1) __launch_bounds__(kDecompositionThreads)
    clusterColumnsKernel(T* __restrict__ x, c2r::Shape s, int logW, int logBand)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    // Clusters exist from sm_90; clusterColumns never picks this path on an older device (its
    // occupancy query fails there), so the sm_80 image only needs the symbol.
    (void)x, (void)s, (void)logW, (void)logBand;
    __trap();
#else
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    extern __shared__ __align__(16) unsigned char decompositionShared[];
    T* local = reinterpret_cast<T*>(decompositionShared);
    const Index width = Index(1) << logW, bandMask = (Index(1) << logBand) - 1;
    const int lane = int(threadIdx.x & (width - 1));
    const Index rowStep = blockDim.x >> logW;
    const Index first = Index(cluster.block_rank()) << logBand;
    const Index last = first + bandMask + 1 < s.m ? first + bandMask + 1 : s.m;
    const Index i0 = first + (threadIdx.x >> logW);
    const Index strips = (s.n + width - 1) >> logW;
    const Index clusters = gridDim.x / kClusterBlocks;
    const c2r::PostStep post = c2r::postStep(s, rowStep);
    auto slot = [&](Index row) -> T* {  // strip row `row` in the shared memory of the block that holds it
        return cluster.map_shared_rank(local, unsigned(row >> logBand)) + (((row & bandMask) << logW) + lane);
    };
    for (Index st = blockIdx.x / kClusterBlocks; st < strips; st += clusters) {
        const Index j = (st << logW) + lane;
        const bool live = j < s.n;
        if (live) {
            c2r::PostWalker scatter(s, i0, j);  // PostInverse only
            for (Index ib = i0; ib < last; ib += Index(kColumnUnroll) * rowStep) {
                T v[kColumnUnroll];
#pragma unroll
                for (int u = 0; u < kColumnUnroll; ++u) {
                    const Index i = ib + Index(u) * rowStep;
                    if (i < last)
                        v[u] = x[i * s.n + j];
                }
#pragma unroll
                for (int u = 0; u < kColumnUnroll; ++u) {
                    const Index i = ib + Index(u) * rowStep;
                    if constexpr (Pass == ColumnPass::PostInverse) {
                        if (i < last)
                            *slot(scatter.source(s)) = v[u];
                        scatter.advance(s, post);
                    } else if (i < last) {
                        local[((i - first) << logW) + lane] = v[u];
                    }
                }
            }
        }
        cluster.sync();
        if (live) {
            if constexpr (Pass == ColumnPass::Prerotate || Pass == ColumnPass::PrerotateInverse) {
                const Index k = j / s.b;  // < g <= m
                Index from = Pass == ColumnPass::Prerotate ? i0 - k : i0 + k;
                if (from < 0)
                    from += s.m;
                if (from >= s.m)
                    from -= s.m;
                for (Index i = i0; i < last; i += rowStep) {
                    x[i * s.n + j] = *slot(from);
                    from += rowStep;
                    if (from >= s.m)
                        from -= s.m;
                }
            } else if constexpr (Pass == ColumnPass::Post) {
                c2r::PostWalker w(s, i0, j);
                for (Index i = i0; i < last; i += rowStep) {
                    x[i * s.n + j] = *slot(w.source(s));
                    w.advance(s, post);
                }
            } else {
                for (Index i = i0; i < last; i += rowStep)
                    x[i * s.n + j] = local[((i - first) << logW) + lane];
            }
        }
        cluster.sync();
    }
#endif
}

template <class Kernel> void allowShared(Kernel kernel, std::size_t bytes)
{
    if (bytes > 48 * 1024)
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}


// The cluster path where one strip of 32 (else 16, 8) columns fits the 8 blocks' shared memory and
// the device runs such clusters; otherwise cfg stays as it is.
void clusterColumns(DecompositionConfig& cfg, std::int64_t budget)
{
    const std::int64_t m = cfg.shape.m, n = cfg.shape.n;
    int logBand = 0;
    while ((std::int64_t(kClusterBlocks) << logBand) < m)
        ++logBand;
    for (int logW = 5; logW >= 3; --logW) {
        const std::int64_t bytes = (std::int64_t(4) << logBand) << logW;
        if (bytes > budget)
            continue;
        auto kernel = clusterColumnsKernel<float, ColumnPass::Post>;
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) != cudaSuccess) {
            (void)cudaGetLastError();
            return;
        }
        const std::int64_t strips = (n + (std::int64_t(1) << logW) - 1) >> logW;
        cudaLaunchConfig_t launch = {};
        launch.gridDim = dim3(unsigned(kClusterBlocks * std::min<std::int64_t>(strips, 1 << 20)));
        launch.blockDim = dim3(kDecompositionThreads);
        launch.dynamicSmemBytes = std::size_t(bytes);
        int clusters = 0;
        if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch) != cudaSuccess || clusters < 1) {
            (void)cudaGetLastError();
            return;
        }
        cfg.cluster = true;
        cfg.clusterLogBand = logBand;
        cfg.columnLogWidth = logW;
        cfg.columnSharedBytes = std::size_t(bytes);
        cfg.columnGrid = kClusterBlocks * std::min<std::int64_t>(strips, 1 << 20);
        return;
    }
}

}  // namespace

std::size_t DecompositionConfig::scratchElements() const
{
    std::size_t elements = 0;
    if (rowSharedBytes == 0)
        elements = std::size_t(rowGrid * shape.n);
    if (columnSharedBytes == 0)
        elements = std::max(elements, std::size_t(columnGrid * (shape.m << columnLogWidth)));
    return elements;
}

DecompositionConfig decompositionConfig(std::int64_t m, std::int64_t n)
{
    constexpr std::int64_t eb = 4;  // int32 / float32
    int device = 0, optin = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const std::int64_t budget = std::max<std::int64_t>(optin, 48 * 1024);
    const std::int64_t slots = 2 * std::int64_t(std::max(sms, 1));

    DecompositionConfig cfg;
    cfg.inverse = m > n;  // the column passes on min(m, n) rows (decomposition.hpp)
    cfg.shape = cfg.inverse ? c2r::shapeOf(n, m) : c2r::shapeOf(m, n);
    m = cfg.shape.m;  // the grid the passes see: m rows of n
    n = cfg.shape.n;
    if (n * eb <= budget) {
        cfg.rowSharedBytes = std::size_t(n * eb);
        cfg.rowGrid = std::min<std::int64_t>(m, 0x7fffffff);
    } else {
        cfg.rowGrid = std::min(m, slots);
    }
    int logW = 5;  // 32 columns
    while (logW > 0 && (m << logW) * eb > budget)
        --logW;
    // Tuning on the device: GIGACHECK_TRANSPOSE_STRIP_LOG2=k caps the strip at 2^k columns (narrower
    // strips, less shared memory per block, more blocks per SM).
    if (const char* cap = std::getenv("GIGACHECK_TRANSPOSE_STRIP_LOG2"); cap && *cap >= '0' && *cap <= '5' && cap[1] == '\0')
        logW = std::min(logW, *cap - '0');
    cfg.columnLogWidth = logW;
    const std::int64_t strips = (n + (std::int64_t(1) << logW) - 1) >> logW;
    if ((m << logW) * eb <= budget) {
        cfg.columnSharedBytes = std::size_t((m << logW) * eb);
        cfg.columnGrid = std::min<std::int64_t>(strips, 0x7fffffff);
    } else {
        cfg.columnGrid = std::min(strips, slots);  // one column per block, its m elements in global scratch
    }
    if (const char* cluster = std::getenv("GIGACHECK_TRANSPOSE_CLUSTER"); cluster && std::string_view(cluster) == "1")
        clusterColumns(cfg, budget);
    return cfg;
}

namespace {

template <class T, ColumnPass Pass> void launchColumns(T* x, const DecompositionConfig& cfg, T* scratch, cudaStream_t st)
{
    if (cfg.cluster) {
        allowShared(clusterColumnsKernel<T, Pass>, cfg.columnSharedBytes);
        clusterColumnsKernel<T, Pass><<<unsigned(cfg.columnGrid), kDecompositionThreads, cfg.columnSharedBytes, st>>>(
            x, cfg.shape, cfg.columnLogWidth, cfg.clusterLogBand);
        CUDA_CHECK_LAUNCH();
        return;
    }
    allowShared(columnsKernel<T, Pass>, cfg.columnSharedBytes);
    columnsKernel<T, Pass><<<unsigned(cfg.columnGrid), kDecompositionThreads, cfg.columnSharedBytes, st>>>(
        x, cfg.shape, cfg.columnLogWidth, cfg.columnSharedBytes ? nullptr : scratch);
    CUDA_CHECK_LAUNCH();
}

template <class T, bool Inverse> void launchRows(T* x, const DecompositionConfig& cfg, T* scratch, cudaStream_t st)
{
    T* rowScratch = cfg.rowSharedBytes ? nullptr : scratch;
    // 16-byte copies where the rows (and the scratch slots) stay 16-byte aligned.
    const bool vector = (cfg.shape.n & 3) == 0 && reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
                        reinterpret_cast<std::uintptr_t>(rowScratch) % 16 == 0;
    allowShared(shuffleRowsKernel<T, Inverse>, cfg.rowSharedBytes);
    shuffleRowsKernel<T, Inverse><<<unsigned(cfg.rowGrid), kDecompositionThreads, cfg.rowSharedBytes, st>>>(x, cfg.shape, vector,
                                                                                                            rowScratch);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class T> void launchDecomposition(T* x, const DecompositionConfig& cfg, T* scratch, cudaStream_t st)
{
    const c2r::Shape& s = cfg.shape;
    if (s.m <= 0 || s.n <= 0)
        return;
    if (!cfg.inverse) {  // C2R on the m x n grid
        if (s.g > 1)
            launchColumns<T, ColumnPass::Prerotate>(x, cfg, scratch, st);
        launchRows<T, false>(x, cfg, scratch, st);
        launchColumns<T, ColumnPass::Post>(x, cfg, scratch, st);
    } else {  // R2C: the inverse passes of C2R(n, m) on the n x m grid
        launchColumns<T, ColumnPass::PostInverse>(x, cfg, scratch, st);
        launchRows<T, true>(x, cfg, scratch, st);
        if (s.g > 1)
            launchColumns<T, ColumnPass::PrerotateInverse>(x, cfg, scratch, st);
    }
}

template void launchDecomposition<float>(float*, const DecompositionConfig&, float*, cudaStream_t);
template void launchDecomposition<std::int32_t>(std::int32_t*, const DecompositionConfig&, std::int32_t*, cudaStream_t);

}  // namespace gigacheck::transpose::kernels
