// The online ABFT family on the CUDA backend, twin of tests/engine/tst_online_abft.cpp: the
// checksum relation after every step on odd shapes and panels, a fault at step j corrected at
// step j, online against offline (with the recompute), faults in the checksums, TMR outvoting one
// replica and reporting no majority, clean runs of every scheme, the same corrections as the CPU,
// and the settings the device does not run refused. Skips visibly without a device.
#include "gpu_available.hpp"

#include "gigacheck/online_abft.hpp"

using namespace gigacheck;

namespace {

template <class E> QString name(E value) { return QString::fromUtf8(toString(value).data()); }

OnlineConfig config(Shape shape, Scheme scheme = Scheme::Online, std::int64_t panel = 0, int fq = 1,
                    BackendKind backend = BackendKind::Cuda)
{
    OnlineConfig c;
    c.shape = shape;
    c.backend = backend;
    c.scheme = scheme;
    c.panel = panel;
    c.checkEvery = scheme == Scheme::Offline ? 0 : fq;
    c.reference = ReferenceMode::Full;
    return c;
}

OnlineFault at(std::int64_t r, std::int64_t c, int step, OnlineTarget target = OnlineTarget::Result)
{
    OnlineFault f;
    f.target = target;
    f.row = r;
    f.col = c;
    f.step = step;
    return f;
}

const VerifyEvent* checkAt(const OnlineRecord& r, int step)
{
    for (const VerifyEvent& e : r.verifications)
        if (e.block.k == step)
            return &e;
    return nullptr;
}

}  // namespace

class TestCudaOnline : public QObject {
    Q_OBJECT
private slots:
    void init() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void checksumRelationAfterEveryStep();
    void faultAtStepCorrectedAtThatStep();
    void twoFaultsOnlineAgainstOffline();
    void checksumFaultsRebuilt();
    void tmr();
    void cleanRunsOfEveryScheme();
    void sameCorrectionsAsTheCpu();
    void deviceLimitsRefused();
};

void TestCudaOnline::checksumRelationAfterEveryStep()
{
    struct Case {
        Shape shape;
        std::int64_t panel;
        Precision p;
    };
    for (const Case& x : {Case{{1, 1, 1}, 1, Precision::F32}, Case{{157, 93, 131}, 7, Precision::F32},
                          Case{{64, 65, 63}, 64, Precision::F64}, Case{{300, 257, 2}, 100, Precision::F32},
                          Case{{1000, 1024, 999}, 128, Precision::F32}}) {
        OnlineConfig c = config(x.shape, Scheme::Online, x.panel, 1);
        c.precision = x.p;
        const OnlineRecord r = runOnline(c);
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(int(r.verifications.size()), r.steps);
        for (const VerifyEvent& e : r.verifications) {
            QCOMPARE(name(e.result.verdict), name(Verdict::Clean));
            QVERIFY2(e.result.maxCleanResidualRatio < 0.5, qPrintable(QString::number(e.result.maxCleanResidualRatio)));
        }
        QVERIFY(r.verifiedCorrect());
    }
}

void TestCudaOnline::faultAtStepCorrectedAtThatStep()
{
    for (int j : {0, 3, 8}) {
        OnlineConfig c = config({96, 130, 80}, Scheme::Online, 16, 1);  // 9 steps
        c.faults = {at(40, 33, j)};
        const OnlineRecord r = runOnline(c);
        const VerifyEvent* e = checkAt(r, j);
        QVERIFY(e);
        QCOMPARE(name(e->result.verdict), name(Verdict::Corrected));
        QCOMPARE(int(e->result.corrections.size()), 1);
        QCOMPARE(e->result.corrections[0].row, std::int64_t(40));
        QCOMPARE(e->result.corrections[0].col, std::int64_t(33));
        QVERIFY(r.verifiedCorrect());
    }
}

void TestCudaOnline::twoFaultsOnlineAgainstOffline()
{
    OnlineConfig online = config({100, 120, 90}, Scheme::Online, 20, 1);
    online.faults = {at(10, 20, 1), at(70, 55, 4)};
    const OnlineRecord r = runOnline(online);
    QCOMPARE(name(checkAt(r, 1)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 4)->result.verdict), name(Verdict::Corrected));
    QVERIFY(!r.recomputed);
    QVERIFY(r.verifiedCorrect());
    OnlineConfig offline = online;
    offline.scheme = Scheme::Offline;
    const OnlineRecord o = runOnline(offline);
    QCOMPARE(int(o.verifications.size()), 1);
    QCOMPARE(name(o.verifications[0].result.verdict), name(Verdict::Uncorrectable));
    QVERIFY(o.recomputed && o.recomputeClean);
    QVERIFY(o.verifiedCorrect());
}

