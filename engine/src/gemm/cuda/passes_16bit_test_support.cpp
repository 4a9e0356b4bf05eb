// GPU test support of the checksum passes (see passes_16bit_test_support.hpp).
#include "gemm/cuda/passes_16bit_test_support.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm_16bit.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gigacheck::cuda {
namespace {

Index pad32(Index x) { return (x + 31) / 32 * 32; }

DeviceBuffer upload(const std::vector<float>& x, Index rows, Index cols, Index ld)
{
    DeviceBuffer d(std::size_t(rows * ld) * 4);
    CUDA_CHECK(cudaMemset(d.get(), 0, d.bytes()));
    CUDA_CHECK(cudaMemcpy2D(d.get(), std::size_t(ld) * 4, x.data(), std::size_t(cols) * 4, std::size_t(cols) * 4,
                            std::size_t(rows), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
std::vector<T> download(const void* d, Index rows, Index cols, Index ld)
{
    std::vector<T> out(std::size_t(rows * cols));
    CUDA_CHECK(cudaMemcpy2D(out.data(), std::size_t(cols) * sizeof(T), d, std::size_t(ld) * sizeof(T),
                            std::size_t(cols) * sizeof(T), std::size_t(rows), cudaMemcpyDeviceToHost));
    return out;
}

template <class T>
double largestDifference(const std::vector<T>& x, const std::vector<T>& y)
{
    double scale = 0, worst = 0;
    for (T v : y)
        scale = std::max(scale, std::fabs(double(v)));
    for (std::size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, std::fabs(double(x[i]) - double(y[i])) / (std::fabs(double(y[i])) + scale));
    return worst;
}

// The checksum quantities one product's passes leave: B's columns q and q + 1, C's checksum column
// and row, rowScale and colScale.
struct PassOutputs {
    std::vector<float> bSums, cColumn, cRow;
    std::vector<double> rowScale, colScale;
};

PassOutputs outputsOf(const DeviceBuffer& b, Index ldb, const DeviceBuffer& c, Index ldc, const DeviceBuffer& aux,
                      Index ldx, Index m, Index n, Index q)
{
    PassOutputs o;
    o.bSums = download<float>(b.as<float>() + q, n, 2, ldb);
    o.cColumn = download<float>(c.as<float>() + q, m + 1, 1, ldc);
    o.cRow = download<float>(c.as<float>() + m * ldc, 1, q + 1, ldc);
    o.rowScale = download<double>(aux.as<double>(), 1, m + 1, ldx);
    o.colScale = download<double>(aux.as<double>() + ldx, 1, q + 1, ldx);
    return o;
}

}  // namespace

Passes16Comparison compareFusedWithTwoStep(InputFormat format, const std::vector<float>& a, const std::vector<float>& b,
                                           std::int64_t m, std::int64_t n, std::int64_t q)
{
    const Index lda = pad32(n), ldb = pad32(q + 2), ldc = pad32(q + 1), ldx = pad32(std::max(m, q) + 1);
    Stream s;
    const std::size_t aBytes16 = std::size_t(m * n) * 2, bBytes16 = std::size_t(n * q) * 2;

    // Two-step: rounded in place by the passes, then converted.
    DeviceBuffer a2 = upload(a, m, n, lda), b2 = upload(b, n, q, ldb);
    DeviceBuffer c2(std::size_t((m + 1) * ldc) * 4), aux2(std::size_t(4 * ldx) * 8);
    DeviceBuffer a16Two(aBytes16), b16Two(bBytes16);
    checksumB(Precision::F32, b2.get(), n, q, ldb, s.get(), OperandRounding(format));
    checksumProducts(Precision::F32, a2.get(), lda, b2.get(), ldb, c2.get(), ldc, m, n, q, AuxView{aux2.as<double>(), ldx},
                     false, s.get(), true, OperandRounding(format));
    convertTo16Bit(format, a2.as<float>(), lda, m, n, a16Two.get(), s.get());
    convertTo16Bit(format, b2.as<float>(), ldb, n, q, b16Two.get(), s.get());

    // Fused: the run path's own calls.
    DeviceBuffer a1 = upload(a, m, n, lda), b1 = upload(b, n, q, ldb);
    DeviceBuffer c1(std::size_t((m + 1) * ldc) * 4), aux1(std::size_t(4 * ldx) * 8);
    DeviceBuffer a16Fused(aBytes16), b16Fused(bBytes16);
    const RowChecksumsB rowChecksums{b1.as<float>() + q, ldb};
    checksumB16(format, Operand16{b1.get(), ldb, false}, n, q, rowChecksums, s.get());
    checksumProducts16(format, Operand16{a1.get(), lda, false}, Operand16{b1.get(), ldb, false}, rowChecksums,
                       c1.as<float>(), ldc, m, n, q, AuxView{aux1.as<double>(), ldx}, false, a16Fused.get(),
                       b16Fused.get(), s.get());
    CUDA_CHECK(cudaStreamSynchronize(s.get()));

    Passes16Comparison r;
    const auto same = [](const DeviceBuffer& x, const DeviceBuffer& y, std::size_t bytes) {
        std::vector<char> hx(bytes), hy(bytes);
        CUDA_CHECK(cudaMemcpy(hx.data(), x.get(), bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(hy.data(), y.get(), bytes, cudaMemcpyDeviceToHost));
        return std::memcmp(hx.data(), hy.data(), bytes) == 0;
    };
    r.copiesBitExact = same(a16Fused, a16Two, aBytes16) && same(b16Fused, b16Two, bBytes16);
    r.operandsUntouched = download<float>(a1.get(), m, n, lda) == a && download<float>(b1.get(), n, q, ldb) == b;
    const PassOutputs fused = outputsOf(b1, ldb, c1, ldc, aux1, ldx, m, n, q);
    const PassOutputs two = outputsOf(b2, ldb, c2, ldc, aux2, ldx, m, n, q);
    r.checksumDifference = std::max({largestDifference(fused.bSums, two.bSums),
                                     largestDifference(fused.cColumn, two.cColumn),
                                     largestDifference(fused.cRow, two.cRow)});
    r.boundDifference = std::max(largestDifference(fused.rowScale, two.rowScale),
                                 largestDifference(fused.colScale, two.colScale));
    return r;
}

Protected16Result protectedProductOf16BitOnDevice(InputFormat format, const std::vector<float>& a,
                                                  const std::vector<float>& b, std::int64_t m, std::int64_t n,
                                                  std::int64_t q, std::int64_t faultRow, std::int64_t faultCol,
                                                  double delta, bool fusedSums, bool prepared, char strike,
                                                  bool checksumColumns, bool checksumParts)
{
    const Index ldc = pad32(q + 1), ldx = pad32(std::max(m, q) + 1);
    Stream s;
    CublasHandle h;
    SideLane lane;
    DeviceBuffer af = upload(a, m, n, n), bf = upload(b, n, q, q);
    DeviceBuffer a16(std::size_t(m * n) * 2), b16(std::size_t(n * q) * 2);
    convertTo16Bit(format, af.as<float>(), n, m, n, a16.get(), s.get());
    convertTo16Bit(format, bf.as<float>(), q, n, q, b16.get(), s.get());
    DeviceBuffer c(std::size_t((m + 1) * ldc) * 4), plain(std::size_t(m * q) * 4);
    DeviceBuffer aux(std::size_t(4 * ldx) * 8), rowChecksumsB(std::size_t(2 * n) * 4);
    PinnedBuffer out(sizeof(VerifyOut)), beforeAfter(2 * sizeof(double));
    DeviceInjection fault;
    fault.row = faultRow;
    fault.col = faultCol;
    fault.delta = delta;

    Protected16BitBlocks blocks;
    blocks.format = format;
    blocks.a16 = a16.get();
    blocks.b16 = b16.get();
    blocks.c = c.as<float>();
    blocks.ldc = ldc;
    blocks.m = m;
    blocks.n = n;
    blocks.q = q;
    blocks.aux = AuxView{aux.as<double>(), ldx};
    blocks.rowChecksumsB = rowChecksumsB.as<float>();
    blocks.model = roundoffModel(Precision::F32, format);
    blocks.fault = faultRow >= 0 ? &fault : nullptr;
    blocks.faultBeforeAfter = beforeAfter.as<double>();
    blocks.out = out.as<VerifyOut>();
    blocks.fusedSums = fusedSums;
    DeviceBuffer preparedStore(prepared ? Prepared16BitOperands::doublesFor(m, n, q) * sizeof(double) : 0);
    const Prepared16BitOperands entry = Prepared16BitOperands::in(preparedStore.as<double>(), m, n, q);
    const Index ldbWith = q + kChecksumColumnsOf16BitB;
    DeviceBuffer bWith(prepared && checksumColumns ? std::size_t(n * ldbWith) * 2 : 0);
    const bool parts = prepared && checksumParts;
    DeviceBuffer partsOfAB(parts ? std::size_t(checksumPartsElements(n)) * 2 : 0);
    DeviceBuffer sideParts(parts ? std::size_t(sideProductPartsFloats(m, q)) * 4 : 0);
    if (prepared) {
        prepare16BitOperands(format, a16.get(), n, m, b16.get(), q, n, q, rowChecksumsB.as<float>(), entry, s.get());
        if (checksumColumns) {
            prepare16BitChecksumColumns(b16.get(), q, n, q, entry, bWith.get(), ldbWith, s.get());
            blocks.bWithChecksumColumns = bWith.get();
            blocks.ldbWithChecksumColumns = ldbWith;
        }
        if (parts) {
            prepare16BitChecksumParts(format, entry, n, partsOfAB.get(), s.get());
            blocks.checksumParts = partsOfAB.get();
            blocks.sideProductParts = sideParts.as<float>();
        }
        blocks.prepared = &entry;
        blocks.preparedPassInTail = true;  // as the bench times it: the passes in the GEMM's last round
        protectedProductOf16BitOperands(blocks, h.get(), s.get(), lane);
        if (strike == 'a' || strike == 'b') {
            // The struck cell in every copy of the operand the product reads.
            const bool inA = strike == 'a';
            const std::int64_t cell = inA ? (m / 3) * n + n / 2 : (n / 2) * q + q / 3;
            DeviceBuffer struck = upload(std::vector<float>{(inA ? a : b)[std::size_t(cell)] + 64.0f}, 1, 1, 1);
            convertTo16Bit(format, struck.as<float>(), 1, 1, 1,
                           static_cast<char*>(inA ? a16.get() : b16.get()) + 2 * cell, s.get());
            if (!inA && bWith.get())
                convertTo16Bit(format, struck.as<float>(), 1, 1, 1,
                               static_cast<char*>(bWith.get()) + 2 * ((n / 2) * ldbWith + q / 3), s.get());
        }
    }
    const Checksums16By by = protectedProductOf16BitOperands(blocks, h.get(), s.get(), lane);
    gemmOf16BitOperands(format, a16.get(), b16.get(), plain.as<float>(), m, n, q, h.get(), s.get());
    CUDA_CHECK(cudaStreamSynchronize(s.get()));

    const VerifyOut& v = *out.as<VerifyOut>();
    Protected16Result r;
    r.verdict = verdictName(v);
    r.corrections = v.correctionCount;
    r.maxCleanResidualRatio = v.maxCleanRatio;
    r.checksumColumnByKernel = by == Checksums16By::KernelColumn;
    r.checksumsBySideProducts = by == Checksums16By::SideProducts;
    if (v.correctionCount > 0) {
        r.row = v.corrRow[0];
        r.col = v.corrCol[0];
        if (r.row < m && r.col < q) {
            r.corrected = download<float>(c.as<float>() + r.row * ldc + r.col, 1, 1, 1)[0];
            r.clean = download<float>(plain.as<float>() + r.row * q + r.col, 1, 1, 1)[0];
        }
    }
    if (fusedSums) {
        const std::vector<float> cells = download<float>(c.get(), m, q, ldc);
        const std::vector<double> rowLeft = download<double>(aux.as<double>() + 2 * ldx, 1, m, ldx);
        const std::vector<double> colLeft = download<double>(aux.as<double>() + 3 * ldx, 1, q, ldx);
        std::vector<double> rowSum(std::size_t(m), 0.0), rowAbs(std::size_t(m), 0.0);
        std::vector<double> colSum(std::size_t(q), 0.0), colAbs(std::size_t(q), 0.0);
        for (Index i = 0; i < m; ++i)
            for (Index j = 0; j < q; ++j) {
                const double x = cells[std::size_t(i * q + j)];
                rowSum[std::size_t(i)] += x;
                rowAbs[std::size_t(i)] += std::fabs(x);
                colSum[std::size_t(j)] += x;
                colAbs[std::size_t(j)] += std::fabs(x);
            }
        const auto compare = [](const std::vector<double>& left, const std::vector<double>& sum,
                                const std::vector<double>& abs, Index faultLine, double& largest, double& gap) {
            for (std::size_t x = 0; x < left.size(); ++x) {
                if (Index(x) == faultLine)
                    gap = left[x] - sum[x];
                else
                    largest = std::max(largest, std::fabs(left[x] - sum[x]) / (abs[x] + 1.0));
            }
        };
        compare(rowLeft, rowSum, rowAbs, faultRow, r.rowSumDifference, r.faultRowSumGap);
        compare(colLeft, colSum, colAbs, faultCol, r.colSumDifference, r.faultColSumGap);
        if (faultRow >= 0) {
            r.faultBefore = beforeAfter.as<double>()[0];
            r.faultAfter = beforeAfter.as<double>()[1];
        }
    }
    return r;
}

int cutlass16BitConfigurations() { return cutlass16BitConfigCount(); }

Config16Check check16BitConfig(InputFormat format, const std::vector<float>& a, const std::vector<float>& b,
                               std::int64_t m, std::int64_t n, std::int64_t q, int config, bool accumulate)
{
    const Index ldc = pad32(q);
    Stream s;
    CublasHandle h;
    DeviceBuffer af = upload(a, m, n, n), bf = upload(b, n, q, q);
    DeviceBuffer a16(std::size_t(m * n) * 2), b16(std::size_t(n * q) * 2);
    convertTo16Bit(format, af.as<float>(), n, m, n, a16.get(), s.get());
    convertTo16Bit(format, bf.as<float>(), q, n, q, b16.get(), s.get());
    // With accumulate both start from the same C (a product of the operands, as an online panel's C).
    DeviceBuffer c(std::size_t(m * ldc) * 4), plain(std::size_t(m * ldc) * 4), sums(std::size_t(m + q) * 8);
    CUDA_CHECK(cudaMemsetAsync(c.get(), 0, c.bytes(), s.get()));
    CUDA_CHECK(cudaMemsetAsync(sums.get(), 0, sums.bytes(), s.get()));
    if (accumulate)
        gemmOf16BitOperands(format, a16.get(), b16.get(), c.as<float>(), m, n, q, h.get(), s.get(), ldc);
    CUDA_CHECK(cudaMemcpyAsync(plain.get(), c.get(), c.bytes(), cudaMemcpyDeviceToDevice, s.get()));
    Cutlass16BitCall call;
    call.type = format == InputFormat::F16 ? Cutlass16BitType::F16 : Cutlass16BitType::Bf16;
    call.m = m;
    call.n = n;
    call.q = q;
    call.a = a16.get();
    call.lda = n;
    call.b = b16.get();
    call.ldb = q;
    call.c = c.as<float>();
    call.ldc = ldc;
    call.accumulate = accumulate;
    call.rowSums = sums.as<double>();
    call.colSums = sums.as<double>() + m;
    call.config = config;
    Config16Check r;
    if (const char* why = cutlass16BitGemm(call, s.get())) {
        r.refused = why;
        return r;
    }
    if (accumulate) {  // plain: C += A B as cuBLAS does it
        DeviceBuffer product(std::size_t(m * ldc) * 4);
        gemmOf16BitOperands(format, a16.get(), b16.get(), product.as<float>(), m, n, q, h.get(), s.get(), ldc);
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        std::vector<float> sum = download<float>(plain.get(), m, q, ldc), add = download<float>(product.get(), m, q, ldc);
        for (std::size_t i = 0; i < sum.size(); ++i)
            sum[i] += add[i];
        r.cDifference = largestDifference(download<float>(c.get(), m, q, ldc), sum);
    } else {
        gemmOf16BitOperands(format, a16.get(), b16.get(), plain.as<float>(), m, n, q, h.get(), s.get(), ldc);
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        r.cDifference = largestDifference(download<float>(c.get(), m, q, ldc), download<float>(plain.get(), m, q, ldc));
    }
    const std::vector<float> cHost = download<float>(c.get(), m, q, ldc);
    std::vector<double> rows(std::size_t(m), 0.0), cols(std::size_t(q), 0.0);
    for (Index i = 0; i < m; ++i)
        for (Index j = 0; j < q; ++j) {
            rows[std::size_t(i)] += cHost[std::size_t(i * q + j)];
            cols[std::size_t(j)] += cHost[std::size_t(i * q + j)];
        }
    const std::vector<double> got = download<double>(sums.get(), 1, m + q, m + q);
    r.rowSumDifference = largestDifference(std::vector<double>(got.begin(), got.begin() + m), rows);
    r.colSumDifference = largestDifference(std::vector<double>(got.begin() + m, got.end()), cols);
    return r;
}

PanelIncrementsComparison comparePanelIncrements(const std::vector<float>& a, const std::vector<float>& b,
                                                 std::int64_t m, std::int64_t n, std::int64_t q, std::int64_t depth)
{
    if (depth <= 0 || n % depth != 0)
        throw BackendError("comparePanelIncrements: n must be a multiple of the panels' depth");
    const Index lda = pad32(n), ldb = pad32(q + 2), ldc = pad32(q + 1), ldx = pad32(std::max({m, q, depth}) + 1);
    const int panels = int(n / depth);
    Stream s;
    DeviceBuffer ad = upload(a, m, n, lda), bd = upload(b, n, q, ldb);
    checksumB(Precision::F32, bd.get(), n, q, ldb, s.get(), kTf32InRegisters);

    // A product per step: the passes accumulate into C's checksum lines and aux, read after each.
    DeviceBuffer c(std::size_t((m + 1) * ldc) * 4), aux(std::size_t(4 * ldx) * 8);
    std::vector<PassOutputs> accumulated;
    for (int p = 0; p < panels; ++p) {
        checksumProducts(Precision::F32, ad.as<float>() + p * depth, lda, bd.as<float>() + p * depth * ldb, ldb,
                         c.get(), ldc, m, depth, q, AuxView{aux.as<double>(), ldx}, p > 0, s.get(), true,
                         kTf32InRegisters);
        CUDA_CHECK(cudaStreamSynchronize(s.get()));
        accumulated.push_back(outputsOf(bd, ldb, c, ldc, aux, ldx, m, n, q));
    }

    // All panels at once, each one's shares apart.
    PanelIncrements out;
    out.ldLines = m + q + 1;
    out.ldBounds = m + q + 2;
    out.ldScratch = 2 * depth;
    DeviceBuffer lines(std::size_t(panels * out.ldLines) * 4), bounds(std::size_t(panels * out.ldBounds) * 8),
        scratch(std::size_t(panels * out.ldScratch) * 8);
    CUDA_CHECK(cudaMemset(lines.get(), 0, lines.bytes()));
    CUDA_CHECK(cudaMemset(bounds.get(), 0, bounds.bytes()));
    CUDA_CHECK(cudaMemset(scratch.get(), 0, scratch.bytes()));
    out.lines = lines.as<float>();
    out.bounds = bounds.as<double>();
    out.scratch = scratch.as<double>();
    panelChecksumIncrements(ad.as<float>(), lda, bd.as<float>(), ldb, m, depth, q, panels, out, s.get(), true,
                            kTf32InRegisters);
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    const std::vector<float> shares = download<float>(lines.get(), panels, out.ldLines, out.ldLines);
    const std::vector<double> boundShares = download<double>(bounds.get(), panels, out.ldBounds, out.ldBounds);

    PanelIncrementsComparison r;
    r.panels = panels;
    std::vector<double> line(std::size_t(out.ldLines), 0.0), bound(std::size_t(out.ldBounds), 0.0);
    for (int p = 0; p < panels; ++p) {
        for (Index e = 0; e < out.ldLines; ++e)
            line[std::size_t(e)] += double(shares[std::size_t(p * out.ldLines + e)]);
        for (Index e = 0; e < out.ldBounds; ++e)
            bound[std::size_t(e)] += boundShares[std::size_t(p * out.ldBounds + e)];
        // Lines: the column [0, m), then the row with the corner [m, m + q]; bounds: rowScale [0, m],
        // then colScale [m + 1, m + q + 1].
        const PassOutputs& ref = accumulated[std::size_t(p)];
        std::vector<double> refLine, refBound, summedLine(line.begin(), line.end()), summedBound(bound.begin(), bound.end());
        refLine.insert(refLine.end(), ref.cColumn.begin(), ref.cColumn.begin() + m);
        refLine.insert(refLine.end(), ref.cRow.begin(), ref.cRow.end());
        refBound.insert(refBound.end(), ref.rowScale.begin(), ref.rowScale.end());
        refBound.insert(refBound.end(), ref.colScale.begin(), ref.colScale.end());
        for (double v : refLine)
            r.largestLine = std::max(r.largestLine, std::fabs(v));
        r.lineDifference = std::max(r.lineDifference, largestDifference(summedLine, refLine));
        r.boundDifference = std::max(r.boundDifference, largestDifference(summedBound, refBound));
    }
    return r;
}

}  // namespace gigacheck::cuda
