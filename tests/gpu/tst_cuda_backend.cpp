// The CUDA backend end to end through runGemm: every strategy x GEMM variant x precision equals
// the reference on odd shapes; faults at explicit positions are corrected on the device and land
// in the record exactly as on the CPU backend (the host twin); the cap holds; spans arrive while
// the run goes on; a CUDA failure mid-run ends the run cleanly and the next run works.
#include "gpu_available.hpp"

#include "gigacheck/bench.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/core/cuda/testing_hooks.hpp"
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::GemmVariant)
Q_DECLARE_METATYPE(gigacheck::Precision)
Q_DECLARE_METATYPE(gigacheck::StrategyKind)

namespace {

RunConfig baseConfig(StrategyKind s, Precision p, GemmVariant g)
{
    RunConfig c;
    c.shape = {157, 93, 131};  // odd everywhere: edge blocks, unaligned rows
    c.precision = p;
    c.backend = BackendKind::Cuda;
    c.strategy = s;
    c.gemm = g;
    c.tile = 16;
    c.reference = ReferenceMode::Full;
    // Small enough to split every dimension (several k steps, several C blocks).
    c.memCapBytes = p == Precision::F32 ? 60000 : 120000;
    if (s == StrategyKind::None)
        c.memCapBytes = 1 << 20;
    return c;
}

QString describeFailure(const RunRecord& r)
{
    return QStringLiteral("status %1 (%2), reference %3: %4 mismatches, max rel %5")
        .arg(QString::fromStdString(r.status), QString::fromStdString(r.error))
        .arg(r.reference.passed ? "passed" : "FAILED")
        .arg(r.reference.mismatches)
        .arg(r.reference.maxRelError);
}

struct Recorder : RunObserver {
    std::mutex m;
    std::vector<double> spanArrival;  // seconds since the run started (host clock)
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    std::atomic<int> spans{0};
    std::atomic<bool>* cancelAfterFirst = nullptr;
    void onSpan(const Span&) override
    {
        std::lock_guard lock(m);
        spanArrival.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        ++spans;
        if (cancelAfterFirst)
            cancelAfterFirst->store(true);
    }
};

}  // namespace

class TestCudaBackend : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void matchesReference_data();
    void matchesReference();
    void largeBlockedRunsAreCorrect_data();
    void largeBlockedRunsAreCorrect();
    void explicitFaultsCorrectedLikeHostTwin_data();
    void explicitFaultsCorrectedLikeHostTwin();
    void nonCollinearFaultsAreUncorrectable();
    void spansArriveWhileRunning();
    void cancelGivesPartialRecord();
    void cudaErrorMidRunEndsCleanly();
    void outOfMemoryEndsCleanly();
    void everyDeviceCanBeChosen();
    void productsOfS1ToS3RunOneAtATime_data();
    void productsOfS1ToS3RunOneAtATime();
    void checksumWorkIsCountedWhereItRuns();
    void hostPackingGivesTheDirectCopiesResult_data();
    void hostPackingGivesTheDirectCopiesResult();
    void predictionIsCalibratedOnTheRunsOwnMatrices();
};

void TestCudaBackend::matchesReference_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<bool>("abft");
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (GemmVariant g : {GemmVariant::Naive, GemmVariant::Tiled, GemmVariant::Optimized, GemmVariant::Cublas,
                              GemmVariant::CublasTf32})
            for (Precision p : {Precision::F32, Precision::F64}) {
                if (g == GemmVariant::CublasTf32 && p == Precision::F64)
                    continue;
                QTest::addRow("%s-%s-%s", toString(s).data(), toString(g).data(), toString(p).data()) << s << g << p << true;
            }
    QTest::addRow("s3-cublas-f32-no-abft") << StrategyKind::S3 << GemmVariant::Cublas << Precision::F32 << false;
    QTest::addRow("s4-optimized-f64-no-abft") << StrategyKind::S4 << GemmVariant::Optimized << Precision::F64 << false;
    // Without ABFT nothing rounds the operands first: cuBLAS's own TF32 rounding, within the
    // reference's TF32 tolerance whatever it is.
    QTest::addRow("s1-cublas-tf32-no-abft") << StrategyKind::S1 << GemmVariant::CublasTf32 << Precision::F32 << false;
}

