// GPU test support of the fused K-major TF32 product (see fused_kmajor_test_support.hpp).
#include "gemm/cuda/fused_kmajor_test_support.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/operand_transpose.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace gigacheck::cuda {
namespace {

Index pad32(Index x) { return (x + 31) / 32 * 32; }

// rows x cols floats of a device block with leading dimension ld, densely on the host.
std::vector<float> download(const DeviceBuffer& d, Index rows, Index cols, Index ld)
{
    std::vector<float> out(std::size_t(rows * cols));
    CUDA_CHECK(cudaMemcpy2D(out.data(), std::size_t(cols) * 4, d.get(), std::size_t(ld) * 4, std::size_t(cols) * 4,
                            std::size_t(rows), cudaMemcpyDeviceToHost));
    return out;
}

bool sameBytes(const std::vector<float>& x, const HostMatrix& m)
{
    return x.size() * 4 == m.bytes() && std::memcmp(x.data(), m.data(), m.bytes()) == 0;
}

// The CUTLASS TF32 product C[m x q] = A[m x n] B[n x q] of FP32 device blocks (row-major, leading
// dimensions in elements), with B^T beside for the K-major kernel.
GemmCall cutlassTf32Call(Index m, Index n, Index q, const DeviceBuffer& a, Index lda, const DeviceBuffer& b, Index ldb,
                         DeviceBuffer& c, Index ldc, DeviceBuffer& bTransposed)
{
    GemmCall g;
    g.variant = GemmVariant::CutlassTf32;
    g.precision = Precision::F32;
    g.m = m;
    g.n = n;
    g.q = q;
    g.a = a.get();
    g.lda = lda;
    g.b = b.get();
    g.ldb = ldb;
    g.c = c.get();
    g.ldc = ldc;
    g.bTransposed = bTransposed.get();
    return g;
}

}  // namespace

