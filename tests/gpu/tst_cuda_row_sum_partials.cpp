// C's row sums from the fused kernels' per-tile partials (addRowSumPartials): every row's partials added
// into its double, the split form keeping the tiles from the split on apart (C's checksum column), and a
// fault of the product's arithmetic applied there (FaultAsComputed) -- the one-fault rows of the prepared
// products rely on it: the cell takes the fault, its row sum and its column sum the same change, the
// pinned pair the cell's values, and nothing else moves. The values are exact in FP32 and their sums in
// FP64, so every comparison is exact.
#include "gpu_available.hpp"

#include "gemm/cuda/row_sum_partials_test_support.hpp"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <string>

using namespace gigacheck;

namespace {

// rows x cols with tiles of partials: small multiples of 1/4, whose sums are exact in double.
cuda::RowSumPartialsCase caseOf(std::int64_t rows, std::int64_t cols, std::int64_t tiles, std::int64_t splitTile)
{
    cuda::RowSumPartialsCase x;
    x.rows = rows;
    x.cols = cols;
    x.tiles = tiles;
    x.width = (rows + 127) / 128 * 128;
    x.splitTile = splitTile;
    x.partials.resize(std::size_t(tiles * x.width));
    for (std::int64_t t = 0; t < tiles; ++t)
        for (std::int64_t i = 0; i < x.width; ++i)
            x.partials[std::size_t(t * x.width + i)] = float((i * 7 + t * 13) % 101 - 50) / 4.0f;
    for (std::int64_t i = 0; i < rows; ++i)
        x.rowSums.push_back(double(i) / 2.0);
    for (std::int64_t j = 0; j < cols; ++j)
        x.colSums.push_back(double(j) / 4.0);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            x.c.push_back(float((i * 3 + j) % 17) - 8.0f + 0.75f);
    return x;
}

float flipped(float v, int bit)
{
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    u ^= 1u << bit;
    std::memcpy(&v, &u, 4);
    return v;
}

bool sameFloat(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

}  // namespace

class TestCudaRowSumPartials : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void rowSumsAndTheFaultAsComputed_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("tiles");
        QTest::addColumn<int>("splitTile");  // -1: the plain form
        QTest::addColumn<int>("faultRow");   // -1: no fault
        QTest::addColumn<int>("faultCol");
        QTest::addColumn<int>("bit");        // -1: a delta of 2.5
        QTest::addColumn<int>("bit2");
        QTest::newRow("no fault, plain") << 100 << 40 << 11 << -1 << -1 << 0 << -1 << -1;
        QTest::newRow("no fault, split") << 100 << 40 << 11 << 9 << -1 << 0 << -1 << -1;
        QTest::newRow("delta in a middle row") << 100 << 40 << 11 << -1 << 37 << 5 << -1 << -1;
        QTest::newRow("bit 30, last row and column, split") << 100 << 40 << 11 << 9 << 99 << 39 << 30 << -1;
        QTest::newRow("two bits, first cell, one tile") << 33 << 8 << 1 << -1 << 0 << 0 << 20 << 29;
    }

    void rowSumsAndTheFaultAsComputed()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, tiles);
        QFETCH(int, splitTile);
        QFETCH(int, faultRow);
        QFETCH(int, faultCol);
        QFETCH(int, bit);
        QFETCH(int, bit2);
        cuda::RowSumPartialsCase x = caseOf(rows, cols, tiles, splitTile);
        x.faultRow = faultRow;
        x.faultCol = faultCol;
        x.bitFlip = bit >= 0 ? 1 : 0;
        x.bit = bit >= 0 ? bit : 0;
        x.bit2 = bit2;
        x.delta = 2.5;
        const cuda::RowSumPartialsRun run = cuda::addRowSumPartialsOnDevice(x);

        const bool split = splitTile >= 0;
        const std::int64_t mainTiles = split ? splitTile : tiles;
        float before = 0, after = 0;
        if (faultRow >= 0) {
            before = x.c[std::size_t(faultRow * cols + faultCol)];
            after = bit < 0 ? before + 2.5f : flipped(bit2 >= 0 ? flipped(before, bit) : before, bit2 >= 0 ? bit2 : bit);
            QCOMPARE(run.before, double(before));
            QCOMPARE(run.after, double(after));
        } else {
            QCOMPARE(run.before, -1.0);  // the pair untouched
            QCOMPARE(run.after, -1.0);
        }
        const double change = double(after) - double(before);
        for (std::int64_t i = 0; i < rows; ++i) {
            double total = 0, rest = 0;
            for (std::int64_t t = 0; t < tiles; ++t)
                (t < mainTiles ? total : rest) += double(x.partials[std::size_t(t * x.width + i)]);
            if (i == faultRow)
                total += change;
            const double want = x.rowSums[std::size_t(i)] + total;
            if (run.rowSums[std::size_t(i)] != want)
                QFAIL(("row sum " + std::to_string(i) + " = " + std::to_string(run.rowSums[std::size_t(i)]) +
                       ", expected " + std::to_string(want)).c_str());
            if (split)
                QVERIFY2(sameFloat(run.splitSums[std::size_t(i)], float(rest)), qPrintable(QString::number(i)));
            for (std::int64_t j = 0; j < cols; ++j) {
                const float expected = i == faultRow && j == faultCol ? after : x.c[std::size_t(i * cols + j)];
                if (!sameFloat(run.c[std::size_t(i * cols + j)], expected))
                    QFAIL(("C(" + std::to_string(i) + ", " + std::to_string(j) + ") = " +
                           std::to_string(run.c[std::size_t(i * cols + j)]) + ", expected " + std::to_string(expected))
                              .c_str());
            }
        }
        for (std::int64_t j = 0; j < cols; ++j) {
            const double want = x.colSums[std::size_t(j)] + (j == faultCol && faultRow >= 0 ? change : 0.0);
            QCOMPARE(run.colSums[std::size_t(j)], want);
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaRowSumPartials)
#include "tst_cuda_row_sum_partials.moc"
