// The reduced matmul family on the CPU: kernels against an FP64 reference, the counts against
// the seed's formulas (4p / p multiplications, 4N / 4N/TILE loads per thread), the refusals.
#include "gigacheck/reduced_matmul.hpp"

#include "../../engine/src/families/reduced_matmul/cpu/kernels.hpp"
#include "../../engine/src/families/reduced_matmul/ops.hpp"
#include "../../engine/src/families/reduced_matmul/plan/schedule_builder.hpp"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <set>
#include <random>
#include <vector>

using namespace gigacheck;
using namespace gigacheck::reduced_matmul;

namespace {

template <class T> std::vector<T> random(std::int64_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> x(std::size_t(n * n));
    for (T& v : x)
        v = T(u(rng));
    return x;
}

// max |C - C_ref| / scale over all elements, C_ref from the definition in FP64.
template <class T> double maxError(const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c, std::int64_t n)
{
    const std::int64_t h = n / 2;
    double worst = 0;
    for (std::int64_t i = 0; i < h; ++i)
        for (std::int64_t j = 0; j < h; ++j) {
            double exact = 0, scale = 0;
            for (std::int64_t k = 0; k < n; ++k)
                for (int di = 0; di < 2; ++di)
                    for (int dj = 0; dj < 2; ++dj) {
                        const double p = double(a[std::size_t((2 * i + di) * n + k)]) * double(b[std::size_t(k * n + 2 * j + dj)]);
                        exact += p;
                        scale += std::abs(p);
                    }
            worst = std::max(worst, std::abs(double(c[std::size_t(i * h + j)]) - exact) / std::max(scale, 1e-300));
        }
    return worst;
}

}  // namespace

class TestReducedMatmul : public QObject {
    Q_OBJECT

private:
    template <class T> void kernelsMatchTheDefinition()
    {
        for (std::int64_t n : {2, 4, 6, 34, 64, 130}) {
            const std::vector<T> a = random<T>(n, 1), b = random<T>(n, 2);
            std::vector<T> c4(std::size_t(n * n / 4)), cp(c4.size()), cb(c4.size()), ar(std::size_t(n * n / 2)), br(ar.size());
            reduced_matmul::cpu::naive4p(a.data(), b.data(), c4.data(), n);
            reduced_matmul::cpu::naiveP(a.data(), b.data(), cp.data(), n);
            reduced_matmul::cpu::reduceBlas(a.data(), b.data(), cb.data(), ar.data(), br.data(), n);
            const double tol = 8 * double(n) * std::numeric_limits<T>::epsilon();
            QVERIFY2(maxError(a, b, c4, n) <= tol, qPrintable(QStringLiteral("naive4p n=%1").arg(n)));
            QVERIFY2(maxError(a, b, cp, n) <= tol, qPrintable(QStringLiteral("naivep n=%1").arg(n)));
            QVERIFY2(maxError(a, b, cb, n) <= tol, qPrintable(QStringLiteral("reduce-blas n=%1").arg(n)));
        }
    }

private slots:
    void kernelsFloat() { kernelsMatchTheDefinition<float>(); }
    void kernelsDouble() { kernelsMatchTheDefinition<double>(); }

