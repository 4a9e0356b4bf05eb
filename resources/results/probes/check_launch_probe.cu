// A stand-alone probe (not built by CMake): what a check kernel's shape costs after a pass, apart
// from its work (issue 44: after the 16-bit product at 4096 the check takes ~11 us of a 0.19 ms GEMM).
//   nvcc -O3 -std=c++17 -arch=sm_90a check_launch_probe.cu -o probe && ./probe
// One chain per repetition on one stream: a pass reading 33.5 MB (B of a BF16 4096^2 product), then
// the variant X, then a tail kernel; events around the chain, the median of 201 chains, minus the
// chain without X. The variants take the real check's parts one at a time: its launch as a cluster of
// 8 x 1024 threads, the two cluster barriers, the scan of 2 x 4096 check lines (C's checksum column a
// row pitch apart, its row, the scales, the marks written back), the verdict written into pinned host
// memory; and the other shape: a grid of small blocks scanning the lines, the last block to finish
// (an atomic count) writing the verdict. The tails: a tiny kernel, or the rebuild's empty grid of
// 530 x 256 threads, plain or launched as a programmatic dependent (PDL) of the check.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)

namespace cg = cooperative_groups;

constexpr int N = 4096, LDC = 4104;

struct Lines {
    const float* c;       // C, N + 1 rows of LDC floats; column N the checksum column, row N the checksum row
    const double* rowScale, *colScale;
    double* rowMark, *colMark;
};

__global__ void passKernel(const float4* b, size_t n4, float* sink)
{
    float s = 0;
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 x0 = b[i], x1 = b[i + stride], x2 = b[i + 2 * stride], x3 = b[i + 3 * stride];
        s += x0.x + x1.y + x2.z + x3.w;
    }
    for (; i < n4; i += stride)
        s += b[i].x;
    if (s == 12345.f)
        *sink = s;
}

__global__ void tinyKernel(int* x)
{
    if (threadIdx.x == 0)
        x[0] += 1;
}

// The rebuild's clean form: every block reads the flag and leaves.
__global__ void __launch_bounds__(256) emptyGridKernel(const double* flag, int* x, bool pdl)
{
#if __CUDA_ARCH__ >= 900
    if (pdl)
        cudaGridDependencySynchronize();
#endif
    if (*flag != 0 && threadIdx.x == 0)
        x[blockIdx.x] += 1;
}

// One thread's lines of the scan (as decideKernel's: the row half reads the checksum column a row
// pitch apart, the column half the checksum row), marks written back, a clean count kept.
__device__ int scanLines(const Lines& l, long long first, long long step, bool rowHalf)
{
    int bad = 0;
    for (long long x = first; x < N; x += step) {
        const double sc = rowHalf ? l.rowScale[x] : l.colScale[x];
        const double st = rowHalf ? double(l.c[x * LDC + N]) : double(l.c[(long long)(N) * LDC + x]);
        double* marks = rowHalf ? l.rowMark : l.colMark;
        const double ctrl = marks[x];
        const double res = fabs(ctrl - st), thr = 1e-3 * sqrt(sc);
        const double mk = res <= thr ? -1.0 - res / thr : res;
        marks[x] = mk;
        bad += mk > -1.0;
    }
    return bad;
}

__device__ void writeVerdict(double* host, int bad)
{
    for (int k = 0; k < 12; ++k)
        host[k] = double(bad + k);
}

// mode: 1 cluster barriers, 2 scan, 4 verdict into `out` (pinned host memory or device memory).
__global__ void __launch_bounds__(1024) clusterKernel(Lines l, double* out, int mode)
{
    __shared__ int bad;
    if (threadIdx.x == 0)
        bad = 0;
    __syncthreads();
    const cg::cluster_group cluster = cg::this_cluster();
    const long long t = (long long)(cluster.block_rank()) * blockDim.x + threadIdx.x;
    const long long half = (long long)(cluster.num_blocks()) * blockDim.x / 2;
    if (mode & 2) {
        const int b = scanLines(l, t < half ? t : t - half, half, t < half);
        if (b)
            atomicAdd(&bad, b);
    }
    if (mode & 1) {
        cluster.sync();
        if (cluster.block_rank() == 0 && threadIdx.x < cluster.num_blocks() && threadIdx.x > 0) {
            const int theirs = *cluster.map_shared_rank(&bad, threadIdx.x);
            if (theirs)
                atomicAdd(&bad, theirs);
        }
        cluster.sync();
    }
    __syncthreads();
    if ((mode & 4) && cluster.block_rank() == 0 && threadIdx.x == 0)
        writeVerdict(out, bad);
}

