// The online ABFT family on the CUDA backend, twin of tests/engine/tst_online_abft.cpp: the
// checksum relation after every step on odd shapes and panels, a fault at step j corrected at
// step j, online against offline (with the recompute), faults in the checksums, TMR outvoting one
// replica and reporting no majority, clean runs of every scheme, the same corrections as the CPU,
// K weighted checksums and faults in A / B on the host-checked path (each against the CPU
// backend's result on the same inputs), and the settings the device does not run refused. Skips
// visibly without a device.
#include "gpu_available.hpp"

#include "gigacheck/online_abft.hpp"
#include "engine/online_run_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace gigacheck;

using test::at;
using test::checkAt;

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

OnlineConfig onCpu(OnlineConfig c)
{
    c.backend = BackendKind::Cpu;
    return c;
}

// The device and the CPU backend on the same inputs (same config and seed): the same checks with
// the same verdicts, mismatching lines and corrected cells, the same input fault reports, the same
// recompute. Both must have verified their product. lines = false (a fault of ~1e38, whose own
// line may or may not overflow its checksum depending on the GEMM's order): verdicts and reports only.
void sameAsCpu(const OnlineRecord& gpu, const OnlineRecord& cpu, bool lines = true)
{
    QCOMPARE(gpu.status, std::string("ok"));
    QCOMPARE(cpu.status, std::string("ok"));
    QCOMPARE(gpu.verifications.size(), cpu.verifications.size());
    for (std::size_t i = 0; i < gpu.verifications.size(); ++i) {
        const VerifyResult& g = gpu.verifications[i].result;
        const VerifyResult& c = cpu.verifications[i].result;
        QCOMPARE(gpu.verifications[i].block.k, cpu.verifications[i].block.k);
        QCOMPARE(name(g.verdict), name(c.verdict));
        if (!lines)
            continue;
        QCOMPARE(g.mismatchRows, c.mismatchRows);
        QCOMPARE(g.mismatchCols, c.mismatchCols);
        QCOMPARE(g.corrections.size(), c.corrections.size());
        for (std::size_t x = 0; x < g.corrections.size(); ++x) {
            QCOMPARE(g.corrections[x].row, c.corrections[x].row);
            QCOMPARE(g.corrections[x].col, c.corrections[x].col);
        }
        QCOMPARE(g.checksumsRecomputed, c.checksumsRecomputed);
    }
    QCOMPARE(gpu.inputFaults.size(), cpu.inputFaults.size());
    for (std::size_t i = 0; i < gpu.inputFaults.size(); ++i) {
        const InputFaultReport& g = gpu.inputFaults[i];
        const InputFaultReport& c = cpu.inputFaults[i];
        QCOMPARE(name(g.operand), name(c.operand));
        QCOMPARE(g.row, c.row);
        QCOMPARE(g.col, c.col);
        QCOMPARE(g.beforeChecksum, c.beforeChecksum);
        QCOMPARE(g.caughtAtStep, c.caughtAtStep);
        QCOMPARE(g.cellsOff, c.cellsOff);
        QCOMPARE(g.corrected, c.corrected);
        QVERIFY2(std::fabs(g.delta - c.delta) <= 1e-6 * std::max(1.0, std::fabs(c.delta)),
                 qPrintable(QString::number(g.delta) + " vs " + QString::number(c.delta)));
    }
    QCOMPARE(gpu.recomputed, cpu.recomputed);
    QCOMPARE(gpu.recomputeClean, cpu.recomputeClean);
    QCOMPARE(gpu.verifiedCorrect(), cpu.verifiedCorrect());
}