void fusedKMajorGemmOnDevice(const HostMatrix& a, const HostMatrix& b, HostMatrix& c)
{
    const Index m = a.rows(), n = a.cols(), q = b.cols();
    DeviceBuffer da(a.bytes()), db(b.bytes()), dbt(b.bytes()), dc(c.bytes());
    CUDA_CHECK(cudaMemcpy(da.get(), a.data(), a.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db.get(), b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CublasHandle h;
    transposeOperand(db.as<float>(), n, q, q, dbt.as<float>(), n, nullptr);
    const GemmCall g = cutlassTf32Call(m, n, q, da, n, db, q, dc, q, dbt);
    if (!writesSumsOfC(g))
        throw BackendError("the CUTLASS TF32 kernel does not take " + std::to_string(m) + " x " + std::to_string(n) +
                           " x " + std::to_string(q));
    gemm(g, h.get(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c.data(), dc.get(), c.bytes(), cudaMemcpyDeviceToHost));
}

namespace {

CutlassConfigRun configAccumulatingOnDevice(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c0, int config)
{
    const Index m = a.rows(), n = a.cols(), q = b.cols();
    DeviceBuffer da(a.bytes()), db(b.bytes()), dbt(b.bytes()), dc(c0.bytes()), sums(std::size_t(m + q) * 8);
    CUDA_CHECK(cudaMemcpy(da.get(), a.data(), a.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db.get(), b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc.get(), c0.data(), c0.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(sums.get(), 0, sums.bytes()));
    transposeOperand(db.as<float>(), n, q, q, dbt.as<float>(), n, nullptr);
    CutlassTf32Call call;
    call.m = m;
    call.n = n;
    call.q = q;
    call.a = da.as<float>();
    call.lda = n;
    call.b = dbt.as<float>();
    call.ldb = n;
    call.bTransposed = true;
    call.c = dc.as<float>();
    call.ldc = q;
    call.accumulate = true;
    call.rowSums = sums.as<double>();
    call.colSums = sums.as<double>() + m;
    call.config = config;
    CutlassConfigRun run;
    run.name = cutlassTf32ConfigName(config);
    if (const char* why = cutlassTf32Gemm(call, nullptr)) {
        run.error = why;
        return run;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    run.c = HostMatrix(Precision::F32, m, q);
    CUDA_CHECK(cudaMemcpy(run.c.data(), dc.get(), run.c.bytes(), cudaMemcpyDeviceToHost));
    std::vector<double> all(std::size_t(m + q));
    CUDA_CHECK(cudaMemcpy(all.data(), sums.get(), sums.bytes(), cudaMemcpyDeviceToHost));
    run.rowSums.assign(all.begin(), all.begin() + m);
    run.colSums.assign(all.begin() + m, all.end());
    return run;
}

}  // namespace

std::vector<CutlassConfigRun> everyKMajorConfigAccumulatingOnDevice(const HostMatrix& a, const HostMatrix& b,
                                                                    const HostMatrix& c0)
{
    std::vector<CutlassConfigRun> runs;
    for (int config = 0; config < cutlassTf32ConfigCount(); ++config)
        if (cutlassTf32ConfigRuns(config, true))
            runs.push_back(configAccumulatingOnDevice(a, b, c0, config));
    return runs;
}

namespace {

// The plan's layout of one fused protected product: host matrices uploaded into padded blocks.
struct FusedBlocks {
    Index m, n, q, lda, ldb, ldc, ldx;
    DeviceBuffer xa, xb, xc, bt, aux;
    Stream s;
    CublasHandle h;
    PinnedBuffer out{sizeof(VerifyOut)}, injected{2 * sizeof(double)};
    DeviceInjection d;
    ProtectedBlocks blocks;

    FusedBlocks(const HostMatrix& a, const HostMatrix& b, const FusedFault& fault)
        : m(a.rows()), n(a.cols()), q(b.cols()), lda(pad32(n)), ldb(pad32(q + 2)), ldc(pad32(q + 1)),
          ldx(pad32(std::max(m, q) + 1)), xa(std::size_t((m + 1) * lda) * 4), xb(std::size_t(n * ldb) * 4),
          xc(std::size_t((m + 1) * ldc) * 4), bt(std::size_t((q + kChecksumRowsOfBt) * n) * 4), aux(std::size_t(4 * ldx) * sizeof(double))
    {
        CUDA_CHECK(cudaMemcpy2DAsync(xa.get(), std::size_t(lda) * 4, a.data(), std::size_t(n) * 4, std::size_t(n) * 4,
                                     std::size_t(m), cudaMemcpyHostToDevice, s.get()));
        CUDA_CHECK(cudaMemcpy2DAsync(xb.get(), std::size_t(ldb) * 4, b.data(), std::size_t(q) * 4, std::size_t(q) * 4,
                                     std::size_t(n), cudaMemcpyHostToDevice, s.get()));
        d.row = fault.row;
        d.col = fault.col;
        d.delta = fault.delta;
        d.bitFlip = fault.bit >= 0 ? 1 : 0;
        d.bit = fault.bit >= 0 ? fault.bit : 0;
        GemmCall& g = blocks.gemm;
        g = cutlassTf32Call(m, n, q, xa, lda, xb, ldb, xc, ldc, bt);
        blocks.aux = AuxView{aux.as<double>(), ldx};
        blocks.model = roundoffModel(Precision::F32, InputFormat::Tf32);
        blocks.fault = fault.row >= 0 ? &d : nullptr;
        blocks.faultBeforeAfter = injected.as<double>();
        blocks.out = out.as<VerifyOut>();
    }

    // After the product (synchronised here): its verdict and C, and whether A and B stayed as given.
    FusedProtectedRun result(const HostMatrix& a, const HostMatrix& b)
    {
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        FusedProtectedRun run;
        run.fusedSums = writesSumsOfC(blocks.gemm);
        run.roundedInRegisters = operandModel(blocks.gemm).roundedInRegisters;
        const VerifyOut& r = *out.as<VerifyOut>();
        run.verdict = verdictName(r);
        run.corrections = r.correctionCount;
        if (r.correctionCount > 0) {
            run.before = r.before[0];
            run.after = r.after[0];
            run.row = r.corrRow[0];
            run.col = r.corrCol[0];
        }
        run.maxCleanResidualRatio = r.maxCleanRatio;
        run.maxThreshold = r.maxThreshold;
        run.aUnchanged = sameBytes(download(xa, m, n, lda), a);
        run.bUnchanged = sameBytes(download(xb, n, q, ldb), b);
        run.c = HostMatrix(Precision::F32, m, q);
        const std::vector<float> c = download(xc, m, q, ldc);
        std::memcpy(run.c.data(), c.data(), run.c.bytes());
        return run;
    }
};

}  // namespace

FusedProtectedRun fusedProtectedProductOnDevice(const HostMatrix& a, const HostMatrix& b, const FusedFault& fault)
{
    FusedBlocks x(a, b, fault);
    SideLane lane;
    protectedProduct(x.blocks, x.h.get(), x.s.get(), lane);
    return x.result(a, b);
}

FusedProtectedRun preparedProtectedProductOnDevice(const HostMatrix& a, const HostMatrix& b, const FusedFault& fault,
                                                   const OperandFault& operandFault, bool sumsByPass,
                                                   PreparedColumn column)
{
    FusedBlocks x(a, b, fault);
    // Prepared for both ways of taking C's checksum column (B^T has its checksum rows, A's row scales).
    DeviceBuffer store(PreparedOperands::doublesFor(x.n, x.m) * sizeof(double));
    const PreparedOperands prepared = PreparedOperands::in(store.as<double>(), x.n, x.m);
    prepareOperands(x.xa.as<float>(), x.lda, x.m, x.xb.as<float>(), x.n, x.q, x.ldb, x.bt.as<float>(), x.n, prepared,
                    x.s.get());
    if (operandFault.operand == 'a' || operandFault.operand == 'b') {
        // After entry: the cell of A (row, col) or of B (row k, col j), whose B^T copy is what the kernel reads.
        const bool inA = operandFault.operand == 'a';
        float* cell = inA ? x.xa.as<float>() + operandFault.row * x.lda + operandFault.col
                          : x.bt.as<float>() + operandFault.col * x.n + operandFault.row;
        float value = 0;
        CUDA_CHECK(cudaMemcpyAsync(&value, cell, 4, cudaMemcpyDeviceToHost, x.s.get()));
        CUDA_CHECK(cudaStreamSynchronize(x.s.get()));
        value = float(double(value) + operandFault.delta);
        CUDA_CHECK(cudaMemcpyAsync(cell, &value, 4, cudaMemcpyHostToDevice, x.s.get()));
        CUDA_CHECK(cudaStreamSynchronize(x.s.get()));
    }
    // The pass in the GEMM's last round, as the bench times it (protectedProductPrepared's tail).
    SideLane tail;
    const ChecksumColumnBy by = column == PreparedColumn::ByKernel ? ChecksumColumnBy::Kernel
                                : column == PreparedColumn::ByPass ? ChecksumColumnBy::Pass
                                                                   : ChecksumColumnBy::Choice;
    const ChecksumColumnBy took = protectedProductPrepared(
        x.blocks, prepared, x.h.get(), x.s.get(), sumsByPass ? SumsOfC::ByPass : SumsOfC::FromEpilogue, &tail, by);
    FusedProtectedRun run = x.result(a, b);
    run.checksumColumnByKernel = took == ChecksumColumnBy::Kernel;
    run.roundedInRegisters = true;  // prepareOperands and the passes round in registers, as the kernel does
    return run;
}

}  // namespace gigacheck::cuda
