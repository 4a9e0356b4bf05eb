// The step-sums kernel (gemm/cutlass/cutlass_step_sums.hpp), which keeps C in registers across the
// online family's steps:
// * its C is the product of the operands rounded to nearest TF32, up to FP32 accumulation (as the
//   fused TF32 kernel's), at shapes that end mid-tile and mid-panel;
// * the sums of every step are C's row and column sums over the depth done so far, against an FP64
//   host model of the rounded operands, within FP32 accumulation and summation round-off;
// * a fault planned after a step strikes that step's value of its cell (its before / after come
//   back), stays in C to the end, and shows in the sums of that step and every later one only;
// * against cuBLAS TF32 on the same operands: the same product up to TF32 rounding (largest difference printed
//   with the time ratio; the speed targets are `gigacheck bench online`'s).
// Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"
#include "tf32_models.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/tf32.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/step_sums_test_support.hpp"
#endif

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace gigacheck;

namespace {

using test::Data;
using test::nameOf;
using test::unrounded;

// The host model of step s's sums: C's row sums, then its column sums, over the depth [0, depth) of
// the rounded operands, in double; with the sums of |terms| for the bound.
struct ModelSums {
    std::vector<double> sums, magnitudes;
};

ModelSums modelSums(const HostMatrix& a, const HostMatrix& b, std::int64_t depth)
{
    const std::int64_t m = a.rows(), q = b.cols();
    ModelSums out;
    out.sums.assign(std::size_t(m + q), 0.0);
    out.magnitudes.assign(std::size_t(m + q), 0.0);
    for (std::int64_t k = 0; k < depth; ++k) {
        double rowOfB = 0, absRowOfB = 0, colOfA = 0, absColOfA = 0;
        for (std::int64_t j = 0; j < q; ++j) {
            const double x = roundToTf32(b.as<float>()[k * q + j]);
            rowOfB += x;
            absRowOfB += std::fabs(x);
        }
        for (std::int64_t i = 0; i < m; ++i) {
            const double x = roundToTf32(a.as<float>()[i * a.cols() + k]);
            colOfA += x;
            absColOfA += std::fabs(x);
            out.sums[std::size_t(i)] += x * rowOfB;
            out.magnitudes[std::size_t(i)] += std::fabs(x) * absRowOfB;
        }
        for (std::int64_t j = 0; j < q; ++j) {
            const double x = roundToTf32(b.as<float>()[k * q + j]);
            out.sums[std::size_t(m + j)] += colOfA * x;
            out.magnitudes[std::size_t(m + j)] += absColOfA * std::fabs(x);
        }
    }
    return out;
}

// FP32 accumulation over the depth, then FP32 sums of up to 256 values per tile, then doubles.
double sumBound(std::int64_t depth, double magnitude) { return 2.0 * double(depth + 512 + 2) * std::ldexp(1.0, -24) * magnitude; }

// The largest |device - model| / bound over the lines of every step; `shift` is added to the model of
// row `row` and column `col` from step `from` on.
double worstStepSums(const HostMatrix& a, const HostMatrix& b, std::int64_t panel, const std::vector<double>& sums,
                     std::int64_t row = -1, std::int64_t col = -1, std::int64_t from = 0, double shift = 0)
{
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    const std::int64_t steps = (n + panel - 1) / panel;
    double worst = 0;
    for (std::int64_t s = 0; s < steps; ++s) {
        const std::int64_t depth = std::min(n, (s + 1) * panel);
        ModelSums model = modelSums(a, b, depth);
        if (row >= 0 && s >= from) {
            model.sums[std::size_t(row)] += shift;
            model.sums[std::size_t(m + col)] += shift;
            model.magnitudes[std::size_t(row)] += std::fabs(shift);
            model.magnitudes[std::size_t(m + col)] += std::fabs(shift);
        }
        for (std::int64_t e = 0; e < m + q; ++e) {
            const double got = sums[std::size_t(s * (m + q) + e)];
            const double bound = sumBound(depth, model.magnitudes[std::size_t(e)]) + 1e-300;
            worst = std::max(worst, std::fabs(got - model.sums[std::size_t(e)]) / bound);
        }
    }
    return worst;
}

struct Case {
    int m, n, q, panel;
};
// n a multiple of 4 (TMA); m and q anything; depths that end mid-panel and mid-tile.
const Case kCases[] = {{256, 1024, 256, 256}, {300, 516, 260, 128}, {130, 1000, 36, 96}, {33, 64, 12, 32}};

}  // namespace

