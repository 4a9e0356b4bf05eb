// The one-axis locate rule (abft README "One axis") and the repair pass ("Repair pass"): a fault
// only one axis detects is located by the other axis's largest residual when that is unambiguous
// and consistent; what cannot be located is recomputed from A and B; a corrected cell is
// recomputed as one dot product, so that it is as accurate as an untouched one, TF32 included.
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/repair.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/tf32.hpp"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>

using namespace gigacheck;

namespace {

// An augmented block (rows + 1) x (cols + 1) of exact small integers with exact checksums.
struct Block {
    std::int64_t rows, cols;
    std::vector<double> data;
    Block(std::int64_t r, std::int64_t c) : rows(r), cols(c), data(std::size_t((r + 1) * (c + 1)), 0.0)
    {
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < cols; ++j)
                at(i, j) = double((i * 7 + j * 3) % 11) - 5.0;
        for (std::int64_t i = 0; i <= rows; ++i)
            for (std::int64_t j = 0; j <= cols; ++j)
                if (i < rows && j < cols) {
                    at(i, cols) += at(i, j);
                    at(rows, j) += at(i, j);
                    at(rows, cols) += at(i, j);
                }
    }
    double& at(std::int64_t i, std::int64_t j) { return data[std::size_t(i * (cols + 1) + j)]; }
    BlockView<double> view() { return {data.data(), rows, cols, cols + 1}; }
};

// Row checks tight (1e-3), column checks loose (1): an error of 0.5 fires on its row only.
Thresholds oneAxisThresholds(const Block& b)
{
    Thresholds t;
    t.row.assign(std::size_t(b.rows + 1), 1e-3);
    t.col.assign(std::size_t(b.cols + 1), 1.0);
    return t;
}

// FP32 -> TF32 (10 mantissa bits), round to nearest as cvt.rna does.
float toTf32(float x) { return roundToTf32(x); }

// QCOMPARE on the names, so a failure prints them.
template <class E>
QString qtName(E e)
{
    const std::string_view n = toString(e);
    return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

RunConfig cpuConfig(Shape s, Precision p)
{
    RunConfig c;
    c.shape = s;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    c.reference = ReferenceMode::Full;
    c.strategy = StrategyKind::S1;
    c.memCapBytes = bytesForBlocks(StrategyKind::S1, p, true, 24, 20, 24);
    return c;
}

}  // namespace

class TestAbftRepair : public QObject {
    Q_OBJECT
private slots:
    void ruleNeedsAClearAndConsistentLargest();
    void faultSeenByOneAxisIsLocated();
    void twoCandidatesOnTheOtherAxisAreNotGuessed();
    void checksumColumnFaultSeenByItsRowOnly();
    void nonCollinearFaultsAreRecomputed();
    void oneAxisOnlyFaultEndsCorrectWithoutTheRule();
    void correctedCellIsRecomputedAsADotProduct();
    void tf32CorrectedCellIsAsAccurateAsUntouchedOnes();
    void repairsSurviveTheRecordAndOldRecordsLoad();
};

void TestAbftRepair::ruleNeedsAClearAndConsistentLargest()
{
    // residual 2 on a check of tolerance 1; the other axis's largest is 0.5 of tolerance 1.
    QVERIFY(locatesOnOtherAxis(2.0, 1.0, 0.5, 0.01, 1.0));
    QVERIFY(!locatesOnOtherAxis(2.0, 1.0, 0.5, 0.2, 1.0));   // not clearly the largest
    QVERIFY(!locatesOnOtherAxis(5.0, 1.0, 0.5, 0.01, 1.0));  // 5 > 1 + 1.5: the other check saw too little
    QVERIFY(!locatesOnOtherAxis(2.0, 1.0, 0.0, 0.0, 1.0));   // nothing on the other axis at all
    QVERIFY(!locatesOnOtherAxis(NAN, 1.0, 0.5, 0.01, 1.0));  // a NaN residual is located by both axes or not at all
}

