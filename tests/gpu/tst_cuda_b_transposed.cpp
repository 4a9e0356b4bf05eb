// B's checksum column, row norms and B^T from one read of B (checksumBTransposed): what the fused
// TF32 products read. Both of its kernels (float4 bands of 64 or 32 rows on large aligned operands,
// scalar 32-row bands otherwise) must give B^T as B rounded to TF32, bit for bit, r_B as the sum of
// each rounded row and the row norms sqrt(sum b^2 + r_B^2), B itself untouched. The shapes leave a
// partial band and a partial chunk of columns, where a wrong guard writes outside or skips a cell.
#include "gpu_available.hpp"

#include "abft/cuda/b_transposed_test_support.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/tf32.hpp"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

using namespace gigacheck;

namespace {

bool sameFloat(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

// Within two units in the last place of FP32 (the device sums in double in another order).
bool closeFloat(float got, double want)
{
    return std::fabs(double(got) - want) <= 2.0 * std::ldexp(1.0, std::ilogb(std::fabs(want) + 1e-30) - 23) + 1e-30;
}

}  // namespace

class TestCudaBTransposed : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void bTransposedIsRoundedBWithItsRowSums_data()
    {
        QTest::addColumn<int>("depthPerSm");  // depth = depthPerSm * SMs + extra
        QTest::addColumn<int>("extra");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("ldbExtra");  // ldb = cols + ldbExtra
        QTest::addColumn<int>("band");      // the kernel expected
        QTest::newRow("float4, bands of 64, partial band and chunk") << 64 << 36 << 1000 << 4 << 64;
        QTest::newRow("float4, bands of 32, partial band and chunk") << 32 << 4 << 1000 << 4 << 32;
        QTest::newRow("float4, one chunk narrower than 128") << 64 << 0 << 60 << 4 << 64;
        QTest::newRow("scalar, columns not a multiple of 4") << 64 << 36 << 998 << 2 << 0;
        QTest::newRow("scalar, unaligned rows of B") << 64 << 36 << 1000 << 3 << 0;
        QTest::newRow("scalar, too few rows for a block per SM") << 16 << 8 << 1000 << 4 << 0;
    }

    void bTransposedIsRoundedBWithItsRowSums()
    {
        QFETCH(int, depthPerSm);
        QFETCH(int, extra);
        QFETCH(int, cols);
        QFETCH(int, ldbExtra);
        QFETCH(int, band);
        const std::int64_t depth = std::int64_t(depthPerSm) * cuda::multiprocessorsOfDevice() + extra;
        HostMatrix b(Precision::F32, depth, cols);
        fillRandom(b, Distribution::Uniform, 33, 7);
        const cuda::BTransposedRun run = cuda::checksumBTransposedOnDevice(b, cols + ldbExtra, depth);
        QCOMPARE(run.band, band);
        QVERIFY(run.bUnchanged);
        const float* x = b.as<float>();
        for (std::int64_t k = 0; k < depth; ++k) {
            double sum = 0, squares = 0;
            for (std::int64_t j = 0; j < cols; ++j) {
                const float r = roundToTf32(x[k * cols + j]);
                sum += r;
                squares += double(r) * double(r);
                if (!sameFloat(run.bt[std::size_t(j * depth + k)], r))
                    QFAIL(("B^T(" + std::to_string(j) + ", " + std::to_string(k) + ") = " +
                           std::to_string(run.bt[std::size_t(j * depth + k)]) + ", B rounded to TF32 there " +
                           std::to_string(r)).c_str());
            }
            const float rB = float(sum);
            if (!closeFloat(run.checksum[std::size_t(k)], sum))
                QFAIL(("r_B of row " + std::to_string(k) + " = " + std::to_string(run.checksum[std::size_t(k)]) +
                       ", expected " + std::to_string(sum)).c_str());
            const double norm = std::sqrt(squares + double(rB) * double(rB));
            if (!closeFloat(run.norm[std::size_t(k)], norm))
                QFAIL(("norm of row " + std::to_string(k) + " = " + std::to_string(run.norm[std::size_t(k)]) +
                       ", expected " + std::to_string(norm)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaBTransposed)
#include "tst_cuda_b_transposed.moc"
