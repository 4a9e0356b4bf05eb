// Device measurements behind `gigacheck devices --measure` and `gigacheck bench` (see measure.hpp).
#include "families/blocked_gemm/cuda/measure.hpp"

#include "abft/cuda/abft_device.hpp"
#include "abft/cuda/prepared_operands.hpp"
#include "abft/operand_rounding.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/device_fill.hpp"
#include "core/cuda/event_timing.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_16bit.hpp"
#include "gemm/cuda/gemm_rates.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "gemm/cuda/operand_transpose.hpp"
#include "families/blocked_gemm/cuda/operand_sums.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include "gigacheck/abft.hpp"

#include <cublasXt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

namespace gigacheck::cuda {

namespace {

std::size_t esz(Precision p) { return p == Precision::F64 ? 8 : 4; }
// One element of a device matrix, as double.
double cellOf(Precision p, const void* m, Index ld, Index row, Index col)
{
    if (p == Precision::F64) {
        double v = 0;
        CUDA_CHECK(cudaMemcpy(&v, static_cast<const double*>(m) + row * ld + col, 8, cudaMemcpyDeviceToHost));
        return v;
    }
    float v = 0;
    CUDA_CHECK(cudaMemcpy(&v, static_cast<const float*>(m) + row * ld + col, 4, cudaMemcpyDeviceToHost));
    return v;
}

// C[row, col] = A[row, :] . B[:, col] in double, written back in the element type (the repair
// pass's recompute of a corrected cell). FP32: each operand value as the product multiplied it
// (asMultiplied with `rounding`; e.g. rounded to TF32 for the fused kernel, whose operands in
// memory stay unrounded).
void recomputeCellOnHost(Precision p, const void* a, Index lda, const void* b, Index ldb, void* c, Index ldc, Index n,
                         Index row, Index col, OperandRounding rounding = {})
{
    const std::size_t e = esz(p);
    std::vector<char> ar(std::size_t(n) * e), bc(std::size_t(n) * e);
    CUDA_CHECK(cudaMemcpy(ar.data(), static_cast<const char*>(a) + std::size_t(row * lda) * e, std::size_t(n) * e,
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy2D(bc.data(), e, static_cast<const char*>(b) + std::size_t(col) * e, std::size_t(ldb) * e, e,
                            std::size_t(n), cudaMemcpyDeviceToHost));
    double dot = 0;
    for (Index k = 0; k < n; ++k) {
        if (p == Precision::F64)
            dot += reinterpret_cast<const double*>(ar.data())[k] * reinterpret_cast<const double*>(bc.data())[k];
        else
            dot += double(asMultiplied(reinterpret_cast<const float*>(ar.data())[k], rounding)) *
                   double(asMultiplied(reinterpret_cast<const float*>(bc.data())[k], rounding));
    }
    char* cell = static_cast<char*>(c) + std::size_t(row * ldc + col) * e;
    if (p == Precision::F64) {
        CUDA_CHECK(cudaMemcpy(cell, &dot, 8, cudaMemcpyHostToDevice));
    } else {
        const float f = float(dot);
        CUDA_CHECK(cudaMemcpy(cell, &f, 4, cudaMemcpyHostToDevice));
    }
}

Index pad32(Index x) { return (x + 31) / 32 * 32; }

const char* checksums16Name(Checksums16By by)
{
    switch (by) {
    case Checksums16By::SideProducts:
        return "checksums by products beside the kernel";
    case Checksums16By::KernelColumn:
        return "checksum column by the kernel";
    case Checksums16By::Passes:
        break;
    }
    return "checksums by passes";
}

std::string isoDate()
{
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
    return buf;
}

}  // namespace

void linkBandwidth(double& h2dGBs, double& d2hGBs)
{
    const std::size_t bytes = std::size_t(256) << 20;
    PinnedBuffer host(bytes);
    DeviceBuffer dev(bytes);
    std::memset(host.get(), 1, bytes);
    Stream s;
    const double h2d = timeMs(s.get(), 5, [&] {
        CUDA_CHECK(cudaMemcpyAsync(dev.get(), host.get(), bytes, cudaMemcpyHostToDevice, s.get()));
    });
    const double d2h = timeMs(s.get(), 5, [&] {
        CUDA_CHECK(cudaMemcpyAsync(host.get(), dev.get(), bytes, cudaMemcpyDeviceToHost, s.get()));
    });
    h2dGBs = double(bytes) / (h2d * 1e-3) / 1e9;
    d2hGBs = double(bytes) / (d2h * 1e-3) / 1e9;
}

Ceilings measureDeviceCeilings(int device, MeasureSteps* steps)
{
    auto next = [steps](const char* stage) {
        if (steps)
            steps->next(stage);
    };
    CUDA_CHECK(cudaSetDevice(device));
    Ceilings c;
    next("FP32 GEMM roof");
    c.gflopsF32 = inCoreGemmGflops(8192, 8192, 8192, Precision::F32, 5);
    next("FP64 GEMM roof");
    c.gflopsF64 = inCoreGemmGflops(8192, 8192, 8192, Precision::F64, 5);
    next("TF32 GEMM roof");
    {
        const Index n = 8192;
        DeviceBuffer a(std::size_t(n * n) * 4), b(std::size_t(n * n) * 4), cc(std::size_t(n * n) * 4);
        Stream s;
        CublasHandle h;
        fill(Precision::F32, a.get(), n, n, n, 1, s.get());
        fill(Precision::F32, b.get(), n, n, n, 2, s.get());
        GemmCall g;
        g.variant = GemmVariant::CublasTf32;
        g.m = g.n = g.q = n;
        g.a = a.get();
        g.b = b.get();
        g.c = cc.get();
        g.lda = g.ldb = g.ldc = n;
        const double ms = timeMs(s.get(), 5, [&] { gemm(g, h.get(), s.get()); });
        c.gflopsTf32 = gemmFlops(n, n, n) / (ms * 1e-3) / 1e9;
        // The 16-bit roofs: cuBLAS on operands already in BF16 / FP16 (no conversion timed), C in FP32.
        next("BF16 / FP16 GEMM roof");
        DeviceBuffer a16(std::size_t(n * n) * 2), b16(std::size_t(n * n) * 2);
        for (InputFormat f : {InputFormat::Bf16, InputFormat::F16}) {
            convertTo16Bit(f, static_cast<const float*>(a.get()), n, n, n, a16.get(), s.get());
            convertTo16Bit(f, static_cast<const float*>(b.get()), n, n, n, b16.get(), s.get());
            const double ms16 = timeMs(s.get(), 5, [&] {
                gemmOf16BitOperands(f, a16.get(), b16.get(), static_cast<float*>(cc.get()), n, n, n, h.get(), s.get());
            });
            (f == InputFormat::Bf16 ? c.gflopsBf16 : c.gflopsF16) = gemmFlops(n, n, n) / (ms16 * 1e-3) / 1e9;
        }
    }
    next("device memory bandwidth");
    {
        const std::size_t bytes = std::size_t(1) << 30;
        DeviceBuffer x(bytes), y(bytes);
        Stream s;
        CUDA_CHECK(cudaMemsetAsync(x.get(), 1, bytes, s.get()));
        const double ms = timeMs(s.get(), 10, [&] {
            CUDA_CHECK(cudaMemcpyAsync(y.get(), x.get(), bytes, cudaMemcpyDeviceToDevice, s.get()));
        });
        c.deviceBandwidthGBs = 2.0 * double(bytes) / (ms * 1e-3) / 1e9;  // read + write
    }
    next("host link bandwidth");
    linkBandwidth(c.h2dGBs, c.d2hGBs);
    c.source = "measured " + isoDate();
    return c;
}

GemmTiming timeGemm(GemmVariant v, int tile, int optimizedBk, Precision p, Index n, int reps, bool bTransposed)
{
    const std::size_t bytes = std::size_t(n * n) * esz(p);
    const bool kMajorB = bTransposed && v == GemmVariant::CutlassTf32 && p == Precision::F32;
    DeviceBuffer a(bytes), b(bytes), c(bytes), bt(kMajorB ? bytes : 0);
    Stream s;
    CublasHandle h;
    fill(p, a.get(), n, n, n, 11, s.get());
    fill(p, b.get(), n, n, n, 12, s.get());
    GemmCall g;
    g.variant = v;
    g.tile = tile;
    g.optimizedBk = optimizedBk;
    g.precision = p;
    g.m = g.n = g.q = n;
    g.a = a.get();
    g.b = b.get();
    g.c = c.get();
    g.lda = g.ldb = g.ldc = n;
    GemmTiming t;
    if (v == GemmVariant::CutlassTf32) {
        g.cutlassConfig = tile;
        t.kernel = tile < 0 ? "tuned" : cutlassTf32ConfigName(tile);
        t.kernelCount = cutlassTf32ConfigCount();
        for (int config = 0; config < t.kernelCount; ++config) {
            if (cutlassTf32ConfigRuns(config, true))
                t.kernelsKMajor.push_back(config);
            if (cutlassTf32ConfigRuns(config, false))
                t.kernelsBAsItLies.push_back(config);
        }
        if (kMajorB) {
            transposeOperand(static_cast<const float*>(b.get()), n, n, n, bt.as<float>(), n, s.get());
            g.bTransposed = bt.get();
            t.kernel += " B K-major";
        }
    }
    t.medianMs = timeMs(s.get(), reps, [&] { gemm(g, h.get(), s.get()); });
    t.gflops = gemmFlops(n, n, n) / (t.medianMs * 1e-3) / 1e9;
    if (kMajorB && tile < 0)  // tuned by timeMs's first, untimed run: only looked up here
        t.picked = cutlassTf32ConfigName(cutlassTf32KMajorPick(cutlassCallOf(g), s.get()));

    // Correctness on a few sampled rows against an FP64 host product of the same inputs.
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    const std::size_t nn = std::size_t(n);
    std::vector<double> hb(nn * nn), ha(nn), hc(nn);
    auto fetch = [&](const void* src, std::size_t count, std::vector<double>& dst) {
        if (p == Precision::F64) {
            CUDA_CHECK(cudaMemcpy(dst.data(), src, count * 8, cudaMemcpyDeviceToHost));
        } else {
            std::vector<float> tmp(count);
            CUDA_CHECK(cudaMemcpy(tmp.data(), src, count * 4, cudaMemcpyDeviceToHost));
            std::copy(tmp.begin(), tmp.end(), dst.begin());
        }
    };
    fetch(b.get(), std::size_t(n * n), hb);
    double worst = 0;
    for (Index row : {Index(0), n / 2, n - 1}) {
        fetch(static_cast<const char*>(a.get()) + std::size_t(row * n) * esz(p), std::size_t(n), ha);
        fetch(static_cast<const char*>(c.get()) + std::size_t(row * n) * esz(p), std::size_t(n), hc);
        for (Index j = 0; j < n; ++j) {
            double ref = 0, mag = 0;
            for (Index k = 0; k < n; ++k) {
                ref += ha[std::size_t(k)] * hb[std::size_t(k * n + j)];
                mag += std::fabs(ha[std::size_t(k)] * hb[std::size_t(k * n + j)]);
            }
            worst = std::max(worst, std::fabs(hc[std::size_t(j)] - ref) / std::max(mag, 1e-300));
        }
    }
    t.relError = worst;
    return t;
}

AbftTiming timeAbftOverhead(Precision p, GemmVariant variant, Index n, int errors, int reps)
{
    const std::size_t e = esz(p);
    const bool tf32 = variant == GemmVariant::CublasTf32;
    const InputFormat input = p == Precision::F32 ? inputFormatOf(variant) : InputFormat::F32;
    const bool sixteenBit = input == InputFormat::Bf16 || input == InputFormat::F16;
    Stream s;
    CublasHandle h;

    // Plain: unaugmented, tight leading dimensions.
    DeviceBuffer pa(std::size_t(n * n) * e), pb(std::size_t(n * n) * e), pc(std::size_t(n * n) * e);
    fill(p, pa.get(), n, n, n, 21, s.get());
    fill(p, pb.get(), n, n, n, 22, s.get());
    GemmCall plain;
    plain.variant = variant;
    plain.precision = p;
    plain.m = plain.n = plain.q = n;
    plain.a = pa.get();
    plain.b = pb.get();
    plain.c = pc.get();
    plain.lda = plain.ldb = plain.ldc = n;

    // Protected: the plan's layout (augmented, leading dimensions padded to 32), same inputs.
    const Index lda = pad32(n), ldb = pad32(n + 2), ldc = pad32(n + 1), ldx = pad32(n + 1);  // B: r_B + row norms
    DeviceBuffer xa(std::size_t((n + 1) * lda) * e), xb(std::size_t(n * ldb) * e), xc(std::size_t((n + 1) * ldc) * e);
    DeviceBuffer aux(std::size_t(4 * ldx) * sizeof(double));
    CUDA_CHECK(cudaMemcpy2DAsync(xa.get(), std::size_t(lda) * e, pa.get(), std::size_t(n) * e, std::size_t(n) * e,
                                 std::size_t(n), cudaMemcpyDeviceToDevice, s.get()));
    CUDA_CHECK(cudaMemcpy2DAsync(xb.get(), std::size_t(ldb) * e, pb.get(), std::size_t(n) * e, std::size_t(n) * e,
                                 std::size_t(n), cudaMemcpyDeviceToDevice, s.get()));
    PinnedBuffer out(sizeof(VerifyOut)), injected(2 * sizeof(double));
    GemmCall prot = plain;
    prot.a = xa.get();
    prot.b = xb.get();
    prot.c = xc.get();
    prot.lda = lda;
    prot.ldb = ldb;
    prot.ldc = ldc;
    const AuxView av{aux.as<double>(), ldx};
    DeviceInjection fault;
    fault.row = n / 3;
    fault.col = n / 2;
    // |C_ij| ~ sqrt(n / 9) for U(-1, 1) inputs; every threshold here (TF32 included) stays well
    // below 1000 up to n = 16384.
    fault.delta = 1000.0;
    const RoundoffModel model = roundoffModel(p, input);
    SideLane lane;
    ProtectedBlocks blocks;
    blocks.gemm = prot;
    blocks.aux = av;
    blocks.model = model;
    blocks.fault = errors > 0 ? &fault : nullptr;
    blocks.faultBeforeAfter = injected.as<double>();
    blocks.out = out.as<VerifyOut>();

    // BF16 / FP16: plain cuBLAS of the same precision reads operands already in 16 bits.
    DeviceBuffer pa16(sixteenBit ? std::size_t(n * n) * 2 : 0), pb16(sixteenBit ? std::size_t(n * n) * 2 : 0);
    if (sixteenBit) {
        convertTo16Bit(input, static_cast<const float*>(pa.get()), n, n, n, pa16.get(), s.get());
        convertTo16Bit(input, static_cast<const float*>(pb.get()), n, n, n, pb16.get(), s.get());
    }
    auto runPlain = [&] {
        if (sixteenBit)
            gemmOf16BitOperands(input, pa16.get(), pb16.get(), static_cast<float*>(pc.get()), n, n, n, h.get(), s.get());
        else
            gemm(plain, h.get(), s.get());
    };
    // As the backend does (protected_product.hpp): B's checksum pass first (moving it beside the
    // GEMM too was measured slower out of core and with TF32; A's checksum comes with the
    // products' pass over A), then the checksum products on a side stream beside the GEMM.
    auto runProtected = [&] { protectedProduct(blocks, h.get(), s.get(), lane); };
    AbftTiming t;

    // TF32: the fused CUTLASS product, when the kernel runs on this device, on its own copies of the
    // unrounded inputs (the cuBLAS TF32 protected runs round xa / xb in place): its passes round
    // A and B to TF32 in registers and never write them, B's checksum pass lays B^T out rounded
    // (checksumBTransposed), and the kernel reads A as stored and that B^T (both operands K-major;
    // its tensor cores round A themselves). It shares C and Aux with the cuBLAS protected runs
    // (each protected run rewrites both). The kernel timed alone gets the plain B^T laid out beforehand.
    const bool fusedWanted = tf32 && p == Precision::F32;
    const std::size_t fusedBytes = fusedWanted ? std::size_t(n * n) * e : 0;
    DeviceBuffer fusedBt(fusedBytes), plainBt(fusedBytes);
    DeviceBuffer fa(fusedWanted ? std::size_t((n + 1) * lda) * e : 0), fb(fusedWanted ? std::size_t(n * ldb) * e : 0);
    if (fusedWanted) {
        CUDA_CHECK(cudaMemcpy2DAsync(fa.get(), std::size_t(lda) * e, pa.get(), std::size_t(n) * e, std::size_t(n) * e,
                                     std::size_t(n), cudaMemcpyDeviceToDevice, s.get()));
        CUDA_CHECK(cudaMemcpy2DAsync(fb.get(), std::size_t(ldb) * e, pb.get(), std::size_t(n) * e, std::size_t(n) * e,
                                     std::size_t(n), cudaMemcpyDeviceToDevice, s.get()));
    }
    PinnedBuffer fusedOut(sizeof(VerifyOut));
    ProtectedBlocks fusedBlocks = blocks;
    fusedBlocks.gemm.variant = GemmVariant::CutlassTf32;
    fusedBlocks.gemm.a = fa.get();
    fusedBlocks.gemm.b = fb.get();
    fusedBlocks.gemm.bTransposed = fusedBt.get();
    fusedBlocks.out = fusedOut.as<VerifyOut>();
    GemmCall fusedPlain = plain;
    fusedPlain.variant = GemmVariant::CutlassTf32;
    fusedPlain.bTransposed = plainBt.get();
    if (fusedWanted) {
        transposeOperand(static_cast<const float*>(pb.get()), n, n, n, plainBt.as<float>(), n, s.get());
        try {
            gemm(fusedPlain, h.get(), s.get());
            CUDA_CHECK(cudaStreamSynchronize(s.get()));
            t.fused.ran = true;
        } catch (const BackendError& e) {
            (void)cudaGetLastError();
            t.fused.why = e.what();
        }
    }
    auto runFused = [&] { protectedProduct(fusedBlocks, h.get(), s.get(), lane); };
    auto runFusedPlain = [&] { gemm(fusedPlain, h.get(), s.get()); };
    // The kernel alone on the operands the fused protected product hands it: A as stored (never
    // written) and the rounded B^T its checksum pass laid out (13 zero bits per value: does the
    // kernel run faster on them, as on zeros?).
    GemmCall fusedRounded = fusedBlocks.gemm;
    auto runFusedRounded = [&] { gemm(fusedRounded, h.get(), s.get()); };
    // The fused product on operands prepared at entry: its own B^T and checksum vectors, made once
    // from fa / fb (prepareMs, timed apart), then each product reads A and B^T once beside the kernel.
    // Prepared for both ways of taking C's checksum column: B^T with its checksum rows under it, A's row scales.
    DeviceBuffer preparedBt(fusedWanted ? std::size_t((n + kChecksumRowsOfBt) * n) * e : 0);
    DeviceBuffer preparedStore(fusedWanted ? PreparedOperands::doublesFor(n, n) * sizeof(double) : 0);
    const PreparedOperands prepared = PreparedOperands::in(preparedStore.as<double>(), n, n);
    PinnedBuffer preparedOut(sizeof(VerifyOut));
    ProtectedBlocks preparedBlocks = fusedBlocks;
    preparedBlocks.gemm.bTransposed = preparedBt.get();
    preparedBlocks.out = preparedOut.as<VerifyOut>();
    auto runPrepare = [&] {
        prepareOperands(fa.as<float>(), lda, n, fb.as<float>(), n, n, ldb, preparedBt.as<float>(), n, prepared, s.get());
    };
    // The prepared product's pass runs in the GEMM's last round (protectedProductPrepared's tail):
    // its products go on a stream of the greatest priority, the pass on the lane's ordinary one.
    // "pass first": the same product with the pass before the kernel, as one stream runs it.
    Stream sPrepared = Stream::highestPriority();
    SideLane tail;
    ChecksumColumnBy preparedWay = ChecksumColumnBy::Pass;
    auto runPrepared = [&] {
        preparedWay =
            protectedProductPrepared(preparedBlocks, prepared, h.get(), sPrepared.get(), SumsOfC::FromEpilogue, &tail);
    };
    // The same product with C's checksum column taken the other way (the pass where the choice was the
    // kernel, the kernel where it fits and the choice was the pass): what the choice is measured by.
    PinnedBuffer otherWayOut(sizeof(VerifyOut));
    ProtectedBlocks otherWayBlocks = preparedBlocks;
    otherWayBlocks.out = otherWayOut.as<VerifyOut>();
    bool otherWayRuns = false;
    auto runPreparedOtherWay = [&] {
        protectedProductPrepared(otherWayBlocks, prepared, h.get(), sPrepared.get(), SumsOfC::FromEpilogue, &tail,
                                 preparedWay == ChecksumColumnBy::Kernel ? ChecksumColumnBy::Pass : ChecksumColumnBy::Kernel);
    };
    auto runPreparedPassFirst = [&] { protectedProductPrepared(preparedBlocks, prepared, h.get(), sPrepared.get()); };
    PinnedBuffer byPassOut(sizeof(VerifyOut));
    ProtectedBlocks byPassBlocks = preparedBlocks;
    byPassBlocks.out = byPassOut.as<VerifyOut>();
    auto runPreparedByPass = [&] {
        protectedProductPrepared(byPassBlocks, prepared, h.get(), s.get(), SumsOfC::ByPass);
    };
    GemmCall withSums = preparedBlocks.gemm;  // what the epilogue's reductions cost the kernel
    withSums.rowSums = av.scratch0();
    withSums.colSums = av.scratch1();
    auto runWithSums = [&] {
        zeroProductSums(av, n, n, s.get());
        gemm(withSums, h.get(), s.get());
    };
    if (t.fused.ran) {
        runPrepare();
        CUDA_CHECK(cudaStreamSynchronize(s.get()));  // the prepared products run on sPrepared
        // The kernel's shape as the product runs it: with the checksum column, C has B^T's checksum rows more.
        runPrepared();
        CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
        const bool columnByKernel = preparedWay == ChecksumColumnBy::Kernel;
        GemmCall asRun = preparedBlocks.gemm;
        if (columnByKernel)
            asRun.q += kChecksumRowsOfBt;
        t.fused.picked = cutlassTf32ConfigName(cutlassTf32KMajorPick(cutlassCallOf(asRun), s.get()));
        t.fused.preparedColumn = columnByKernel ? "kernel" : "pass";
        otherWayRuns = columnByKernel || kernelChecksumColumnFits(preparedBlocks.gemm, preparedBlocks.aux, prepared);
        if (otherWayRuns) {  // its kernel's shape tuned before the timed repetitions
            runPreparedOtherWay();
            CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
        }
    }

    // BF16 / FP16: the protected product on the plain side's own 16-bit operands
    // (protectedProductOf16BitOperands: its passes read 2 bytes per element and write no operand),
    // against the same plain cuBLAS GEMM, in its own C and Aux.
    DeviceBuffer c16(sixteenBit ? std::size_t((n + 1) * ldc) * 4 : 0), aux16(sixteenBit ? std::size_t(4 * ldx) * 8 : 0);
    DeviceBuffer rowChecksums16(sixteenBit ? std::size_t(2 * n) * 4 : 0);
    PinnedBuffer out16(sizeof(VerifyOut)), injected16(2 * sizeof(double));
    Protected16BitBlocks blocks16;
    blocks16.format = input;
    blocks16.a16 = pa16.get();
    blocks16.b16 = pb16.get();
    blocks16.c = c16.as<float>();
    blocks16.ldc = ldc;
    blocks16.m = blocks16.n = blocks16.q = n;
    blocks16.aux = AuxView{aux16.as<double>(), ldx};
    blocks16.rowChecksumsB = rowChecksums16.as<float>();
    blocks16.model = model;
    blocks16.fault = errors > 0 ? &fault : nullptr;
    blocks16.faultBeforeAfter = injected16.as<double>();
    blocks16.out = out16.as<VerifyOut>();
    auto runProtected16 = [&] { protectedProductOf16BitOperands(blocks16, h.get(), s.get(), lane); };
    // The same with C's sums from the CUTLASS kernel's epilogue, when it runs here.
    PinnedBuffer out16Fused(sizeof(VerifyOut));
    Protected16BitBlocks blocks16Fused = blocks16;
    blocks16Fused.fusedSums = true;
    blocks16Fused.out = out16Fused.as<VerifyOut>();
    auto runProtected16Fused = [&] { protectedProductOf16BitOperands(blocks16Fused, h.get(), s.get(), lane); };
    // And on operands prepared at entry (prepare16BitOperands, timed apart as entryMs): A's and B's
    // checksum vectors taken once, so that a product reads A and B once each for its checksums and
    // the kernel writes C's sums.
    DeviceBuffer rowChecksums16Prepared(sixteenBit ? std::size_t(2 * n) * 4 : 0);
    DeviceBuffer prepared16Store(sixteenBit ? Prepared16BitOperands::doublesFor(n, n, n) * sizeof(double) : 0);
    const Prepared16BitOperands prepared16 = Prepared16BitOperands::in(prepared16Store.as<double>(), n, n, n);
    // c_A's and r_B's parts, so that the products beside the kernel can take both checksums; BF16: B
    // with its checksum columns too, so that the kernel can take C's checksum column.
    const bool bf16 = sixteenBit && input == InputFormat::Bf16;
    const Index ldbWith = n + kChecksumColumnsOf16BitB;
    DeviceBuffer b16With(bf16 ? std::size_t(n * ldbWith) * 2 : 0);
    DeviceBuffer parts16(sixteenBit ? std::size_t(checksumPartsElements(n)) * 2 : 0);
    DeviceBuffer sideParts16(sixteenBit ? std::size_t(sideProductPartsFloats(n, n)) * 4 : 0);
    auto runPrepare16 = [&] {
        prepare16BitOperands(input, pa16.get(), n, n, pb16.get(), n, n, n, rowChecksums16Prepared.as<float>(),
                             prepared16, s.get());
        prepare16BitChecksumParts(input, prepared16, n, parts16.get(), s.get());
        if (bf16)
            prepare16BitChecksumColumns(pb16.get(), n, n, n, prepared16, b16With.get(), ldbWith, s.get());
    };
    PinnedBuffer out16Prepared(sizeof(VerifyOut));
    Protected16BitBlocks blocks16Prepared = blocks16Fused;
    blocks16Prepared.prepared = &prepared16;
    blocks16Prepared.out = out16Prepared.as<VerifyOut>();
    auto runProtected16PassFirst = [&] { protectedProductOf16BitOperands(blocks16Prepared, h.get(), s.get(), lane); };
    Protected16BitBlocks blocks16Tail = blocks16Prepared;  // the passes in the GEMM's last round, as for TF32
    blocks16Tail.preparedPassInTail = true;
    blocks16Tail.bWithChecksumColumns = bf16 ? b16With.get() : nullptr;
    blocks16Tail.ldbWithChecksumColumns = bf16 ? ldbWith : 0;
    blocks16Tail.checksumParts = parts16.get();
    blocks16Tail.sideProductParts = sideParts16.as<float>();
    Checksums16By prepared16By = Checksums16By::Passes, otherWayBy = Checksums16By::Passes;
    auto runProtected16Prepared = [&] {
        prepared16By = protectedProductOf16BitOperands(blocks16Tail, h.get(), sPrepared.get(), tail);
    };
    // Where the products beside the kernel took the checksums, the same product without them (the
    // kernel's checksum column where it pays, the passes after the kernel); where the kernel took the
    // checksum column, the same product with the pass over A taking it.
    PinnedBuffer out16ColumnByPass(sizeof(VerifyOut));
    Protected16BitBlocks blocks16ColumnByPass = blocks16Tail;
    blocks16ColumnByPass.checksumParts = nullptr;
    blocks16ColumnByPass.out = out16ColumnByPass.as<VerifyOut>();
    auto runProtected16ColumnByPass = [&] {
        otherWayBy = protectedProductOf16BitOperands(blocks16ColumnByPass, h.get(), sPrepared.get(), tail);
    };
    // The CUTLASS kernel alone on the plain side's operands and C, no sums: its speed against cuBLAS.
    Cutlass16BitCall kernel16;
    kernel16.type = input == InputFormat::F16 ? Cutlass16BitType::F16 : Cutlass16BitType::Bf16;
    kernel16.m = kernel16.n = kernel16.q = n;
    kernel16.a = pa16.get();
    kernel16.b = pb16.get();
    kernel16.c = static_cast<float*>(pc.get());
    kernel16.lda = kernel16.ldb = kernel16.ldc = n;
    auto runKernel16 = [&] {
        if (const char* why = cutlass16BitGemm(kernel16, s.get()))
            throw BackendError(why);
    };
    if (sixteenBit) {
        try {
            runProtected16Fused();
            CUDA_CHECK(cudaStreamSynchronize(s.get()));
            t.operands16SumsFromEpilogue.ran = true;
            runPrepare16();
            t.operands16Prepared.ran = true;
            runProtected16Prepared();  // which way the checksums go (and its kernel's shape tuned)
            CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
            if (prepared16By == Checksums16By::KernelColumn)
                blocks16ColumnByPass.bWithChecksumColumns = nullptr;  // else: the same without the parts
            t.operands16PreparedColumnByPass.ran = prepared16By != Checksums16By::Passes;
            if (t.operands16PreparedColumnByPass.ran) {
                runProtected16ColumnByPass();
                CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
            }
            t.operands16Prepared.checksumsBy = checksums16Name(prepared16By);
            t.operands16PreparedColumnByPass.checksumsBy = checksums16Name(otherWayBy);
            t.operands16SumsFromEpilogue.picked = cutlass16BitConfigName(cutlass16BitPick(kernel16, s.get()));
        } catch (const BackendError& e) {
            (void)cudaGetLastError();
            t.operands16SumsFromEpilogue.why = e.what();
        }
    }

    // Interleaved repetitions: clock drift hits both sides alike.
    std::vector<double> plainMs, protectedMs, fusedMs, fusedPlainMs, fusedRoundedMs, preparedMs, passFirstMs, withSumsMs, byPassMs,
        otherWayMs,
        operands16Ms,
        operands16FusedMs, operands16PreparedMs, operands16PassFirstMs, kernel16Ms, operands16ColumnByPassMs;
    for (int r = 0; r < reps; ++r) {
        plainMs.push_back(timeMs(s.get(), 1, runPlain));
        protectedMs.push_back(timeMs(s.get(), 1, runProtected));
        if (sixteenBit)
            operands16Ms.push_back(timeMs(s.get(), 1, runProtected16));
        if (t.operands16SumsFromEpilogue.ran) {
            operands16FusedMs.push_back(timeMs(s.get(), 1, runProtected16Fused));
            operands16PreparedMs.push_back(timeMs(sPrepared.get(), 1, runProtected16Prepared));
            if (t.operands16PreparedColumnByPass.ran)
                operands16ColumnByPassMs.push_back(timeMs(sPrepared.get(), 1, runProtected16ColumnByPass));
            operands16PassFirstMs.push_back(timeMs(s.get(), 1, runProtected16PassFirst));
            kernel16Ms.push_back(timeMs(s.get(), 1, runKernel16));
        }
        if (t.fused.ran) {
            fusedMs.push_back(timeMs(s.get(), 1, runFused));
            fusedPlainMs.push_back(timeMs(s.get(), 1, runFusedPlain));
            fusedRoundedMs.push_back(timeMs(s.get(), 1, runFusedRounded));
            preparedMs.push_back(timeMs(sPrepared.get(), 1, runPrepared));
            passFirstMs.push_back(timeMs(sPrepared.get(), 1, runPreparedPassFirst));
            withSumsMs.push_back(timeMs(s.get(), 1, runWithSums));
            byPassMs.push_back(timeMs(s.get(), 1, runPreparedByPass));
            if (otherWayRuns)
                otherWayMs.push_back(timeMs(sPrepared.get(), 1, runPreparedOtherWay));
        }
    }
    t.plainMs = median(plainMs);
    t.protectedMs = median(protectedMs);
    if (sixteenBit) {
        t.operands16.ran = true;
        t.operands16.protectedMs = median(operands16Ms);
    }
    if (t.operands16SumsFromEpilogue.ran) {
        t.operands16SumsFromEpilogue.protectedMs = median(operands16FusedMs);
        t.operands16SumsFromEpilogue.kernelMs = median(kernel16Ms);
        t.operands16Prepared.protectedMs = median(operands16PreparedMs);
        t.operands16PreparedPassFirst.protectedMs = median(operands16PassFirstMs);
        if (t.operands16PreparedColumnByPass.ran)
            t.operands16PreparedColumnByPass.protectedMs = median(operands16ColumnByPassMs);
        t.operands16PreparedPassFirst.ran = true;
        t.operands16Prepared.entryMs = timeMs(s.get(), 5, runPrepare16);
    }
    if (t.fused.ran) {
        t.fused.protectedMs = median(fusedMs);
        t.fused.kernelMs = median(fusedPlainMs);
        t.fused.kernelRoundedMs = median(fusedRoundedMs);
        t.fused.preparedMs = median(preparedMs);
        t.fused.preparedPassFirstMs = median(passFirstMs);
        t.fused.kernelWithSumsMs = median(withSumsMs);
        t.fused.preparedByPassMs = median(byPassMs);
        if (!otherWayMs.empty())
            t.fused.preparedOtherWayMs = median(otherWayMs);
        t.fused.prepareMs = timeMs(s.get(), 5, runPrepare);
    }
    runProtected();  // C as the cuBLAS protected product leaves it, for the checks below

    // Each ABFT stage alone, to see how close its passes come to the copy bandwidth.
    if (errors == 0) {
        const double ab = double(n + 1) * double(n) * double(e);
        const VerifyCall v = verifyCall(p, xc.get(), n, n, ldc, n, av, model);
        t.stages.push_back({"checksum B (1 pass)", ab, timeMs(s.get(), 5, [&] { checksumB(p, xb.get(), n, n, ldb, s.get(), operandRounding(prot)); })});
        t.stages.push_back({"checksum products (2 passes)", 2 * ab, timeMs(s.get(), 5, [&] {
                                checksumProducts(p, xa.get(), lda, xb.get(), ldb, xc.get(), ldc, n, n, n, av, false, s.get(),
                                                 model.uInput > 0, operandRounding(prot));
                            })});
        t.stages.push_back({"verify (1 pass)", ab, timeMs(s.get(), 5, [&] { verify(v, out.as<VerifyOut>(), s.get()); })});
        // The end-to-end operand checks' sums over the copies of A and B as they arrived
        // (operand_sums.hpp; compared with the entry checksums on the host).
        PinnedBuffer operandSums(std::size_t(2 * n) * sizeof(double));
        t.stages.push_back({"operand sums of A and B (2 passes)", 2.0 * double(n) * double(n) * double(e),
                            timeMs(s.get(), 5, [&] {
                                blocked_gemm::operandColumnSums(p, xa.get(), n, n, lda, operandSums.as<double>(), s.get());
                                blocked_gemm::operandRowSums(p, xb.get(), n, n, ldb, operandSums.as<double>() + n, s.get());
                            })});
        // The fused path's passes: B's checksum with B^T laid out rounded in the same read (1 read of
        // B + 1 write of B^T), the checksum products rounding in registers (A and B read, nothing
        // written); its verification reads the epilogue's sums, not C.
        if (t.fused.ran) {
            t.fused.stages.push_back({"checksum B + B^T (1 read + 1 write)", 2 * ab, timeMs(s.get(), 5, [&] {
                                          checksumBTransposed(fb.as<float>(), n, n, ldb, fusedBt.as<float>(), n, s.get());
                                      })});
            t.fused.stages.push_back({"checksum products (2 passes)", 2 * ab, timeMs(s.get(), 5, [&] {
                                          checksumProducts(p, fa.get(), lda, fb.get(), ldb, xc.get(), ldc, n, n, n, av, false,
                                                           s.get(), true, kTf32InRegisters);
                                      })});
            t.fused.stages.push_back({"prepared: A and B^T read (2 passes)", 2.0 * double(n) * double(n) * double(e),
                                      timeMs(s.get(), 5, [&] {
                                          checksumProductsPrepared(fa.as<float>(), lda, preparedBt.as<float>(), n,
                                                                   xc.as<float>(), ldc, n, n, n, av, prepared, s.get());
                                      })});
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    const VerifyOut& r = *out.as<VerifyOut>();
    t.verdict = verdictName(r);
    t.corrections = r.correctionCount;
    t.threshold = r.maxThreshold;
    t.delta = errors > 0 ? fault.delta : 0;
    // As a run does after its verifications (abft README "Repair pass"): every result cell the
    // verification corrected is recomputed as one dot product in double over the operands the
    // product multiplied; then its distance from the clean value, the unprotected GEMM of those same
    // operands. cuBLAS TF32: the protected passes rounded xa / xb in place, and the clean value is
    // cuBLAS's product of them (the plain timing above multiplied the unrounded inputs, whose
    // rounding is the library's own). Fused: fa / fb stay unrounded and the product multiplied them
    // rounded to TF32, so the recompute rounds them (asMultiplied), and the clean value is the
    // CUTLASS kernel alone on A and the rounded B^T.
    auto correctedRelError = [&](const VerifyOut& v, bool fusedProduct) {
        const void* ma = fusedProduct ? fa.get() : xa.get();
        const void* mb = fusedProduct ? fb.get() : xb.get();
        // BF16 / FP16: the passes round xa / xb in registers, so the recompute rounds them too
        // (idempotent on operands rounded in place).
        const OperandRounding rounding = fusedProduct ? kTf32InRegisters : OperandRounding(operandRounding(prot));
        for (int x = 0; x < v.correctionCount; ++x)
            if (v.corrRow[x] < n && v.corrCol[x] < n)
                recomputeCellOnHost(p, ma, lda, mb, ldb, xc.get(), ldc, n, v.corrRow[x], v.corrCol[x], rounding);
        GemmCall same = fusedProduct ? fusedRounded : plain;
        same.a = ma;
        same.b = mb;
        same.c = pc.get();
        same.lda = lda;
        same.ldb = ldb;
        same.ldc = n;
        gemm(same, h.get(), s.get());
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        const double clean = cellOf(p, pc.get(), n, fault.row, fault.col);
        const double fixed = cellOf(p, xc.get(), ldc, fault.row, fault.col);
        return std::fabs(fixed - clean) / std::max(std::fabs(clean), 1e-300);
    };
    if (errors > 0)
        t.correctedRelError = correctedRelError(r, false);
    if (t.fused.ran) {
        runFused();
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        const VerifyOut& f = *fusedOut.as<VerifyOut>();
        t.fused.verdict = verdictName(f);
        t.fused.corrections = f.correctionCount;
        t.fused.threshold = f.maxThreshold;
        if (errors > 0)
            t.fused.correctedRelError = correctedRelError(f, true);
        runPrepared();
        CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
        const VerifyOut& pr = *preparedOut.as<VerifyOut>();
        t.fused.preparedVerdict = verdictName(pr);
        t.fused.preparedCorrections = pr.correctionCount;
        t.fused.preparedThreshold = pr.maxThreshold;
        if (errors > 0)
            t.fused.preparedCorrectedRelError = correctedRelError(pr, true);
        runPreparedByPass();
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        const VerifyOut& bp = *byPassOut.as<VerifyOut>();
        t.fused.preparedByPassVerdict = verdictName(bp);
        if (otherWayRuns) {
            runPreparedOtherWay();
            CUDA_CHECK(cudaStreamSynchronize(sPrepared.get()));
            t.fused.preparedOtherWayVerdict = verdictName(*otherWayOut.as<VerifyOut>());
        }
    }
    // The 16-bit operand rows: their last run's verdict, and the checksum's correction itself (no
    // repair pass reads 16-bit operands) against the plain GEMM of the same operands.
    auto check16 = [&](AbftTiming::Operands16& x, const std::function<void()>& run, const PinnedBuffer& o16) {
        if (!x.ran)
            return;
        run();
        CUDA_CHECK(cudaDeviceSynchronize());  // the prepared rows run on sPrepared
        runPlain();
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        const VerifyOut& o = *o16.as<VerifyOut>();
        x.verdict = verdictName(o);
        x.corrections = o.correctionCount;
        x.threshold = o.maxThreshold;
        if (errors > 0) {
            const double clean = cellOf(p, pc.get(), n, fault.row, fault.col);
            const double fixed = cellOf(p, c16.get(), ldc, fault.row, fault.col);
            x.correctedRelError = std::fabs(fixed - clean) / std::max(std::fabs(clean), 1e-300);
        }
    };
    check16(t.operands16, runProtected16, out16);
    check16(t.operands16SumsFromEpilogue, runProtected16Fused, out16Fused);
    check16(t.operands16Prepared, runProtected16Prepared, out16Prepared);
    check16(t.operands16PreparedPassFirst, runProtected16PassFirst, out16Prepared);
    check16(t.operands16PreparedColumnByPass, runProtected16ColumnByPass, out16ColumnByPass);
    return t;
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps)
{
    int dev = 0;  // the bench's device (runBench makes it current)
    CUDA_CHECK(cudaGetDevice(&dev));
    return timeCublasXt(a, b, c, blockDim, reps, {dev});
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps,
                    const std::vector<int>& gpus)
{
    int current = 0;
    CUDA_CHECK(cudaGetDevice(&current));
    cublasXtHandle_t h = nullptr;
    CUBLAS_CHECK(cublasXtCreate(&h));
    struct Guard {
        cublasXtHandle_t h;
        ~Guard() { cublasXtDestroy(h); }
    } guard{h};
    std::vector<int> devices = gpus;
    CUBLAS_CHECK(cublasXtDeviceSelect(h, int(devices.size()), devices.data()));
    CUBLAS_CHECK(cublasXtSetBlockDim(h, blockDim));
    CUBLAS_CHECK(cublasXtSetPinningMemMode(h, CUBLASXT_PINNING_DISABLED));  // ours is pinned already
    const std::size_t m = std::size_t(a.rows()), n = std::size_t(a.cols()), q = std::size_t(b.cols());
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up
        const auto start = std::chrono::steady_clock::now();
        if (a.precision() == Precision::F64) {
            const double alpha = 1, beta = 0;
            CUBLAS_CHECK(cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, q, m, n, &alpha, b.as<double>(), q, a.as<double>(), n,
                                       &beta, c.as<double>(), q));
        } else {
            const float alpha = 1, beta = 0;
            CUBLAS_CHECK(cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, q, m, n, &alpha, b.as<float>(), q, a.as<float>(), n,
                                       &beta, c.as<float>(), q));
        }
        for (int gpu : devices) {  // cublasXt returns with the product done; to be sure on every GPU
            CUDA_CHECK(cudaSetDevice(gpu));
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        CUDA_CHECK(cudaSetDevice(current));
        if (r > 0)
            t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return median(t);
}

}  // namespace gigacheck::cuda