void TestCudaBackend::matchesReference()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(GemmVariant, gemm);
    QFETCH(Precision, precision);
    QFETCH(bool, abft);
    RunConfig cfg = baseConfig(strategy, precision, gemm);
    cfg.abft = abft;
    const RunRecord r = runGemm(cfg);
    QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
    QVERIFY(r.devices.front().backend == BackendKind::Cuda);
    QVERIFY(r.metrics.peakBufferBytes <= r.plan.capBytes);
    if (strategy != StrategyKind::None)
        QVERIFY2(r.plan.productCount() > 1, "the cap should force blocking");
    // One span per operation: op ids 0 .. n-1, each once.
    std::vector<int> ids;
    for (const Span& sp : r.spans)
        ids.push_back(sp.opId);
    std::sort(ids.begin(), ids.end());
    for (std::size_t k = 0; k < ids.size(); ++k)
        QCOMPARE(ids[k], int(k));
    // Every block product verified clean (no false positives).
    for (const VerifyEvent& v : r.verifications)
        QVERIFY2(v.result.verdict == Verdict::Clean,
                 qPrintable(QStringLiteral("block (%1,%2,%3) not clean").arg(v.block.i).arg(v.block.j).arg(v.block.k)));
    if (abft)
        QCOMPARE(int(r.verifications.size()), r.plan.productCount());
}

// --h2d-staging: packing the block loads on the host (contiguous copies through pinned slots used
// in turn, with the buffers' padding zeroed) changes nothing of the product: C is bit for bit the
// one of direct 2D copies, every check clean, the fault corrected, in every strategy, FP32, FP64
// and TF32 (whose passes round the loaded blocks in place), on blocks large enough for the
// packing to run ahead of the copies.
void TestCudaBackend::hostPackingGivesTheDirectCopiesResult_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<GemmVariant>("gemm");
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
        for (Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%s-%s", toString(s).data(), toString(p).data()) << s << p << GemmVariant::Cublas;
        QTest::addRow("%s-tf32", toString(s).data()) << s << Precision::F32 << GemmVariant::CublasTf32;
    }
}

void TestCudaBackend::hostPackingGivesTheDirectCopiesResult()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(GemmVariant, gemm);
    RunConfig cfg = baseConfig(strategy, precision, gemm);
    cfg.shape = {1531, 1207, 1409};
    cfg.memCapBytes = precision == Precision::F32 ? 6000000 : 12000000;
    cfg.faults.at = {FaultAt{700, 600, 5.0, std::nullopt}};
    cfg.reference = ReferenceMode::None;
    HostMatrix packedC, directC;
    cfg.h2dStaging = H2dStaging::Pack;
    RunHooks hooks;
    hooks.resultOut = &packedC;
    const RunRecord packed = runGemm(cfg, hooks);
    cfg.h2dStaging = H2dStaging::Direct;
    hooks.resultOut = &directC;
    const RunRecord direct = runGemm(cfg, hooks);
    QVERIFY2(packed.status == "ok", qPrintable(describeFailure(packed)));
    QVERIFY2(direct.status == "ok", qPrintable(describeFailure(direct)));
    QVERIFY(packed.plan.productCount() >= 4);
    QCOMPARE(packed.faults.corrected, 1);
    QCOMPARE(packed.faults.falsePositives, 0);
    QCOMPARE(packedC.rows(), directC.rows());
    QCOMPARE(packedC.cols(), directC.cols());
    const std::size_t bytes = std::size_t(packedC.rows()) * std::size_t(packedC.cols()) * elementSize(precision);
    QVERIFY2(std::memcmp(packedC.data(), directC.data(), bytes) == 0, "packed and direct loads gave different C");
}

// Blocks large enough that copies, checksums and products really overlap on the streams: a
// missing cross-stream wait shows up here as wrong results or false alarms.
void TestCudaBackend::largeBlockedRunsAreCorrect_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%s-%s", toString(s).data(), toString(p).data()) << s << p;
}

void TestCudaBackend::largeBlockedRunsAreCorrect()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    RunConfig cfg = baseConfig(strategy, precision, GemmVariant::Cublas);
    cfg.shape = {1531, 1207, 1409};
    cfg.memCapBytes = precision == Precision::F32 ? 6000000 : 12000000;
    cfg.faults.count = 1;
    const RunRecord r = runGemm(cfg);
    QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
    QVERIFY(r.plan.productCount() >= 4);
    QCOMPARE(r.faults.falsePositives, 0);
    QCOMPARE(r.faults.corrected + r.faults.belowThreshold, r.faults.injected);
    for (const VerifyEvent& v : r.verifications)
        QVERIFY(v.result.verdict != Verdict::Uncorrectable);
}

