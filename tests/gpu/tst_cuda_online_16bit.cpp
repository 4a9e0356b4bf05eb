// Online / offline ABFT with BF16 / FP16 inputs on the device (--type bf16|f16: --gemm cublas-bf16 /
// cublas-f16): each panel product's checksum passes round the FP32 operands in registers and write
// the 16-bit copies the GEMM multiplies (FP32 accumulation and C); on a Hopper GPU and a
// panel the CUTLASS 16-bit kernel takes, that kernel's epilogue writes C's row and column sums and the
// check reads no C. Clean runs raise no alarm, a fault in C after a middle step (and in each
// checksum) is corrected at the check after it, and C equals the CPU backend's emulation (the same
// rounded operands, FP32 products) within FP32 accumulation round-off. Skipped visibly without a
// device; the CUTLASS rows also without a Hopper GPU or a build with CUTLASS.
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

OnlineConfig sixteenBitConfig(GemmVariant gemm, Shape shape, std::int64_t panel, int fq = 1)
{
    return test::onlineRun(BackendKind::Cuda, gemm, shape, panel, fq);
}

// The record names the fused kernel ("CUTLASS sm_90a BF16 with C's sums from its epilogue ...").
bool ranFused(const OnlineRecord& r, const char* type = "BF16")
{
    return r.panelGemm.find(std::string("CUTLASS sm_90a ") + type) != std::string::npos;
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

// The device's C against the CPU emulation's: both are FP32 accumulations of the same exact
// products of the rounded operands, in different orders: cell by cell within 2 n u_FP32 of
// sum_k |a_ik b_kj| <= n max|a| max|b|.
void equalsTheCpuEmulation(const OnlineConfig& device, const HostMatrix& result)
{
    OnlineConfig cpu = device;
    cpu.backend = BackendKind::Cpu;
    cpu.faults.clear();
    HostMatrix emulated;
    QVERIFY(runKeeping(cpu, emulated).verifiedCorrect());
    const std::int64_t n = device.shape.n;
    const double tolerance = 2.0 * double(n) * std::ldexp(1.0, -24) * double(n) * maxAbsProductOf(device);
    double worst = 0;
    for (std::int64_t i = 0; i < result.rows(); ++i)
        for (std::int64_t j = 0; j < result.cols(); ++j)
            worst = std::max(worst, std::fabs(result.at(i, j) - emulated.at(i, j)));
    QVERIFY2(worst <= tolerance, (std::to_string(worst) + " > " + std::to_string(tolerance)).c_str());
}

}  // namespace