void TestCudaOnline::checksumFaultsRebuilt()
{
    OnlineConfig c = config({50, 60, 40}, Scheme::Online, 20, 1);
    c.faults = {at(0, 7, 0, OnlineTarget::ChecksumRow), at(12, 0, 1, OnlineTarget::ChecksumCol)};
    const OnlineRecord r = runOnline(c);
    QCOMPARE(name(checkAt(r, 0)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 1)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 2)->result.verdict), name(Verdict::Clean));
    QVERIFY(r.verifiedCorrect());
}

void TestCudaOnline::tmr()
{
    OnlineConfig c = config({160, 70, 150}, Scheme::Tmr);
    c.faults = {at(3, 4, 0), at(10, 11, 1), at(20, 21, 2)};
    OnlineRecord r = runOnline(c);
    QVERIFY(r.vote);
    QCOMPARE(r.vote->cellsOutvoted, std::int64_t(3));
    QCOMPARE(r.vote->cellsWithoutMajority, std::int64_t(0));
    QVERIFY(r.verifiedCorrect());
    c.faults = {at(3, 4, 0), at(3, 4, 2)};
    r = runOnline(c);
    QCOMPARE(r.vote->cellsWithoutMajority, std::int64_t(1));
    QCOMPARE(r.vote->noMajority[0], (std::pair<std::int64_t, std::int64_t>{3, 4}));
    QVERIFY(!r.verifiedCorrect());
}

void TestCudaOnline::cleanRunsOfEveryScheme()
{
    for (Scheme s : {Scheme::Online, Scheme::Offline, Scheme::Tmr})
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
            for (Precision p : {Precision::F32, Precision::F64})
                for (int fq : {1, 3}) {
                    OnlineConfig c = config({257, 600, 129}, s, 64, fq);
                    c.distribution = d;
                    c.precision = p;
                    const OnlineRecord r = runOnline(c);
                    for (const VerifyEvent& e : r.verifications)
                        QCOMPARE(name(e.result.verdict), name(Verdict::Clean));
                    if (r.vote)
                        QCOMPARE(r.vote->cellsOutvoted, std::int64_t(0));
                    QVERIFY(r.verifiedCorrect());
                }
    OnlineConfig tf32 = config({512, 2048, 512}, Scheme::Online, 256, 1);
    tf32.gemm = GemmVariant::CublasTf32;
    const OnlineRecord r = runOnline(tf32);
    for (const VerifyEvent& e : r.verifications)
        QCOMPARE(name(e.result.verdict), name(Verdict::Clean));
}

void TestCudaOnline::sameCorrectionsAsTheCpu()
{
    OnlineConfig c = config({120, 200, 110}, Scheme::Online, 40, 2);
    c.faults = {at(5, 6, 0), at(50, 60, 3), at(100, 7, 4)};
    const OnlineRecord gpu = runOnline(c);
    c.backend = BackendKind::Cpu;
    const OnlineRecord cpu = runOnline(c);
    QCOMPARE(gpu.verifications.size(), cpu.verifications.size());
    for (std::size_t i = 0; i < gpu.verifications.size(); ++i) {
        QCOMPARE(name(gpu.verifications[i].result.verdict), name(cpu.verifications[i].result.verdict));
        QCOMPARE(gpu.verifications[i].result.corrections.size(), cpu.verifications[i].result.corrections.size());
    }
    QVERIFY(gpu.verifiedCorrect() && cpu.verifiedCorrect());
}

void TestCudaOnline::deviceLimitsRefused()
{
    OnlineConfig c = config({32, 32, 32}, Scheme::Online, 8, 1);
    c.checksums = 2;
    QVERIFY_THROWS_EXCEPTION(InputError, runOnline(c));
    c.checksums = 1;
    c.faults = {at(1, 1, 0, OnlineTarget::A)};
    QVERIFY_THROWS_EXCEPTION(InputError, runOnline(c));
}

QTEST_GUILESS_MAIN(TestCudaOnline)
#include "tst_cuda_online.moc"