int countVerdict(const OnlineRecord& r, Verdict v)
{
    int n = 0;
    for (const VerifyEvent& e : r.verifications)
        n += e.result.verdict == v;
    return n;
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
    void twoBitFlipsAsOnTheCpu();
    void columnBlocksCorrectEachBlockApart();
    void mergedStepsEndLikeEveryStep();
    void weightedChecksumsCorrectKAndFlagKPlusOne_data();
    void weightedChecksumsCorrectKAndFlagKPlusOne();
    void weightedChecksumFaultsRebuilt();
    void inputFaultsReportedAsOnTheCpu_data();
    void inputFaultsReportedAsOnTheCpu();
    void noFalsePositivesWithWeightedChecksums();
    void flaggedChecksWriteBackWhatChanged();
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
    QCOMPARE(r.vote->cellsRecomputed, std::int64_t(3));
    QVERIFY(r.verifiedCorrect());
    // No majority: the device lists the cell, the host computes it again from A and B.
    c.faults = {at(3, 4, 0), at(3, 4, 2)};
    r = runOnline(c);
    QCOMPARE(r.vote->cellsWithoutMajority, std::int64_t(1));
    QCOMPARE(r.vote->noMajority[0], (std::pair<std::int64_t, std::int64_t>{3, 4}));
    QCOMPARE(r.vote->cellsRecomputed, std::int64_t(1));
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
    // Two replicas struck alike: their majority is wrong and the recompute overrules it.
    OnlineFault first = at(7, 8, 0), second = at(7, 8, 1);
    first.delta = second.delta = 5.0;
    c.faults = {first, second};
    r = runOnline(c);
    QCOMPARE(r.vote->majorityOverruled, std::int64_t(1));
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
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

// --fault bitflip:B+B2 on the device: both bits of the struck word flip at once (the injection's
// before / after differ in exactly those bits) in C at a step and in a TMR replica, with the CPU
// backend's verdicts on the same inputs.
void TestCudaOnline::twoBitFlipsAsOnTheCpu()
{
    for (Scheme scheme : {Scheme::Online, Scheme::Tmr}) {
        OnlineConfig c = config({96, 128, 80}, scheme, 32, 1);
        c.model = FaultModel::BitFlip;
        c.bit = 20;
        c.bit2 = 29;
        c.faults = {at(5, 7, scheme == Scheme::Tmr ? 1 : 2)};
        const OnlineRecord gpu = runOnline(c);
        QCOMPARE(int(gpu.injections.size()), 1);
        const Injection& inj = gpu.injections[0].injection;
        QVERIFY(inj.applied);
        QCOMPARE(test::flippedBitsF32(inj.before, inj.after), (1u << 20) | (1u << 29));
        QVERIFY2(gpu.verifiedCorrect(), qPrintable(name(scheme)));
        if (scheme == Scheme::Online)
            sameAsCpu(gpu, runOnline(onCpu(c)));
    }
}

// C in column blocks (README "Column blocks"), each with its own checksum column and stream: a
// fault per block at the same step is corrected by its block's check (one block would see two rows
// and two columns: uncorrectable), corrections and mismatches in C's own indices, a checksum
// column fault of block 1 and a checksum row fault rebuilt; the product right (full reference).
void TestCudaOnline::columnBlocksCorrectEachBlockApart()
{
    for (const Precision p : {Precision::F32, Precision::F64}) {
        OnlineConfig c = config({200, 160, 330}, Scheme::Online, 32, 1);  // blocks [0, 64), [64, 192), [192, 330)
        c.precision = p;
        c.columnBlocks = 3;
        c.faults = {at(5, 10, 0), at(150, 100, 2), at(50, 200, 2), at(7, 1, 1, OnlineTarget::ChecksumCol),
                    at(0, 300, 3, OnlineTarget::ChecksumRow)};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(r.columnBlocks, 3);
        QCOMPARE(int(r.verifications.size()), 3 * r.steps);
        QVERIFY(!r.recomputed);
        QVERIFY2(r.verifiedCorrect(), qPrintable(QString::fromStdString(formatOnlineReport(r))));
        const auto correctedAt = [&](int step, int block, std::int64_t row, std::int64_t col) {
            for (const VerifyEvent& e : r.verifications)
                if (e.block.k == step && e.block.j == block)
                    for (const Correction& x : e.result.corrections)
                        if (x.row == row && x.col == col)
                            return name(e.result.verdict) == name(Verdict::Corrected);
            return false;
        };
        QVERIFY(correctedAt(0, 0, 5, 10));
        QVERIFY(correctedAt(2, 1, 150, 100));
        QVERIFY(correctedAt(2, 2, 50, 200));
        int rebuilt = 0;
        for (const VerifyEvent& e : r.verifications) {
            QVERIFY(name(e.result.verdict) != name(Verdict::Uncorrectable));
            rebuilt += e.result.checksumsRecomputed;
            for (std::int64_t col : e.result.mismatchCols)  // a checksum column is q + its block
                QVERIFY(col < 330 || col == 330 + e.block.j);
        }
        QCOMPARE(rebuilt, 2);
        QCOMPARE(r.injections.size(), std::size_t(5));
    }
    // Auto on a narrow C: one block, as before.
    const OnlineRecord one = runOnline(config({64, 64, 256}, Scheme::Online, 32, 1));
    QCOMPARE(one.columnBlocks, 1);
}

// Merged steps (README "Merged steps", auto on the device path): the steps between checks as one
// GEMM, split where a fault strikes; the same checks, verdicts and corrected cells as one GEMM per
// step on the device and as the CPU (which keeps a product per step), in one and in three column
// blocks, FP32 and FP64, online and offline.
void TestCudaOnline::mergedStepsEndLikeEveryStep()
{
    struct Case {
        Scheme scheme;
        int fq, blocks;
        std::vector<OnlineFault> faults;
    };
    const std::vector<Case> cases{
        {Scheme::Online, 4, 1, {at(5, 6, 1), at(90, 70, 6)}},
        {Scheme::Online, 3, 3, {at(5, 10, 0), at(150, 100, 4), at(50, 200, 4), at(0, 300, 7, OnlineTarget::ChecksumRow)}},
        {Scheme::Offline, 0, 1, {at(11, 12, 5)}},
        {Scheme::Offline, 0, 3, {}},
    };
    for (const Precision p : {Precision::F32, Precision::F64})
        for (const Case& k : cases) {
            OnlineConfig c = config({200, 288, 330}, k.scheme, 32, k.fq);  // 9 steps
            c.precision = p;
            c.columnBlocks = k.blocks;
            c.faults = k.faults;
            const OnlineRecord merged = runOnline(c);
            QVERIFY(merged.mergedSteps);
            QVERIFY(merged.panelProducts < merged.steps);
            QVERIFY2(merged.verifiedCorrect(), qPrintable(QString::fromStdString(formatOnlineReport(merged))));
            c.mergeSteps = StepMerge::Off;
            const OnlineRecord every = runOnline(c);
            QCOMPARE(every.panelProducts, every.steps);
            sameAsCpu(merged, every);
            if (k.blocks == 1) {
                c.mergeSteps = StepMerge::Auto;
                sameAsCpu(merged, runOnline(onCpu(c)));
            }
        }
}

void TestCudaOnline::weightedChecksumsCorrectKAndFlagKPlusOne_data()
{
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("f64");
    QTest::newRow("K=2 f32") << 2 << false;
    QTest::newRow("K=3 f32") << 3 << false;
    QTest::newRow("K=2 f64") << 2 << true;
    QTest::newRow("K=3 f64") << 3 << true;
}

// K weighted checksums on the device (host-checked path): K errors in one row of one check are
// located by the row's K weighted sums and corrected; K errors in K rows and K columns likewise;
// K + 1 in K + 1 rows and columns are flagged (and recomputed). Each against the CPU backend.
void TestCudaOnline::weightedChecksumsCorrectKAndFlagKPlusOne()
{
    QFETCH(int, k);
    QFETCH(bool, f64);
    OnlineConfig c = config({150, 96, 140}, Scheme::Online, 32, 1);
    c.checksums = k;
    c.precision = f64 ? Precision::F64 : Precision::F32;

    // K errors in one row.
    c.faults.clear();
    for (int e = 0; e < k; ++e)
        c.faults.push_back(at(11, 5 + 9 * e, 2));
    OnlineRecord gpu = runOnline(c);
    QCOMPARE(name(checkAt(gpu, 2)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(int(checkAt(gpu, 2)->result.corrections.size()), k);
    for (int e = 0; e < k; ++e) {
        QCOMPARE(checkAt(gpu, 2)->result.corrections[std::size_t(e)].row, std::int64_t(11));
        QCOMPARE(checkAt(gpu, 2)->result.corrections[std::size_t(e)].col, std::int64_t(5 + 9 * e));
    }
    QVERIFY(!gpu.recomputed);
    QVERIFY(gpu.verifiedCorrect());
    sameAsCpu(gpu, runOnline(onCpu(c)));

    // K errors, each in its own row and column.
    std::vector<OnlineFault> scattered;
    for (int e = 0; e <= k; ++e)
        scattered.push_back(at(7 + 23 * e, 3 + 19 * e, 2));
    c.faults.assign(scattered.begin(), scattered.begin() + k);
    gpu = runOnline(c);
    QCOMPARE(name(checkAt(gpu, 2)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(int(checkAt(gpu, 2)->result.corrections.size()), k);
    QVERIFY(!gpu.recomputed);
    QVERIFY(gpu.verifiedCorrect());
    sameAsCpu(gpu, runOnline(onCpu(c)));

    // K + 1: flagged, C left as it was, the product computed again.
    c.faults = scattered;
    gpu = runOnline(c);
    QCOMPARE(name(checkAt(gpu, 2)->result.verdict), name(Verdict::Uncorrectable));
    QVERIFY(gpu.recomputed && gpu.recomputeClean);
    QVERIFY(gpu.verifiedCorrect());
    sameAsCpu(gpu, runOnline(onCpu(c)));

    // Offline: the same K errors seen at the end.
    OnlineConfig offline = c;
    offline.scheme = Scheme::Offline;
    offline.checkEvery = 0;
    offline.faults.assign(scattered.begin(), scattered.begin() + k);
    gpu = runOnline(offline);
    QCOMPARE(int(gpu.verifications.size()), 1);
    QCOMPARE(name(gpu.verifications[0].result.verdict), name(Verdict::Corrected));
    QVERIFY(gpu.verifiedCorrect());
    sameAsCpu(gpu, runOnline(onCpu(offline)));
}

void TestCudaOnline::weightedChecksumFaultsRebuilt()
{
    OnlineConfig c = config({50, 60, 40}, Scheme::Online, 20, 1);
    c.checksums = 2;
    c.faults = {at(1, 7, 0, OnlineTarget::ChecksumRow), at(12, 1, 1, OnlineTarget::ChecksumCol)};
    const OnlineRecord r = runOnline(c);
    QCOMPARE(name(checkAt(r, 0)->result.verdict), name(Verdict::Corrected));
    QVERIFY(checkAt(r, 0)->result.checksumsRecomputed);
    QCOMPARE(name(checkAt(r, 1)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 2)->result.verdict), name(Verdict::Clean));
    QVERIFY(r.verifiedCorrect());
    sameAsCpu(r, runOnline(onCpu(c)));
}

void TestCudaOnline::inputFaultsReportedAsOnTheCpu_data()
{
    QTest::addColumn<int>("target");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("col");
    QTest::addColumn<int>("step");  // -1: before the checksums
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("bitFlip");
    QTest::addColumn<int>("caughtAt");
    // 4 steps of 25 (n = 100): A(17, 60) is in panel 2, B(80, 9) in panel 3.
    const int a = int(OnlineTarget::A), b = int(OnlineTarget::B);
    QTest::newRow("A after, K=1") << a << 17 << 60 << 0 << 1 << false << 2;
    QTest::newRow("B after, K=1") << b << 80 << 9 << 1 << 1 << false << 3;
    QTest::newRow("A after, K=2") << a << 17 << 60 << 0 << 2 << false << 2;
    QTest::newRow("B after, K=3") << b << 80 << 9 << 1 << 3 << false << 3;
    QTest::newRow("A before, K=1") << a << 3 << 4 << -1 << 1 << false << -1;
    QTest::newRow("B before, K=2") << b << 3 << 4 << -1 << 2 << false << -1;
    QTest::newRow("A bit flip") << a << 17 << 30 << 0 << 1 << true << 1;
    QTest::newRow("B bit flip, K=2") << b << 30 << 17 << 0 << 2 << true << 1;
    QTest::newRow("A after its panel") << a << 3 << 4 << 2 << 1 << false << -2;  // never reaches C
}

// A fault in A (B) on the device copy, after or before its checksums were taken: reported as an
// input fault exactly as the CPU backend reports it (operand, element, delta, the check that found
// it, the cells of C it had spread to), the input and C restored, every verdict the CPU's.
void TestCudaOnline::inputFaultsReportedAsOnTheCpu()
{
    QFETCH(int, target);
    QFETCH(int, row);
    QFETCH(int, col);
    QFETCH(int, step);
    QFETCH(int, k);
    QFETCH(bool, bitFlip);
    QFETCH(int, caughtAt);
    OnlineConfig c = config({70, 100, 60}, Scheme::Online, 25, 1);
    c.checksums = k;
    OnlineFault f = at(row, col, step, OnlineTarget(target));
    if (step < 0)
        f.step.reset();
    if (bitFlip)
        c.model = FaultModel::BitFlip;
    else
        f.delta = 4.0;
    c.faults = {f};
    const OnlineRecord gpu = runOnline(c);
    const OnlineRecord cpu = runOnline(onCpu(c));
    sameAsCpu(gpu, cpu, !bitFlip);
    QVERIFY2(gpu.verifiedCorrect(), qPrintable(QString::number(gpu.reference.maxRelError)));
    QCOMPARE(countVerdict(gpu, Verdict::Uncorrectable), 0);
    QVERIFY(!gpu.recomputed);
    if (caughtAt == -2) {
        QVERIFY(gpu.inputFaults.empty());
        return;
    }
    QCOMPARE(int(gpu.inputFaults.size()), 1);
    const InputFaultReport& in = gpu.inputFaults[0];
    QCOMPARE(name(in.operand), name(OnlineTarget(target)));
    QCOMPARE(in.row, std::int64_t(row));
    QCOMPARE(in.col, std::int64_t(col));
    QCOMPARE(in.caughtAtStep, caughtAt);
    QCOMPARE(in.beforeChecksum, step < 0);
    QVERIFY(in.corrected);
    if (step >= 0 && !bitFlip) {
        QCOMPARE(in.cellsOff, OnlineTarget(target) == OnlineTarget::A ? std::int64_t(60) : std::int64_t(70));
        QVERIFY(std::fabs(in.delta - 4.0) < 1e-5);
    }
    if (step < 0)
        QCOMPARE(countVerdict(gpu, Verdict::Clean), 4);
}

// A flagged check writes back only what the host changed (the corrected cells, the row / column
// of C a repaired input fault had spread to, rebuilt checksum rows and columns): every later check
// on the device copy must then see what the host decided, and the product must be right. 5 steps
// of 20 (n = 100), K = 2: two faults in one row after step 0 (cells); a checksum column hit after
// step 2 (checksums rebuilt at 2); B(70, 9) after step 1 (panel 3, not yet multiplied: the flagged
// check at 2 compares both operands and restores it before it spreads, so check 3 is clean);
// A(15, 90) after step 3 (panel 4: row 15 off at step 4: a row back).
void TestCudaOnline::flaggedChecksWriteBackWhatChanged()
{
    OnlineConfig c = config({70, 100, 60}, Scheme::Online, 20, 1);
    c.checksums = 2;
    OnlineFault b = at(70, 9, 1, OnlineTarget::B);
    b.delta = 4.0;
    OnlineFault a = at(15, 90, 3, OnlineTarget::A);
    a.delta = -3.0;
    c.faults = {at(5, 7, 0), at(5, 40, 0), b, at(33, 1, 2, OnlineTarget::ChecksumCol), a};
    const OnlineRecord gpu = runOnline(c);
    const OnlineRecord cpu = runOnline(onCpu(c));
    sameAsCpu(gpu, cpu);
    QVERIFY2(gpu.verifiedCorrect(), qPrintable(QString::number(gpu.reference.maxRelError)));
    QCOMPARE(countVerdict(gpu, Verdict::Uncorrectable), 0);
    QVERIFY(!gpu.recomputed);
    QCOMPARE(name(checkAt(gpu, 0)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(gpu, 1)->result.verdict), name(Verdict::Clean));
    QVERIFY(checkAt(gpu, 2)->result.checksumsRecomputed);
    QCOMPARE(int(gpu.inputFaults.size()), 2);
    QCOMPARE(gpu.inputFaults[0].caughtAtStep, 2);  // B, before it spread
    QCOMPARE(gpu.inputFaults[0].cellsOff, std::int64_t(0));
    QCOMPARE(gpu.inputFaults[1].cellsOff, std::int64_t(60));  // A's row of C
    QCOMPARE(countVerdict(gpu, Verdict::Clean), 2);
}

// Clean runs with K = 2 and 3 weighted checksums on the device: no check fires (residuals under
// half their thresholds), the same as the CPU, every distribution and precision, online and offline.
void TestCudaOnline::noFalsePositivesWithWeightedChecksums()
{
    for (Scheme scheme : {Scheme::Online, Scheme::Offline})
        for (int k : {2, 3})
            for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
                for (Precision p : {Precision::F32, Precision::F64}) {
                    OnlineConfig c = config({257, 600, 129}, scheme, 64, 2);
                    c.checksums = k;
                    c.distribution = d;
                    c.precision = p;
                    c.seed = std::uint64_t(3 + int(d) + 10 * k);
                    const OnlineRecord r = runOnline(c);
                    QCOMPARE(r.status, std::string("ok"));
                    QCOMPARE(countVerdict(r, Verdict::Clean), int(r.verifications.size()));
                    for (const VerifyEvent& e : r.verifications)
                        QVERIFY2(e.result.maxCleanResidualRatio < 0.5,
                                 qPrintable(QString::number(e.result.maxCleanResidualRatio)));
                    QVERIFY(r.inputFaults.empty());
                    QVERIFY(!r.recomputed);
                    QVERIFY(r.verifiedCorrect());
                    sameAsCpu(r, runOnline(onCpu(c)));
                }
    // A larger product, K = 2, FP32: the device's residuals against thresholds that grow with n.
    OnlineConfig big = config({1000, 2048, 999}, Scheme::Online, 256, 1);
    big.checksums = 2;
    const OnlineRecord r = runOnline(big);
    QCOMPARE(countVerdict(r, Verdict::Clean), int(r.verifications.size()));
    for (const VerifyEvent& e : r.verifications)
        QVERIFY2(e.result.maxCleanResidualRatio < 0.5, qPrintable(QString::number(e.result.maxCleanResidualRatio)));
    QVERIFY(r.verifiedCorrect());
}

// TF32 has no derived threshold for weighted checksums or the host-checked path: refused, saying why.
void TestCudaOnline::deviceLimitsRefused()
{
    OnlineConfig c = config({32, 32, 32}, Scheme::Online, 8, 1);
    c.gemm = GemmVariant::CublasTf32;
    c.checksums = 2;
    try {
        runOnline(c);
        QFAIL("--checksums 2 with cublas-tf32 ran");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("derived for FP32 / FP64")), e.what());
    }
    c.checksums = 1;
    c.faults = {at(1, 1, 0, OnlineTarget::A)};
    QVERIFY_THROWS_EXCEPTION(InputError, runOnline(c));
    // What used to be refused now runs.
    c.gemm = GemmVariant::Cublas;
    QVERIFY(runOnline(c).verifiedCorrect());
    c.faults.clear();
    c.checksums = 2;
    QVERIFY(runOnline(c).verifiedCorrect());
}

QTEST_GUILESS_MAIN(TestCudaOnline)
#include "tst_cuda_online.moc"
