// The cost model and planner on synthetic rates, exactly: interpolation of the rate tables, a
// copy-then-compute pipeline against its closed form, the simulation's respect of dependencies and
// queues on real schedules, the planner's choice being the smallest of its own predictions, and
// the rate tables' round trip through the ceilings store.
#include "gigacheck/bench.hpp"
#include "gigacheck/blocked_gemm/cost_model.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include "engine/test_helpers.hpp"
#include "families/blocked_gemm/record/time_breakdown.hpp"
#include "families/blocked_gemm/staging/pack_rows.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace gigacheck;

namespace {

// A model with one GEMM rate (every shape), one copy rate (every width), no latency.
CostModel flatModel(double gflops, double h2dGBs, double d2hGBs, double bandwidthGBs)
{
    CostModel m;
    for (std::int64_t s : {1, 8})  // the smallest shapes of both alignment classes
        m.gemmRates.push_back({"f32", s, s, s, gflops});
    m.gemmRates.push_back({"f32", 1 << 20, 1 << 20, 1 << 20, gflops});
    m.gemmRates.push_back({"f32", (1 << 20) + 1, (1 << 20) + 1, 1 << 20, gflops});
    m.copyRates.push_back({1, h2dGBs, d2hGBs});
    m.copyRates.push_back({std::int64_t(1) << 40, h2dGBs, d2hGBs});
    m.deviceBandwidthGBs = bandwidthGBs;
    m.opLatencySeconds = 0;
    m.source = "synthetic";
    return m;
}

Operation copyOp(int id, double bytes, std::vector<int> deps)
{
    Operation op;
    op.id = id;
    op.kind = OpKind::CopyH2D;
    op.queue = Queue::H2D;
    op.host = {Operand::A, 0, 0, 1, std::int64_t(bytes / 4)};
    op.bytes = bytes;
    op.deps = std::move(deps);
    return op;
}

Operation productOp(int id, double flops, std::vector<int> deps)
{
    Operation op;
    op.id = id;
    op.kind = OpKind::Product;
    op.queue = Queue::Compute;
    op.rows = op.cols = op.depth = 8;
    op.flops = flops;  // not 2*8^3: then the model reads it as augmented, which a flat model ignores
    op.deps = std::move(deps);
    return op;
}

// N loads and N products with two buffers: product i needs load i, load i+2 reuses the buffer of
// product i. Issued load 0, then (load i+1, product i).
Schedule pipeline(int n, double copyBytes, double productFlops)
{
    Schedule s;
    s.family = "blocked_gemm";
    std::vector<int> loadId(n), productId(n);
    auto push = [&](Operation op) {
        op.id = int(s.ops.size());
        s.ops.push_back(std::move(op));
        return int(s.ops.size()) - 1;
    };
    loadId[0] = push(copyOp(0, copyBytes, {}));
    for (int i = 0; i < n; ++i) {
        if (i + 1 < n)
            loadId[i + 1] = push(copyOp(0, copyBytes, i >= 1 ? std::vector<int>{productId[i - 1]} : std::vector<int>{}));
        productId[i] = push(productOp(0, productFlops, {loadId[i]}));
    }
    return s;
}

}  // namespace

