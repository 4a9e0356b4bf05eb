// Online / offline ABFT with BF16 / FP16 inputs (--type bf16|f16: --gemm cublas-bf16 / cublas-f16) on
// the CPU backend, which emulates them as the device multiplies: A and B rounded to BF16 / FP16
// (nearest even) before their checksums, then FP32 products (exact for two 16-bit values), so the
// FP32 threshold holds. Accepted and refused where TF32 is (plus TMR and FP64 values), clean runs of
// odd shapes raise no alarm, a fault in C after a middle step is corrected at that step with fq = 1,
// and C is the product of the rounded operands.
#include "test_helpers.hpp"

#include "families/online_abft/inputs.hpp"
#include "families/online_abft/plan/schedule_builder.hpp"

#include "engine/online_run_helpers.hpp"
#include "gigacheck/input_rounding.hpp"
#include "gigacheck/online_abft.hpp"

#include <QtTest>

#include <cmath>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using test::at;
using test::checkAt;

using test::runKeeping;
using test::verdicts;

namespace {

OnlineConfig sixteenBitConfig(GemmVariant gemm, Shape shape, std::int64_t panel, int fq = 1)
{
    return test::onlineRun(BackendKind::Cpu, gemm, shape, panel, fq);
}

const char* formatName(GemmVariant g) { return g == GemmVariant::CublasBf16 ? "BF16" : "FP16"; }

}  // namespace