void TestAbftRepair::faultSeenByOneAxisIsLocated()
{
    Block b(6, 5);
    const double good = b.at(2, 3);
    b.at(2, 3) += 0.5;
    const VerifyResult r = verifyAndCorrect<double>(b.view(), oneAxisThresholds(b));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{2});
    QVERIFY(r.mismatchCols.empty());  // the column check did not fire
    QCOMPARE(qtName(r.verdict), qtName(Verdict::Corrected));
    QVERIFY(r.locatedByLargestResidual);
    QCOMPARE(r.corrections.size(), std::size_t(1));
    QCOMPARE(r.corrections[0].row, std::int64_t(2));
    QCOMPARE(r.corrections[0].col, std::int64_t(3));
    QCOMPARE(b.at(2, 3), good);
}

void TestAbftRepair::twoCandidatesOnTheOtherAxisAreNotGuessed()
{
    Block b(6, 5);
    b.at(2, 1) += 0.5;
    b.at(2, 3) += 0.5;  // the same row: two columns with the same residual
    const std::vector<double> before = b.data;
    const VerifyResult r = verifyAndCorrect<double>(b.view(), oneAxisThresholds(b));
    QCOMPARE(qtName(r.verdict), qtName(Verdict::Uncorrectable));
    QVERIFY(!r.locatedByLargestResidual);
    QVERIFY(b.data == before);  // C untouched: the repair pass recomputes row 2
}

void TestAbftRepair::checksumColumnFaultSeenByItsRowOnly()
{
    Block b(6, 5);
    const std::vector<double> result = b.data;
    b.at(4, 5) += 0.5;  // the stored row checksum of row 4
    const VerifyResult r = verifyAndCorrect<double>(b.view(), oneAxisThresholds(b));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{4});
    QVERIFY(r.mismatchCols.empty());
    QCOMPARE(qtName(r.verdict), qtName(Verdict::Corrected));
    QVERIFY(r.locatedByLargestResidual);
    QVERIFY(r.checksumsRecomputed);
    QVERIFY(b.data == result);  // result intact, checksums rebuilt
}

void TestAbftRepair::nonCollinearFaultsAreRecomputed()
{
    for (Precision p : {Precision::F32, Precision::F64}) {
        RunConfig c = cpuConfig({61, 47, 53}, p);
        c.faults.at.push_back({3, 4, 50.0, std::nullopt});
        c.faults.at.push_back({9, 11, -70.0, std::nullopt});  // same block, another row and column
        const RunRecord r = runGemm(c);
        const QByteArray report = QByteArray::fromStdString(formatReport(r));
        QCOMPARE(r.faults.injected, 2);
        QVERIFY2(r.faults.blocksUncorrectable >= 1, report.constData());
        QCOMPARE(r.faults.correctedByRecompute, 2);
        QCOMPARE(r.faults.uncorrectable, 0);
        QCOMPARE(r.repairs.size(), std::size_t(1));
        const RepairEvent& e = r.repairs[0];
        QCOMPARE(qtName(e.outcome), qtName(RepairOutcome::CorrectedByRecompute));
        QVERIFY(e.wholeBlock || (!e.recomputedRows.empty() && !e.recomputedCols.empty()) ||
                e.recomputedRows.size() == 2 || e.recomputedCols.size() == 2);
        QVERIFY(e.flops > 0);
        QVERIFY2(r.reference.passed, report.constData());
        QVERIFY2(r.verifiedCorrect(), report.constData());
        QVERIFY(report.contains("CORRECTED BY RECOMPUTE"));
        QVERIFY(report.contains("corrected by recompute 2"));
        const auto recompute = std::find_if(r.spans.begin(), r.spans.end(),
                                            [](const Span& s) { return s.kind == OpKind::Recompute; });
        QVERIFY(recompute != r.spans.end());
        QCOMPARE(qtName(recompute->queue), qtName(Queue::Compute));
        for (const Span& s : r.spans)
            QVERIFY(s.kind == OpKind::Recompute || s.end <= recompute->start);
    }
}