// Issue 13: the predicted timeline of a CUDA run uses the H2D rate of a sample of its own block
// loads (cost_model.hpp calibrateH2d), timed on the device before the run, and packed, the pack
// rate of its own loads (calibratePacking); the source says so.
void TestCudaBackend::predictionIsCalibratedOnTheRunsOwnMatrices()
{
    RunConfig cfg = baseConfig(StrategyKind::S1, Precision::F32, GemmVariant::Cublas);
    cfg.shape = {1531, 1207, 1409};
    cfg.memCapBytes = 6000000;
    cfg.h2dStaging = H2dStaging::Direct;
    const RunRecord r = runGemm(cfg);
    QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
    QVERIFY2(r.predictionSource.find("on this run's host matrices") != std::string::npos, r.predictionSource.c_str());
    QVERIFY(r.predictedSeconds > 0 && !r.predictedSpans.empty());
    qInfo("%s", r.predictionSource.c_str());

    // Packed on the host: the pack rate of its own loads too (calibratePacking).
    cfg.h2dStaging = H2dStaging::Pack;
    const RunRecord packed = runGemm(cfg);
    QVERIFY2(packed.status == "ok" && packed.reference.passed, qPrintable(describeFailure(packed)));
    QVERIFY2(packed.predictionSource.find("on this run's loads") != std::string::npos, packed.predictionSource.c_str());
    qInfo("%s", packed.predictionSource.c_str());
}

void TestCudaBackend::explicitFaultsCorrectedLikeHostTwin_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("model");  // 0 delta, 1 bit flip
    QTest::addColumn<int>("target"); // FaultTarget
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64}) {
            QTest::addRow("%s-%s-delta", toString(s).data(), toString(p).data()) << s << p << 0 << int(FaultTarget::Result);
            QTest::addRow("%s-%s-bitflip", toString(s).data(), toString(p).data()) << s << p << 1 << int(FaultTarget::Result);
        }
    QTest::addRow("s2-f32-checksum-row") << StrategyKind::S2 << Precision::F32 << 0 << int(FaultTarget::ChecksumRow);
    QTest::addRow("s3-f64-checksum-col") << StrategyKind::S3 << Precision::F64 << 0 << int(FaultTarget::ChecksumCol);
}

void TestCudaBackend::explicitFaultsCorrectedLikeHostTwin()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(int, model);
    QFETCH(int, target);
    RunConfig cfg = baseConfig(strategy, precision, GemmVariant::Cublas);
    if (target == int(FaultTarget::Result)) {
        // Two faults in one C block on one row (row-collinear) and one elsewhere, at explicit positions.
        cfg.faults.at = {FaultAt{3, 5, 250.0, std::nullopt}, FaultAt{3, 9, -75.0, std::nullopt},
                         FaultAt{150, 120, 40.0, 0}};
    } else {
        cfg.faults.count = 1;
        cfg.faults.target = FaultTarget(target);
    }
    if (model == 1) {
        cfg.faults.model = FaultModel::BitFlip;
        for (FaultAt& f : cfg.faults.at)
            f.delta.reset();
    }
    const RunRecord gpu = runGemm(cfg);
    QVERIFY2(gpu.status == "ok" && gpu.reference.passed, qPrintable(describeFailure(gpu)));
    QVERIFY(gpu.faults.injected > 0);
    QCOMPARE(gpu.faults.corrected + gpu.faults.belowThreshold, gpu.faults.injected);
    QCOMPARE(gpu.faults.uncorrectable, 0);
    QCOMPARE(gpu.faults.falsePositives, 0);
    QVERIFY(gpu.verifiedCorrect());

    // The host twin: the same schedule and faults on the CPU backend give the same verdicts and
    // the same corrected positions (values differ only by the products' rounding).
    RunConfig cpuCfg = cfg;
    cpuCfg.backend = BackendKind::Cpu;
    const RunRecord cpu = runGemm(cpuCfg);
    QVERIFY2(cpu.status == "ok", qPrintable(describeFailure(cpu)));
    QCOMPARE(gpu.verifications.size(), cpu.verifications.size());
    for (std::size_t v = 0; v < gpu.verifications.size(); ++v) {
        const VerifyResult& g = gpu.verifications[v].result;
        const VerifyResult& c = cpu.verifications[v].result;
        QVERIFY(g.verdict == c.verdict);
        QVERIFY(g.mismatchRows == c.mismatchRows);
        QVERIFY(g.mismatchCols == c.mismatchCols);
        QCOMPARE(g.checksumsRecomputed, c.checksumsRecomputed);
        QCOMPARE(g.corrections.size(), c.corrections.size());
        for (std::size_t k = 0; k < g.corrections.size(); ++k) {
            QCOMPARE(g.corrections[k].row, c.corrections[k].row);
            QCOMPARE(g.corrections[k].col, c.corrections[k].col);
        }
    }
    for (const InjectEvent& e : gpu.injections)
        QVERIFY(e.injection.applied);
}

