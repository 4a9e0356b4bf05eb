// Strassen --leaf cutlass on a Hopper GPU: TF32 leaf GEMMs on the CUTLASS sm_90a kernel. Clean
// runs verified with leaf checks (every variant, L1-3) with every leaf GEMM on the kernel; a shape
// it cannot take falls back to cuBLAS TF32 and says so; exact on small integers; C's error against
// the FP64 reference that of cuBLAS TF32 leaves (both round the operands to nearest TF32); a fault
// at every target caught as with cuBLAS leaves.
// Skips without a device, without CUTLASS kernels in the build, or on a GPU other than sm_90.
#include "gigacheck/strassen.hpp"

#include "gpu_available.hpp"
#include "engine/strassen_run_helpers.hpp"

#include <QtTest>

#include <algorithm>

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
    c.backend = BackendKind::Cuda;
    return c;
}

std::string nameOf(StrassenVariant v, int levels) { return std::string(toString(v)) + " L" + std::to_string(levels); }

}  // namespace

class TestCudaStrassenCutlassLeaf : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    }

    // Leaves of 64 x 56 x 72 and larger: every leaf GEMM on the kernel, every leaf check clean.
    void cleanRunsVerify()
    {
        auto backend = makeBackend(BackendKind::Cuda);
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                StrassenConfig c = tf32Config({512, 448, 576}, levels, v, true);
                c.checkLeaves = true;
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, levels);
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                QVERIFY2(r.fallbackLeafGemms == 0, (what + ": " + r.leafFallbackReason).c_str());
                QCOMPARE(r.cutlassLeafGemms, r.gemmCalls);
                QVERIFY2(r.leafWorstRatio > 0 && r.leafWorstRatio < 1, (what + ": " + std::to_string(r.leafWorstRatio)).c_str());
                QVERIFY2(r.cWorstCleanRatio >= 0 && r.cWorstCleanRatio < 1, (what + ": " + std::to_string(r.cWorstCleanRatio)).c_str());
                QCOMPARE(r.referenceMismatches, std::int64_t(0));
                qInfo("%s: %d leaf GEMMs on CUTLASS, leaf checks at most %.3g, C's at most %.3g of their thresholds",
                      what.c_str(), r.cutlassLeafGemms, r.leafWorstRatio, r.cWorstCleanRatio);
            }
    }

    // Leaves 101 x 99 x 103: widths not in whole 16 bytes, so cuBLAS TF32 runs them, counted and named.
    void oddLeavesFallBackToCublas()
    {
        auto backend = makeBackend(BackendKind::Cuda);
        StrassenConfig c = tf32Config({202, 198, 206}, 1, StrassenVariant::Accumulate, true);
        c.checkLeaves = true;
        const StrassenResult r = runStrassen(c, *backend);
        QVERIFY2(strassenOutcome(r) == "ok", (strassenOutcome(r) + " " + r.error).c_str());
        QCOMPARE(r.fallbackLeafGemms + r.cutlassLeafGemms, r.gemmCalls);
        QVERIFY(r.fallbackLeafGemms > 0);
        QVERIFY2(r.leafFallbackReason.find("16 bytes") != std::string::npos, r.leafFallbackReason.c_str());
        QVERIFY(formatStrassenReport(r).find("cuBLAS TF32: " + std::to_string(r.fallbackLeafGemms)) != std::string::npos);
    }

    // Small integers and their stage sums are TF32 numbers: rounding changes nothing, C is exact.
    void exactOnIntegerInputs()
    {
        auto backend = makeBackend(BackendKind::Cuda);
        for (StrassenVariant v : kVariants)
            for (int levels = 0; levels <= 3; ++levels) {
                StrassenConfig c = tf32Config({256, 192, 320}, levels, v, true);
                c.integerInputs = true;
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = nameOf(v, levels);
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                QVERIFY2(r.maxErrorC == 0, (what + ": " + std::to_string(r.maxErrorC)).c_str());
                QCOMPARE(r.recovery.changedA, std::int64_t(0));
                QCOMPARE(r.recovery.changedB, std::int64_t(0));
            }
    }

    // Same inputs (same seed), the two leaf kernels: each C within its TF32 tolerance of the FP64
    // reference, so within the sum of both of each other. Both kernels round the same stage sums to
    // nearest TF32 and multiply them exactly, so the operands' rounding -- nearly all of C's error,
    // at 2^-11 -- is the same in both; only the FP32 accumulation (2^-24, its order differs) sets
    // them apart, far inside a factor 1.5 either way. (Truncating operands would err about twice
    // as much, outside it.)
    void closeToCublasLeaves()
    {
        auto backend = makeBackend(BackendKind::Cuda);
        for (StrassenVariant v : kVariants) {
            const StrassenResult cutlass = runStrassen(tf32Config({1024, 1024, 1024}, 2, v, true), *backend);
            const StrassenResult cublas = runStrassen(tf32Config({1024, 1024, 1024}, 2, v, false), *backend);
            const std::string what = nameOf(v, 2);
            QVERIFY2(strassenOutcome(cutlass) == "ok" && strassenOutcome(cublas) == "ok", what.c_str());
            QCOMPARE(cutlass.referenceMismatches, std::int64_t(0));
            QCOMPARE(cublas.referenceMismatches, std::int64_t(0));
            QVERIFY2(cutlass.relErrorC < 1e-2, (what + ": " + std::to_string(cutlass.relErrorC)).c_str());
            const std::string errors = what + ": " + std::to_string(cutlass.relErrorC) + " against " + std::to_string(cublas.relErrorC);
            QVERIFY2(cutlass.relErrorC <= 1.5 * cublas.relErrorC, errors.c_str());
            QVERIFY2(cublas.relErrorC <= 1.5 * cutlass.relErrorC, errors.c_str());
            qInfo("%s: rel error of C, CUTLASS leaves %.3g, cuBLAS TF32 leaves %.3g", what.c_str(), cutlass.relErrorC,
                  cublas.relErrorC);
        }
    }

    // A product fault caught by its leaf's check, and a fault at every target (product, C, A, B)
    // caught by the checks that see it with cuBLAS leaves; C ends right.
    void faultsAreCaught()
    {
        auto backend = makeBackend(BackendKind::Cuda);
        for (StrassenVariant v : kVariants) {
            StrassenConfig c = tf32Config({512, 512, 512}, 2, v, true);
            c.checkLeaves = true;
            c.faults = {{StrassenFault::Where::Product, 9, 0}};
            const StrassenResult r = runStrassen(c, *backend);
            QCOMPARE(test::detectedChecks(r), std::vector<std::string>{"product 9"});
            QCOMPARE(strassenOutcome(r), std::string("ok"));
        }
        for (StrassenVariant v : kVariants)
            for (StrassenFault::Where where : {StrassenFault::Where::Product, StrassenFault::Where::C, StrassenFault::Where::A,
                                               StrassenFault::Where::B})
                for (int q = 0; q < 4; ++q) {
                    StrassenConfig c = tf32Config({256, 256, 256}, 2, v, true);
                    c.faults = {{where, where == StrassenFault::Where::Product ? 5 : q, 0}};
                    const StrassenResult r = runStrassen(c, *backend);
                    const std::string what = nameOf(v, 2) + " " + toString(c.faults.front());
                    const bool caught = std::any_of(r.checks.begin(), r.checks.end(),
                                                    [](const StrassenCheck& k) { return k.verdict != "clean"; });
                    QVERIFY2(caught, what.c_str());
                    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r)).c_str());
                    QCOMPARE(r.referenceMismatches, std::int64_t(0));
                }
    }
};

QTEST_APPLESS_MAIN(TestCudaStrassenCutlassLeaf)
#include "tst_cuda_strassen_cutlass_leaf.moc"
