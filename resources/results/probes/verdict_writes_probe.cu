// A stand-alone probe (not built by CMake): where a corrected fault's extra microseconds in the
// check kernel could go (issue 44: decideKernel at BF16 4096 took 18.1 us with one fault against
// 9.3 us clean under Nsight Compute, the first block's SM busy ~8 us longer, few warp samples there).
//   nvcc -O3 -std=c++17 -arch=sm_90a verdict_writes_probe.cu -o probe && ./probe
// One block of 1024 threads per launch, timed by events (median of 301; C overwritten before each
// launch, outside the timed window): nothing; the verdict's fields written into pinned host memory
// by one thread (9 as a clean check writes, 18 as one correction adds) or one field per warp, or into
// device memory; a column of C read as the correction reads it (4096 cells a row pitch apart, four
// per thread), summed and the cell written; and that read followed by the 18 pinned writes.
#include "probe_util.hpp"

constexpr int N = 4096, LDC = 4104;

// Offsets (in doubles) of the fields a correction adds, spread as VerifyOut's lists are.
__device__ __constant__ int kListOffsets[9] = {3, 131, 67, 195, 259, 291, 355, 419, 483};

template <int Fields, bool PerWarp, bool Column>
__global__ void __launch_bounds__(1024) probeKernel(const float* c, float* cell, double* out)
{
    __shared__ double part[32];
    const int tid = threadIdx.x;
    double s = 0;
    if (Column) {
#pragma unroll 4
        for (long long e = tid; e < N; e += blockDim.x)
            if (e != 100)
                s += double(c[e * LDC + 200]);
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (tid % 32 == 0)
            part[tid / 32] = s;
        __syncthreads();
        if (tid == 0) {
            double line = 0;
            for (int w = 0; w < 32; ++w)
                line += part[w];
            *cell = float(line);
            s = double(*cell);
        }
        __syncthreads();
    }
    if (Fields == 0)
        return;
    if (PerWarp) {
        if (tid % 32 == 0 && tid / 32 < Fields) {
            const int f = tid / 32;
            out[f < 9 ? f : kListOffsets[f - 9]] = s + f;
        }
    } else if (tid == 0) {
        for (int f = 0; f < Fields; ++f)
            out[f < 9 ? f : kListOffsets[f - 9]] = s + f;
    }
}

int main()
{
    float *c, *cell;
    double *pinned, *device;
    CK(cudaMalloc(&c, size_t(N + 1) * LDC * 4));
    CK(cudaMalloc(&cell, 4));
    CK(cudaMalloc(&device, 8192));
    CK(cudaHostAlloc(&pinned, 8192, cudaHostAllocDefault));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const auto time = [&](const char* name, auto kernel, double* out) {
        std::vector<float> t;
        for (int r = 0; r < 302; ++r) {
            fill<<<528, 256>>>(c, size_t(N + 1) * LDC, unsigned(r));
            CK(cudaEventRecord(a));
            kernel<<<1, 1024>>>(c, cell, out);
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, a, b));
            if (r > 0)
                t.push_back(ms * 1e3f);
        }
        std::sort(t.begin(), t.end());
        printf("%-58s median %6.2f us  (p10 %6.2f, p90 %6.2f)\n", name, t[t.size() / 2], t[t.size() / 10],
               t[t.size() * 9 / 10]);
    };
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("%s\n", p.name);
    for (int round = 0; round < 2; ++round) {
        time("nothing", probeKernel<0, false, false>, pinned);
        time("9 fields, pinned, one thread", probeKernel<9, false, false>, pinned);
        time("18 fields, pinned, one thread", probeKernel<18, false, false>, pinned);
        time("18 fields, pinned, one per warp", probeKernel<18, true, false>, pinned);
        time("18 fields, device memory, one thread", probeKernel<18, false, false>, device);
        time("column read + cell written", probeKernel<0, false, true>, pinned);
        time("column read + cell + 9 fields pinned, one thread", probeKernel<9, false, true>, pinned);
        time("column read + cell + 18 fields pinned, one thread", probeKernel<18, false, true>, pinned);
        time("column read + cell + 18 fields pinned, one per warp", probeKernel<18, true, true>, pinned);
    }
    return 0;
}