    // Seed 4.3.1-4.3.3: 4p against p multiplications; "Total loads by T0 = 4*N" naive and
    // "(N/TILE) * 4" tiled, counted by replaying each kernel's loop for one thread.
    void countsMatchTheSeed()
    {
        for (std::int64_t n : {128, 512, 2048, 8192}) {
            const double N = double(n);
            QCOMPARE(countsOf(Variant::Naive4p, n, Precision::F32).multiplications, N * N * N);
            QCOMPARE(countsOf(Variant::NaiveP, n, Precision::F32).multiplications, N * N * N / 4);
            QCOMPARE(replayLoadsOfOneThread(Variant::Naive4p, n), 4 * n);
            QCOMPARE(replayLoadsOfOneThread(Variant::NaiveP, n), 4 * n);
            QCOMPARE(replayLoadsOfOneThread(Variant::Tiled8, n), 4 * n / 8);
            QCOMPARE(replayLoadsOfOneThread(Variant::Tiled16, n), 4 * n / 16);
            QCOMPARE(replayLoadsOfOneThread(Variant::Tiled32, n), 4 * n / 32);
            // The seed's figure 4.4: ~30x fewer loads tiled 32 than naive (32 in theory).
            QCOMPARE(countsOf(Variant::Naive4p, n, Precision::F32).loadBytesRequested /
                         countsOf(Variant::Tiled32, n, Precision::F32).loadBytesRequested,
                     32.0);
            QCOMPARE(countsOf(Variant::Tiled16, n, Precision::F64).threads, (n / 2) * (n / 2));
        }
        // A size TILE does not divide: the last partial tile still costs its 4 loads.
        QCOMPARE(replayLoadsOfOneThread(Variant::Tiled32, 34), std::int64_t(8));
    }

    void cpuRunsVerify()
    {
        for (Variant v : {Variant::Naive4p, Variant::NaiveP, Variant::ReduceBlas})
            for (Precision p : {Precision::F32, Precision::F64}) {
                Config c;
                c.n = 66;
                c.variant = v;
                c.precision = p;
                c.backend = BackendKind::Cpu;
                c.reps = 1;
                const Record r = runReduced(c);
                QVERIFY(r.verified);
                QCOMPARE(r.checked, std::int64_t(33 * 33));
                QVERIFY(r.gflops > 0);
                QVERIFY(r.libraryMs > 0);
                QVERIFY(toJson(r).find("\"family\": \"reduced_matmul\"") != std::string::npos);
            }
    }

    // Plain data every executor accepts: copy in, reduce, the library GEMMs, the variant's
    // calls (reduce-blas: reduce + GEMM each), copy out.
    void schedules()
    {
        for (Variant v : {Variant::Naive4p, Variant::NaiveP, Variant::Tiled8, Variant::Tiled32, Variant::ReduceBlas}) {
            const Schedule s = buildSchedule(v, Precision::F32, 64, 3);
            QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
            QCOMPARE(s.family, std::string("reduced_matmul"));
            QCOMPARE(s.buffers.size(), std::size_t(5));
            int variantOps = 0, referenceGemms = 0;
            for (const Operation& op : s.ops) {
                variantOps += op.block.i == kVariantCall && op.kind != kCopyIn && op.kind != kCopyOut;
                referenceGemms += op.block.i == kReferenceCall && op.kind == kGemm;
            }
            QCOMPARE(referenceGemms, 3);
            QCOMPARE(variantOps, v == Variant::ReduceBlas ? 6 : 3);
            // Between the reference's last op and the variant's first, one clear op writes every
            // slot the variant writes (C; Ar and Br for reduce-blas): the reference's correct
            // values must not be there when the variant starts.
            int lastReference = -1, firstVariant = -1, clear = -1;
            for (const Operation& op : s.ops) {
                if (op.block.i == kReferenceCall && op.kind != kCopyIn && op.kind != kCopyOut)
                    lastReference = op.id;
                if (op.block.i == kVariantCall && firstVariant < 0)
                    firstVariant = op.id;
                if (op.kind == kClear) {
                    QCOMPARE(clear, -1);
                    clear = op.id;
                }
            }
            QVERIFY(lastReference < clear && clear < firstVariant);
            std::set<int> cleared, written;
            for (const OperandRegion& r : s.ops[std::size_t(clear)].operands)
                cleared.insert(r.slot);
            for (const Operation& op : s.ops)
                if (op.block.i == kVariantCall)
                    for (const OperandRegion& r : op.operands)
                        if (r.access != Access::Read)
                            written.insert(r.slot);
            QCOMPARE(cleared, written);
        }
    }