void TestCudaBackend::nonCollinearFaultsAreUncorrectable()
{
    RunConfig cfg = baseConfig(StrategyKind::S1, Precision::F32, GemmVariant::Optimized);
    cfg.faults.at = {FaultAt{2, 2, 500.0, std::nullopt}, FaultAt{7, 11, 500.0, std::nullopt}};
    const RunRecord r = runGemm(cfg);
    QCOMPARE(r.status, std::string("ok"));
    // The device leaves C as it was; the host repair pass recomputes the candidate lines.
    QCOMPARE(r.faults.uncorrectable, 0);
    QCOMPARE(r.faults.correctedByRecompute, 2);
    QVERIFY2(r.reference.passed && r.verifiedCorrect(), qPrintable(describeFailure(r)));
    bool seen = false;
    for (const VerifyEvent& v : r.verifications)
        if (v.result.verdict == Verdict::Uncorrectable) {
            seen = true;
            QCOMPARE(v.result.mismatchRows.size(), std::size_t(2));
            QCOMPARE(v.result.mismatchCols.size(), std::size_t(2));
        }
    QVERIFY(seen);
}

void TestCudaBackend::spansArriveWhileRunning()
{
    RunConfig cfg = baseConfig(StrategyKind::S3, Precision::F64, GemmVariant::Naive);
    cfg.shape = {1500, 1200, 1400};
    cfg.memCapBytes = 4 << 20;
    cfg.reference = ReferenceMode::None;
    Recorder rec;
    RunHooks hooks;
    hooks.observer = &rec;
    const auto t0 = std::chrono::steady_clock::now();
    const RunRecord r = runGemm(cfg, hooks);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(r.status, std::string("ok"));
    QCOMPARE(rec.spans.load(), int(r.spans.size()));
    QVERIFY(rec.spans.load() > 20);
    // The first span reaches the observer long before the run ends (not all at the end).
    const double lastExecEnd = r.metrics.executeSeconds;
    QVERIFY2(rec.spanArrival.front() < rec.spanArrival.back() - 0.5 * lastExecEnd,
             qPrintable(QStringLiteral("first span at %1 s, last at %2 s, run %3 s")
                            .arg(rec.spanArrival.front()).arg(rec.spanArrival.back()).arg(total)));
}

void TestCudaBackend::cancelGivesPartialRecord()
{
    RunConfig cfg = baseConfig(StrategyKind::S2, Precision::F32, GemmVariant::Naive);
    cfg.shape = {1200, 1000, 1100};
    cfg.memCapBytes = 2 << 20;
    cfg.reference = ReferenceMode::None;
    std::atomic<bool> cancel{false};
    Recorder rec;
    rec.cancelAfterFirst = &cancel;
    RunHooks hooks;
    hooks.observer = &rec;
    hooks.cancel = &cancel;
    const RunRecord r = runGemm(cfg, hooks);
    QCOMPARE(r.status, std::string("cancelled"));
    QVERIFY(r.spans.size() < buildSchedule(r.plan).ops.size());
}

void TestCudaBackend::cudaErrorMidRunEndsCleanly()
{
#ifdef GIGACHECK_HAVE_CUDA
    RunConfig cfg = baseConfig(StrategyKind::S3, Precision::F32, GemmVariant::Tiled);
    cuda::testing::failAtOperation(7);
    const RunRecord failed = runGemm(cfg);
    QCOMPARE(failed.status, std::string("failed"));
    QVERIFY2(failed.error.find("CUDA error") != std::string::npos, failed.error.c_str());
    // The process is usable: the same run again works and is correct.
    const RunRecord again = runGemm(cfg);
    QVERIFY2(again.status == "ok" && again.reference.passed, qPrintable(describeFailure(again)));
#endif
}