class TestCostModel : public QObject {
    Q_OBJECT

private slots:
    void copyRateInterpolatesLogLinearly()
    {
        CostModel m;
        m.copyRates = {{4096, 10, 5}, {16384, 20, 9}};
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192), 15.0);  // halfway in log2
        QCOMPARE(predictedCopyGBs(m, Queue::D2H, 8192), 7.0);
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 65536), 20.0);  // held past the widest row
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 2048), 5.0);    // narrower: rate falls with the width
    }

    // Rows out of a wide host matrix: the rate at the host pitch, log-linear between the pitches
    // measured for a width, held beyond them; older tables (no pitch) count as twice the row.
    void copyRateFollowsTheHostPitch()
    {
        CostModel m;
        m.copyRates = {{8192, 50, 50, 50, 50, 16384}, {8192, 40, 40, 30, 30, 65536}, {8192, 40, 40, 30, 30, 262144},
                       {32768, 55, 55, 55, 55, 65536}};
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192, false, 16384), 50.0);
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192, false, 32768), 45.0);  // halfway in log2
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192, true, 131072), 30.0);   // beside a GEMM
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192, true, 1 << 20), 30.0);  // held past the widest pitch
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 8192, false, 0), 50.0);       // 0: twice the row
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 16384, true, 65536), 42.5);   // then across the widths
        // The simulation takes each operand's pitch from its widest copy: a 2 x 2048 matrix copied
        // as two 1024-column blocks has a pitch of 2048 floats = 8 KB.
        CostModel flat;
        flat.copyRates = {{1, 2, 2, 0, 0, 2}, {4096, 2, 2, 0, 0, 8192}, {4096, 1, 1, 0, 0, 8193}};
        Schedule s;
        for (int i = 0; i < 2; ++i) {
            Operation op = copyOp(i, 4096, {});
            op.host = {Operand::A, 0, 1024 * i, 1, 1024};
            s.ops.push_back(op);
        }
        QCOMPARE(predictSchedule(s, flat, "f32", 4).totalSeconds, 2 * 4096 / 2e9);
    }

    void gemmRateByShapeAndAlignment()
    {
        CostModel m;
        m.gemmRates = {{"f32", 1024, 1024, 1024, 100}, {"f32", 4096, 4096, 4096, 300}, {"f32", 4097, 4097, 4096, 200}};
        QCOMPARE(predictedGemmGflops(m, "f32", 2048, 2048, 2048), 200.0);
        QCOMPARE(predictedGemmGflops(m, "f32", 512, 512, 512), 50.0);  // linear below the smallest point
        // An odd extent (ABFT's extra row / column) takes the unaligned points.
        QCOMPARE(predictedGemmGflops(m, "f32", 8193, 8193, 8192), 200.0);
        // No tf32 points: the tf32 roof, else 0 -> the f32 fallback is not mixed in silently.
        m.gflopsTf32 = 900;
        QCOMPARE(predictedGemmGflops(m, "tf32", 4096, 4096, 4096), 900.0);
    }

    void pipelineMatchesClosedForm_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("copySeconds");
        QTest::addColumn<double>("productSeconds");
        QTest::newRow("compute bound") << 10 << 0.25 << 1.0;
        QTest::newRow("copy bound") << 10 << 2.0 << 0.5;
        QTest::newRow("balanced") << 7 << 1.0 << 1.0;
        QTest::newRow("single") << 1 << 3.0 << 2.0;
    }
    void pipelineMatchesClosedForm()
    {
        QFETCH(int, n);
        QFETCH(double, copySeconds);
        QFETCH(double, productSeconds);
        // 1 GB/s copies and 1 GFLOP/s products: bytes and flops in units of 1e9 are the seconds.
        const CostModel m = flatModel(1, 1, 1, 1);
        const Schedule s = pipeline(n, copySeconds * 1e9, productSeconds * 1e9);
        const Prediction p = predictSchedule(s, m, "f32", 4);
        // Fill (the first load), n - 1 steps of the slower queue, drain (the last product).
        const double closedForm = copySeconds + productSeconds + (n - 1) * std::max(copySeconds, productSeconds);
        QVERIFY(std::abs(p.totalSeconds - closedForm) <= 1e-9 * closedForm);
        QCOMPARE(int(p.spans.size()), int(s.ops.size()));
    }

    // A copy beside a product takes the rate measured beside a GEMM; the fill load, alone on the
    // device, keeps the rate alone. Pipeline of 4 (copy 1 s alone, 2 s beside; product 1 s):
    // fill 1 + 3 loaded copies of 2 + the last product 1 = 8 s (5 s without loaded rates).
    void copiesBesideProductsTakeTheLoadedRate()
    {
        CostModel m = flatModel(1, 1, 1, 1);
        const Schedule s = pipeline(4, 1e9, 1e9);
        QVERIFY(std::abs(predictSchedule(s, m, "f32", 4).totalSeconds - 5.0) < 1e-9);
        for (CopyRatePoint& p : m.copyRates)
            p.h2dLoadedGBs = p.d2hLoadedGBs = 0.5;
        const Prediction p = predictSchedule(s, m, "f32", 4);
        QVERIFY2(std::abs(p.totalSeconds - 8.0) < 1e-9, qPrintable(QString::number(p.totalSeconds)));
        QVERIFY(std::abs((p.spans[0].end - p.spans[0].start) - 1.0) < 1e-9);  // the fill: alone
        QVERIFY(std::abs((p.spans[1].end - p.spans[1].start) - 2.0) < 1e-9);  // beside product 0
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 4096, true), 0.5);
        QCOMPARE(predictedCopyGBs(m, Queue::H2D, 4096, false), 1.0);
    }

    // The calibration on the run's own host matrices: the sample is the distinct direct loads of A
    // and B (a reload, a store and a packed load are not), spread over the schedule within the
    // budget, copied from the right addresses; the factor is the table's time over the measured
    // one, clamped; it scales the alone rate of direct loads and bounds their loaded rate.
    void calibrationScalesTheRunsOwnLoads()
    {
        CostModel m = flatModel(1, 1, 1, 1);  // 1 GB/s every width
        const HostMatrix a(Precision::F32, 512, 256), b(Precision::F32, 256, 256);
        Schedule s;
        auto load = [&](Operand matrix, std::int64_t row) {
            Operation op = copyOp(int(s.ops.size()), 64.0 * 1024, {});
            op.host = {matrix, row, 0, 64, 256};
            s.ops.push_back(op);
        };
        for (int i = 0; i < 8; ++i)
            load(Operand::A, 64 * i);
        load(Operand::A, 0);    // a reload: the same memory
        load(Operand::B, 128);  // the ninth distinct load
        Operation store = copyOp(int(s.ops.size()), 64.0 * 1024, {});
        store.kind = OpKind::CopyD2H;
        store.queue = Queue::D2H;
        store.host = {Operand::C, 0, 0, 64, 256};
        s.ops.push_back(store);

        std::vector<HostLoad> seen;
        double gbs = 0.8;
        const HostLoadTimer timer = [&](const std::vector<HostLoad>& loads) {
            seen = loads;
            double bytes = 0;
            for (const HostLoad& l : loads)
                bytes += double(l.rows) * double(l.rowBytes);
            return bytes / (gbs * 1e9);
        };
        H2dCalibration c = calibrateH2d(s, m, 4, a, b, timer);
        QCOMPARE(c.candidates, 9);
        QCOMPARE(c.loads, 9);
        QCOMPARE(int(seen.size()), 9);
        QVERIFY(std::abs(c.factor - 0.8) < 1e-9);
        QVERIFY(std::abs(c.measuredGBs - 0.8) < 1e-9 && std::abs(c.tableGBs - 1.0) < 1e-9);
        QVERIFY(c.text.find("x0.80") != std::string::npos);
        const char* a0 = static_cast<const char*>(a.data());
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(static_cast<const char*>(seen[std::size_t(i)].source), a0 + std::size_t(64 * i) * 1024);
            QCOMPARE(seen[std::size_t(i)].rows, std::int64_t(64));
            QCOMPARE(seen[std::size_t(i)].rowBytes, std::int64_t(1024));
            QCOMPARE(seen[std::size_t(i)].pitchBytes, std::int64_t(1024));
        }
        QCOMPARE(static_cast<const char*>(seen[8].source), static_cast<const char*>(b.data()) + 128 * 1024);

        // A budget of three loads' bytes: every load, each cut to its first 21 rows (3 * 64 / 9).
        c = calibrateH2d(s, m, 4, a, b, timer, 3 * 64 * 1024);
        QCOMPARE(c.loads, 9);
        for (const HostLoad& l : seen)
            QCOMPARE(l.rows, std::int64_t(21));
        QCOMPARE(static_cast<const char*>(seen[2].source), a0 + std::size_t(64 * 2) * 1024);
        QVERIFY(c.bytes <= 3 * 64 * 1024);
        QVERIFY(std::abs(c.factor - 0.8) < 1e-9);  // the rate of the rows, as of the whole loads

        // More loads than kH2dCalibrationLoads: evenly spaced, the first and the last third included.
        const HostMatrix tall(Precision::F32, 40 * 8, 256);
        Schedule many;
        for (int i = 0; i < 40; ++i) {
            Operation op = copyOp(i, 8.0 * 1024, {});
            op.host = {Operand::A, 8 * i, 0, 8, 256};
            many.ops.push_back(op);
        }
        c = calibrateH2d(many, m, 4, tall, b, timer);
        QCOMPARE(c.candidates, 40);
        QCOMPARE(c.loads, 14);  // every third: 0, 3, ..., 39
        QCOMPARE(static_cast<const char*>(seen.back().source), static_cast<const char*>(tall.data()) + std::size_t(8 * 39) * 1024);

        // Out of range, untimed, nothing to sample: clamped or 1.
        gbs = 0.01;
        QCOMPARE(calibrateH2d(s, m, 4, a, b, timer).factor, 0.25);
        QCOMPARE(calibrateH2d(s, m, 4, a, b, [](const std::vector<HostLoad>&) { return 0.0; }).factor, 1.0);
        QCOMPARE(calibrateH2d(s, m, 4, a, b, HostLoadTimer{}).factor, 1.0);
        CostModel packing = m;
        packing.h2dStaging = H2dStaging::Pack;
        QCOMPARE(calibrateH2d(s, packing, 4, a, b, timer).candidates, 9);  // whole rows: never packed
        Schedule narrow;
        narrow.ops.push_back(copyOp(0, 64.0 * 512, {}));
        narrow.ops[0].host = {Operand::A, 0, 0, 64, 128};  // half rows: packed, read from the staging
        gbs = 0.8;
        c = calibrateH2d(narrow, packing, 4, a, b, timer);
        QCOMPARE(c.candidates, 0);
        QCOMPARE(c.factor, 1.0);
        QVERIFY(c.text.find("not calibrated") != std::string::npos);
        QCOMPARE(calibrateH2d(narrow, m, 4, a, b, timer).candidates, 1);  // the same load direct

        // The prediction: the pipeline of copiesBesideProductsTakeTheLoadedRate (copies 1 s alone at
        // 1 GB/s, products 1 s). Factor 0.8: the fill takes 1.25 s; copies beside a product keep a
        // lower loaded rate (0.5: 2 s each, 8.25 s in all) and are bounded by the scaled alone rate
        // where the loaded one is higher (0.9 -> 0.8: 1.25 s each, 6 s in all).
        const Schedule pipe = pipeline(4, 1e9, 1e9);
        m.h2dInSituFactor = 0.8;
        for (CopyRatePoint& p : m.copyRates)
            p.h2dLoadedGBs = 0.5;
        Prediction p = predictSchedule(pipe, m, "f32", 4);
        QVERIFY(std::abs((p.spans[0].end - p.spans[0].start) - 1.25) < 1e-9);
        QVERIFY2(std::abs(p.totalSeconds - 8.25) < 1e-9, qPrintable(QString::number(p.totalSeconds)));
        for (CopyRatePoint& p2 : m.copyRates)
            p2.h2dLoadedGBs = 0.9;
        p = predictSchedule(pipe, m, "f32", 4);
        QVERIFY2(std::abs(p.totalSeconds - 6.0) < 1e-9, qPrintable(QString::number(p.totalSeconds)));
        // A packed load reads the staging, not the matrices: not scaled.
        Schedule one;
        one.ops.push_back(copyOp(0, 1024.0 * 4096, {}));
        one.ops[0].host = {Operand::A, 0, 0, 1024, 1024};
        Operation wide = copyOp(1, 8, {});
        wide.kind = OpKind::CopyD2H;
        wide.queue = Queue::D2H;
        wide.host = {Operand::A, 1024, 0, 1024, 16384};  // sets A's pitch: 64 KiB
        one.ops.push_back(wide);
        m.hostPackGBs = 1e6;
        m.h2dStaging = H2dStaging::Pack;
        p = predictSchedule(one, m, "f32", 4);
        QVERIFY(std::abs((p.spans[0].end - p.spans[0].start) - (4096.0 * 1024 / 1e9 + 4096.0 * 1024 / 1e15)) < 1e-9);
        m.h2dStaging = H2dStaging::Direct;
        p = predictSchedule(one, m, "f32", 4);
        QVERIFY(std::abs((p.spans[0].end - p.spans[0].start) - 4096.0 * 1024 / 0.8e9) < 1e-9);
    }

    // The pack rate on the run's own packed loads: only packed loads are sampled (direct ones are
    // calibrateH2d's), the rate they were packed at becomes the model's (clamped against the
    // table's), and the real timer packs the loads on this host.
    void packRateCalibratedOnTheRunsOwnLoads()
    {
        CostModel m = flatModel(1, 1, 1, 1);
        m.hostPackGBs = 20;
        m.h2dStaging = H2dStaging::Pack;
        const HostMatrix a(Precision::F32, 512, 256), b(Precision::F32, 256, 256);
        Schedule s;
        for (int i = 0; i < 4; ++i) {  // half rows of A: packed
            Operation op = copyOp(i, 64.0 * 512, {});
            op.host = {Operand::A, 64 * i, 128 * (i % 2), 64, 128};
            s.ops.push_back(op);
        }
        Operation whole = copyOp(4, 64.0 * 1024, {});  // whole rows of B: contiguous, never packed
        whole.host = {Operand::B, 0, 0, 64, 256};
        s.ops.push_back(whole);

        std::vector<HostLoad> seen;
        const HostPackTimer timer = [&](const std::vector<HostLoad>& loads) {
            seen = loads;
            double bytes = 0;
            for (const HostLoad& l : loads)
                bytes += double(l.rows) * double(l.rowBytes);
            return bytes / 10e9;  // 10 GB/s
        };
        PackCalibration c = calibratePacking(s, m, 4, a, b, timer);
        QCOMPARE(c.candidates, 4);
        QCOMPARE(int(seen.size()), 4);  // small loads: all of them, whole
        QCOMPARE(static_cast<const char*>(seen[1].source), static_cast<const char*>(a.data()) + (64 * 256 + 128) * 4);
        QCOMPARE(seen[1].rows, std::int64_t(64));
        QCOMPARE(seen[1].rowBytes, std::int64_t(512));
        QCOMPARE(seen[1].pitchBytes, std::int64_t(1024));
        QVERIFY(std::abs(c.measuredGBs - 10) < 1e-9);
        QVERIFY(std::abs(c.factor - 0.5) < 1e-9);
        QVERIFY(std::abs(c.packGBs - 10) < 1e-9);
        QVERIFY(c.text.find("on this run's loads") != std::string::npos);
        m.hostPackGBs = 100;  // 10 GB/s is not a tenth of the host's packing: clamped
        QCOMPARE(calibratePacking(s, m, 4, a, b, timer).packGBs, 25.0);
        m.hostPackGBs = 20;
        const HostPackTimer failed = [](const std::vector<HostLoad>&) { return 0.0; };
        c = calibratePacking(s, m, 4, a, b, failed);
        QCOMPARE(c.packGBs, 20.0);  // not timed: the table's
        QVERIFY(c.text.find("could not be timed") != std::string::npos);

        // Direct staging: nothing packed, the table's rate (the assumed one where none was measured).
        m.h2dStaging = H2dStaging::Direct;
        m.hostPackGBs = 0;
        c = calibratePacking(s, m, 4, a, b, timer);
        QCOMPARE(c.candidates, 0);
        QCOMPARE(c.packGBs, kAssumedHostPackGBs);
        QVERIFY(c.text.find("not calibrated") != std::string::npos);

        // The host's own timer packs them and takes time.
        m.h2dStaging = H2dStaging::Pack;
        c = calibratePacking(s, m, 4, a, b, hostPackTimer());
        QCOMPARE(c.loads, 4);
        QVERIFY(c.measuredGBs > 0);
    }

    // Large packed loads under a small budget: both operands sampled, and a block cut no further
    // than the bytes that still get all of the run's packing threads (a cut of a few MB packs on
    // fewer threads and measured a third slower than its block on an H200's host).
    void packSampleKeepsTheRunsThreadsAndBothOperands()
    {
        CostModel m = flatModel(1, 1, 1, 1);
        m.hostPackGBs = 20;
        m.h2dStaging = H2dStaging::Pack;
        const HostMatrix a(Precision::F32, 8192, 4096), b(Precision::F32, 4096, 1024);
        Schedule s;
        for (int i = 0; i < 2; ++i) {  // A: 8192 rows of 8 KiB out of 16 KiB, 64 MiB each
            Operation op = copyOp(i, 8192.0 * 8192, {});
            op.host = {Operand::A, 0, 2048 * i, 8192, 2048};
            s.ops.push_back(op);
        }
        for (int i = 0; i < 2; ++i) {  // B: 4096 rows of 2 KiB out of 4 KiB, 8 MiB each
            Operation op = copyOp(2 + i, 4096.0 * 2048, {});
            op.host = {Operand::B, 0, 512 * i, 4096, 512};
            s.ops.push_back(op);
        }
        std::vector<HostLoad> seen;
        const HostPackTimer timer = [&](const std::vector<HostLoad>& loads) {
            seen = loads;
            return 1e-3;
        };
        const PackCalibration c = calibratePacking(s, m, 4, a, b, timer, 1 << 20);
        QCOMPARE(c.candidates, 4);
        QCOMPARE(int(seen.size()), 2);
        QCOMPARE(static_cast<const char*>(seen[0].source), static_cast<const char*>(a.data()));
        QCOMPARE(seen[0].rows * seen[0].rowBytes, kPackBytesForAllThreads);  // cut to 32 MiB
        QCOMPARE(static_cast<const char*>(seen[1].source), static_cast<const char*>(b.data()));
        QCOMPARE(seen[1].rows, std::int64_t(4096));  // whole
    }

    // s1's shape: each step's loads wait for the previous product (one buffer each). The first
    // direct load after a product takes the loaded rate (the GPU's SGEMM slows the next narrow-row
    // load as much as one beside it); the second load of the step, after the first, the rate alone;
    // the fill loads too. Copies 1 s alone, 2 s loaded; products 1 s; 3 steps of (A, B, product):
    // A0 1 + B0 1 + P0 1 + (A 2 + B 1 + P 1) x 2 = 11 s (9 s without the rule). Packed: not.
    void firstLoadAfterAProductTakesTheLoadedRate()
    {
        CostModel m = flatModel(1, 1, 1, 1);
        for (CopyRatePoint& p : m.copyRates)
            p.h2dLoadedGBs = p.d2hLoadedGBs = 0.5;
        Schedule s;
        int previousProduct = -1;
        for (int step = 0; step < 3; ++step) {
            const std::vector<int> deps = previousProduct < 0 ? std::vector<int>{} : std::vector<int>{previousProduct};
            Operation a = copyOp(int(s.ops.size()), 1e9, deps);
            a.host = {Operand::A, 0, 0, 1, 250000000};
            s.ops.push_back(a);
            Operation b = copyOp(int(s.ops.size()), 1e9, deps);
            b.host = {Operand::B, 0, 0, 1, 250000000};
            s.ops.push_back(b);
            s.ops.push_back(productOp(int(s.ops.size()), 1e9, {a.id, b.id}));
            previousProduct = int(s.ops.size()) - 1;
        }
        const Prediction p = predictSchedule(s, m, "f32", 4);
        QVERIFY2(std::abs(p.totalSeconds - 11.0) < 1e-9, qPrintable(QString::number(p.totalSeconds)));
        const auto seconds = [&](int id) { return p.spans[std::size_t(id)].end - p.spans[std::size_t(id)].start; };
        QVERIFY(std::abs(seconds(0) - 1.0) < 1e-9);  // the fill: alone
        QVERIFY(std::abs(seconds(1) - 1.0) < 1e-9);
        QVERIFY(std::abs(seconds(3) - 2.0) < 1e-9);  // first after product 0
        QVERIFY(std::abs(seconds(4) - 1.0) < 1e-9);  // after the load, not the product
        QVERIFY(std::abs(seconds(6) - 2.0) < 1e-9);
        // Without loaded rates in the table: the rates alone (9 s).
        const Prediction plain = predictSchedule(s, flatModel(1, 1, 1, 1), "f32", 4);
        QVERIFY(std::abs(plain.totalSeconds - 9.0) < 1e-9);
    }

    // --h2d-staging: which loads a staging packs, a packed load priced as one contiguous copy of its
    // bytes after its packing at the host's rate, and auto choosing by the predictions. Rates:
    // 4 KiB rows 1 GB/s, 4 MiB rows 4 GB/s; a load of 1024 rows of 4 KiB (4 MiB) out of a 64 KiB-wide
    // matrix: 4 ms direct; packed at 8 GB/s 0.5 ms then 1 ms of copy.
    void packedLoadsArePricedAsPackingThenContiguousCopy()
    {
        QVERIFY(packsOnHost(H2dStaging::Pack, 1024, 4096, 65536));
        QVERIFY(!packsOnHost(H2dStaging::Pack, 1024, 65536, 65536));  // whole rows: contiguous already
        QVERIFY(!packsOnHost(H2dStaging::Pack, 1, 4096, 65536));      // one row: contiguous already
        QVERIFY(!packsOnHost(H2dStaging::Direct, 1024, 4096, 65536));
        QVERIFY(!packsOnHost(H2dStaging::Auto, 1024, 4096, 65536));  // unresolved auto copies directly
        for (H2dStaging st : {H2dStaging::Auto, H2dStaging::Pack, H2dStaging::Direct})
            QVERIFY(h2dStagingFromString(toString(st)) == st);
        QVERIFY_THROWS_EXCEPTION(InputError, h2dStagingFromString("staged"));

        CostModel m = flatModel(1, 1, 1, 1);
        m.copyRates = {{4096, 1, 1}, {4 << 20, 4, 4}};
        m.hostPackGBs = 8;
        Schedule s;
        s.ops.push_back(copyOp(0, 1024.0 * 4096, {}));
        s.ops[0].host = {Operand::A, 0, 0, 1024, 1024};
        Operation wide = copyOp(1, 1024.0 * 65536, {});  // the matrix's full rows set its pitch
        wide.host = {Operand::A, 1024, 0, 1024, 16384};
        wide.queue = Queue::D2H;  // its own server: the first load's time is its own
        wide.kind = OpKind::CopyD2H;
        wide.bytes = 8;  // its extent sets the pitch; its time does not count
        s.ops.push_back(wide);
        const auto firstLoad = [&](H2dStaging st) {
            m.h2dStaging = st;
            const Prediction p = predictSchedule(s, m, "f32", 4);
            return p.spans[0].end - p.spans[0].start;
        };
        const double bytes = 4096.0 * 1024;
        QVERIFY(std::abs(firstLoad(H2dStaging::Direct) - bytes / 1e9) < 1e-12);
        QVERIFY(std::abs(firstLoad(H2dStaging::Pack) - (bytes / 8e9 + bytes / 4e9)) < 1e-12);
        QVERIFY(costModelOf(DeviceInfo{}).h2dStaging == H2dStaging::Direct);

        // Auto: packing wins at 8 GB/s (1.5 ms against 4), loses at 1 GB/s (5 ms against 4), and is
        // never chosen without a measured pack rate.
        m.h2dStaging = H2dStaging::Auto;
        StagingChoice c = chooseH2dStaging(s, m, "f32", 4);
        QVERIFY(c.staging == H2dStaging::Pack);
        QVERIFY(c.packSeconds < c.directSeconds);
        QVERIFY(c.explanation.find("packed on the host") != std::string::npos);
        m.hostPackGBs = 1;
        c = chooseH2dStaging(s, m, "f32", 4);
        QVERIFY(c.staging == H2dStaging::Direct);
        QVERIFY(c.packSeconds > c.directSeconds);
        m.hostPackGBs = 0;
        QVERIFY(chooseH2dStaging(s, m, "f32", 4).staging == H2dStaging::Direct);
    }

    // Packing runs ahead of the copies (its own server, up to kStagingSlots loads in flight): where
    // a load waits for a product anyway, as in s1, its packing costs it nothing.
    void packingRunsAheadOfTheCopies()
    {
        CostModel m = flatModel(1, 1, 1, 1);
        m.hostPackGBs = 1000;  // packing ~free: only the slots limit it
        m.h2dStaging = H2dStaging::Pack;
        // Loads of 1 GB (1 s each on the flat 1 GB/s link) with products of 10 s after each: load
        // i + 1 waits for product i (one buffer), so loads sit 11 s apart; only the first load waits
        // for its packing (1 ms), the others were packed while the products ran.
        const int n = 5;
        Schedule s;
        for (int i = 0; i < n; ++i) {
            Operation load = copyOp(2 * i, 1e9, i > 0 ? std::vector<int>{2 * i - 1} : std::vector<int>{});
            load.host = {Operand::A, 0, 0, 2, std::int64_t(1e9 / 8)};  // two rows: packable, half the pitch
            s.ops.push_back(load);
            s.ops.push_back(productOp(2 * i + 1, 10e9, {2 * i}));
        }
        Operation wide = copyOp(2 * n, 8, {});
        wide.host = {Operand::A, 2, 0, 1, std::int64_t(1e9 / 4)};
        wide.kind = OpKind::CopyD2H;
        wide.queue = Queue::D2H;
        s.ops.push_back(wide);
        const Prediction p = predictSchedule(s, m, "f32", 4);
        QVERIFY(std::abs(p.spans[0].end - 1.001) < 1e-9);
        for (int i = 2; i < n; ++i)
            QVERIFY2(std::abs(p.spans[std::size_t(2 * i)].start - p.spans[std::size_t(2 * i - 2)].start - 11.0) < 1e-9,
                     qPrintable(QString::number(p.spans[std::size_t(2 * i)].start)));
        QVERIFY(std::abs(p.totalSeconds - 55.001) < 1e-9);
    }

    void simulationRespectsDependenciesAndQueues_data()
    {
        QTest::addColumn<int>("strategy");
        for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
            QTest::newRow(std::string(toString(k)).c_str()) << int(k);
    }
    void simulationRespectsDependenciesAndQueues()
    {
        QFETCH(int, strategy);
        const Plan plan = planWithSplits({96, 64, 80}, Precision::F32, StrategyKind(strategy), 1 << 30, true, 3, 2, 4);
        const GemmSchedule s = buildSchedule(plan, true);
        const Prediction p = predictSchedule(s, flatModel(2, 1, 0.5, 3), "f32", 4);
        std::map<Queue, double> busy;
        double sum = 0;
        for (const Operation& op : s.ops) {
            const Span& span = p.spans[std::size_t(op.id)];
            QCOMPARE(span.opId, op.id);
            QVERIFY(span.end >= span.start);
            for (int d : op.deps)
                QVERIFY(span.start >= p.spans[std::size_t(d)].end);
            busy[op.queue] += span.end - span.start;
            sum += span.end - span.start;
        }
        // One server per queue: no two spans of a queue overlap.
        for (Queue q : {Queue::H2D, Queue::Compute, Queue::D2H}) {
            std::vector<std::pair<double, double>> spans;
            for (const Span& span : p.spans)
                if (span.queue == q)
                    spans.emplace_back(span.start, span.end);
            std::sort(spans.begin(), spans.end());
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY(spans[i].first >= spans[i - 1].second - 1e-15);
        }
        for (const auto& [queue, seconds] : busy)
            QVERIFY(p.totalSeconds >= seconds - 1e-12);
        QVERIFY(p.totalSeconds <= sum + 1e-12);
    }

    void overlapShortensCopyBoundRuns()
    {
        // Copies about as slow as products (128-blocks: 4.2 ms a product, 4.4 ms its two loads):
        // S3 overlaps loads and stores with products, S1 cannot.
        const CostModel m = flatModel(1, 0.03, 0.03, 1000);
        auto predicted = [&](StrategyKind k) {
            const Plan plan = planWithSplits({512, 512, 512}, Precision::F32, k, 1 << 30, false, 4, 4, 4);
            return predictSchedule(buildSchedule(plan, false), m, "f32", 4).totalSeconds;
        };
        QVERIFY(predicted(StrategyKind::S3) < 0.8 * predicted(StrategyKind::S1));
    }

    void plannerPicksItsSmallestPrediction()
    {
        const CostModel m = flatModel(1, 1, 1, 1000);
        const std::vector<StrategyKind> all = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2,
                                               StrategyKind::S3, StrategyKind::S4};
        const std::uint64_t cap = bytesForBlocks(StrategyKind::S3, Precision::F32, true, 128, 128, 128);
        const PlannerChoice c = planWithCostModel({512, 384, 640}, Precision::F32, all, cap, true, m, "f32");
        QVERIFY(c.plan.bytesNeeded <= cap);
        QVERIFY(!c.candidates.empty());
        QVERIFY(c.candidates.front().predictedSeconds >= 0);
        QCOMPARE(c.predictedSeconds, c.candidates.front().predictedSeconds);
        for (const PlanCandidate& k : c.candidates) {
            if (k.predictedSeconds >= 0) {
                QVERIFY(k.predictedSeconds >= c.predictedSeconds);
                QVERIFY(k.predictedSeconds >= k.lowerBoundSeconds * (1 - 1e-9));  // the bound is a bound
            } else {
                // Pruned only when it cannot win, or once the simulation budget is spent.
                QVERIFY(k.lowerBoundSeconds >= c.predictedSeconds || c.simulated >= kPlannerMaxSimulations);
            }
        }
        const PlanCandidate& chosen = c.candidates.front();
        QCOMPARE(int(chosen.strategy), int(c.plan.strategy));
        QCOMPARE(chosen.splitM, c.plan.splitM);
        // Re-simulating the chosen plan gives the same prediction.
        const double again = predictSchedule(buildSchedule(c.plan, false), m, "f32", 4).totalSeconds;
        QCOMPARE(again, c.predictedSeconds);
        // None does not fit, S1 cannot overlap: the choice overlaps copies with products.
        QVERIFY(c.plan.strategy != StrategyKind::S1 && c.plan.strategy != StrategyKind::None);
        const QString text = test::qs(c.plan.explanation);
        QVERIFY2(text.contains(QStringLiteral("Chosen: strategy")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Not possible: none")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("s1 ")), qPrintable(text));
    }

    // With a probe, the best predictions are predicted again with their block shapes measured: a
    // probe that finds the first choice's shapes 4x slower than the tables moves the choice to
    // one of the other probed candidates when they have other shapes, and never to a worse one.
    void probedRatesRerankTheBestCandidates()
    {
        const CostModel m = flatModel(1, 1, 1, 1000);
        const std::vector<StrategyKind> all = {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
        const std::uint64_t cap = bytesForBlocks(StrategyKind::S3, Precision::F32, true, 128, 128, 128);
        const Shape shape{512, 384, 640};
        const PlannerChoice plain = planWithCostModel(shape, Precision::F32, all, cap, true, m, "f32");
        std::set<GemmShape> firstShapes;
        for (const Operation& op : buildSchedule(plain.plan, false).ops)
            if (op.kind == OpKind::Product)
                firstShapes.insert(productRateShape(op));
        std::set<GemmShape> probedShapes;
        std::set<std::string> kinds;
        const GemmRateProbe probe = [&](const std::string& kind, std::int64_t pm, std::int64_t pn, std::int64_t pk) -> double {
            kinds.insert(kind);
            probedShapes.insert({pm, pn, pk});
            return firstShapes.count({pm, pn, pk}) ? 0.25 : 1.0;
        };
        const PlannerChoice probed = planWithCostModel(shape, Precision::F32, all, cap, true, m, "f32", probe);
        QVERIFY(!probedShapes.empty());
        QVERIFY(kinds == std::set<std::string>{"f32"});
        for (const GemmShape& g : firstShapes)
            QVERIFY(probedShapes.count(g));  // the first choice was among the probed
        // The model of the choice carries the measured points and predicts the choice's time.
        QCOMPARE(probed.model.gemmRates.size(), m.gemmRates.size() + probedShapes.size());
        QCOMPARE(predictSchedule(buildSchedule(probed.plan, false), probed.model, "f32", 4).totalSeconds, probed.predictedSeconds);
        int probedCandidates = 0;
        for (const PlanCandidate& k : probed.candidates)
            if (k.predictedSeconds >= 0 && probedCandidates < kPlannerProbedCandidates) {
                ++probedCandidates;
                QVERIFY(k.predictedSeconds >= probed.predictedSeconds);
            }
        QVERIFY2(test::qs(probed.plan.explanation).contains(QStringLiteral("measured on the device")),
                 qPrintable(test::qs(probed.plan.explanation)));
        // The 4x slower shapes cost the first choice: whatever was chosen predicts no worse.
        QVERIFY(probed.predictedSeconds <= predictSchedule(buildSchedule(plain.plan, false), probed.model, "f32", 4).totalSeconds);
        // A probe that measures nothing leaves the plain choice.
        const PlannerChoice none = planWithCostModel(shape, Precision::F32, all, cap, true, m, "f32",
                                                     [](const std::string&, std::int64_t, std::int64_t, std::int64_t) { return 0.0; });
        QCOMPARE(int(none.plan.strategy), int(plain.plan.strategy));
        QCOMPARE(none.plan.splitM, plain.plan.splitM);
        QCOMPARE(none.plan.splitN, plain.plan.splitN);
        QCOMPARE(none.plan.splitQ, plain.plan.splitQ);
        QCOMPARE(none.predictedSeconds, plain.predictedSeconds);
    }

    // Fill and drain overlap nothing: on a compute-bound schedule at one flat GEMM rate, with a
    // cost per op (so that the fill is not simply cut into many thin k steps) and a slow link,
    // thinner first and last blocks shorten them for little: the planner tapers the ends, says so,
    // predicts less than its best equal blocks, and re-simulating its plan gives its prediction;
    // EndTaper::Off keeps equal blocks; Forced tapers where Auto would not.
    void plannerTapersTheEndsWhereThatIsFaster()
    {
        CostModel m = flatModel(1, 0.02, 0.02, 1000);
        m.opLatencySeconds = 1e-3;  // a cost per op: fill is not simply cut into many thin k steps
        const std::vector<StrategyKind> all = {StrategyKind::S2, StrategyKind::S3};
        const std::uint64_t cap = bytesForBlocks(StrategyKind::S3, Precision::F32, true, 512, 1024, 512);
        const Shape shape{1024, 1024, 1024};
        const PlannerChoice equal = planWithCostModel(shape, Precision::F32, all, cap, true, m, "f32", {}, EndTaper::Off);
        QVERIFY(!equal.plan.tapered());
        QVERIFY(std::none_of(equal.candidates.begin(), equal.candidates.end(), [](const PlanCandidate& c) { return c.tapered(); }));
        const PlannerChoice tapered = planWithCostModel(shape, Precision::F32, all, cap, true, m, "f32");
        QVERIFY2(tapered.plan.tapered(), tapered.plan.explanation.c_str());
        QVERIFY(tapered.predictedSeconds < equal.predictedSeconds);
        QCOMPARE(predictSchedule(buildSchedule(tapered.plan, false), m, "f32", 4).totalSeconds, tapered.predictedSeconds);
        QVERIFY(tapered.plan.bytesNeeded <= cap);
        QCOMPARE(validateSchedule(buildSchedule(tapered.plan, false)), std::string());
        const PlanCandidate& chosen = tapered.candidates.front();
        QVERIFY(chosen.tapered());
        QCOMPARE(chosen.splitM, tapered.plan.splitM);
        QCOMPARE(chosen.splitQ, tapered.plan.splitQ);
        for (const PlanCandidate& k : tapered.candidates)
            if (k.predictedSeconds >= 0)
                QVERIFY(k.predictedSeconds >= k.lowerBoundSeconds * (1 - 1e-9));  // tapered bounds too
        // The fill (the first loads) is what shrank.
        const FillDrain thin = fillDrainOf(predictSchedule(buildSchedule(tapered.plan, false), m, "f32", 4).spans);
        const FillDrain wide = fillDrainOf(predictSchedule(buildSchedule(equal.plan, false), m, "f32", 4).spans);
        QVERIFY(thin.fillSeconds + thin.drainSeconds < wide.fillSeconds + wide.drainSeconds);
        // Forced: a tapered plan even where equal blocks predict faster (the flat model without a cost
        // per op, where many thin k steps already hide the fill), and the text says so.
        const CostModel flat = flatModel(1, 1, 1, 1000);
        const PlannerChoice autoFlat = planWithCostModel(shape, Precision::F32, all, cap, true, flat, "f32");
        const PlannerChoice forced = planWithCostModel(shape, Precision::F32, all, cap, true, flat, "f32", {}, EndTaper::Forced);
        QVERIFY(forced.plan.tapered());
        QVERIFY(forced.predictedSeconds >= autoFlat.predictedSeconds);
        QVERIFY2(test::qs(forced.plan.explanation).contains(QStringLiteral("Tapered ends forced")),
                 qPrintable(test::qs(forced.plan.explanation)));
        QCOMPARE(predictSchedule(buildSchedule(forced.plan, false), flat, "f32", 4).totalSeconds, forced.predictedSeconds);
        const QString text = test::qs(tapered.plan.explanation);
        QVERIFY2(text.contains(QStringLiteral("with tapered ends")) && text.contains(QStringLiteral("with equal blocks")),
                 qPrintable(text));
        QVERIFY2(test::qs(equal.plan.explanation).contains(QStringLiteral("Blocks are equal")),
                 qPrintable(test::qs(equal.plan.explanation)));
        // The record keeps the unequal blocks; a reader refuses starts that do not cut C.
        RunRecord r;
        r.config.shape = shape;
        r.config.memCapBytes = cap;
        r.plan = withTaperedEnds(equal.plan, 64, 64);
        QVERIFY(!r.plan.rowStarts.empty() && !r.plan.colStarts.empty());
        const RunRecord back = recordFromJson(toJson(r));
        QVERIFY(back.plan.rowStarts == r.plan.rowStarts);
        QVERIFY(back.plan.colStarts == r.plan.colStarts);
        QCOMPARE(back.plan.rowsOf(0), std::int64_t(64));
        QVERIFY(test::qs(formatReport(back)).contains(QStringLiteral("unequal blocks (tapered ends)")));
        RunRecord bad = r;
        bad.plan.rowStarts.back() = shape.m;  // an empty last block
        QVERIFY_THROWS_EXCEPTION(InputError, recordFromJson(toJson(bad)));
        bad = r;
        bad.plan.colStarts.pop_back();  // fewer starts than blocks
        QVERIFY_THROWS_EXCEPTION(InputError, recordFromJson(toJson(bad)));
    }

    void plannerHandlesTheBenchShapes_data()
    {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("cap");
        QTest::newRow("32768, 4 GiB") << qint64(32768) << qint64(4) * (1 << 30);
        QTest::newRow("32768, 256 MiB") << qint64(32768) << (qint64(256) << 20);
        QTest::newRow("16384, 1 GiB") << qint64(16384) << (qint64(1) << 30);
    }
    void plannerHandlesTheBenchShapes()
    {
        // H200-like rates: the plan fits, every strategy is considered, and the choice is explained.
        QFETCH(qint64, n);
        QFETCH(qint64, cap);
        CostModel m;
        for (std::int64_t s : {1024, 4096, 8192, 16384}) {
            m.gemmRates.push_back({"f32", s, s, s, 50000.0 * s / 16384});
            m.gemmRates.push_back({"f32", s + 1, s + 1, s, 40000.0 * s / 16384});
        }
        m.copyRates = {{4096, 34, 34}, {16384, 55, 50}, {65536, 55, 52}};
        m.deviceBandwidthGBs = 4000;
        m.opLatencySeconds = 8e-6;
        m.source = "synthetic H200-like";
        const PlannerChoice c = planWithCostModel({n, n, n}, Precision::F32,
                                                  {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4},
                                                  std::uint64_t(cap), true, m, "f32");
        QVERIFY(c.plan.bytesNeeded <= std::uint64_t(cap));
        QVERIFY(c.predictedSeconds > 0);
        // No schedule beats the GEMM roof: 2 n^3 at the best rate.
        QVERIFY(c.predictedSeconds >= 2.0 * double(n) * double(n) * double(n) / 50000e9);
        for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
            QVERIFY(std::any_of(c.candidates.begin(), c.candidates.end(), [k](const PlanCandidate& x) {
                return x.strategy == k && x.fewestProducts && x.predictedSeconds > 0;
            }));
        qInfo("%s", c.plan.explanation.c_str());
    }

    void planWithSplitsAgreesWithMakePlan()
    {
        for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
            const Plan a = makePlan({1000, 700, 900}, Precision::F64, k, 8 << 20, true);
            const Plan b = planWithSplits({1000, 700, 900}, Precision::F64, k, 8 << 20, true, a.splitM, a.splitN, a.splitQ);
            QCOMPARE(b.blockM, a.blockM);
            QCOMPARE(b.blockN, a.blockN);
            QCOMPARE(b.blockQ, a.blockQ);
            QCOMPARE(b.bytesNeeded, a.bytesNeeded);
        }
        QVERIFY(!test::inputErrorOf([] {
                     planWithSplits({1000, 1000, 1000}, Precision::F32, StrategyKind::S1, 1 << 20, true, 1, 1, 1);
                 }).isEmpty());
    }

    void modelOfAnUnmeasuredDeviceSaysSo()
    {
        DeviceInfo cpu;
        cpu.backend = BackendKind::Cpu;
        const CostModel m = costModelOf(cpu);
        QVERIFY(test::qs(m.source).contains(QStringLiteral("assumed")));
        QVERIFY(m.deviceBandwidthGBs > 0 && m.h2dGBs > 0 && m.gflopsF32 > 0);
        QVERIFY(predictedOpSeconds(m, productOp(0, 2e9, {}), "f32", 4) > 0);
    }

    void runRecordsCarryThePrediction()
    {
        // A CPU run plans with --strategy auto and records one predicted span per op beside the
        // measured ones; the prediction survives the JSON round trip and is compared per kind.
        RunConfig config;
        config.shape = {96, 64, 80};
        config.backend = BackendKind::Cpu;
        config.memCapBytes = 64 << 10;
        config.planByCostModel = true;
        const RunRecord r = runGemm(config);
        QCOMPARE(r.status, std::string("ok"));
        QVERIFY(r.config.planByCostModel);
        QCOMPARE(int(r.config.strategy), int(r.plan.strategy));
        QVERIFY2(test::qs(r.plan.explanation).contains(QStringLiteral("Planner (cost model")), r.plan.explanation.c_str());
        QCOMPARE(r.predictedSpans.size(), r.spans.size());
        QVERIFY(r.predictedSeconds > 0);
        const RunRecord back = recordFromJson(toJson(r));
        QCOMPARE(back.predictedSpans.size(), r.predictedSpans.size());
        QCOMPARE(back.predictedSeconds, r.predictedSeconds);
        QCOMPARE(back.predictedSpans.back().end, r.predictedSpans.back().end);
        QVERIFY(back.config.planByCostModel);
        const PredictionComparison c = comparePrediction(back);
        QCOMPARE(c.predictedTotal, r.predictedSeconds);
        QVERIFY(c.measuredTotal > 0);
        int ops = 0;
        for (const PredictionError& e : c.perKind)
            ops += e.ops;
        QCOMPARE(std::size_t(ops), r.spans.size());
        QVERIFY(test::qs(formatReport(back)).contains(QStringLiteral("total: predicted")));
        // Fill and drain: the first loads before the first product, the last store after the last.
        QVERIFY(c.measuredEnds.fillSeconds > 0);
        QVERIFY(c.measuredEnds.drainSeconds > 0);
        QVERIFY(c.predictedEnds.fillSeconds > 0);
        QVERIFY(c.predictedEnds.fillSeconds + c.predictedEnds.drainSeconds < c.predictedTotal);
        QVERIFY(test::qs(formatReport(back)).contains(QStringLiteral("fill + drain (no product running): predicted")));
        // On assumed rates the report shows the times but no errors (they would measure the
        // assumptions), says so and names the command that calibrates; measured rates get errors.
        RunRecord assumedRates = back;
        assumedRates.predictionSource = "no measured rates; assumed GEMM rate (run gigacheck devices --measure)";
        const QString uncalibrated = test::qs(formatReport(assumedRates));
        QVERIFY2(uncalibrated.contains(QStringLiteral("UNCALIBRATED, no errors shown")), qPrintable(uncalibrated));
        QVERIFY(uncalibrated.contains(QStringLiteral("devices --measure")));
        QVERIFY(uncalibrated.contains(QStringLiteral("total: predicted")));
        QVERIFY2(!uncalibrated.contains(QStringLiteral(", error ")), qPrintable(uncalibrated));
        RunRecord measuredRates = back;
        measuredRates.predictionSource = "rates measured by devices --measure (test)";
        QVERIFY(test::qs(formatReport(measuredRates)).contains(QStringLiteral(", error ")));
        // Where the time went, from the spans of the record as it was read back: the parts add up.
        const blocked_gemm::TimeBreakdown parts = blocked_gemm::breakdownOf(back.spans);
        QVERIFY(parts.productBusySeconds > 0);
        QVERIFY(std::abs(parts.productBusySeconds + parts.abftAloneSeconds + parts.stallSeconds + parts.fillSeconds +
                         parts.drainSeconds - parts.spanSeconds) < 1e-9);
        QVERIFY(test::qs(formatReport(back)).contains(QStringLiteral("where the time went: products ")));

        // A record without a prediction (older records) opens and reports nothing of it.
        RunRecord old = r;
        old.predictedSpans.clear();
        old.predictedSeconds = 0;
        const std::string text = toJson(old);
        QVERIFY(text.find("\"prediction\"") == std::string::npos);
        const RunRecord oldBack = recordFromJson(text);
        QVERIFY(oldBack.predictedSpans.empty());
        QVERIFY(comparePrediction(oldBack).perKind.empty());
        QVERIFY(!test::qs(formatReport(oldBack)).contains(QStringLiteral("total: predicted")));
    }

    void rateTablesRoundTripThroughTheStore()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("ceilings.json")).toStdString();
        DeviceInfo d;
        d.name = "test device";
        d.ceilings.gflopsF32 = 123;
        d.ceilings.gemmRates = {{"f32", 1024, 1024, 1024, 100}, {"tf32", 4097, 4097, 4096, 450.5}};
        d.ceilings.copyRates = {{4096, 12.5, 11, 6.5, 7}, {65536, 40, 38.25, 22.5, 30}};
        saveCeilings(d, path);
        DeviceInfo back;
        back.name = "test device";
        QVERIFY(loadCeilings(path, back));
        QCOMPARE(back.ceilings.gflopsF32, 123.0);
        QCOMPARE(int(back.ceilings.gemmRates.size()), 2);
        QCOMPARE(back.ceilings.gemmRates[1].kind, std::string("tf32"));
        QCOMPARE(back.ceilings.gemmRates[1].m, std::int64_t(4097));
        QCOMPARE(back.ceilings.gemmRates[1].gflops, 450.5);
        QCOMPARE(int(back.ceilings.copyRates.size()), 2);
        QCOMPARE(back.ceilings.copyRates[1].d2hGBs, 38.25);
        QCOMPARE(back.ceilings.copyRates[1].h2dLoadedGBs, 22.5);
        QCOMPARE(back.ceilings.copyRates[0].d2hLoadedGBs, 7.0);
        QVERIFY(hasMeasuredRates(back.ceilings));
    }

    // Fill and drain from spans: the first product starts 1 s after the first load, the store ends
    // 1.5 s after the last product; the repair pass after the run does not count.
    void fillAndDrainAreTheEndsWithoutAProduct()
    {
        const auto span = [](OpKind kind, double start, double end) {
            Span s;
            s.kind = kind;
            s.start = start;
            s.end = end;
            return s;
        };
        const std::vector<Span> spans{span(OpKind::CopyH2D, 0, 1),   span(OpKind::Product, 1, 5),
                                      span(OpKind::Product, 4, 8),   span(OpKind::CopyD2H, 8, 9.5),
                                      span(OpKind::Recompute, 9.5, 20)};
        const FillDrain f = fillDrainOf(spans);
        QCOMPARE(f.fillSeconds, 1.0);
        QCOMPARE(f.drainSeconds, 1.5);
        QCOMPARE(fillDrainOf({span(OpKind::CopyH2D, 0, 1)}).fillSeconds, 0.0);  // no product: nothing to say
        // Nor in the measured total the prediction is compared with (a run of three scattered faults
        // in one block, repaired on the host, had read "predicted 188 ms, measured 1.856 s").
        RunRecord r;
        r.spans = spans;
        r.predictedSpans = {span(OpKind::CopyH2D, 0, 1), span(OpKind::Product, 1, 9)};
        r.predictedSeconds = 9;
        QCOMPARE(comparePrediction(r).measuredTotal, 9.5);
    }

    // bench out-of-core's "where the time goes": the parts add up to the span, each from the spans
    // as a user would read them off the timeline.
    void timeBreakdownAddsUpToTheSpan()
    {
        const auto span = [](OpKind kind, Queue queue, double start, double end) {
            Span s;
            s.kind = kind;
            s.queue = queue;
            s.start = start;
            s.end = end;
            return s;
        };
        // load 0-1 | product 1-4 | verify 4-4.5 | idle 4.5-5 (waiting for a copy 3-5) | product 5-7,
        // a second stream's product 6.5-8 overlapping it | checksum 8-8.2 after the last product |
        // store 8-9 | the repair pass after the run (not the schedule's).
        const std::vector<Span> spans{span(OpKind::CopyH2D, Queue::H2D, 0, 1),
                                      span(OpKind::Product, Queue::Compute, 1, 4),
                                      span(OpKind::Verify, Queue::Compute, 4, 4.5),
                                      span(OpKind::CopyH2D, Queue::H2D, 3, 5),
                                      span(OpKind::Product, Queue::Compute, 5, 7),
                                      span(OpKind::Product, Queue::Compute, 6.5, 8),
                                      span(OpKind::Checksum, Queue::Compute, 8, 8.2),
                                      span(OpKind::CopyD2H, Queue::D2H, 8, 9),
                                      span(OpKind::Recompute, Queue::Compute, 9, 30)};
        const blocked_gemm::TimeBreakdown b = blocked_gemm::breakdownOf(spans);
        QCOMPARE(b.spanSeconds, 9.0);
        QCOMPARE(b.fillSeconds, 1.0);
        QCOMPARE(b.drainSeconds, 1.0);
        QCOMPARE(b.productBusySeconds, 6.0);  // 1-4 and 5-8: the overlapping products count once
        QCOMPARE(b.abftAloneSeconds, 0.5);
        QCOMPARE(b.stallSeconds, 0.5);
        QCOMPARE(b.productBusySeconds + b.abftAloneSeconds + b.stallSeconds + b.fillSeconds + b.drainSeconds,
                 b.spanSeconds);
        QCOMPARE(blocked_gemm::breakdownOf({span(OpKind::CopyH2D, Queue::H2D, 0, 2)}).stallSeconds, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_cost_model.moc"
