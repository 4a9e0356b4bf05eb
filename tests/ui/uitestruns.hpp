// Run configurations shared by the ui tests.
#pragma once

#include <models/familyrecord.hpp>

#include <gigacheck/blocked_gemm/record.hpp>

#include <QSignalSpy>

namespace gigacheck::ui::test {

// A CPU run long enough (seconds on 2 cores) to cancel, close or restart while it goes on.
inline RunConfig longCpuRun()
{
    RunConfig c;
    c.shape = Shape{3072, 8192, 3072};
    c.precision = Precision::F64;
    c.memCapBytes = 2 * 1024 * 1024;
    c.strategy = StrategyKind::S1;
    c.backend = BackendKind::Cpu;
    c.reference = ReferenceMode::Sample;
    return c;
}

// The blocked GEMM record of the first run a MainWindow::runFinished spy caught. When it caught
// none, or another family's record, a record whose status says so: every comparison then fails.
inline RunRecord blockedRunOf(const QSignalSpy& finished)
{
    const auto record = finished.isEmpty() ? nullptr : blockedRecordOf(finished.first().first().value<RecordPtr>());
    if (record)
        return *record;
    RunRecord none;
    none.status = "no blocked GEMM record";
    return none;
}

}  // namespace gigacheck::ui::test