class TestOnline16BitCpu : public QObject {
    Q_OBJECT
private slots:
    void acceptedAndRefused_data()
    {
        QTest::addColumn<int>("gemm");
        QTest::newRow("bf16") << int(GemmVariant::CublasBf16);
        QTest::newRow("f16") << int(GemmVariant::CublasF16);
    }
    void acceptedAndRefused()
    {
        QFETCH(int, gemm);
        const GemmVariant g = GemmVariant(gemm);
        const QString type = g == GemmVariant::CublasBf16 ? QStringLiteral("--type bf16") : QStringLiteral("--type f16");
        OnlineConfig c = sixteenBitConfig(g, {64, 64, 64}, 16);
        validateOnlineConfig(c, BackendKind::Cpu);
        validateOnlineConfig(c, BackendKind::Cuda);
        c.scheme = Scheme::Offline;
        validateOnlineConfig(c, BackendKind::Cuda);
        c.scheme = Scheme::Online;
        c.faults = {at(1, 2, 1), at(0, 3, 2, OnlineTarget::ChecksumRow), at(4, 0, 2, OnlineTarget::ChecksumCol)};
        validateOnlineConfig(c, BackendKind::Cuda);

        // On the GPU as TF32: one checksum vector, faults in C (the host-checked path has no 16-bit threshold).
        OnlineConfig weighted = c;
        weighted.checksums = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(weighted, BackendKind::Cuda); }).contains(type));
        validateOnlineConfig(weighted, BackendKind::Cpu);  // emulated: FP32 products, the weighted threshold holds
        OnlineConfig input = c;
        input.faults = {at(1, 2, 0, OnlineTarget::A)};
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(input, BackendKind::Cuda); }).contains(type));
        // Column blocks: one block, said why; auto resolves to one.
        OnlineConfig blocks = c;
        blocks.shape = {64, 64, 256};
        blocks.faults.clear();
        blocks.columnBlocks = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(blocks, BackendKind::Cuda); }).contains(type));
        QCOMPARE(resolvedColumnBlocks(sixteenBitConfig(g, {64, 64, 8192}, 16), BackendKind::Cuda), 1);
        // TMR's recomputation of disputed cells is not derived for 16-bit inputs; FP64 values have no 16-bit product.
        OnlineConfig tmr = sixteenBitConfig(g, {64, 64, 64}, 16);
        tmr.scheme = Scheme::Tmr;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(tmr, BackendKind::Cpu); }).contains(QStringLiteral("tmr")));
        OnlineConfig f64 = sixteenBitConfig(g, {64, 64, 64}, 16);
        f64.precision = Precision::F64;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(f64, BackendKind::Cpu); }).contains(QStringLiteral("f64")));
    }

    // B_r and C_f rows on 128-byte boundaries, as the CUTLASS BF16 kernel writes C in whole 16 bytes.
    void planAlignsRows()
    {
        online_abft::OnlineInputs in;
        const Shape s{100, 64, 100};
        for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16}) {
            in.gemm = g;
            const online_abft::OnlinePlan plan = online_abft::makeOnlinePlan(s, Precision::F32, in);
            QCOMPARE(plan.buffers.size(), std::size_t(4));  // no B^T: the passes write packed 16-bit copies
            QCOMPARE(plan.buffers[online_abft::kSlotB].ld % 32, std::int64_t(0));
            QCOMPARE(plan.buffers[online_abft::kSlotC].ld % 32, std::int64_t(0));
            QVERIFY(plan.buffers[online_abft::kSlotC].ld >= s.q + 1);
        }
    }

    // Odd shapes, panels that do not divide n, fq = 1, 3 and offline, three input distributions:
    // every check clean, the full reference passes (16-bit tolerance), 0 false alarms.
    void cleanRunsOfOddShapes()
    {
        struct Case {
            Shape shape;
            std::int64_t panel;
        };
        const Case cases[] = {{{1, 1, 1}, 1},   {{37, 53, 29}, 16}, {{130, 70, 50}, 24},
                              {{3, 200, 5}, 64}, {{64, 97, 1}, 10}, {{17, 33, 129}, 33}};
        int runs = 0, checks = 0;
        double worstRatio = 0, worstReference = 0;
        for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16})
            for (const Case& k : cases)
                for (Distribution d : {Distribution::Uniform, Distribution::Normal})
                    for (int fq : {1, 3, 0}) {
                        OnlineConfig c = sixteenBitConfig(g, k.shape, k.panel, fq);
                        c.distribution = d;
                        c.seed = std::uint64_t(7 + runs);
                        if (fq == 0)
                            c.scheme = Scheme::Offline;
                        HostMatrix result;
                        const OnlineRecord r = runKeeping(c, result);
                        const std::string what = std::string(formatName(g)) + " " + std::to_string(k.shape.m) + "x" +
                                                 std::to_string(k.shape.n) + "x" + std::to_string(k.shape.q) + " fq " +
                                                 std::to_string(fq);
                        QVERIFY2(r.status == "ok", what.c_str());
                        QVERIFY2(verdicts(r, Verdict::Clean) == int(r.verifications.size()), what.c_str());
                        QVERIFY2(r.reference.passed, what.c_str());
                        QVERIFY2(r.verifiedCorrect(), what.c_str());
                        QVERIFY2(r.panelGemm.find(std::string("rounded to ") + formatName(g)) != std::string::npos,
                                 r.panelGemm.c_str());
                        checks += int(r.verifications.size());
                        for (const VerifyEvent& e : r.verifications)
                            worstRatio = std::max(worstRatio, e.result.maxCleanResidualRatio);
                        worstReference = std::max(worstReference, r.reference.maxRelError);
                        ++runs;
                    }
        QCOMPARE(runs, 72);
        QVERIFY(checks > runs);
        qInfo("%d runs, %d checks: largest clean residual %.3g of its threshold, reference error %.3g of its tolerance",
              runs, checks, worstRatio, worstReference);
        QVERIFY(worstRatio < 1.0);
    }

    void faultAtAMiddleStepCorrectedThere_data()
    {
        QTest::addColumn<int>("gemm");
        QTest::newRow("bf16") << int(GemmVariant::CublasBf16);
        QTest::newRow("f16") << int(GemmVariant::CublasF16);
    }
    void faultAtAMiddleStepCorrectedThere()
    {
        QFETCH(int, gemm);
        OnlineConfig c = sixteenBitConfig(GemmVariant(gemm), {96, 130, 80}, 32);  // 5 steps
        OnlineFault f = at(5, 7, 2);
        f.delta = 100;
        c.faults = {f};
        const OnlineRecord r = runOnline(c, RunHooks{});
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(r.steps, 5);
        const VerifyEvent* e = checkAt(r, 2);
        QVERIFY(e);
        QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
        QCOMPARE(e->result.corrections.size(), std::size_t(1));
        QCOMPARE(e->result.corrections.front().row, std::int64_t(5));
        QCOMPARE(e->result.corrections.front().col, std::int64_t(7));
        QCOMPARE(verdicts(r, Verdict::Clean), r.steps - 1);
        QVERIFY(r.reference.passed);
        QVERIFY(r.verifiedCorrect());

        // A bit flip of the top exponent bit after the middle step: corrected there too.
        c.faults = {at(40, 11, 2)};
        c.model = FaultModel::BitFlip;
        const OnlineRecord flipped = runOnline(c, RunHooks{});
        const VerifyEvent* e2 = checkAt(flipped, 2);
        QVERIFY(e2);
        QCOMPARE(int(e2->result.verdict), int(Verdict::Corrected));
        QVERIFY(flipped.verifiedCorrect());

        // A fault in C's checksum row: the checksums rebuilt at the check after it.
        c.model = FaultModel::Delta;
        OnlineFault row = at(0, 9, 2, OnlineTarget::ChecksumRow);
        row.delta = 50;
        c.faults = {row};
        const OnlineRecord rebuilt = runOnline(c, RunHooks{});
        const VerifyEvent* e3 = checkAt(rebuilt, 2);
        QVERIFY(e3);
        QVERIFY(e3->result.verdict != Verdict::Clean);
        QVERIFY(e3->result.checksumsRecomputed);
        QVERIFY(rebuilt.verifiedCorrect());

        // Offline: the same fault found and corrected at the one check after the last step.
        c.scheme = Scheme::Offline;
        c.checkEvery = 0;
        c.faults = {f};
        const OnlineRecord offline = runOnline(c, RunHooks{});
        QCOMPARE(offline.verifications.size(), std::size_t(1));
        QCOMPARE(int(offline.verifications.front().result.verdict), int(Verdict::Corrected));
        QVERIFY(offline.verifiedCorrect());
    }

    // C is the FP32 product of the rounded operands: within FP32 accumulation of a double product
    // of the rounded A and B, and far from the product of the unrounded ones.
    void productOfTheRoundedOperands_data()
    {
        QTest::addColumn<int>("gemm");
        QTest::newRow("bf16") << int(GemmVariant::CublasBf16);
        QTest::newRow("f16") << int(GemmVariant::CublasF16);
    }
    void productOfTheRoundedOperands()
    {
        QFETCH(int, gemm);
        const GemmVariant g = GemmVariant(gemm);
        const InputFormat format = inputFormatOf(g);
        const Shape s{48, 70, 40};
        HostMatrix c16;
        const OnlineConfig c = sixteenBitConfig(g, s, 16);
        QVERIFY(runKeeping(c, c16).verifiedCorrect());

        HostMatrix a(Precision::F32, s.m, s.n), b(Precision::F32, s.n, s.q);
        fillRandom(a, c.distribution, c.seed, 1);
        fillRandom(b, c.distribution, c.seed, 2);
        double fromRounded = 0, fromFp32 = 0, largest = 0;
        for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.q; ++j) {
                double rounded = 0, exact = 0, magnitude = 0;
                for (std::int64_t k = 0; k < s.n; ++k) {
                    const double p = double(roundToInput(float(a.at(i, k)), format)) *
                                     double(roundToInput(float(b.at(k, j)), format));
                    rounded += p;
                    magnitude += std::fabs(p);
                    exact += a.at(i, k) * b.at(k, j);
                }
                fromRounded = std::max(fromRounded, std::fabs(c16.at(i, j) - rounded) / magnitude);
                fromFp32 = std::max(fromFp32, std::fabs(c16.at(i, j) - exact) / magnitude);
                largest = std::max(largest, magnitude);
            }
        // FP32 accumulation of 70 exact products: a few 2^-24 of the sum of magnitudes; the operands'
        // rounding (2^-8 BF16, 2^-11 FP16) is far above it.
        QVERIFY2(fromRounded < 70 * std::ldexp(1.0, -24), std::to_string(fromRounded).c_str());
        QVERIFY2(fromRounded * 10 < fromFp32, (std::to_string(fromRounded) + " vs " + std::to_string(fromFp32)).c_str());
        QVERIFY(largest > 0);
        qInfo("C against the rounded operands' double product %.3g, against the unrounded %.3g (of sum |a b|)",
              fromRounded, fromFp32);
    }

    // The report and the record say what multiplied: the header names the inputs, the panel GEMM line
    // the emulation, and the record keeps the variant.
    void reportNamesTheInputs()
    {
        const OnlineRecord r = runOnline(sixteenBitConfig(GemmVariant::CublasBf16, {32, 48, 24}, 16), RunHooks{});
        const std::string report = formatOnlineReport(r);
        QVERIFY2(report.find("BF16 inputs (--type bf16)") != std::string::npos, report.c_str());
        QVERIFY2(report.find("rounded to BF16 (--gemm cublas-bf16 emulated)") != std::string::npos, report.c_str());
        const OnlineRecord back = onlineRecordFromJson(onlineToJson(r));
        QCOMPARE(int(back.config.gemm), int(GemmVariant::CublasBf16));
        QCOMPARE(back.panelGemm, r.panelGemm);
    }

    // --type f16: an operand beyond 65504 has no FP16 value; the run refuses it, naming the cell.
    void f16RefusesOperandsBeyondItsRange()
    {
        OnlineConfig c = sixteenBitConfig(GemmVariant::CublasF16, {8, 8, 8}, 4);
        RunHooks hooks;
        hooks.onInputs = [](HostMatrix& a, HostMatrix&) { a.set(2, 3, 1e5); };
        const QString why = inputErrorOf([&] { (void)runOnline(c, hooks); });
        QVERIFY2(why.contains(QStringLiteral("A(2, 3)")) && why.contains(QStringLiteral("65504")), qPrintable(why));
        c.gemm = GemmVariant::CublasBf16;  // BF16 has FP32's range
        QVERIFY(runOnline(c, hooks).verifiedCorrect());
    }
};

QTEST_GUILESS_MAIN(TestOnline16BitCpu)
#include "tst_online_16bit_cpu.moc"
