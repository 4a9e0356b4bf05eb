// Online ABFT with --gemm cutlass-tf32 on the device: each panel product is the CUTLASS TF32 kernel
// whose epilogue writes C's row and column sums, and the check after it reads those instead of C.
// Clean runs at a few shapes raise no alarm; a fault in C after each step, and in each checksum, is
// corrected at the check after it; C equals the cublas-tf32 online run's C within TF32 accumulation
// round-off; a shape the kernel cannot take runs cuBLAS TF32 and says so. Where the faults are in C
// only and the panel is whole k tiles, the whole product is the step-sums kernel (C kept in registers
// across the steps, each check reading its step's sums): two faults on one row at different steps are
// each corrected at their own check, a flip of bit 26 too (bit 30 runs a product per step), with the
// verdicts and C of a product per step.
// Hopper only (sm_90a kernels): skipped visibly elsewhere.
#include "gpu_available.hpp"

#include "engine/online_run_helpers.hpp"
#include "gigacheck/online_abft.hpp"

#include <algorithm>
#include <cmath>

using namespace gigacheck;

using test::at;
using test::checkAt;

using test::runKeeping;
using test::verdicts;

namespace {

OnlineConfig fusedConfig(Shape shape, std::int64_t panel, int fq = 1)
{
    return test::onlineRun(BackendKind::Cuda, GemmVariant::CutlassTf32, shape, panel, fq);
}

// The record names the fused kernel ("CUTLASS sm_90a TF32 ... with C's sums from its epilogue").
bool ranFused(const OnlineRecord& r) { return r.panelGemm.find("CUTLASS sm_90a TF32") != std::string::npos; }
bool ranStepSums(const OnlineRecord& r) { return r.panelGemm.find("step-sums kernel") != std::string::npos; }

// A product per step instead of the step-sums kernel, for the scope of one run.
struct ProductPerStep {
    ProductPerStep() { qputenv("GIGACHECK_NO_STEP_SUMS", "1"); }
    ~ProductPerStep() { qunsetenv("GIGACHECK_NO_STEP_SUMS"); }
};

// Both runs multiply the same TF32-rounded operands with FP32 accumulation in different orders: cell
// by cell within 2 n u_FP32 of sum_k |a_ik b_kj| <= n max|a| max|b| (the inputs' largest elements).
void sameWithinAccumulation(const HostMatrix& x, const HostMatrix& y, std::int64_t n, double maxAbsProduct)
{
    const double tolerance = 2.0 * double(n) * std::ldexp(1.0, -24) * double(n) * maxAbsProduct;
    double worst = 0;
    for (std::int64_t i = 0; i < x.rows(); ++i)
        for (std::int64_t j = 0; j < x.cols(); ++j)
            worst = std::max(worst, std::fabs(x.at(i, j) - y.at(i, j)));
    QVERIFY2(worst <= tolerance, (std::to_string(worst) + " > " + std::to_string(tolerance)).c_str());
}

double maxAbsProductOf(const OnlineConfig& c)
{
    HostMatrix a(Precision::F32, c.shape.m, c.shape.n), b(Precision::F32, c.shape.n, c.shape.q);
    fillRandom(a, c.distribution, c.seed, 1);
    fillRandom(b, c.distribution, c.seed, 2);
    double ma = 0, mb = 0;
    for (std::int64_t i = 0; i < a.rows(); ++i)
        for (std::int64_t k = 0; k < a.cols(); ++k)
            ma = std::max(ma, std::fabs(a.at(i, k)));
    for (std::int64_t k = 0; k < b.rows(); ++k)
        for (std::int64_t j = 0; j < b.cols(); ++j)
            mb = std::max(mb, std::fabs(b.at(k, j)));
    return ma * mb;
}

}  // namespace

