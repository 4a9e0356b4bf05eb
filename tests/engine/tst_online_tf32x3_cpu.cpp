// Online ABFT with --gemm tf32x3 (each panel product as three TF32 products of the panels' big and
// small parts, FP32 accuracy) on the CPU backend, which emulates the split exactly. The
// configuration is accepted on both backends and refused where its threshold does not reach; the
// plan aligns rows for cuBLAS TF32; a clean run verifies clean; the product is FP32-accurate (far
// below TF32's error) and equals the blocked family's tf32x3 product; a fault in C is corrected at
// the check after its step.
#include "test_helpers.hpp"

#include "families/online_abft/inputs.hpp"
#include "families/online_abft/plan/schedule_builder.hpp"

#include "engine/online_run_helpers.hpp"
#include "gigacheck/online_abft.hpp"

#include <QtTest>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using test::at;
using test::checkAt;
using test::runKeeping;
using test::verdicts;

namespace {

OnlineConfig tf32x3Config(Shape shape, std::int64_t panel, int fq = 1)
{
    return test::onlineRun(BackendKind::Cpu, GemmVariant::Tf32x3, shape, panel, fq);
}

}  // namespace

class TestOnlineTf32x3Cpu : public QObject {
    Q_OBJECT
private slots:
    void acceptedOnBothBackends()
    {
        const OnlineConfig c = tf32x3Config({64, 64, 64}, 16);
        validateOnlineConfig(c, BackendKind::Cpu);
        validateOnlineConfig(c, BackendKind::Cuda);
        OnlineConfig offline = c;
        offline.scheme = Scheme::Offline;
        validateOnlineConfig(offline, BackendKind::Cuda);
        // Faults in A / B: the CPU checks them with tf32x3's threshold; the GPU's host-checked path has none.
        OnlineConfig input = c;
        input.faults = {at(1, 2, 0, OnlineTarget::A)};
        validateOnlineConfig(input, BackendKind::Cpu);
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(input, BackendKind::Cuda); }).contains(QStringLiteral("tf32x3")));
        // Weighted checksums: no threshold for the tensor cores' accumulation, on either backend.
        OnlineConfig weighted = c;
        weighted.checksums = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(weighted, BackendKind::Cpu); }).contains(QStringLiteral("tf32x3")));
        // One column block, with the reason when more are asked for.
        OnlineConfig blocks = c;
        blocks.shape = {64, 64, 256};
        blocks.columnBlocks = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(blocks, BackendKind::Cuda); }).contains(QStringLiteral("tf32x3")));
        QCOMPARE(resolvedColumnBlocks(tf32x3Config({64, 64, 8192}, 16), BackendKind::Cuda), 1);
    }

    // cuBLAS TF32 multiplies the parts: B_r's and C_f's rows on 128-byte boundaries, as for cublas-tf32.
    void planAlignsRowsForCublasTf32()
    {
        online_abft::OnlineInputs in;
        in.gemm = GemmVariant::Tf32x3;
        const Shape s{100, 64, 100};
        const online_abft::OnlinePlan p = online_abft::makeOnlinePlan(s, Precision::F32, in);
        QCOMPARE(p.buffers[online_abft::kSlotB].ld % 32, std::int64_t(0));
        QCOMPARE(p.buffers[online_abft::kSlotC].ld % 32, std::int64_t(0));
        QCOMPARE(p.buffers.size(), std::size_t(4));  // no B^T: that is the CUTLASS kernel's
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F64, in).buffers[online_abft::kSlotC].ld, s.q + 1);
    }

    void cleanRunVerifiesCleanAndSaysHow()
    {
        for (const auto& [shape, panel] : {std::pair{Shape{96, 128, 80}, std::int64_t(32)},
                                           std::pair{Shape{130, 70, 50}, std::int64_t(16)}}) {
            HostMatrix c;
            const OnlineRecord r = runKeeping(tf32x3Config(shape, panel), c);
            QCOMPARE(r.status, std::string("ok"));
            QCOMPARE(int(r.verifications.size()), r.steps);
            QCOMPARE(verdicts(r, Verdict::Clean), r.steps);
            QVERIFY(r.reference.passed);
            QVERIFY(r.verifiedCorrect());
            QVERIFY2(r.panelGemm.find("--gemm tf32x3 emulated") != std::string::npos, r.panelGemm.c_str());
            QVERIFY(formatOnlineReport(r).find("tf32x3") != std::string::npos);
        }
    }

    // FP32 accuracy from TF32 products: the error against FP64 is of FP32's order and far below that
    // of plain TF32 products of the same inputs (which round the operands to 11 bits).
    void productIsFp32Accurate()
    {
        const Shape s{64, 512, 48};
        OnlineConfig c = tf32x3Config(s, 128);
        HostMatrix x3, tf32, fp32;
        QVERIFY(runKeeping(c, x3).verifiedCorrect());
        c.gemm = GemmVariant::CublasTf32;
        QVERIFY(runKeeping(c, tf32).verifiedCorrect());
        c.gemm = GemmVariant::Cublas;
        QVERIFY(runKeeping(c, fp32).verifiedCorrect());
        const double eX3 = test::maxRelativeErrorOf(c, x3), eTf32 = test::maxRelativeErrorOf(c, tf32),
                     eFp32 = test::maxRelativeErrorOf(c, fp32);
        QVERIFY2(eX3 < 4 * eFp32 + 1e-7, (std::to_string(eX3) + " vs FP32 " + std::to_string(eFp32)).c_str());
        QVERIFY2(eX3 * 50 < eTf32, (std::to_string(eX3) + " vs TF32 " + std::to_string(eTf32)).c_str());
    }

    void faultCorrectedAtItsStep()
    {
        OnlineConfig c = tf32x3Config({96, 128, 80}, 32);
        OnlineFault f = at(5, 7, 1);
        f.delta = 100;
        c.faults = {f};
        const OnlineRecord r = runOnline(c, RunHooks{});
        QCOMPARE(r.status, std::string("ok"));
        const VerifyEvent* e = checkAt(r, 1);
        QVERIFY(e);
        QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
        QCOMPARE(e->result.corrections.size(), std::size_t(1));
        QCOMPARE(e->result.corrections.front().row, std::int64_t(5));
        QCOMPARE(e->result.corrections.front().col, std::int64_t(7));
        QCOMPARE(verdicts(r, Verdict::Clean), r.steps - 1);
        QVERIFY(r.verifiedCorrect());

        // A small fault (a low mantissa bit of a cell) is below round-off or corrected, never left
        // as a wrong C behind a clean verdict: the reference agrees with the verdict.
        OnlineConfig flip = c;
        flip.faults = {at(40, 30, 2)};
        flip.model = FaultModel::BitFlip;
        flip.bit = 20;
        const OnlineRecord flipped = runOnline(flip, RunHooks{});
        QCOMPARE(flipped.status, std::string("ok"));
        QVERIFY(flipped.reference.passed);
        QVERIFY(flipped.verifiedCorrect());

        // A fault in A before the products (the CPU's input check) is located and repaired.
        OnlineFault inA = at(3, 60, 0, OnlineTarget::A);
        inA.delta = 10;
        c.faults = {inA};
        const OnlineRecord repaired = runOnline(c, RunHooks{});
        QCOMPARE(repaired.status, std::string("ok"));
        QVERIFY(repaired.reference.passed);
        QVERIFY(repaired.verifiedCorrect());
    }
};

QTEST_GUILESS_MAIN(TestOnlineTf32x3Cpu)
#include "tst_online_tf32x3_cpu.moc"
