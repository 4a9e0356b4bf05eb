// Strassen --leaf cutlass on the CPU backend: TF32 leaves emulated with the operands rounded to
// nearest TF32 (what the CUTLASS kernel multiplies, as measured on the device), every variant and
// level verified clean under the TF32 thresholds, every leaf GEMM counted, C the same as the
// cuBLAS-TF32-leaf emulation's, faults caught, and the refusals.
#include "gigacheck/strassen.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gigacheck;

namespace {

constexpr StrassenVariant kVariants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                         StrassenVariant::Accumulate};

StrassenConfig tf32Config(Shape shape, int levels, StrassenVariant v, bool cutlass)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = levels;
    c.variant = v;
    c.precision = Precision::F32;
    c.tf32 = true;
    c.cutlassLeaves = cutlass;
    c.backend = BackendKind::Cpu;
    return c;
}

std::string nameOf(StrassenVariant v, int levels) { return std::string(toString(v)) + " L" + std::to_string(levels); }

bool caughtSomewhere(const StrassenResult& r)
{
    return std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) { return k.verdict != "clean"; });
}

}  // namespace

class TestStrassenCutlassLeaf : public QObject {
    Q_OBJECT
private slots:
    void cleanRunsVerifyWithRoundedOperands()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                StrassenConfig c = tf32Config({200, 168, 232}, levels, v, true);
                c.checkLeaves = true;
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, levels);
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                QCOMPARE(r.cutlassLeafGemms, r.gemmCalls);
                QCOMPARE(r.fallbackLeafGemms, 0);
                QVERIFY2(r.leafWorstRatio > 0 && r.leafWorstRatio < 1, (what + ": " + std::to_string(r.leafWorstRatio)).c_str());
                QVERIFY2(r.cWorstCleanRatio >= 0 && r.cWorstCleanRatio < 1, (what + ": " + std::to_string(r.cWorstCleanRatio)).c_str());
                QCOMPARE(r.referenceMismatches, std::int64_t(0));
            }
    }

    // The CUTLASS kernel rounds its operands to nearest TF32 as cuBLAS TF32 does: the emulation of
    // both leaves is the same, so C, its error against the FP64 reference and every check's ratio
    // are the same bits (exact comparisons, not fuzzy ones), and TF32's, not FP32's.
    void roundingIsEmulatedAsForCublasLeaves()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        for (StrassenVariant v : kVariants) {
            StrassenConfig withCutlass = tf32Config({256, 200, 232}, 2, v, true);
            StrassenConfig withCublas = tf32Config({256, 200, 232}, 2, v, false);
            withCutlass.checkLeaves = withCublas.checkLeaves = true;
            const StrassenResult cutlass = runStrassen(withCutlass, *backend);
            const StrassenResult cublas = runStrassen(withCublas, *backend);
            const std::string what = nameOf(v, 2);
            QVERIFY2(strassenOutcome(cutlass) == "ok", (what + ": " + strassenOutcome(cutlass)).c_str());
            QVERIFY2(strassenOutcome(cublas) == "ok", (what + ": " + strassenOutcome(cublas)).c_str());
            QVERIFY2(cutlass.maxErrorC == cublas.maxErrorC,
                     (what + ": " + std::to_string(cutlass.maxErrorC) + " vs " + std::to_string(cublas.maxErrorC)).c_str());
            QVERIFY2(cutlass.relErrorC == cublas.relErrorC, what.c_str());
            QVERIFY2(cutlass.cWorstCleanRatio == cublas.cWorstCleanRatio, what.c_str());
            QVERIFY2(cutlass.leafWorstRatio == cublas.leafWorstRatio, what.c_str());
            QVERIFY2(cutlass.referenceWorstRatio == cublas.referenceWorstRatio, what.c_str());
            QVERIFY2(cutlass.relErrorC < 1e-2, (what + ": " + std::to_string(cutlass.relErrorC)).c_str());
            QVERIFY2(cutlass.relErrorC > 1e-5, (what + ": " + std::to_string(cutlass.relErrorC)).c_str());  // TF32, not FP32
        }
    }

    // A product fault is caught by its leaf's check and repaired; C, A and B faults by the checks
    // that see them with cuBLAS leaves; every run ends right.
    void faultsAreCaught()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        for (StrassenVariant v : kVariants) {
            StrassenConfig c = tf32Config({256, 256, 256}, 2, v, true);
            c.checkLeaves = true;
            c.faults = {{StrassenFault::Where::Product, 9, 0}};
            const StrassenResult r = runStrassen(c, *backend);
            bool leafCaught = false;
            for (const StrassenCheck& k : r.checks)
                leafCaught |= k.where == "product 9" && k.verdict == "detected";
            QVERIFY2(leafCaught, nameOf(v, 2).c_str());
            QCOMPARE(strassenOutcome(r), std::string("ok"));
        }
        for (StrassenVariant v : kVariants)
            for (StrassenFault::Where where : {StrassenFault::Where::Product, StrassenFault::Where::C, StrassenFault::Where::A,
                                               StrassenFault::Where::B}) {
                StrassenConfig c = tf32Config({256, 256, 256}, 2, v, true);
                c.faults = {{where, 1, 0}};
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, 2) + " " + toString(c.faults.front());
                QVERIFY2(caughtSomewhere(r), what.c_str());
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r)).c_str());
                QCOMPARE(r.referenceMismatches, std::int64_t(0));
            }
    }

    void refusedWhereItCannotApply()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        StrassenConfig f32 = tf32Config({64, 64, 64}, 1, StrassenVariant::Msmes, true);
        f32.tf32 = false;
        QVERIFY_THROWS_EXCEPTION(InputError, runStrassen(f32, *backend));
        StrassenConfig both = tf32Config({64, 64, 64}, 1, StrassenVariant::Msmes, true);
        both.multiTargetKernel = true;
        QVERIFY_THROWS_EXCEPTION(InputError, runStrassen(both, *backend));
    }
};

QTEST_APPLESS_MAIN(TestStrassenCutlassLeaf)
#include "tst_strassen_cutlass_leaf.moc"