// One block of 1024 (decideKernel's form off Hopper).
__global__ void __launch_bounds__(1024) blockKernel(Lines l, double* out, int mode)
{
    __shared__ int bad;
    if (threadIdx.x == 0)
        bad = 0;
    __syncthreads();
    if (mode & 2) {
        const int half = blockDim.x / 2;
        const int t = threadIdx.x;
        const int b = scanLines(l, t < half ? t : t - half, half, t < half);
        if (b)
            atomicAdd(&bad, b);
    }
    __syncthreads();
    if ((mode & 4) && threadIdx.x == 0)
        writeVerdict(out, bad);
}

// A grid of small blocks: each scans its share; the last block to count itself in writes the verdict.
__global__ void __launch_bounds__(256) gridKernel(Lines l, double* out, unsigned* done, int* total, int mode)
{
    __shared__ int bad;
    __shared__ bool last;
    if (threadIdx.x == 0)
        bad = 0;
    __syncthreads();
    const long long t = (long long)(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long half = (long long)(gridDim.x) * blockDim.x / 2;
    const int b = scanLines(l, t < half ? t : t - half, half, t < half);
    if (b)
        atomicAdd(&bad, b);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (bad)
            atomicAdd(total, bad);
        __threadfence();
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last || threadIdx.x != 0)
        return;
    __threadfence();
    *done = 0;
    if (mode & 4)
        writeVerdict(out, *(volatile int*)total);
}

