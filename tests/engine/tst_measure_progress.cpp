// measureCeilings' progress and cancel hook (gigacheck/measure_progress.hpp), which the lab's
// "Measure this machine…" drives: every point is reported before it runs, in stage order, with
// done <= total; a cancel stops the measurement before the next point (so within a stage) and
// is reported as MeasureCancelled. Quick measurements of the CPU (MeasureOptions::quick).
#include "gigacheck/bench.hpp"

#include <QtTest>

#include <string>
#include <vector>

using namespace gigacheck;

namespace {

struct Report {
    std::string stage;
    int done = 0, total = 0;
};

// Records every report; cancels once `cancelAfter` points were reported (never when < 0), or
// from the first point of `cancelInStage` on.
class RecordingProgress : public MeasureProgress {
public:
    int cancelAfter = -1;
    std::string cancelInStage;
    std::vector<Report> reports;
    int cancelQuestions = 0;

    bool cancelled() override
    {
        ++cancelQuestions;
        if (cancelAfter >= 0 && int(reports.size()) >= cancelAfter)
            return true;
        return !cancelInStage.empty() && !reports.empty() && reports.back().stage == cancelInStage;
    }
    void stage(const std::string& name, int done, int total) override { reports.push_back({name, done, total}); }
};

DeviceInfo cpu()
{
    std::string why;
    for (const DeviceInfo& d : listDevices(&why))
        if (d.backend == BackendKind::Cpu)
            return d;
    return {};
}

// Measures quickly with `progress`; true when it was cancelled (MeasureCancelled).
bool measureCancelled(RecordingProgress& progress, Ceilings* out = nullptr)
{
    MeasureOptions options;
    options.progress = &progress;
    options.quick = true;
    try {
        const Ceilings c = measureCeilings(cpu(), options);
        if (out)
            *out = c;
    } catch (const MeasureCancelled&) {
        return true;
    }
    return false;
}

}  // namespace

class TestMeasureProgress : public QObject {
    Q_OBJECT
private slots:
    void everyPointIsReportedInStageOrder()
    {
        RecordingProgress progress;
        Ceilings c;
        QVERIFY(!measureCancelled(progress, &c));
        QVERIFY(progress.reports.size() >= 2);
        const int total = progress.reports.front().total;
        // One report per point, done counting 0, 1, 2, ... up to total, then ("done", total, total).
        QCOMPARE(int(progress.reports.size()), total + 1);
        for (std::size_t i = 0; i < progress.reports.size(); ++i) {
            const Report& r = progress.reports[i];
            QCOMPARE(r.total, total);
            QCOMPARE(r.done, int(i));
            QVERIFY(r.done <= r.total);
        }
        QCOMPARE(progress.reports.back().stage, std::string("done"));
        // The stages in the order the CPU measures them, each one contiguous.
        std::vector<std::string> stages;
        for (const Report& r : progress.reports)
            if (stages.empty() || stages.back() != r.stage)
                stages.push_back(r.stage);
        const std::vector<std::string> expected{"FP32 GEMM roof",  "FP64 GEMM roof",      "memory bandwidth",
                                                "GEMM rate table", "row copy rate table", "done"};
        QCOMPARE(stages, expected);
        // Each rate-table point is one entry of the table it fills.
        int gemmPoints = 0, copyPoints = 0;
        for (const Report& r : progress.reports) {
            gemmPoints += r.stage == "GEMM rate table";
            copyPoints += r.stage == "row copy rate table";
        }
        QCOMPARE(int(c.gemmRates.size()), gemmPoints);
        QCOMPARE(int(c.copyRates.size()), copyPoints);
        QVERIFY(c.gflopsF32 > 0 && c.gflopsF64 > 0 && c.deviceBandwidthGBs > 0);
        // A quick measurement says so where the roofline shows its source.
        QVERIFY2(QString::fromStdString(c.source).startsWith(QStringLiteral("measured")), c.source.c_str());
        QVERIFY2(QString::fromStdString(c.source).contains(QStringLiteral("quick")), c.source.c_str());
    }

    void aCancelStopsBeforeTheNextPoint()
    {
        RecordingProgress progress;
        progress.cancelAfter = 2;
        QVERIFY(measureCancelled(progress));
        // The two points reported ran; the third never started and nothing says "done".
        QCOMPARE(int(progress.reports.size()), 2);
        QCOMPARE(progress.reports.back().stage, std::string("FP64 GEMM roof"));
        QVERIFY(progress.reports.back().done < progress.reports.back().total);
    }

    void aCancelStopsWithinAStage()
    {
        // Cancelled during the first point of the GEMM rate table: the table's next point never runs.
        RecordingProgress progress;
        progress.cancelInStage = "GEMM rate table";
        QVERIFY(measureCancelled(progress));
        QCOMPARE(progress.reports.back().stage, std::string("GEMM rate table"));
        int tablePoints = 0;
        for (const Report& r : progress.reports)
            tablePoints += r.stage == "GEMM rate table";
        QCOMPARE(tablePoints, 1);
    }

    void aCancelBeforeTheStartMeasuresNothing()
    {
        RecordingProgress progress;
        progress.cancelAfter = 0;
        QVERIFY(measureCancelled(progress));
        QVERIFY(progress.reports.empty());
        QCOMPARE(progress.cancelQuestions, 1);
    }

    void withoutAHookNothingIsAsked()
    {
        // The CLI's call: no progress, never cancelled (quick here to stay short).
        MeasureOptions options;
        options.quick = true;
        const Ceilings c = measureCeilings(cpu(), options);
        QVERIFY(c.gflopsF32 > 0);
        QVERIFY(!c.gemmRates.empty() && !c.copyRates.empty());
    }
};

QTEST_GUILESS_MAIN(TestMeasureProgress)
#include "tst_measure_progress.moc"
