// The strassen family's multi-device decomposition (2D and Strassen-Winograd) on real GPUs: every
// visible GPU count from 2 up (distinct GPUs, peer copies), and two logical devices on one GPU.
// Exact on integer inputs (FP32 and FP64), the same as one GPU on random FP64 inputs, ops and
// copies on every device's lanes, the placement said in the result. Skips visibly without a CUDA
// device, and the real multi-GPU part with fewer than two GPUs.
#include "gigacheck/bench.hpp"
#include "gigacheck/strassen.hpp"

#include "gpu_available.hpp"

#include <QtTest>

#include <set>

using namespace gigacheck;

namespace {

int visibleGpus()
{
    std::string why;
    int count = 0;
    for (const DeviceInfo& d : listDevices(&why))
        count += d.backend == BackendKind::Cuda;
    return count;
}

StrassenConfig config(Shape shape, Precision p, StrassenDecomposition d, int devices)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = 1;
    c.precision = p;
    c.backend = BackendKind::Cuda;
    c.devices = devices;
    c.distribute = true;
    c.decomposition = d;
    return c;
}

// Exact on integers, A and B recovered bit for bit, spans on each device that has a task, peer
// copies on the remote devices' copy lanes.
void checkExactRun(const StrassenConfig& c, Backend& backend, const std::string& what)
{
    const StrassenResult r = runStrassen(c, backend);
    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
    QVERIFY2(r.maxErrorC == 0, (what + ": max error " + std::to_string(r.maxErrorC)).c_str());
    QCOMPARE(r.recovery.changedA, std::int64_t(0));
    QCOMPARE(r.recovery.changedB, std::int64_t(0));
    std::set<std::pair<int, Queue>> lanes;
    for (const Span& s : r.spans)
        lanes.insert({s.device, s.queue});
    const int tasks = c.decomposition == StrassenDecomposition::TwoD ? 8 : 7;
    for (int d = 1; d < std::min(c.devices, tasks); ++d) {
        QVERIFY2(lanes.count({d, Queue::Compute}), (what + ": no product on device " + std::to_string(d)).c_str());
        QVERIFY2(lanes.count({d, Queue::H2D}) && lanes.count({d, Queue::D2H}),
                 (what + ": no copies on device " + std::to_string(d) + "'s copy lanes").c_str());
    }
    QCOMPARE(int(r.devices.size()), c.devices);
}

}  // namespace

class TestCudaMultiGpuStrassen : public QObject {
    Q_OBJECT
private slots:
    void twoLogicalDevicesOnOneGpu()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        std::string why;
        auto backend = makeCudaBackend(&why, std::vector<int>{0, 0});
        QVERIFY2(backend, why.c_str());
        for (StrassenDecomposition d : {StrassenDecomposition::TwoD, StrassenDecomposition::Winograd})
            for (Precision p : {Precision::F32, Precision::F64})
                for (Shape s : {Shape{512, 384, 640}, Shape{301, 257, 199}}) {
                    StrassenConfig c = config(s, p, d, 2);
                    c.integerInputs = true;
                    const std::string what = std::string(toString(d)) + " " + std::string(toString(p)) + " G=2 on 1 GPU";
                    checkExactRun(c, *backend, what);
                    if (QTest::currentTestFailed())
                        return;
                }
        const StrassenResult r = runStrassen(config({256, 256, 256}, Precision::F32, StrassenDecomposition::Winograd, 2), *backend);
        QVERIFY2(r.placement.starts_with("2 devices emulated on 1 GPU"), r.placement.c_str());
    }

    // Two and three levels: each task runs the variant's recursion on its own device (seed table
    // 4.3), exact on integers, on two logical devices of one GPU and on every visible GPU.
    void localStrassenInsideTasks()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        const int gpus = visibleGpus();
        std::vector<std::pair<int, bool>> runs{{2, false}};  // G = 2 as two logical devices of GPU 0
        if (gpus >= 2)
            runs.push_back({gpus, true});  // every visible GPU, distinct
        for (const auto& [g, distinct] : runs) {
            for (StrassenDecomposition d : {StrassenDecomposition::TwoD, StrassenDecomposition::Winograd})
                for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Accumulate})
                    for (int levels : {2, 3}) {
                        StrassenConfig c = config({1024, 768, 1280}, Precision::F64, d, g);
                        c.levels = levels;
                        c.variant = v;
                        c.integerInputs = true;
                        std::string why;
                        auto backend = distinct ? makeStrassenBackend(c) : makeCudaBackend(&why, std::vector<int>{0, 0});
                        QVERIFY2(backend, why.c_str());
                        const std::string what = std::string(toString(d)) + " " + std::string(toString(v)) + " L" +
                                                 std::to_string(levels) + " G=" + std::to_string(g);
                        checkExactRun(c, *backend, what);
                        if (QTest::currentTestFailed())
                            return;
                    }
        }
    }

    void everyVisibleGpuCount()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        const int gpus = visibleGpus();
        if (gpus < 2)
            QSKIP(("multi-GPU part skipped: " + std::to_string(gpus) +
                   " GPU visible, two or more needed (G = 2 on one GPU ran above)")
                      .c_str());
        for (int g = 2; g <= gpus; ++g)
            for (StrassenDecomposition d : {StrassenDecomposition::TwoD, StrassenDecomposition::Winograd}) {
                for (Precision p : {Precision::F32, Precision::F64})
                    for (Shape s : {Shape{1024, 768, 1280}, Shape{301, 257, 199}}) {
                        StrassenConfig c = config(s, p, d, g);
                        c.integerInputs = true;
                        auto backend = makeStrassenBackend(c);
                        const std::string what = std::string(toString(d)) + " " + std::string(toString(p)) + " G=" +
                                                 std::to_string(g);
                        checkExactRun(c, *backend, what);
                        if (QTest::currentTestFailed())
                            return;
                    }
                // Distinct GPUs, and random FP64 inputs agree with one GPU.
                StrassenConfig c = config({1024, 1024, 1024}, Precision::F64, d, g);
                auto backend = makeStrassenBackend(c);
                const StrassenResult several = runStrassen(c, *backend);
                QVERIFY2(several.placement.starts_with(std::to_string(g) + " devices on " + std::to_string(g) + " GPUs"),
                         several.placement.c_str());
                std::set<int> ordinals;
                for (const DeviceInfo& info : several.devices)
                    ordinals.insert(info.index);
                QCOMPARE(int(ordinals.size()), g);
                QCOMPARE(strassenOutcome(several), std::string("ok"));
                QVERIFY2(several.relErrorC < 1e-12, std::to_string(several.relErrorC).c_str());
                qInfo("%s on %d GPUs: %s; %.3f ms (compute ops), rel error of C %.3g", std::string(toString(d)).c_str(), g,
                      several.placement.c_str(), several.seconds * 1e3, several.relErrorC);
            }
    }
};

QTEST_APPLESS_MAIN(TestCudaMultiGpuStrassen)
#include "tst_cuda_multi_gpu_strassen.moc"
