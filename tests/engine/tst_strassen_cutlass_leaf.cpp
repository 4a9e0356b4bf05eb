// Strassen --leaf cutlass on the CPU backend: TF32 leaves emulated with the operands truncated to
// TF32 (what the CUTLASS kernel's tensor cores read), every variant and level verified clean under
// the thresholds for truncated operands, every leaf GEMM counted, C within TF32's error of the
// cuBLAS-leaf emulation but not the same bits (truncation, not rounding), faults caught, and the
// refusals.
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
    void cleanRunsVerifyWithTruncatedOperands()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                StrassenConfig c = tf32Config({200, 168, 232}, levels, v, true);
                c.checkLeaves = true;
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, levels);
                QVERIFY2(r.status == "ok", (what + ": " + r.status + " " + r.error).c_str());
                QCOMPARE(r.cutlassLeafGemms, r.gemmCalls);
                QCOMPARE(r.fallbackLeafGemms, 0);
                QVERIFY2(r.leafWorstRatio > 0 && r.leafWorstRatio < 1, (what + ": " + std::to_string(r.leafWorstRatio)).c_str());
                QVERIFY2(r.cWorstCleanRatio >= 0 && r.cWorstCleanRatio < 1, (what + ": " + std::to_string(r.cWorstCleanRatio)).c_str());
                QCOMPARE(r.referenceMismatches, std::int64_t(0));
            }
    }

    // Truncation errs by up to twice rounding's 2^-11 and always toward zero: C is not the rounded
    // leaves' C, but as close to the FP64 reference as TF32 allows.
    void truncationIsEmulated()
    {
        auto backend = makeBackend(BackendKind::Cpu);
        const StrassenResult cutlass = runStrassen(tf32Config({256, 256, 256}, 2, StrassenVariant::Accumulate, true), *backend);
        const StrassenResult rounded = runStrassen(tf32Config({256, 256, 256}, 2, StrassenVariant::Accumulate, false), *backend);
        QCOMPARE(cutlass.status, std::string("ok"));
        QCOMPARE(rounded.status, std::string("ok"));
        QVERIFY(cutlass.relErrorC != rounded.relErrorC);
        QVERIFY2(cutlass.relErrorC < 1e-2, std::to_string(cutlass.relErrorC).c_str());
        QVERIFY2(cutlass.relErrorC > 1e-5, std::to_string(cutlass.relErrorC).c_str());  // TF32, not FP32
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
            QCOMPARE(r.status, std::string("ok"));
        }
        for (StrassenVariant v : kVariants)
            for (StrassenFault::Where where : {StrassenFault::Where::Product, StrassenFault::Where::C, StrassenFault::Where::A,
                                               StrassenFault::Where::B}) {
                StrassenConfig c = tf32Config({256, 256, 256}, 2, v, true);
                c.faults = {{where, 1, 0}};
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, 2) + " " + toString(c.faults.front());
                QVERIFY2(caughtSomewhere(r), what.c_str());
                QVERIFY2(r.status == "ok", (what + ": " + r.status).c_str());
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
