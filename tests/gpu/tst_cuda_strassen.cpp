// The strassen family on a CUDA device: exact results on integer inputs for every variant, level
// and leaf precision (FP32, FP64, TF32: small integers are exact in TF32), agreement with the CPU
// backend on random inputs, recovery of A and B, no device memory beyond A, B, C for the in-place
// variants, and every fault position caught, each with its event.
#include "gigacheck/strassen.hpp"

#include "families/strassen/bench/shared_target_products.hpp"
#include "gpu_available.hpp"
#include "engine/strassen_run_helpers.hpp"

#include <QtTest>

using namespace gigacheck;

namespace {

constexpr StrassenVariant kVariants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                         StrassenVariant::Accumulate};

StrassenConfig config(Shape shape, int levels, StrassenVariant v, Precision p, bool tf32)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = levels;
    c.variant = v;
    c.precision = p;
    c.tf32 = tf32;
    c.backend = BackendKind::Cuda;
    return c;
}

// The leaf precisions: FP32, FP64, TF32 (FP32 storage).
struct Leg {
    Precision p;
    bool tf32;
};
constexpr Leg kLegs[] = {{Precision::F32, false}, {Precision::F64, false}, {Precision::F32, true}};

}  // namespace

class TestCudaStrassen : public QObject {
    Q_OBJECT
private slots:
    void exactOnIntegerInputs()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto backend = makeBackend(BackendKind::Cuda);
        for (const Leg& leg : kLegs)
            for (StrassenVariant v : kVariants)
                for (int levels = 0; levels <= 3; ++levels)
                    for (Shape s : {Shape{256, 192, 320}, Shape{101, 67, 93}}) {
                        StrassenConfig c = config(s, levels, v, leg.p, leg.tf32);
                        c.integerInputs = true;
                        const StrassenResult r = runStrassen(c, *backend);
                        const std::string what = std::string(toString(v)) + " L" + std::to_string(levels) +
                                                 (leg.tf32 ? " tf32" : std::string(" ") + std::string(toString(leg.p)));
                        QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                        QVERIFY2(r.maxErrorC == 0, (what + ": " + std::to_string(r.maxErrorC)).c_str());
                        QCOMPARE(r.recovery.changedA, std::int64_t(0));
                        QCOMPARE(r.recovery.changedB, std::int64_t(0));
                        if (v != StrassenVariant::Workspace)
                            QCOMPARE(r.extraBytes, std::size_t(0));
                    }
    }

    // The seed's way (every product of a stage at once, atomic adds) and the lab's ordered rounds
    // lose no update: on small integers both equal the serial stage bit for bit (bench strassen's
    // "atomics against ordering" table rests on this).
    void atomicAndOrderedStagesLoseNoUpdate()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        for (Precision p : {Precision::F32, Precision::F64})
            for (std::int64_t n : {std::int64_t(256), std::int64_t(1024)}) {
                const auto stages = strassen::measureSharedTargetProducts(0, n, p, 1);
                QCOMPARE(stages.size(), std::size_t(2));
                QCOMPARE(stages[0].stage, 2);
                QCOMPARE(stages[0].products, 4);
                QCOMPARE(stages[1].products, 3);
                for (const auto& t : stages) {
                    QCOMPARE(t.rounds, 2);  // stage 2: {M1, M4}, {M2, M3}; stage 5: {M0}, {M5, M6}
                    QVERIFY2(t.orderedExact, ("ordered, stage " + std::to_string(t.stage)).c_str());
                    QVERIFY2(t.atomicExact, ("atomic, stage " + std::to_string(t.stage)).c_str());
                    QVERIFY(t.serialSeconds > 0 && t.orderedSeconds > 0 && t.atomicSeconds > 0);
                }
            }
    }

    void multiTargetKernelIsExactOnIntegers()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto backend = makeBackend(BackendKind::Cuda);
        for (Precision p : {Precision::F32, Precision::F64})
            for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd})
                for (int levels = 0; levels <= 4; ++levels)
                    for (Shape s : {Shape{512, 384, 640}, Shape{203, 131, 187}}) {
                        StrassenConfig c = config(s, levels, v, p, false);
                        c.integerInputs = true;
                        c.multiTargetKernel = true;
                        const StrassenResult r = runStrassen(c, *backend);
                        const std::string what = std::string(toString(v)) + " kernel L" + std::to_string(levels);
                        QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r) + " " + r.error).c_str());
                        QVERIFY2(r.maxErrorC == 0, (what + ": " + std::to_string(r.maxErrorC)).c_str());
                        QCOMPARE(r.extraBytes, std::size_t(0));
                    }
    }

    void randomInputsMatchTheCpu()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto gpu = makeBackend(BackendKind::Cuda);
        auto cpu = makeCpuBackend();
        for (StrassenVariant v : kVariants)
            for (int levels = 1; levels <= 3; ++levels) {
                const StrassenConfig c = config({512, 512, 512}, levels, v, Precision::F64, false);
                const StrassenResult rg = runStrassen(c, *gpu), rc = runStrassen(c, *cpu);
                QCOMPARE(strassenOutcome(rg), std::string("ok"));
                QVERIFY2(rg.relErrorC < 1e-12, std::to_string(rg.relErrorC).c_str());
                QVERIFY(rc.relErrorC < 1e-12);
                qInfo("%s L%d: rel error of C (FP64) GPU %.3g, CPU %.3g; A changed by recovery %lld (max %.0f ulps)",
                      std::string(toString(v)).c_str(), levels, rg.relErrorC, rc.relErrorC,
                      (long long)rg.recovery.changedA, rg.recovery.maxUlpsA);
            }
    }

    // Sums on side streams beside the products (the default) against every op on one stream:
    // the same bits in C and in the recovered A and B (every element sees the same operations in
    // the same order; only independent ops overlap).
    void sumsBesideGiveTheBitsOfSumsInline()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto backend = makeBackend(BackendKind::Cuda);
        for (Precision p : {Precision::F32, Precision::F64})
            for (StrassenVariant v : kVariants)
                for (int levels = 1; levels <= 3; ++levels) {
                    StrassenConfig c = config({512, 512, 512}, levels, v, p, false);
                    c.distribution = Distribution::Wide;
                    const StrassenResult beside = runStrassen(c, *backend);
                    c.sumsBeside = false;
                    const StrassenResult inlined = runStrassen(c, *backend);
                    const std::string what = std::string(toString(v)) + " L" + std::to_string(levels);
                    QVERIFY2(strassenOutcome(beside) == "ok", (what + ": " + beside.error).c_str());
                    QVERIFY(beside.additionsBeside > 0);
                    QCOMPARE(inlined.additionsBeside, 0);
                    QCOMPARE(beside.maxErrorC, inlined.maxErrorC);
                    QCOMPARE(beside.recovery.changedA, inlined.recovery.changedA);
                    QCOMPARE(beside.recovery.changedB, inlined.recovery.changedB);
                    QCOMPARE(beside.recovery.maxUlpsA, inlined.recovery.maxUlpsA);
                }
    }

    // Leaf checks on the device: clean runs never trip one (FP32, FP64, TF32 leaves; every variant,
    // L1-3), and a fault placed into a product is caught at that leaf only.
    void leafChecksOnTheDevice()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto backend = makeBackend(BackendKind::Cuda);
        for (const Leg& leg : kLegs)
            for (StrassenVariant v : kVariants)
                for (int levels = 1; levels <= 3; ++levels) {
                    StrassenConfig c = config({512, 448, 576}, levels, v, leg.p, leg.tf32);
                    c.checkLeaves = true;
                    const StrassenResult r = runStrassen(c, *backend);
                    const std::string what = std::string(toString(v)) + " L" + std::to_string(levels) +
                                             (leg.tf32 ? " tf32" : std::string(" ") + std::string(toString(leg.p)));
                    QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + r.error).c_str());
                    QVERIFY(r.leavesChecked > 0);
                    QVERIFY2(r.leafWorstRatio < 1 && r.leafWorstRatio > 0, (what + ": " + std::to_string(r.leafWorstRatio)).c_str());
                    qInfo("%s: %d leaves, largest residual %.3g of its threshold", what.c_str(), r.leavesChecked, r.leafWorstRatio);
                }
        for (StrassenVariant v : kVariants) {
            StrassenConfig c = config({512, 512, 512}, 2, v, Precision::F32, false);
            c.checkLeaves = true;
            c.faults = {{StrassenFault::Where::Product, 9, 0}};
            const StrassenResult r = runStrassen(c, *backend);
            QCOMPARE(test::detectedChecks(r), std::vector<std::string>{"product 9"});
            QCOMPARE(strassenOutcome(r), std::string("ok"));
        }
        // A fault under C's threshold but over the leaf's: the device's column code leads the
        // repair to the right columns (FP32 and FP64), C ends right.
        for (Precision p : {Precision::F32, Precision::F64})
            for (StrassenVariant v : kVariants) {
                StrassenConfig c = config({256, 256, 256}, 2, v, p, false);
                c.checkLeaves = true;
                c.reference = true;
                c.faults = {{StrassenFault::Where::Product, 5, p == Precision::F64 ? 1e-9 : 0.1}};
                const StrassenResult r = runStrassen(c, *backend);
                const std::string what = std::string(toString(v)) + " " + std::string(toString(p));
                bool repaired = false;
                for (const StrassenCheck& k : r.checks)
                    repaired |= k.verdict == "recomputed" && k.detail.find("leaf product 5") != std::string::npos;
                QVERIFY2(r.leafWorstRatio > 1, what.c_str());
                QVERIFY2(repaired, what.c_str());
                QVERIFY2(strassenOutcome(r) == "ok", (what + ": " + strassenOutcome(r)).c_str());
                QVERIFY2(r.relErrorC < 1e-5, (what + ": " + std::to_string(r.relErrorC)).c_str());
            }
    }

    void everyFaultPositionIsCaught()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        auto backend = makeBackend(BackendKind::Cuda);
        std::vector<StrassenFault> faults{{StrassenFault::Where::Product, 5, 0}};
        for (int q = 0; q < 4; ++q) {
            faults.push_back({StrassenFault::Where::C, q, 0});
            faults.push_back({StrassenFault::Where::A, q, 0});
            faults.push_back({StrassenFault::Where::B, q, 0});
        }
        for (StrassenVariant v : kVariants)
            for (const StrassenFault& f : faults) {
                StrassenConfig c = config({256, 256, 256}, 2, v, Precision::F32, false);
                c.faults = {f};
                const StrassenResult r = runStrassen(c, *backend);
                bool caught = false;
                for (const StrassenCheck& k : r.checks)
                    caught |= k.verdict != "clean";
                QVERIFY2(caught, (std::string(toString(v)) + " " + toString(f)).c_str());
                QCOMPARE(strassenOutcome(r), std::string("ok"));
                QVERIFY(r.relErrorC < 1e-4);
                // The cell's values as the device held them, copied around the fault in its stream.
                QVERIFY2(test::faultEventsMismatch(r).empty(),
                         (std::string(toString(v)) + " " + test::faultEventsMismatch(r)).c_str());
            }
        // Bit flips (the device's own flip kernel) on two devices of a decomposition, FP64: task 1's
        // product runs on device 1 (task t on device t mod 2), its fault's cell copied there.
        StrassenConfig c = config({256, 256, 256}, 1, StrassenVariant::Msmes, Precision::F64, false);
        c.devices = 2;
        c.distribute = true;
        c.faultModel = parseFaultModelSpec("bitflip:55");
        c.faults = {parseStrassenFault("c:3,5"), parseStrassenFault("product:1"), parseStrassenFault("a:1")};
        auto two = makeStrassenBackend(c);
        const StrassenResult r = runStrassen(c, *two);
        QCOMPARE(strassenOutcome(r), std::string("ok"));
        QCOMPARE(r.injections.size(), std::size_t(2));
        QVERIFY2(test::faultEventsMismatch(r).empty(), test::faultEventsMismatch(r).c_str());
    }
};

QTEST_APPLESS_MAIN(TestCudaStrassen)
#include "tst_cuda_strassen.moc"