class TestCudaOnlineFused : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    }

    void cleanRunsRaiseNoAlarm_data()
    {
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("q");
        QTest::addColumn<qint64>("panel");
        QTest::addColumn<int>("fq");
        QTest::newRow("256^3 b64") << qint64(256) << qint64(256) << qint64(256) << qint64(64) << 1;
        QTest::newRow("1000x512x760 b128") << qint64(1000) << qint64(512) << qint64(760) << qint64(128) << 1;
        QTest::newRow("2048^3 b256") << qint64(2048) << qint64(2048) << qint64(2048) << qint64(256) << 1;
        QTest::newRow("2048^3 b256 fq4 merged") << qint64(2048) << qint64(2048) << qint64(2048) << qint64(256) << 4;
        QTest::newRow("1536x1024x1280 b100") << qint64(1536) << qint64(1024) << qint64(1280) << qint64(100) << 1;
    }
    void cleanRunsRaiseNoAlarm()
    {
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        QFETCH(qint64, q);
        QFETCH(qint64, panel);
        QFETCH(int, fq);
        for (std::uint64_t seed : {1u, 7u, 42u}) {
            OnlineConfig c = fusedConfig({m, n, q}, panel, fq);
            c.seed = seed;
            const OnlineRecord r = runOnline(c, RunHooks{});
            QCOMPARE(r.status, std::string("ok"));
            QVERIFY2(ranFused(r), r.panelGemm.c_str());
            QCOMPARE(verdicts(r, Verdict::Clean), int(r.verifications.size()));
            QVERIFY(r.verifiedCorrect());
        }
    }

    // A fault in C after every step in turn, each corrected by the check after it (FQ = 1), and C
    // equal to the cublas-tf32 online run's.
    void faultAfterEachStepCorrected()
    {
        OnlineConfig c = fusedConfig({1024, 1024, 768}, 256);
        HostMatrix reference;
        OnlineConfig cublas = c;
        cublas.gemm = GemmVariant::CublasTf32;
        const OnlineRecord plain = runKeeping(cublas, reference);
        QVERIFY(plain.verifiedCorrect());
        // The record names what multiplied the panels for cublas-tf32 too.
        QVERIFY2(plain.panelGemm.find("cuBLAS TF32 for 1024 x 256 x 768") != std::string::npos, plain.panelGemm.c_str());
        const double maxAbs = maxAbsProductOf(c);
        for (int step = 0; step < c.steps(); ++step) {
            OnlineFault f = at(100 + 37 * step, 50 + 61 * step, step);
            f.delta = 1000;
            c.faults = {f};
            HostMatrix result;
            const OnlineRecord r = runKeeping(c, result);
            QCOMPARE(r.status, std::string("ok"));
            QVERIFY2(ranFused(r), r.panelGemm.c_str());
            const VerifyEvent* e = checkAt(r, step);
            QVERIFY(e);
            QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
            QCOMPARE(e->result.corrections.size(), std::size_t(1));
            QCOMPARE(e->result.corrections.front().row, f.row);
            QCOMPARE(e->result.corrections.front().col, f.col);
            QCOMPARE(verdicts(r, Verdict::Clean), int(r.verifications.size()) - 1);
            QVERIFY(r.verifiedCorrect());
            sameWithinAccumulation(result, reference, c.shape.n, maxAbs);
        }
    }

    // Every fault target of the device path: C, its checksum row, its checksum column.
    void faultInEachTargetCorrected()
    {
        OnlineConfig c = fusedConfig({768, 1024, 1024}, 256);
        HostMatrix reference;
        OnlineConfig cublas = c;
        cublas.gemm = GemmVariant::CublasTf32;
        QVERIFY(runKeeping(cublas, reference).verifiedCorrect());
        const double maxAbs = maxAbsProductOf(c);
        for (OnlineTarget target : {OnlineTarget::Result, OnlineTarget::ChecksumRow, OnlineTarget::ChecksumCol}) {
            OnlineFault f = at(target == OnlineTarget::Result ? 300 : 0, target == OnlineTarget::ChecksumCol ? 0 : 500, 1,
                               target);
            if (target == OnlineTarget::ChecksumCol)
                f.row = 300;
            f.delta = -250;
            c.faults = {f};
            HostMatrix result;
            const OnlineRecord r = runKeeping(c, result);
            QCOMPARE(r.status, std::string("ok"));
            const VerifyEvent* e = checkAt(r, 1);
            QVERIFY(e);
            QVERIFY2(e->result.verdict == Verdict::Corrected, qPrintable(QString::fromUtf8(toString(target).data())));
            if (target != OnlineTarget::Result)
                QVERIFY(e->result.checksumsRecomputed);
            QVERIFY(r.verifiedCorrect());
            sameWithinAccumulation(result, reference, c.shape.n, maxAbs);
        }
    }

    // Checked every 4 steps with the steps between merged: a fault after step 1 caught at step 3.
    void faultCaughtAtTheNextCheck()
    {
        OnlineConfig c = fusedConfig({1024, 2048, 1024}, 256, 4);
        OnlineFault f = at(700, 333, 1);
        f.delta = 77;
        c.faults = {f};
        const OnlineRecord r = runOnline(c, RunHooks{});
        QCOMPARE(r.status, std::string("ok"));
        QVERIFY2(ranFused(r), r.panelGemm.c_str());
        const VerifyEvent* e = checkAt(r, 3);
        QVERIFY(e);
        QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
        QVERIFY(r.verifiedCorrect());
    }

    // Two faults on row 300, after steps 1 and 3 (one added, one a flip of a high exponent bit): each
    // corrected at its own check, so what check 1 corrected in the final C has left the sums of the
    // later steps; C and every check's verdict as with a product per step.
    void stepSumsCorrectEachFaultAtItsStep()
    {
        OnlineConfig c = fusedConfig({1024, 2048, 1024}, 256);
        OnlineFault first = at(300, 500, 1), second = at(300, 700, 3);
        first.delta = 1000;
        second.delta = -40;
        c.faults = {first, second};
        HostMatrix kernel, perStep;
        const OnlineRecord r = runKeeping(c, kernel);
        OnlineRecord p;
        {
            const ProductPerStep off;
            p = runKeeping(c, perStep);
        }
        QVERIFY2(ranStepSums(r), r.panelGemm.c_str());
        QVERIFY2(!ranStepSums(p) && ranFused(p), p.panelGemm.c_str());
        for (const OnlineRecord* x : {&r, static_cast<const OnlineRecord*>(&p)}) {
            QCOMPARE(x->status, std::string("ok"));
            for (const auto& [step, col] : {std::pair{1, 500}, std::pair{3, 700}}) {
                const VerifyEvent* e = checkAt(*x, step);
                QVERIFY(e);
                QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
                QCOMPARE(e->result.corrections.size(), std::size_t(1));
                QCOMPARE(e->result.corrections.front().row, std::int64_t(300));
                QCOMPARE(e->result.corrections.front().col, std::int64_t(col));
            }
            QCOMPARE(verdicts(*x, Verdict::Clean), int(x->verifications.size()) - 2);
            QVERIFY(x->verifiedCorrect());
        }
        sameWithinAccumulation(kernel, perStep, c.shape.n, maxAbsProductOf(c));

        OnlineConfig flip = fusedConfig({1024, 2048, 1024}, 256);
        flip.model = FaultModel::BitFlip;
        flip.faults = {at(811, 2, 5)};
        // Bit 26 (the value scaled by 2^8 or 2^-8) on the kernel; bit 30 (2^128, or infinite) would
        // swamp its lines' later sums, so it runs a product per step.
        for (const int bit : {26, 30}) {
            flip.bit = bit;
            const OnlineRecord f = runOnline(flip, RunHooks{});
            QVERIFY2(ranStepSums(f) == (bit == 26), f.panelGemm.c_str());
            const VerifyEvent* e = checkAt(f, 5);
            QVERIFY(e);
            QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
            QCOMPARE(verdicts(f, Verdict::Clean), int(f.verifications.size()) - 1);
            QVERIFY(f.verifiedCorrect());
        }
    }

    // n not a multiple of 4: the kernel cannot take the panels; cuBLAS TF32 runs, the checks read C,
    // and the record says so.
    void unalignedShapeFallsBackToCublas()
    {
        OnlineConfig c = fusedConfig({300, 302, 298}, 50);
        OnlineFault f = at(7, 9, 2);
        f.delta = 100;
        c.faults = {f};
        const OnlineRecord r = runOnline(c, RunHooks{});
        QCOMPARE(r.status, std::string("ok"));
        QVERIFY2(!ranFused(r) && r.panelGemm.find("cuBLAS TF32") != std::string::npos, r.panelGemm.c_str());
        const VerifyEvent* e = checkAt(r, 2);
        QVERIFY(e);
        QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
        QVERIFY(r.verifiedCorrect());
    }
};

QTEST_GUILESS_MAIN(TestCudaOnlineFused)
#include "tst_cuda_online_fused.moc"
