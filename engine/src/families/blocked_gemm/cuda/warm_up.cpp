// Runs every kernel family of the backend once on a tiny block (see warm_up.hpp): both
// precisions, every GEMM variant and tile, cuBLAS in each math mode with and without
// accumulation, the ABFT passes (plain and TF32 bounds), injection, verification and pinned
// copies. Zero inputs: nothing can mismatch; only the loading matters.
#include "families/blocked_gemm/cuda/warm_up.hpp"

#include "abft/cuda/abft_device.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include <cstdlib>
#include <mutex>
#include <set>

namespace gigacheck::cuda {

namespace {

std::mutex gMutex;
std::set<int> gWarm;  // devices warmed in this process

void warmPrecision(Precision p, cublasHandle_t handle, cudaStream_t s)
{
    constexpr Index n = 64, ld = 96;  // ld: 16-byte aligned rows, >= n + 2 (B: r_B and row norms)
    const std::size_t es = p == Precision::F64 ? 8 : 4;
    DeviceBuffer a(std::size_t((n + 1) * ld) * es), b(std::size_t((n + 1) * ld) * es), c(std::size_t((n + 1) * ld) * es);
    DeviceBuffer aux(std::size_t(4 * ld) * sizeof(double));
    for (const DeviceBuffer* d : {&a, &b, &c, &aux})
        CUDA_CHECK(cudaMemsetAsync(d->get(), 0, d->bytes(), s));

    PinnedBuffer host(std::size_t(n * n) * es), out(sizeof(VerifyOut)), injected(2 * sizeof(double));
    CUDA_CHECK(cudaMemcpy2DAsync(a.get(), std::size_t(ld) * es, host.get(), std::size_t(n) * es, std::size_t(n) * es,
                                 std::size_t(n), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpy2DAsync(host.get(), std::size_t(n) * es, c.get(), std::size_t(ld) * es, std::size_t(n) * es,
                                 std::size_t(n), cudaMemcpyDeviceToHost, s));

    const AuxView av{aux.as<double>(), ld};
    // The TF32 / BF16 / FP16 products round their operands in these passes.
    for (InputFormat rounding : {InputFormat::F32, InputFormat::Tf32, InputFormat::Bf16, InputFormat::F16}) {
        checksumB(p, b.get(), n, n, ld, s, rounding);
        for (bool accumulate : {false, true})
            checksumProducts(p, a.get(), ld, b.get(), ld, c.get(), ld, n, n, n, av, accumulate, s, false, rounding);
    }

    GemmCall g;
    g.precision = p;
    g.m = g.n = g.q = n;
    g.a = a.get();
    g.b = b.get();
    g.c = c.get();
    g.lda = g.ldb = g.ldc = ld;
    auto both = [&](GemmCall call) {
        for (bool accumulate : {false, true}) {
            call.accumulate = accumulate;
            gemm(call, handle, s);
        }
    };
    for (GemmVariant v : {GemmVariant::Naive, GemmVariant::Tiled, GemmVariant::Optimized, GemmVariant::Cublas,
                          GemmVariant::CublasTf32, GemmVariant::CublasBf16, GemmVariant::CublasF16,
                          GemmVariant::Tf32x3}) {
        if (roundsOperands(v) && p == Precision::F64)
            continue;
        g.variant = v;
        if (v == GemmVariant::Tiled) {
            for (int tile : {8, 16, 32}) {
                g.tile = tile;
                both(g);
            }
            continue;
        }
        if (v == GemmVariant::Optimized) {
            for (int bk : {8, 16}) {
                g.optimizedBk = bk;
                both(g);
                GemmCall unaligned = g;  // the variant without 16-byte loads
                unaligned.lda = ld - 1;
                both(unaligned);
            }
            continue;
        }
        both(g);
    }

    // cuBLAS picks its kernel by shape: a block-sized product per math mode too (1024^3 takes
    // well under a millisecond), so that the kernels most runs use are loaded as well.
    constexpr Index big = 1024;
    DeviceBuffer xa(std::size_t(big * big) * es), xb(std::size_t(big * big) * es), xc(std::size_t(big * big) * es);
    for (const DeviceBuffer* d : {&xa, &xb, &xc})
        CUDA_CHECK(cudaMemsetAsync(d->get(), 0, d->bytes(), s));
    GemmCall large = g;
    large.m = large.n = large.q = big;
    large.a = xa.get();
    large.b = xb.get();
    large.c = xc.get();
    large.lda = large.ldb = large.ldc = big;
    for (GemmVariant v : {GemmVariant::Cublas, GemmVariant::CublasTf32, GemmVariant::CublasBf16, GemmVariant::CublasF16}) {
        if (roundsOperands(v) && p == Precision::F64)
            continue;
        large.variant = v;
        both(large);
    }

    // The CUTLASS kernel (built and on Hopper only: elsewhere it declines before any launch), with
    // its sums, plus the small kernels of a check that reads them.
    if (p == Precision::F32) {
        CutlassTf32Call fused;
        fused.m = fused.n = fused.q = n;
        fused.a = a.as<float>();
        fused.b = b.as<float>();
        fused.c = c.as<float>();
        fused.lda = fused.ldb = fused.ldc = ld;
        fused.rowSums = av.scratch0();
        fused.colSums = av.scratch1();
        for (int config = 0; config < cutlassTf32ConfigCount(); ++config)
            for (bool bTransposed : {false, true}) {
                if (!cutlassTf32ConfigRuns(config, bTransposed))
                    continue;
                for (bool accumulate : {false, true}) {
                    fused.config = config;
                    fused.bTransposed = bTransposed;  // b then reads as B^T: zeros either way
                    fused.accumulate = accumulate;
                    (void)cutlassTf32Gemm(fused, s);
                }
            }
        zeroProductSums(av, n, n, s);
    }

    DeviceInjection inj;  // adds 0 to C(0, 0)
    inject(p, c.get(), ld, &inj, 1, injected.as<double>(), s);
    inject(p, c.get(), ld, &inj, 1, injected.as<double>(), s, ProductSums{av.scratch0(), av.scratch1(), n, n});
    VerifyCall v;
    v.precision = p;
    v.c = c.get();
    v.rows = v.cols = n;
    v.ldc = ld;
    v.depth = n;
    v.aux = av;
    v.u = 1e-7;
    verify(v, out.as<VerifyOut>(), s);
    // The lean sums of a check beside another stream's GEMM (online column blocks): loaded lazily
    // at its first check, the load waits for the GEMM running beside it, and the other block's
    // first product is issued only after that (kernel traces, online README).
    v.besideGemm = true;
    verify(v, out.as<VerifyOut>(), s);
    v.besideGemm = false;
    v.sumsFromProduct = true;  // after a fused-sums GEMM
    verify(v, out.as<VerifyOut>(), s);
    CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace

void warmUpDevice(int device)
{
    std::lock_guard lock(gMutex);
    // GIGACHECK_NO_WARMUP=1 measures what a cold first run costs (results README); never needed otherwise.
    if (gWarm.count(device) || std::getenv("GIGACHECK_NO_WARMUP"))
        return;
    CUDA_CHECK(cudaSetDevice(device));
    Stream s;
    CublasHandle handle;
    for (Precision p : {Precision::F32, Precision::F64})
        warmPrecision(p, handle.get(), s.get());
    gWarm.insert(device);
}

void forgetWarmUp()
{
    std::lock_guard lock(gMutex);
    gWarm.clear();
    forgetGemmTunings();
}

}  // namespace gigacheck::cuda
