// Run configurations shared by the ui tests.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>

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

}  // namespace gigacheck::ui::test
