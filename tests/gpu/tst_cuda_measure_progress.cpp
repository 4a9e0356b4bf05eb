// measureCeilings on a GPU with the progress and cancel hook (gigacheck/measure_progress.hpp), as
// the lab's "Measure this machine…" calls it: every point of the CUDA module's measurement is
// reported in stage order with done <= total (the total counted before the first point), and a
// cancel stops it within a stage with MeasureCancelled. Quick rate tables (MeasureOptions::quick).
#include "gpu_available.hpp"

#include "gigacheck/bench.hpp"

#include <string>
#include <vector>

using namespace gigacheck;

namespace {

struct Report {
    std::string stage;
    int done = 0, total = 0;
};

class RecordingProgress : public MeasureProgress {
public:
    std::string cancelInStage;  // cancel once a point of this stage was reported
    std::vector<Report> reports;

    bool cancelled() override { return !cancelInStage.empty() && !reports.empty() && reports.back().stage == cancelInStage; }
    void stage(const std::string& name, int done, int total) override { reports.push_back({name, done, total}); }
};

DeviceInfo firstGpu()
{
    std::string why;
    for (const DeviceInfo& d : listDevices(&why))
        if (d.backend == BackendKind::Cuda)
            return d;
    return {};
}

}  // namespace

class TestCudaMeasureProgress : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void everyPointIsReportedInStageOrder()
    {
        RecordingProgress progress;
        MeasureOptions options;
        options.progress = &progress;
        options.quick = true;
        const Ceilings c = measureCeilings(firstGpu(), options);
        QVERIFY(!progress.reports.empty());
        const int total = progress.reports.front().total;
        QCOMPARE(int(progress.reports.size()), total + 1);
        for (std::size_t i = 0; i < progress.reports.size(); ++i) {
            QCOMPARE(progress.reports[i].total, total);
            QCOMPARE(progress.reports[i].done, int(i));
        }
        std::vector<std::string> stages;
        for (const Report& r : progress.reports)
            if (stages.empty() || stages.back() != r.stage)
                stages.push_back(r.stage);
        const std::vector<std::string> expected{"FP32 GEMM roof",     "FP64 GEMM roof",     "TF32 GEMM roof",
                                                "BF16 / FP16 GEMM roof",
                                                "device memory bandwidth", "host link bandwidth", "GEMM rate table",
                                                "2D copy rate table", "host packing beside copies", "done"};
        QCOMPARE(stages, expected);
        int gemmPoints = 0, copyPoints = 0;
        for (const Report& r : progress.reports) {
            gemmPoints += r.stage == "GEMM rate table";
            copyPoints += r.stage == "2D copy rate table";
        }
        QCOMPARE(int(c.gemmRates.size()), gemmPoints);
        QCOMPARE(int(c.copyRates.size()), copyPoints);
        QVERIFY(c.gflopsF32 > 0 && c.gflopsTf32 > 0 && c.gflopsF64 > 0 && c.gflopsBf16 > 0 && c.gflopsF16 > 0);
        QVERIFY(c.deviceBandwidthGBs > 0 && c.h2dGBs > 0 && c.d2hGBs > 0 && c.hostPackGBs > 0);
        QVERIFY2(QString::fromStdString(c.source).contains(QStringLiteral("quick")), c.source.c_str());
    }

    void aCancelStopsWithinAStage()
    {
        RecordingProgress progress;
        progress.cancelInStage = "GEMM rate table";
        MeasureOptions options;
        options.progress = &progress;
        options.quick = true;
        bool cancelled = false;
        try {
            measureCeilings(firstGpu(), options);
        } catch (const MeasureCancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
        QCOMPARE(progress.reports.back().stage, std::string("GEMM rate table"));
        int tablePoints = 0;
        for (const Report& r : progress.reports)
            tablePoints += r.stage == "GEMM rate table";
        QCOMPARE(tablePoints, 1);
        // The device is usable after the cancel (its buffers were freed while unwinding).
        RecordingProgress again;
        MeasureOptions quick;
        quick.progress = &again;
        quick.quick = true;
        again.cancelInStage = "TF32 GEMM roof";
        QVERIFY_EXCEPTION_THROWN(measureCeilings(firstGpu(), quick), MeasureCancelled);
    }
};

QTEST_GUILESS_MAIN(TestCudaMeasureProgress)
#include "tst_cuda_measure_progress.moc"
