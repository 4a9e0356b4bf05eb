// Online ABFT with --gemm cutlass-tf32 (the CUTLASS kernel that writes C's sums on a Hopper GPU) on
// the CPU backend, which emulates it as it does cublas-tf32: A and B rounded to TF32 before their
// checksums, FP32 products. The configuration is accepted where cublas-tf32 is and refused where
// it is, a clean run verifies clean, a fault in C (and in its checksums) is corrected at the check
// after its step, and the product is that of the TF32-rounded operands. Which runs the GPU gives the
// step-sums kernel, and its plan.
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

OnlineConfig fusedConfig(Shape shape, std::int64_t panel, int fq = 1)
{
    return test::onlineRun(BackendKind::Cpu, GemmVariant::CutlassTf32, shape, panel, fq);
}

}  // namespace

class TestOnlineFusedCpu : public QObject {
    Q_OBJECT
private slots:
    void acceptedWhereCublasTf32Is()
    {
        const OnlineConfig c = fusedConfig({64, 64, 64}, 16);
        validateOnlineConfig(c, BackendKind::Cpu);
        validateOnlineConfig(c, BackendKind::Cuda);

        OnlineConfig weighted = c;
        weighted.checksums = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(weighted, BackendKind::Cuda); }).contains(QStringLiteral("cutlass-tf32")));
        OnlineConfig input = c;
        input.faults = {at(1, 2, 0, OnlineTarget::A)};
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(input, BackendKind::Cuda); }).contains(QStringLiteral("cutlass-tf32")));
        OnlineConfig blocks = c;
        blocks.shape = {64, 64, 256};
        blocks.columnBlocks = 2;
        QVERIFY(inputErrorOf([&] { validateOnlineConfig(blocks, BackendKind::Cuda); }).contains(QStringLiteral("cutlass-tf32")));
        QCOMPARE(resolvedColumnBlocks(fusedConfig({64, 64, 8192}, 16), BackendKind::Cuda), 1);

        // A kernel the online device path has no place for: the refusal names what it takes.
        OnlineConfig own = c;
        own.gemm = GemmVariant::Optimized;
        const QString why = inputErrorOf([&] { validateOnlineConfig(own, BackendKind::Cuda); });
        QVERIFY2(why.contains("cublas-tf32") && why.contains(QStringLiteral("cutlass-tf32")), qPrintable(why));
    }

    // B_r and C_f rows start on 128-byte boundaries for the kernel's copies, and B^T has room for a
    // product's panel of B laid out K-major; FP32 cuBLAS keeps the tight layout.
    void planAlignsRowsForTheKernel()
    {
        online_abft::OnlineInputs in;
        in.gemm = GemmVariant::CutlassTf32;
        const Shape s{100, 64, 100};
        const online_abft::OnlinePlan fused = online_abft::makeOnlinePlan(s, Precision::F32, in);
        QCOMPARE(fused.buffers[online_abft::kSlotB].ld % 32, std::int64_t(0));
        QCOMPARE(fused.buffers[online_abft::kSlotC].ld % 32, std::int64_t(0));
        QVERIFY(fused.buffers[online_abft::kSlotC].ld >= s.q + 1);
        // B^T for the K-major kernel: q rows of the longest product's depth (a panel; merged: to the check).
        in.panel = 16;
        in.steps = 4;
        const online_abft::OnlinePlan perStep = online_abft::makeOnlinePlan(s, Precision::F32, in);
        QCOMPARE(perStep.buffers.size(), std::size_t(5));
        QCOMPARE(perStep.buffers[online_abft::kSlotBTransposed].rows, s.q);
        QCOMPARE(perStep.buffers[online_abft::kSlotBTransposed].cols, std::int64_t(16));
        in.mergeSteps = true;
        in.checkEvery = 3;
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F32, in).buffers[online_abft::kSlotBTransposed].cols,
                 std::int64_t(48));
        in.checkEvery = 0;  // offline: one product of all of n
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F32, in).buffers[online_abft::kSlotBTransposed].cols, s.n);
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F64, in).buffers.size(), std::size_t(4));
        // cuBLAS TF32 gets the aligned rows too (its tensor-core kernels want 16-byte rows); FP32
        // cuBLAS keeps the tight layout.
        in.gemm = GemmVariant::CublasTf32;
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F32, in).buffers.size(), std::size_t(4));
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F32, in).buffers[online_abft::kSlotC].ld % 32, std::int64_t(0));
        in.gemm = GemmVariant::Cublas;
        QCOMPARE(online_abft::makeOnlinePlan(s, Precision::F32, in).buffers[online_abft::kSlotC].ld, s.q + 1);
    }

    // Where the GPU takes the step-sums kernel (the whole product in one kernel keeping C in registers,
    // inputs.hpp stepSumsProduct) and what its plan holds: all of B^T, one row of sums per step, and per
    // step C's checksum column and row and the bounds' scales the passes make beside the kernel.
    void stepSumsKernelWhereItsConditionsHold()
    {
        online_abft::OnlineInputs in;
        in.gemm = GemmVariant::CutlassTf32;
        in.shape = {100, 256, 100};
        in.panel = 64;
        in.steps = 4;
        in.onDevice = true;
        QVERIFY(online_abft::stepSumsProduct(in));
        const online_abft::OnlinePlan plan = online_abft::makeOnlinePlan(in.shape, Precision::F32, in);
        QCOMPARE(plan.buffers.size(), std::size_t(8));
        QCOMPARE(plan.buffers[online_abft::kSlotBTransposed].rows, in.shape.q);
        QCOMPARE(plan.buffers[online_abft::kSlotBTransposed].cols, in.shape.n);
        QCOMPARE(plan.buffers[online_abft::kSlotStepSums].rows, std::int64_t(4));
        QCOMPARE(plan.buffers[online_abft::kSlotStepSums].cols, in.shape.m + in.shape.q);
        QCOMPARE(plan.buffers[online_abft::kSlotStepLines].rows, std::int64_t(4));
        QCOMPARE(plan.buffers[online_abft::kSlotStepLines].cols, in.shape.m + in.shape.q + 1);
        QCOMPARE(plan.buffers[online_abft::kSlotStepBounds].rows, std::int64_t(4));
        QCOMPARE(plan.buffers[online_abft::kSlotStepBounds].cols, in.shape.m + in.shape.q + 2 + 2 * 64);

        // Faults in C, up to eight, added or flipping a bit below 27 (or the sign).
        online_abft::PlannedFault f;
        f.at = at(3, 4, 1);
        f.model = FaultModel::BitFlip;
        for (const int bit : {0, 22, 26, 31}) {
            f.bit = bit;
            in.faults = {f};
            QVERIFY2(online_abft::stepSumsProduct(in), qPrintable(QString::number(bit)));
        }
        f.model = FaultModel::Delta;
        in.faults.assign(8, f);
        QVERIFY(online_abft::stepSumsProduct(in));

        // Otherwise a product per step.
        const auto without = [&](auto change, const char* why) {
            online_abft::OnlineInputs other = in;
            change(other);
            QVERIFY2(!online_abft::stepSumsProduct(other), why);
            QCOMPARE(online_abft::makeOnlinePlan(other.shape, Precision::F32, other).buffers.size() <= 5, true);
        };
        without([](auto& x) { x.onDevice = false; }, "the CPU backend");
        without([&](auto& x) { x.faults.assign(9, f); }, "nine faults");
        without([&](auto& x) {
            online_abft::PlannedFault g = f;
            g.model = FaultModel::BitFlip;
            g.bit = 30;
            x.faults = {g};
        }, "a flip of bit 30");
        without([&](auto& x) {
            online_abft::PlannedFault g = f;
            g.model = FaultModel::BitFlip;
            g.bit = 3;
            g.bit2 = 28;
            x.faults = {g};
        }, "a second bit of 28");
        without([&](auto& x) {
            online_abft::PlannedFault g = f;
            g.at.target = OnlineTarget::ChecksumRow;
            x.faults = {g};
        }, "a checksum fault");
        without([](auto& x) { x.panel = 48; }, "a panel not of whole 32-deep k tiles");
        without([](auto& x) { x.shape.q = 102; }, "q not a multiple of 4");
        without([](auto& x) { x.gemm = GemmVariant::CublasTf32; }, "cublas-tf32");
        // All of n in one product (offline): one step of any depth.
        online_abft::OnlineInputs offline = in;
        offline.shape.n = 260;
        offline.steps = 5;
        offline.mergeSteps = true;
        offline.checkEvery = 0;
        offline.faults.clear();
        QVERIFY(online_abft::stepSumsProduct(offline));
        QCOMPARE(online_abft::stepSumsPanel(offline), std::int64_t(288));
    }

    void cleanRunVerifiesClean()
    {
        for (const auto& [shape, panel] : {std::pair{Shape{96, 128, 80}, std::int64_t(32)},
                                           std::pair{Shape{130, 70, 50}, std::int64_t(16)}}) {
            HostMatrix c;
            const OnlineRecord r = runKeeping(fusedConfig(shape, panel), c);
            QCOMPARE(r.status, std::string("ok"));
            QCOMPARE(int(r.verifications.size()), r.steps);
            QCOMPARE(verdicts(r, Verdict::Clean), r.steps);
            QVERIFY(r.reference.passed);
            QVERIFY(r.verifiedCorrect());
            QVERIFY2(r.panelGemm.find("rounded to TF32 (--gemm cutlass-tf32 emulated)") != std::string::npos,
                     r.panelGemm.c_str());
        }
    }

    // The emulation multiplies the TF32-rounded operands: cutlass-tf32 gives cublas-tf32's C bit for
    // bit, and the FP32 products of the rounded A and B, not those of A and B.
    void productOfTheRoundedOperands()
    {
        const Shape s{48, 64, 40};
        HostMatrix fused, cublasTf32, fp32;
        OnlineConfig c = fusedConfig(s, 16);
        QVERIFY(runKeeping(c, fused).verifiedCorrect());
        c.gemm = GemmVariant::CublasTf32;
        QVERIFY(runKeeping(c, cublasTf32).verifiedCorrect());
        c.gemm = GemmVariant::Cublas;
        QVERIFY(runKeeping(c, fp32).verifiedCorrect());

        HostMatrix a(Precision::F32, s.m, s.n), b(Precision::F32, s.n, s.q);
        fillRandom(a, c.distribution, c.seed, 1);
        fillRandom(b, c.distribution, c.seed, 2);
        double fromRounded = 0, fromFp32 = 0;
        int differs = 0;
        for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.q; ++j) {
                QCOMPARE(fused.at(i, j), cublasTf32.at(i, j));
                double rounded = 0, exact = 0;
                for (std::int64_t k = 0; k < s.n; ++k) {
                    rounded += double(roundToTf32(float(a.at(i, k)))) * double(roundToTf32(float(b.at(k, j))));
                    exact += a.at(i, k) * b.at(k, j);
                }
                fromRounded = std::max(fromRounded, std::fabs(fused.at(i, j) - rounded));
                fromFp32 = std::max(fromFp32, std::fabs(fused.at(i, j) - exact));
                differs += fused.at(i, j) != fp32.at(i, j);
            }
        QVERIFY(differs > 0);
        // FP32 accumulation of 64 products: ~1e-6 of the largest cell; TF32 rounding: ~1e-3.
        QVERIFY2(fromRounded < 1e-4, std::to_string(fromRounded).c_str());
        QVERIFY2(fromRounded * 10 < fromFp32, (std::to_string(fromRounded) + " vs " + std::to_string(fromFp32)).c_str());
    }

    void faultCorrectedAtItsStep()
    {
        OnlineConfig c = fusedConfig({96, 128, 80}, 32);
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

        // Checked every 3 steps: caught by the next check.
        c.checkEvery = 3;
        const OnlineRecord later = runOnline(c, RunHooks{});
        const VerifyEvent* e2 = checkAt(later, 2);
        QVERIFY(e2);
        QCOMPARE(int(e2->result.verdict), int(Verdict::Corrected));
        QVERIFY(later.verifiedCorrect());

        // A fault in C's checksum row: the checksums rebuilt at the check after it.
        c.checkEvery = 1;
        OnlineFault row = at(0, 9, 2, OnlineTarget::ChecksumRow);
        row.delta = 50;
        c.faults = {row};
        const OnlineRecord rebuilt = runOnline(c, RunHooks{});
        const VerifyEvent* e3 = checkAt(rebuilt, 2);
        QVERIFY(e3);
        QVERIFY(e3->result.verdict != Verdict::Clean);
        QVERIFY(e3->result.checksumsRecomputed);
        QVERIFY(rebuilt.verifiedCorrect());
    }
};

QTEST_GUILESS_MAIN(TestOnlineFusedCpu)
#include "tst_online_fused_cpu.moc"