void TestAbftRepair::oneAxisOnlyFaultEndsCorrectWithoutTheRule()
{
    // The repair pass alone: a verification that could not locate (one axis, ambiguous) leaves C
    // wrong; the pass finds the mismatching row and recomputes it.
    const std::int64_t m = 20, n = 30, q = 16;
    HostMatrix a(Precision::F64, m, n), b(Precision::F64, n, q), c(Precision::F64, m, q);
    fillRandom(a, Distribution::Normal, 5, 1);
    fillRandom(b, Distribution::Normal, 5, 2);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += a.at(i, k) * b.at(k, j);
            c.set(i, j, s);
        }
    const double good = c.at(7, 2);
    c.set(7, 2, good + 1e-9);   // tiny, and
    c.set(7, 9, c.at(7, 9) + 3);  // large, in one row
    VerifyEvent ev;
    ev.block = {0, 0, 0};
    ev.rows = m;
    ev.cols = q;
    ev.result.verdict = Verdict::Uncorrectable;
    ev.result.mismatchRows = {7};
    const auto events = repairAfterRun(a, b, c, {ev}, roundoffModel(Precision::F64), 4.0);
    QCOMPARE(events.size(), std::size_t(1));
    QCOMPARE(qtName(events[0].outcome), qtName(RepairOutcome::CorrectedByRecompute));
    QCOMPARE(events[0].recomputedRows, std::vector<std::int64_t>{7});
    QVERIFY(!events[0].wholeBlock);
    const VerifyResult after = recheckBlock(a, b, c, 0, 0, m, q, roundoffModel(Precision::F64), 4.0);
    QVERIFY(after.mismatchRows.empty() && after.mismatchCols.empty());
    QVERIFY(std::fabs(c.at(7, 2) - good) <= 1e-13 * (1 + std::fabs(good)));
}

void TestAbftRepair::correctedCellIsRecomputedAsADotProduct()
{
    RunConfig c = cpuConfig({40, 33, 44}, Precision::F32);
    c.faults.at.push_back({5, 6, 1e6, std::nullopt});  // large: its correction cancels catastrophically
    const RunRecord r = runGemm(c);
    QCOMPARE(r.faults.corrected, 1);
    QCOMPARE(r.repairs.size(), std::size_t(1));
    QCOMPARE(qtName(r.repairs[0].outcome), qtName(RepairOutcome::Confirmed));
    QCOMPARE(r.repairs[0].cellsRecomputed, std::int64_t(1));
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
}