    // A variant that leaves C unwritten must fail the check: before the clear op the reference
    // GEMM's correct C was still in the slot and such a variant verified. The test hook makes the
    // variant's ops do nothing (reduce-blas: its reduction alone, so that its GEMM reads stale or
    // cleared Ar and Br).
    void unwrittenOutputFails()
    {
        const std::vector<std::pair<Variant, const char*>> cases{{Variant::Naive4p, "reduced-kernel"},
                                                                 {Variant::NaiveP, "reduced-kernel"},
                                                                 {Variant::ReduceBlas, "reduced-gemm"},
                                                                 {Variant::ReduceBlas, "reduced-reduce"}};
        for (const auto& [v, skipped] : cases) {
            Config c;
            c.n = 34;
            c.variant = v;
            c.backend = BackendKind::Cpu;
            c.reps = 1;
            qputenv("GIGACHECK_REDUCED_TEST_SKIP", skipped);
            const Record r = runReduced(c);
            qunsetenv("GIGACHECK_REDUCED_TEST_SKIP");
            QVERIFY2(!r.verified, skipped);
            QCOMPARE(r.status, std::string("failed"));
            QCOMPARE(r.wrong, r.checked);  // every element still holds the clear's NaN
            QVERIFY(runReduced(c).verified);
        }
    }

    // The naive loops stop between rows of C when the cancel flag is set; a run cancelled before it
    // starts comes back "cancelled", unverified.
    void cancellation()
    {
        const std::int64_t n = 8;
        std::vector<float> a(std::size_t(n * n), 1.0f), b(a), c(std::size_t(n * n / 4), -7.0f);
        std::atomic<bool> stop{true};
        reduced_matmul::cpu::naive4p(a.data(), b.data(), c.data(), n, &stop);
        reduced_matmul::cpu::naiveP(a.data(), b.data(), c.data(), n, &stop);
        for (float x : c)
            QCOMPARE(x, -7.0f);
        stop = false;
        reduced_matmul::cpu::naiveP(a.data(), b.data(), c.data(), n, &stop);
        QCOMPARE(c[0], float(4 * n));

        Config cfg;
        cfg.n = 64;
        cfg.variant = Variant::Naive4p;
        cfg.backend = BackendKind::Cpu;
        std::atomic<bool> cancelled{true};
        cfg.cancel = &cancelled;
        const Record r = runReduced(cfg);
        QCOMPARE(r.status, std::string("cancelled"));
        QVERIFY(!r.verified);
    }

    // A size whose matrices cannot fit is refused with the bytes it needs, before any allocation.
    void oversizedRefused()
    {
        Config c;
        c.n = std::int64_t(1) << 32;
        c.variant = Variant::NaiveP;
        try {
            checkConfig(c, BackendKind::Cpu);
            QFAIL("2^32 accepted");
        } catch (const InputError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(QStringLiteral("needs")) && what.contains(QStringLiteral("host memory")), e.what());
        }
    }

    void recordCarriesSpans()
    {
        Config c;
        c.n = 64;
        c.variant = Variant::ReduceBlas;
        c.backend = BackendKind::Cpu;
        c.reps = 2;
        const Record r = runReduced(c);
        QVERIFY(r.verified);
        QCOMPARE(r.family, std::string("reduced_matmul"));
        // copy in, reduce, 3 reference GEMMs, the clear, 3 x (reduce + GEMM), copy out
        QCOMPARE(r.spans.size(), std::size_t(1 + 1 + 3 + 1 + 6 + 1));
        QVERIFY(r.kernelMs > 0 && r.libraryMs > 0);
        QVERIFY(toJson(r).find("\"spans\"") != std::string::npos);
    }

    void refusals()
    {
        Config c;
        c.n = 63;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));
        c.n = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));
        c.n = 64;
        c.variant = Variant::Tiled16;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));
        checkConfig(c, BackendKind::Cuda);
        QVERIFY(variantFromString("reduce-blas") == Variant::ReduceBlas);
        QCOMPARE(tileOf(Variant::Tiled8), 8);
    }
};

QTEST_APPLESS_MAIN(TestReducedMatmul)
#include "tst_reduced_matmul.moc"
