// GPU test support (see test_support.hpp).
#include "families/blocked_gemm/cuda/test_support.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/event_timing.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "gemm/cuda/protected_product.hpp"

#include <algorithm>

namespace gigacheck::cuda {

namespace {

std::size_t esz(Precision p) { return p == Precision::F64 ? 8 : 4; }
Index pad32(Index x) { return (x + 31) / 32 * 32; }

}  // namespace

// C[m x q] (+)= A B on device copies of host matrices laid out densely.
GemmCall denseCall(GemmVariant v, const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, const DeviceBuffer& da,
                   const DeviceBuffer& db, DeviceBuffer& dc)
{
    GemmCall g;
    g.variant = v;
    g.precision = a.precision();
    g.m = a.rows();
    g.n = a.cols();
    g.q = b.cols();
    g.a = da.get();
    g.lda = a.cols();
    g.b = db.get();
    g.ldb = b.cols();
    g.c = dc.get();
    g.ldc = c.cols();
    return g;
}

void gemmOnDevice(GemmVariant v, int tile, int optimizedBk, const HostMatrix& a, const HostMatrix& b, HostMatrix& c)
{
    DeviceBuffer da(a.bytes()), db(b.bytes()), dc(c.bytes());
    CUDA_CHECK(cudaMemcpy(da.get(), a.data(), a.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db.get(), b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CublasHandle h;
    GemmCall g = denseCall(v, a, b, c, da, db, dc);
    g.tile = tile;
    g.optimizedBk = optimizedBk;
    gemm(g, h.get(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c.data(), dc.get(), c.bytes(), cudaMemcpyDeviceToHost));
}

std::string tunedGemmOnDevice(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, bool accumulate,
                              int* configurations, bool throughShorterDepth)
{
    DeviceBuffer da(a.bytes()), db(b.bytes()), dc(c.bytes());
    CUDA_CHECK(cudaMemcpy(da.get(), a.data(), a.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db.get(), b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CublasHandle h;
    Stream s;
    GemmCall g = denseCall(GemmVariant::Cublas, a, b, c, da, db, dc);
    g.accumulate = accumulate;
    g.tuned = true;
    TuningOptions keepFastest;
    keepFastest.keepFastest = true;
    if (throughShorterDepth) {
        GemmCall pick = g;
        pick.tuned = false;
        keepFastest.longestMs = 0.5 * timeMs(s.get(), 3, [&] { gemm(pick, h.get(), s.get()); });
    }
    const GemmTuning t = tuneGemm(g, h.get(), s.get(), keepFastest);
    if (configurations)
        *configurations = t.configurations;
    // Tuning wrote C: C again, on s (a pageable cudaMemcpy may still be in flight when a kernel on
    // a non-blocking stream starts).
    CUDA_CHECK(cudaMemcpyAsync(dc.get(), c.data(), c.bytes(), cudaMemcpyHostToDevice, s.get()));
    gemm(g, h.get(), s.get());
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    CUDA_CHECK(cudaMemcpy(c.data(), dc.get(), c.bytes(), cudaMemcpyDeviceToHost));
    return t.kept;
}

ProtectedProduct protectedProductOnDevice(GemmVariant v, const HostMatrix& a, const HostMatrix& b,
                                          const RoundoffModel& model, const DeviceFault& fault, bool besideGemm)
{
    const Precision p = a.precision();
    const std::size_t e = esz(p);
    const Index m = a.rows(), n = a.cols(), q = b.cols();
    const Index lda = pad32(n), ldb = pad32(q + 2), ldc = pad32(q + 1), ldx = pad32(std::max(m, q) + 1);
    DeviceBuffer xa(std::size_t((m + 1) * lda) * e), xb(std::size_t(n * ldb) * e), xc(std::size_t((m + 1) * ldc) * e);
    DeviceBuffer aux(std::size_t(4 * ldx) * sizeof(double));
    Stream s;
    SideLane lane;
    CublasHandle h;
    CUDA_CHECK(cudaMemcpy2DAsync(xa.get(), std::size_t(lda) * e, a.data(), std::size_t(n) * e, std::size_t(n) * e,
                                 std::size_t(m), cudaMemcpyHostToDevice, s.get()));
    CUDA_CHECK(cudaMemcpy2DAsync(xb.get(), std::size_t(ldb) * e, b.data(), std::size_t(q) * e, std::size_t(q) * e,
                                 std::size_t(n), cudaMemcpyHostToDevice, s.get()));
    PinnedBuffer out(sizeof(VerifyOut)), injected(2 * sizeof(double));
    DeviceInjection d;
    d.row = fault.row;
    d.col = fault.col;
    d.delta = fault.delta;
    ProtectedBlocks blocks;
    blocks.gemm.variant = v;
    blocks.gemm.precision = p;
    blocks.gemm.m = m;
    blocks.gemm.n = n;
    blocks.gemm.q = q;
    blocks.gemm.a = xa.get();
    blocks.gemm.lda = lda;
    blocks.gemm.b = xb.get();
    blocks.gemm.ldb = ldb;
    blocks.gemm.c = xc.get();
    blocks.gemm.ldc = ldc;
    blocks.aux = AuxView{aux.as<double>(), ldx};
    blocks.model = model;
    blocks.fault = fault.row >= 0 ? &d : nullptr;
    blocks.faultBeforeAfter = injected.as<double>();
    blocks.out = out.as<VerifyOut>();
    blocks.besideGemm = besideGemm;
    protectedProduct(blocks, h.get(), s.get(), lane);
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    const VerifyOut& r = *out.as<VerifyOut>();
    ProtectedProduct result;
    result.verdict = verdictName(r);
    result.corrections = r.correctionCount;
    if (r.correctionCount > 0) {
        result.before = r.before[0];
        result.after = r.after[0];
        result.row = r.corrRow[0];
        result.col = r.corrCol[0];
    }
    result.maxCleanResidualRatio = r.maxCleanRatio;
    result.minThreshold = r.minThreshold;
    result.maxThreshold = r.maxThreshold;
    return result;
}

}  // namespace gigacheck::cuda