int main()
{
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# check_launch_probe on %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const size_t bBytes = size_t(N) * N * 2;  // BF16 B
    float4* b;
    CK(cudaMalloc(&b, bBytes));
    CK(cudaMemset(b, 0, bBytes));
    float* c;
    CK(cudaMalloc(&c, size_t(N + 1) * LDC * sizeof(float)));
    CK(cudaMemset(c, 0, size_t(N + 1) * LDC * sizeof(float)));
    double* vec;
    CK(cudaMalloc(&vec, 4 * size_t(N + 1) * sizeof(double)));
    std::vector<double> ones(4 * size_t(N + 1), 1.0);
    CK(cudaMemcpy(vec, ones.data(), ones.size() * sizeof(double), cudaMemcpyHostToDevice));
    const Lines lines{c, vec, vec + (N + 1), vec + 2 * (N + 1), vec + 3 * (N + 1)};
    double* pinned;
    CK(cudaHostAlloc(&pinned, 64 * sizeof(double), cudaHostAllocDefault));
    double* devOut;
    CK(cudaMalloc(&devOut, 64 * sizeof(double)));
    int* scratch;
    CK(cudaMalloc(&scratch, 4096 * sizeof(int)));
    CK(cudaMemset(scratch, 0, 4096 * sizeof(int)));
    unsigned* done;
    CK(cudaMalloc(&done, sizeof(unsigned) + sizeof(int)));
    CK(cudaMemset(done, 0, sizeof(unsigned) + sizeof(int)));
    int* total = reinterpret_cast<int*>(done + 1);
    double* flag;
    CK(cudaMalloc(&flag, sizeof(double)));
    CK(cudaMemset(flag, 0, sizeof(double)));
    float* sink;
    CK(cudaMalloc(&sink, sizeof(float)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    const auto cluster = [&](int mode, double* out) {
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = dim3(8);
        cfg.blockDim = dim3(1024);
        cfg.stream = s;
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = 8;
        a[0].val.clusterDim.y = 1;
        a[0].val.clusterDim.z = 1;
        cfg.attrs = a;
        cfg.numAttrs = 1;
        CK(cudaLaunchKernelEx(&cfg, clusterKernel, lines, out, mode));
    };
    const auto rebuildTail = [&](bool pdl) {
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = dim3(530);
        cfg.blockDim = dim3(256);
        cfg.stream = s;
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        a[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = a;
        cfg.numAttrs = pdl ? 1 : 0;
        CK(cudaLaunchKernelEx(&cfg, emptyGridKernel, (const double*)flag, scratch, pdl));
    };
    const auto pass = [&] {
        passKernel<<<prop.multiProcessorCount * 4, 256, 0, s>>>(b, bBytes / 16, sink);
    };
    struct Variant {
        const char* name;
        std::function<void()> x;
        int tail;  // 0 tiny, 1 the rebuild's empty grid, 2 that grid as PDL
    };
    std::vector<Variant> variants = {
        {"(none)", [] {}, 0},
        {"tiny kernel 1 x 32", [&] { tinyKernel<<<1, 32, 0, s>>>(scratch); }, 0},
        {"block 1 x 1024, empty", [&] { blockKernel<<<1, 1024, 0, s>>>(lines, pinned, 0); }, 0},
        {"block 1 x 1024, scan + verdict (pinned)", [&] { blockKernel<<<1, 1024, 0, s>>>(lines, pinned, 6); }, 0},
        {"cluster 8 x 1024, empty", [&] { cluster(0, pinned); }, 0},
        {"cluster, two barriers", [&] { cluster(1, pinned); }, 0},
        {"cluster, two barriers + verdict (pinned)", [&] { cluster(5, pinned); }, 0},
        {"cluster, two barriers + verdict (device)", [&] { cluster(5, devOut); }, 0},
        {"cluster, scan + barriers + verdict (pinned)", [&] { cluster(7, pinned); }, 0},
        {"grid 32 x 256, scan + last block verdict (pinned)", [&] { gridKernel<<<32, 256, 0, s>>>(lines, pinned, done, total, 4); }, 0},
        {"grid 64 x 256, scan + last block verdict (pinned)", [&] { gridKernel<<<64, 256, 0, s>>>(lines, pinned, done, total, 4); }, 0},
        {"grid 128 x 256, scan + last block verdict (pinned)", [&] { gridKernel<<<128, 256, 0, s>>>(lines, pinned, done, total, 4); }, 0},
        {"grid 32 x 256, scan + last block verdict (device)", [&] { gridKernel<<<32, 256, 0, s>>>(lines, devOut, done, total, 4); }, 0},
        {"(none), tail: rebuild's empty grid", [] {}, 1},
        {"cluster scan + verdict, tail: rebuild's empty grid", [&] { cluster(7, pinned); }, 1},
        {"cluster scan + verdict, tail: empty grid as PDL", [&] { cluster(7, pinned); }, 2},
        {"grid 64 scan + verdict, tail: rebuild's empty grid", [&] { gridKernel<<<64, 256, 0, s>>>(lines, pinned, done, total, 4); }, 1},
        {"grid 64 scan + verdict, tail: empty grid as PDL", [&] { gridKernel<<<64, 256, 0, s>>>(lines, pinned, done, total, 4); }, 2},
    };
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int reps = 201;
    std::vector<std::vector<float>> times(variants.size());
    // Interleaved: every variant once per round, so that the machine's drift touches all alike.
    for (int r = -3; r < reps; ++r)
        for (size_t v = 0; v < variants.size(); ++v) {
            CK(cudaEventRecord(e0, s));
            pass();
            variants[v].x();
            if (variants[v].tail == 0)
                tinyKernel<<<1, 32, 0, s>>>(scratch);
            else
                rebuildTail(variants[v].tail == 2);
            CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                times[v].push_back(ms * 1000.f);
        }
    CK(cudaGetLastError());
    const auto median = [](std::vector<float> t) {
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    };
    const float base = median(times[0]);
    printf("%-55s %10s %10s\n", "variant", "chain us", "added us");
    for (size_t v = 0; v < variants.size(); ++v) {
        const float m = median(times[v]);
        printf("%-55s %10.2f %10.2f\n", variants[v].name, m, m - base);
    }
    return 0;
}