Q_DECLARE_METATYPE(Data)

class TestCudaStepSums : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    }

    void productAndStepSums_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("q");
        QTest::addColumn<int>("panel");
        QTest::addColumn<Data>("data");
        for (const Case& c : kCases)
            for (const Data d : {Data::Uniform, Data::Positive})
                QTest::addRow("%dx%dx%d-b%d-%s", c.m, c.n, c.q, c.panel, nameOf(d)) << c.m << c.n << c.q << c.panel << d;
    }

    void productAndStepSums()
    {
#ifdef GIGACHECK_HAVE_CUDA
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, q);
        QFETCH(int, panel);
        QFETCH(Data, data);
        const HostMatrix a = unrounded(m, n, data, 81), b = unrounded(n, q, data, 82);
        const cuda::StepSumsRun run = cuda::stepSumsOnDevice(a, b, panel);
        QVERIFY2(run.error.empty(), run.error.c_str());
        const double product = test::worstOverBound(a, b, run.c, [](float x) { return roundToTf32(x); });
        QVERIFY2(product <= 1.0, qPrintable(QStringLiteral("C is %1 of the FP32 accumulation bound away from the "
                                                           "product of the rounded operands")
                                                .arg(product)));
        const double sums = worstStepSums(a, b, panel, run.sums);
        qInfo("C: %.3g of its bound; step sums: %.3g of theirs", product, sums);
        QVERIFY2(sums <= 1.0, qPrintable(QStringLiteral("a step's sums are %1 of their bound away from the model")
                                             .arg(sums)));
