// The kernel gallery on the GPU: every CUDA transpose and reduced matmul kernel against the
// reference on odd, power-of-two and rectangular shapes (skipped, visibly, without a device).
#include "gpu_available.hpp"

#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/transpose.hpp"

#include "../../engine/src/families/transpose/ratio_decomposition.hpp"

#include <QtTest>

#include <numeric>

using namespace gigacheck;

namespace {

// The rectangular / square in-place transpose of an m x n matrix of type t on the GPU.
transpose::Record inPlaceOnTheDevice(std::int64_t m, std::int64_t n, transpose::ElementType t, int reps)
{
    transpose::Config c;
    c.m = m;
    c.n = n;
    c.variant = transpose::Variant::InPlace;
    c.type = t;
    c.backend = BackendKind::Cuda;
    c.reps = reps;
    return transpose::runTranspose(c);
}

}  // namespace

class TestCudaGallery : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void squareTransposes()
    {
        using namespace gigacheck::transpose;
        for (Variant v : {Variant::Naive, Variant::Coalesced, Variant::InPlace, Variant::Padded, Variant::Library})
            for (ElementType t : {ElementType::F32, ElementType::I32})
                // 16-byte paths where n % 4 == 0 (4, 32, 60, 64, 68, 100, 512, 1000, 2048: whole and
                // partial 64 x 64 pairs and tiles); the scalar fallbacks otherwise.
                for (std::int64_t n : {1, 2, 4, 31, 32, 33, 60, 64, 68, 100, 127, 130, 257, 512, 1000, 2048}) {
                    if (v == Variant::Library && t == ElementType::I32)
                        continue;
                    Config c;
                    c.m = c.n = n;
                    c.variant = v;
                    c.type = t;
                    c.backend = BackendKind::Cuda;
                    c.reps = n % 2 ? 1 : 2;  // both parities of in-place calls
                    const Record r = runTranspose(c);
                    QVERIFY2(r.verified, qPrintable(QStringLiteral("%1 %2 n=%3: %4 misplaced")
                                                        .arg(QString::fromStdString(std::string(toString(v))))
                                                        .arg(QString::fromStdString(std::string(toString(t))))
                                                        .arg(n)
                                                        .arg(r.mismatches)));
                    QVERIFY(r.kernelMs > 0);
                    QVERIFY(r.copyGbps > 0);
                }
    }

    void rectangularTransposes()
    {
        using namespace gigacheck::transpose;
        const std::pair<std::int64_t, std::int64_t> shapes[] = {{1, 7}, {7, 1}, {3, 5}, {64, 32}, {32, 64}, {100, 37}, {96, 160},
                                                                {129, 128}, {1000, 24}, {2048, 1024}, {1024, 3072}, {1536, 1024}};
        for (Variant v : {Variant::InPlace, Variant::Padded, Variant::Library})
            for (const auto& [m, n] : shapes) {
                Config c;
                c.m = m;
                c.n = n;
                c.variant = v;
                c.backend = BackendKind::Cuda;
                c.reps = 2;
                const Record r = runTranspose(c);
                QVERIFY2(r.verified, qPrintable(QStringLiteral("%1 %2x%3: %4 misplaced")
                                                    .arg(QString::fromStdString(std::string(toString(v))))
                                                    .arg(m)
                                                    .arg(n)
                                                    .arg(r.mismatches)));
            }
    }

    // The rectangular in-place transpose by the C2R decomposition (cuda/decomposition.cu) and the
    // padded kernel's 16-byte and scalar paths: odd, coprime, power-of-two, 1 x n, n x 1 shapes,
    // C2R (m <= n) and R2C (m > n), rows too long for the shared memory (the row shuffle's global
    // scratch: 3 x 70001, 2 x 65536, and through R2C 65536 x 2, 60013 x 3).
    void decompositionAndVectorPaths()
    {
        using namespace gigacheck::transpose;
        const std::pair<std::int64_t, std::int64_t> shapes[] = {
            {1, 77},    {77, 1},     {1, 4096},   {4096, 1},  {2, 3},      {300, 125}, {125, 300},  {127, 129},  {129, 127},
            {257, 64},  {64, 257},   {36, 132},   {132, 36},  {4, 1000},   {1000, 4},  {100, 260},  {37, 100},   {1024, 512},
            {512, 1024}, {2048, 1536}, {999, 1000}, {3, 70001}, {2, 65536}, {65536, 2}, {60013, 3}};
        for (Variant v : {Variant::InPlace, Variant::Padded})
            for (ElementType t : {ElementType::F32, ElementType::I32})
                for (const auto& [m, n] : shapes) {
                    Config c;
                    c.m = m;
                    c.n = n;
                    c.variant = v;
                    c.type = t;
                    c.backend = BackendKind::Cuda;
                    c.reps = (m + n) % 2 ? 1 : 2;  // both parities: forward and backward orientations
                    const Record r = runTranspose(c);
                    QVERIFY2(r.verified, qPrintable(QStringLiteral("%1 %2 %3x%4: %5 misplaced")
                                                        .arg(QString::fromStdString(std::string(toString(v))))
                                                        .arg(QString::fromStdString(std::string(toString(t))))
                                                        .arg(m)
                                                        .arg(n)
                                                        .arg(r.mismatches)));
                    QCOMPARE(r.mismatches, std::int64_t(0));
                    if (v == Variant::InPlace)
                        QCOMPARE(r.counts.passes, std::int64_t(std::gcd(m, n) > 1 && !ratio::shapeOf(m, n).applies() ? 3 : 2));
                }
    }

    // The ratio decomposition (cuda/ratio_decomposition.cu) where one side is 2 or 4 times the
    // other: tall and wide, sides that fill whole tiles and sides that do not (odd sides take the
    // square kernel's scalar path), the row pass in shared memory and, forced, in global scratch;
    // both passes pipelined in one kernel (cuda/ratio_pipeline.cu) and, forced, as two kernels.
    void ratioDecompositionPaths()
    {
        using namespace gigacheck::transpose;
        // The last ten are whole bands (32 rows for k = 2, 16 for k = 4): with
        // GIGACHECK_TRANSPOSE_RATIO_PIPELINE=1 the pipelined kernel runs the tall ones (at these
        // sizes it would not by itself: they fit the L2), unless the row scratch is forced (an
        // in-place run transposes back and forth: both orientations every time).
        const std::pair<std::int64_t, std::int64_t> shapes[] = {
            {2, 1},       {1, 2},       {4, 1},     {1, 4},     {66, 33},     {33, 66},     {132, 33},  {33, 132},
            {260, 130},   {130, 260},   {4100, 1025}, {1026, 2052}, {64, 32},   {32, 64},   {64, 16},     {16, 64},
            {2048, 1024}, {1024, 2048}, {4096, 1024}, {1024, 4096}, {640, 320}, {320, 1280}};
        for (const char* pipeline : {"1", "0"})
            for (const char* rowScratch : {"0", "1"}) {
                qputenv("GIGACHECK_TRANSPOSE_RATIO_PIPELINE", pipeline);
                qputenv("GIGACHECK_TRANSPOSE_ROW_SCRATCH", rowScratch);
                for (ElementType t : {ElementType::F32, ElementType::I32})
                    for (const auto& [m, n] : shapes) {
                        QVERIFY(ratio::shapeOf(m, n).applies());
                        const Record r = inPlaceOnTheDevice(m, n, t, (m + n) % 2 ? 1 : 2);
                        QVERIFY2(r.verified, qPrintable(QStringLiteral("ratio %1x%2 (pipeline %3, row scratch %4): %5 misplaced")
                                                            .arg(m)
                                                            .arg(n)
                                                            .arg(pipeline)
                                                            .arg(rowScratch)
                                                            .arg(r.mismatches)));
                        QCOMPARE(r.counts.passes, std::int64_t(2));
                    }
            }
        qunsetenv("GIGACHECK_TRANSPOSE_RATIO_PIPELINE");
        qunsetenv("GIGACHECK_TRANSPOSE_ROW_SCRATCH");
    }

    // The opt-in cluster path of the column passes (GIGACHECK_TRANSPOSE_CLUSTER=1: 8-block clusters,
    // distributed shared memory); where the device runs no such cluster the default path runs, and
    // either way every element must land at its place.
    void decompositionThroughClusters()
    {
        using namespace gigacheck::transpose;
        qputenv("GIGACHECK_TRANSPOSE_CLUSTER", "1");
        const std::pair<std::int64_t, std::int64_t> shapes[] = {{1, 77},  {77, 1},   {300, 125},  {125, 300},   {127, 129},
                                                                {4, 1000}, {1000, 4}, {2048, 1536}, {1536, 2048}, {9, 9000}};
        for (ElementType t : {ElementType::F32, ElementType::I32})
            for (const auto& [m, n] : shapes) {
                const Record r = inPlaceOnTheDevice(m, n, t, 2);
                QVERIFY2(r.verified, qPrintable(QStringLiteral("cluster inplace %1x%2: %3 misplaced").arg(m).arg(n).arg(r.mismatches)));
            }
        qunsetenv("GIGACHECK_TRANSPOSE_CLUSTER");
    }

    void reducedMatmuls()
    {
        using namespace gigacheck::reduced_matmul;
        for (Variant v : {Variant::Naive4p, Variant::NaiveP, Variant::Tiled8, Variant::Tiled16, Variant::Tiled32, Variant::ReduceBlas})
            for (Precision p : {Precision::F32, Precision::F64})
                for (std::int64_t n : {2, 6, 34, 66, 130, 256, 1024}) {
                    Config c;
                    c.n = n;
                    c.variant = v;
                    c.precision = p;
                    c.backend = BackendKind::Cuda;
                    c.reps = 1;
                    const Record r = runReduced(c);
                    QVERIFY2(r.verified, qPrintable(QStringLiteral("%1 %2 n=%3: %4 of %5 wrong, max rel error %6")
                                                        .arg(QString::fromStdString(std::string(toString(v))))
                                                        .arg(QString::fromStdString(std::string(gigacheck::toString(p))))
                                                        .arg(n)
                                                        .arg(r.wrong)
                                                        .arg(r.checked)
                                                        .arg(r.maxRelError)));
                    QVERIFY(r.libraryMs > 0);
                }
    }

    // C (and Ar, Br) are NaN when the variant starts, not the reference GEMM's result: a kernel
    // that writes nothing (the test hook skips its launches) fails the check on every element.
    void reducedUnwrittenOutputFails()
    {
        using namespace gigacheck::reduced_matmul;
        const std::vector<std::pair<Variant, const char*>> cases{{Variant::Naive4p, "reduced-kernel"},
                                                                 {Variant::Tiled32, "reduced-kernel"},
                                                                 {Variant::ReduceBlas, "reduced-gemm"},
                                                                 {Variant::ReduceBlas, "reduced-reduce"}};
        for (const auto& [v, skipped] : cases) {
            Config c;
            c.n = 130;
            c.variant = v;
            c.backend = BackendKind::Cuda;
            c.reps = 1;
            qputenv("GIGACHECK_REDUCED_TEST_SKIP", skipped);
            const Record r = runReduced(c);
            qunsetenv("GIGACHECK_REDUCED_TEST_SKIP");
            QVERIFY2(!r.verified, skipped);
            QCOMPARE(r.wrong, r.checked);
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaGallery)
#include "tst_cuda_gallery.moc"