class TestCudaOnline16Bit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void cleanRunsRaiseNoAlarm_data()
    {
        QTest::addColumn<int>("gemm");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("q");
        QTest::addColumn<qint64>("panel");
        QTest::addColumn<int>("fq");
        for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16}) {
            const std::string t = g == GemmVariant::CublasBf16 ? "bf16 " : "f16 ";
            QTest::newRow((t + "256^3 b64").c_str()) << int(g) << qint64(256) << qint64(256) << qint64(256) << qint64(64) << 1;
            QTest::newRow((t + "1000x512x760 b128").c_str()) << int(g) << qint64(1000) << qint64(512) << qint64(760) << qint64(128) << 1;
            QTest::newRow((t + "2048^3 b256").c_str()) << int(g) << qint64(2048) << qint64(2048) << qint64(2048) << qint64(256) << 1;
            QTest::newRow((t + "2048^3 b256 fq4 merged").c_str()) << int(g) << qint64(2048) << qint64(2048) << qint64(2048) << qint64(256) << 4;
            QTest::newRow((t + "301x517x299 b100").c_str()) << int(g) << qint64(301) << qint64(517) << qint64(299) << qint64(100) << 1;
            QTest::newRow((t + "1x1x1 b1").c_str()) << int(g) << qint64(1) << qint64(1) << qint64(1) << qint64(1) << 1;
        }
    }
    void cleanRunsRaiseNoAlarm()
    {
        QFETCH(int, gemm);
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        QFETCH(qint64, q);
        QFETCH(qint64, panel);
        QFETCH(int, fq);
        for (std::uint64_t seed : {1u, 42u})
            for (Distribution d : {Distribution::Uniform, Distribution::Normal}) {
                OnlineConfig c = sixteenBitConfig(GemmVariant(gemm), {m, n, q}, panel, fq);
                c.seed = seed;
                c.distribution = d;
                const OnlineRecord r = runOnline(c, RunHooks{});
                QVERIFY2(r.status == "ok", r.error.c_str());
                QCOMPARE(verdicts(r, Verdict::Clean), int(r.verifications.size()));
                QVERIFY(r.reference.passed);
                QVERIFY(r.verifiedCorrect());
                QVERIFY(!r.panelGemm.empty());
            }
    }

    // A fault in C after a middle step, corrected by the check after it (fq = 1), with and without
    // the CUTLASS kernel's sums (n = 1002: its last panel, 234 wide, is cuBLAS's, the others the
    // kernel's on Hopper); C equal to the CPU emulation's.
    void faultAfterAMiddleStepCorrected_data()
    {
        QTest::addColumn<int>("gemm");
        QTest::addColumn<qint64>("n");
        QTest::newRow("bf16 aligned") << int(GemmVariant::CublasBf16) << qint64(1024);
        QTest::newRow("bf16, last panel 234 wide") << int(GemmVariant::CublasBf16) << qint64(1002);
        QTest::newRow("f16") << int(GemmVariant::CublasF16) << qint64(1024);
    }
    void faultAfterAMiddleStepCorrected()
    {
        QFETCH(int, gemm);
        QFETCH(qint64, n);
        OnlineConfig c = sixteenBitConfig(GemmVariant(gemm), {768, n, 1024}, 256);
        const int middle = c.steps() / 2;
        OnlineFault f = at(300, 500, middle);
        f.delta = 1000;
        c.faults = {f};
        HostMatrix result;
        const OnlineRecord r = runKeeping(c, result);
        QVERIFY2(r.status == "ok", r.error.c_str());
        const VerifyEvent* e = checkAt(r, middle);
        QVERIFY(e);
        QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
        QCOMPARE(e->result.corrections.size(), std::size_t(1));
        QCOMPARE(e->result.corrections.front().row, f.row);
        QCOMPARE(e->result.corrections.front().col, f.col);
        QCOMPARE(verdicts(r, Verdict::Clean), int(r.verifications.size()) - 1);
        QVERIFY(r.verifiedCorrect());
        equalsTheCpuEmulation(c, result);

        // Offline: found and corrected at the one check after the last step.
        c.scheme = Scheme::Offline;
        c.checkEvery = 0;
        const OnlineRecord offline = runOnline(c, RunHooks{});
        QCOMPARE(offline.verifications.size(), std::size_t(1));
        QCOMPARE(int(offline.verifications.front().result.verdict), int(Verdict::Corrected));
        QVERIFY(offline.verifiedCorrect());
    }

    // C's checksum row and column struck after step 1: rebuilt at that step's check.
    void checksumFaultsRebuilt()
    {
        for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16})
            for (OnlineTarget target : {OnlineTarget::ChecksumRow, OnlineTarget::ChecksumCol}) {
                OnlineConfig c = sixteenBitConfig(g, {768, 1024, 1024}, 256);
                OnlineFault f = at(target == OnlineTarget::ChecksumRow ? 0 : 300, target == OnlineTarget::ChecksumCol ? 0 : 500,
                                   1, target);
                f.delta = -250;
                c.faults = {f};
                const OnlineRecord r = runOnline(c, RunHooks{});
                QVERIFY2(r.status == "ok", r.error.c_str());
                const VerifyEvent* e = checkAt(r, 1);
                QVERIFY(e);
                QVERIFY(e->result.verdict == Verdict::Corrected);
                QVERIFY(e->result.checksumsRecomputed);
                QVERIFY(r.verifiedCorrect());
            }
    }

    // Which kernel multiplied, as the record says: panels the CUTLASS kernel takes (the panel width
    // and q multiples of 8) run it with C's sums, BF16 and FP16 alike; others run cuBLAS and read C.
    void cutlassWhereItApplies()
    {
        for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16}) {
            const char* type = g == GemmVariant::CublasBf16 ? "BF16" : "FP16";
            const OnlineRecord unaligned = runOnline(sixteenBitConfig(g, {300, 302, 298}, 50), RunHooks{});
            QVERIFY2(!ranFused(unaligned, type) &&
                         unaligned.panelGemm.find(std::string("cuBLAS ") + type) != std::string::npos,
                     unaligned.panelGemm.c_str());
            QVERIFY(unaligned.verifiedCorrect());
        }

        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
        for (auto [g, fq] : {std::pair{GemmVariant::CublasBf16, 1}, std::pair{GemmVariant::CublasBf16, 4},
                             std::pair{GemmVariant::CublasF16, 1}}) {  // fq = 4: the steps between checks merged
            OnlineConfig c = sixteenBitConfig(g, {1024, 2048, 1024}, 256, fq);
            OnlineFault f = at(700, 333, 1);
            f.delta = 77;
            c.faults = {f};
            HostMatrix result;
            const OnlineRecord r = runKeeping(c, result);
            QVERIFY2(r.status == "ok", r.error.c_str());
            QVERIFY2(ranFused(r, g == GemmVariant::CublasBf16 ? "BF16" : "FP16"), r.panelGemm.c_str());
            const VerifyEvent* e = checkAt(r, fq == 1 ? 1 : 3);
            QVERIFY(e);
            QCOMPARE(int(e->result.verdict), int(Verdict::Corrected));
            QVERIFY(r.verifiedCorrect());
            equalsTheCpuEmulation(c, result);
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaOnline16Bit)
#include "tst_cuda_online_16bit.moc"