#endif
    }

    void faultStrikesTheStepItFollows_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("bit");
        QTest::addColumn<double>("delta");
        QTest::newRow("bit 30 after step 1") << 1 << 30 << 0.0;
        QTest::newRow("+100 after step 5") << 5 << -1 << 100.0;
        QTest::newRow("bit 22 after the last step") << 7 << 22 << 0.0;
    }

    void faultStrikesTheStepItFollows()
    {
#ifdef GIGACHECK_HAVE_CUDA
        QFETCH(int, step);
        QFETCH(int, bit);
        QFETCH(double, delta);
        const int m = 260, n = 1024, q = 520, panel = 128;  // 8 steps; the cell in the second tile each way
        const std::int64_t row = 201, col = 300;
        const HostMatrix a = unrounded(m, n, Data::Uniform, 91), b = unrounded(n, q, Data::Uniform, 92);
        const cuda::StepSumsRun clean = cuda::stepSumsOnDevice(a, b, panel);
        QVERIFY2(clean.error.empty(), clean.error.c_str());
        cuda::StepSumsFault f;
        f.step = step;
        f.row = row;
        f.col = col;
        f.bit = bit;
        f.delta = delta;
        const cuda::StepSumsRun hit = cuda::stepSumsOnDevice(a, b, panel, {f});
        QVERIFY2(hit.error.empty(), hit.error.c_str());
        QCOMPARE(int(hit.values.size()), 2);
        const double before = hit.values[0], after = hit.values[1];
        // Before: the cell's value after its step, i.e. step `step`'s partial product.
        double partial = 0, magnitude = 0;
        for (std::int64_t k = 0; k < std::min<std::int64_t>(n, (step + 1) * panel); ++k) {
            const double x = double(roundToTf32(a.as<float>()[row * n + k])) * roundToTf32(b.as<float>()[k * q + col]);
            partial += x;
            magnitude += std::fabs(x);
        }
        QVERIFY2(std::fabs(before - partial) <= sumBound(n, magnitude),
                 qPrintable(QStringLiteral("before %1, the step's partial product %2").arg(before).arg(partial)));
        float expected = float(before);
        if (bit >= 0) {
            std::uint32_t u;
            std::memcpy(&u, &expected, 4);
            u ^= 1u << bit;
            std::memcpy(&expected, &u, 4);
        } else {
            expected = float(expected + float(delta));
        }
        QCOMPARE(after, double(expected));
        // The change stays to the end: C's cell is the clean one plus it (FP32 accumulation of the
        // steps after on top of a changed value: within their round-off).
        const double change = after - before;
        const double finalCell = hit.c.at(row, col), cleanCell = clean.c.at(row, col);
        QVERIFY2(std::fabs(finalCell - (cleanCell + change)) <= 1e-5 * (std::fabs(cleanCell) + std::fabs(change)) + 1e-6,
                 qPrintable(QStringLiteral("C(%1, %2) = %3, clean %4, change %5").arg(row).arg(col).arg(finalCell)
                                .arg(cleanCell).arg(change)));
        // Every other cell as in the clean run, bit for bit (the same kernel, the same order).
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j)
                if (i != row || j != col)
                    QVERIFY2(hit.c.at(i, j) == clean.c.at(i, j), qPrintable(QStringLiteral("C(%1, %2) changed").arg(i).arg(j)));
        const double sums = worstStepSums(a, b, panel, hit.sums, row, col, step, change);
        QVERIFY2(sums <= 1.0, qPrintable(QStringLiteral("the step sums with the fault are %1 of their bound away "
                                                        "from the model with the change from step %2 on")
                                             .arg(sums)
                                             .arg(step)));
#endif
    }

    // The time ratio is printed for the record; the targets are the bench's.
    void sameProductAsCublas()
    {
#ifdef GIGACHECK_HAVE_CUDA
        const char* sizes = std::getenv("GIGACHECK_STEP_SUMS_SIZES");
        std::vector<std::int64_t> ns;
        for (const QString& s : QString(sizes ? sizes : "2048").split(',', Qt::SkipEmptyParts))
            ns.push_back(s.toLongLong());
        // GIGACHECK_STEP_SUMS_SWEEP=1: every swizzle and raster order, steps of 1024 and one step.
        const bool sweep = std::getenv("GIGACHECK_STEP_SUMS_SWEEP") != nullptr;
        for (const std::int64_t n : ns)
            for (const int swizzle : sweep ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1})
                for (const int raster : sweep ? std::vector<int>{0, 1, 2} : std::vector<int>{0})
                    for (const std::int64_t panel : sweep ? std::vector<std::int64_t>{1024, n} : std::vector<std::int64_t>{1024}) {
            const cuda::StepSumsTiming t = cuda::timeStepSums(n, panel, 5, swizzle, raster);
            QVERIFY2(t.error.empty(), t.error.c_str());
            qInfo("n %lld, steps of %lld, swizzle %d, raster %d: step-sums kernel %.3f ms, cuBLAS TF32 %.3f ms "
                  "(%.1f %% of its time), largest difference %.2g of the largest |C|",
                  static_cast<long long>(n), static_cast<long long>(panel), swizzle, raster, t.kernelMs, t.cublasMs,
                  100.0 * t.kernelMs / t.cublasMs, t.relDifference);
            QVERIFY2(t.relDifference < 1e-3, qPrintable(QStringLiteral("C differs from cuBLAS TF32's by %1 of its "
                                                                       "largest value")
                                                            .arg(t.relDifference)));
        }
#endif
    }
};

QTEST_GUILESS_MAIN(TestCudaStepSums)
#include "tst_cuda_step_sums.moc"