void TestCudaBackend::outOfMemoryEndsCleanly()
{
#ifdef GIGACHECK_HAVE_CUDA
    RunConfig cfg = baseConfig(StrategyKind::S4, Precision::F64, GemmVariant::Cublas);
    cuda::testing::limitDeviceMemory(20000);  // the third buffer no longer "fits"
    const RunRecord failed = runGemm(cfg);
    QCOMPARE(failed.status, std::string("failed"));
    QVERIFY2(failed.error.find("out of device memory") != std::string::npos, failed.error.c_str());
    const RunRecord again = runGemm(cfg);
    QVERIFY2(again.status == "ok" && again.reference.passed, qPrintable(describeFailure(again)));
#endif
}

// --device N runs on device N (each one this machine has), and the record says which; the number
// past the last device is refused with a reason.
void TestCudaBackend::everyDeviceCanBeChosen()
{
    std::string why;
    int count = 0;
    for (const DeviceInfo& d : listDevices(&why))
        count += d.backend == BackendKind::Cuda ? 1 : 0;
    QVERIFY(count >= 1);
    QVERIFY(!makeCudaBackend(&why, count));
    QVERIFY2(QString::fromStdString(why).contains(QStringLiteral("no CUDA device %1").arg(count)), why.c_str());
    for (int device = 0; device < count; ++device) {
        RunConfig c = baseConfig(StrategyKind::S2, Precision::F32, GemmVariant::Cublas);
        c.device = device;
        c.faults.at = {FaultAt{17, 29, 1000.0, std::nullopt}};
        const RunRecord r = runGemm(c);
        QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
        QCOMPARE(r.devices.front().index, device);
        QCOMPARE(r.faults.corrected, 1);
        qInfo("device %d (%s): corrected %d fault, reference passed", device, r.devices.front().name.c_str(), r.faults.corrected);
    }
}

void TestCudaBackend::productsOfS1ToS3RunOneAtATime_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3})
        QTest::addRow("%s", toString(s).data()) << s;
}

// The compute queue of S1-S3 holds one product at a time, as in seed figure 10 (the GPU would
// otherwise interleave the GEMMs of S2/S3's two schedule streams); only S4 overlaps two.
void TestCudaBackend::productsOfS1ToS3RunOneAtATime()
{
    QFETCH(StrategyKind, strategy);
    RunConfig c = baseConfig(strategy, Precision::F32, GemmVariant::Cublas);
    c.shape = {1536, 1024, 1536};
    c.memCapBytes = 4u << 20;  // several C blocks and k steps, both schedule streams busy
    const RunRecord r = runGemm(c);
    QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
    std::vector<Span> products;
    for (const Span& s : r.spans)
        if (s.kind == OpKind::Product)
            products.push_back(s);
    QVERIFY2(products.size() >= 4, qPrintable(QString::number(products.size())));
    std::sort(products.begin(), products.end(), [](const Span& x, const Span& y) { return x.start < y.start; });
    for (std::size_t i = 1; i < products.size(); ++i)
        QVERIFY2(products[i].start >= products[i - 1].end - 1e-6,
                 qPrintable(QStringLiteral("product %1 starts at %2 s before product %3 ends at %4 s")
                                .arg(products[i].opId).arg(products[i].start).arg(products[i - 1].opId)
                                .arg(products[i - 1].end)));
}

// On the device A's column checksum is made by each product's pass over A: the A block's Checksum
// span carries no work and each product span carries its share (the roofline's per-kind points).
void TestCudaBackend::checksumWorkIsCountedWhereItRuns()
{
    const RunConfig c = baseConfig(StrategyKind::S2, Precision::F32, GemmVariant::Cublas);
    const RunRecord r = runGemm(c);
    QVERIFY2(r.status == "ok" && r.reference.passed, qPrintable(describeFailure(r)));
    const Schedule schedule = buildSchedule(r.plan, c.faults.any());
    int aChecksums = 0, products = 0;
    for (const Span& s : r.spans) {
        const Operation& op = schedule.ops[std::size_t(s.opId)];
        QCOMPARE(int(s.kind), int(op.kind));
        if (op.kind == OpKind::Checksum && r.plan.buffers[std::size_t(op.dst)].role == BufferRole::A) {
            QCOMPARE(s.flops, 0.0);
            QCOMPARE(s.bytes, 0.0);
            ++aChecksums;
        } else if (op.kind == OpKind::Product) {
            QCOMPARE(s.flops, op.flops + double(op.rows) * double(op.depth));
            ++products;
        } else {
            QCOMPARE(s.flops, op.flops);
        }
    }
    QVERIFY(aChecksums > 0 && products >= aChecksums);  // out of core an A block may serve one product
}

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cuda_backend.moc"