void TestAbftRepair::tf32CorrectedCellIsAsAccurateAsUntouchedOnes()
{
    // One block as cublas-tf32 makes it: operands rounded to TF32 (checksums over the rounded
    // values), FP32 accumulation. "exact": the exact product of those operands.
    const std::int64_t m = 40, n = 300, q = 36, fr = 17, fc = 33;
    HostMatrix a(Precision::F32, m, n), b(Precision::F32, n, q), c(Precision::F32, m, q);
    fillRandom(a, Distribution::Uniform, 7, 1);
    fillRandom(b, Distribution::Uniform, 7, 2);
    const float* A = a.as<float>();
    const float* B = b.as<float>();
    std::vector<float> aug(std::size_t((m + 1) * (q + 1)), 0.0f), augA(std::size_t((m + 1) * n)),
        augB(std::size_t(n * (q + 1)));
    std::vector<double> exact(std::size_t(m * q));
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j) {
            float s = 0;
            double e = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                s += toTf32(A[i * n + k]) * toTf32(B[k * q + j]);
                e += double(toTf32(A[i * n + k])) * double(toTf32(B[k * q + j]));
            }
            aug[std::size_t(i * (q + 1) + j)] = s;
            exact[std::size_t(i * q + j)] = e;
        }
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t k = 0; k < n; ++k)
            augA[std::size_t(i * n + k)] = toTf32(A[i * n + k]);
    for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t j = 0; j < q; ++j)
            augB[std::size_t(k * (q + 1) + j)] = toTf32(B[k * q + j]);
    columnChecksum(BlockView<float>{augA.data(), m, n, n});
    rowChecksum(BlockView<float>{augB.data(), n, q, q + 1});
    for (std::int64_t i = 0; i <= m; ++i)
        for (std::int64_t j = 0; j <= q; ++j) {
            if (i < m && j < q)
                continue;
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += double(augA[std::size_t(i * n + k)]) * double(augB[std::size_t(k * (q + 1) + j)]);
            aug[std::size_t(i * (q + 1) + j)] = float(s);
        }
    BoundAccumulator acc;
    acc.reset(m, q);
    accumulateBound<float>(acc, {augA.data(), m, n, n}, {augB.data(), n, q, q + 1});
    const RoundoffModel tf32 = roundoffModel(Precision::F32, true);

    aug[std::size_t(fr * (q + 1) + fc)] += 1000.0f;  // a large fault
    VerifyEvent ev;
    ev.block = {0, 0, 0};
    ev.rows = m;
    ev.cols = q;
    ev.result = verifyAndCorrect<float>({aug.data(), m, q, q + 1}, thresholds(acc, tf32));
    QCOMPARE(qtName(ev.result.verdict), qtName(Verdict::Corrected));
    float* C = c.as<float>();
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j)
            C[i * q + j] = aug[std::size_t(i * (q + 1) + j)];
    double untouched = 0;
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j)
            if (i != fr || j != fc)
                untouched = std::max(untouched, std::fabs(double(C[i * q + j]) - exact[std::size_t(i * q + j)]));
    const double fromChecksum = std::fabs(double(C[fr * q + fc]) - exact[std::size_t(fr * q + fc)]);

    const auto events = repairAfterRun(a, b, c, {ev}, tf32, 4.0);
    QCOMPARE(events.size(), std::size_t(1));
    QVERIFY(events[0].outcome != RepairOutcome::Uncorrectable);
    QCOMPARE(events[0].cellsRecomputed, std::int64_t(1));
    const double repaired = std::fabs(double(C[fr * q + fc]) - exact[std::size_t(fr * q + fc)]);
    qInfo("TF32 cell error: untouched max %g, from the checksum %g, recomputed %g", untouched, fromChecksum,
          repaired);
    QVERIFY2(repaired <= untouched, qPrintable(QString::number(repaired) + " > " + QString::number(untouched)));
}

void TestAbftRepair::repairsSurviveTheRecordAndOldRecordsLoad()
{
    RunConfig c = cpuConfig({30, 20, 30}, Precision::F64);
    c.faults.at.push_back({3, 4, 50.0, std::nullopt});
    c.faults.at.push_back({9, 11, -70.0, std::nullopt});
    const RunRecord r = runGemm(c);
    QVERIFY(!r.repairs.empty());
    const RunRecord back = recordFromJson(toJson(r));
    QCOMPARE(back.repairs.size(), r.repairs.size());
    QCOMPARE(qtName(back.repairs[0].outcome), qtName(r.repairs[0].outcome));
    QCOMPARE(back.repairs[0].recomputedRows, r.repairs[0].recomputedRows);
    QCOMPARE(back.repairs[0].wholeBlock, r.repairs[0].wholeBlock);
    QCOMPARE(back.faults.correctedByRecompute, r.faults.correctedByRecompute);
    QCOMPARE(back.verifiedCorrect(), r.verifiedCorrect());

    // A record written before the repair pass: no "repairs", no "corrected_by_recompute".
    nlohmann::json doc = nlohmann::json::parse(toJson(r));
    nlohmann::json& section = doc["blocked_gemm"];
    QVERIFY(section.contains("repairs") && section["faults"].contains("corrected_by_recompute"));
    section.erase("repairs");
    section["faults"].erase("corrected_by_recompute");
    const RunRecord old = recordFromJson(doc.dump());
    QVERIFY(old.repairs.empty());
    QCOMPARE(old.faults.correctedByRecompute, 0);
    // The full reference found C right: that is enough on its own, whatever the ABFT check said.
    QVERIFY(old.verifiedCorrect());
    // With a sampled reference, its uncorrectable verdict stands without a repair.
    RunRecord sampled = old;
    sampled.reference.mode = ReferenceMode::Sample;
    QVERIFY(!sampled.verifiedCorrect());
    QVERIFY(!sampled.notVerified());
}

QTEST_APPLESS_MAIN(TestAbftRepair)
#include "tst_abft_repair.moc"
