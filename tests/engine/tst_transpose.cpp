// The transpose family on the CPU: every kernel against the reference on odd, power-of-two and
// rectangular shapes, in place leaves no element behind, the counts match the seed's formulas,
// the refusals are clear.
#include "gigacheck/transpose.hpp"

#include "../../engine/src/families/transpose/cpu/kernels.hpp"
#include "../../engine/src/families/transpose/decomposition.hpp"
#include "../../engine/src/families/transpose/ops.hpp"
#include "../../engine/src/families/transpose/plan/schedule_builder.hpp"
#include "../../engine/src/families/transpose/ratio_decomposition.hpp"
#include "../../engine/src/families/transpose/warp_access.hpp"

#include <QtTest>

#include <atomic>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

using namespace gigacheck;
using namespace gigacheck::transpose;

namespace {

template <class T> std::vector<T> distinct(std::int64_t m, std::int64_t n)
{
    std::vector<T> x(std::size_t(m * n));
    for (std::size_t k = 0; k < x.size(); ++k)
        x[k] = T(k + 1);  // exact in float32 below 2^24
    return x;
}

// Elements not at their transposed place (n x m result of m x n original).
template <class T> std::int64_t misplaced(const std::vector<T>& original, const std::vector<T>& result, std::int64_t m, std::int64_t n)
{
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            wrong += result[std::size_t(j * m + i)] != original[std::size_t(i * n + j)];
    return wrong;
}

const std::vector<std::int64_t> kSquareSides{1, 2, 3, 15, 16, 17, 31, 32, 33, 64, 100, 128, 257};
const std::vector<std::pair<std::int64_t, std::int64_t>> kShapes{
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 5}, {16, 48}, {48, 16}, {64, 32}, {32, 64}, {100, 37}, {37, 100},
    {30, 45}, {256, 128}, {96, 160}, {129, 128}, {1000, 24}};

}  // namespace

class TestTranspose : public QObject {
    Q_OBJECT

private:
    template <class T> void squareKernels()
    {
        for (std::int64_t n : kSquareSides) {
            const std::vector<T> original = distinct<T>(n, n);
            std::vector<T> a = original, b = original, c = original, d(original.size());
            transpose::cpu::naiveInPlace(a.data(), n);
            transpose::cpu::blockedInPlace(b.data(), n);
            transpose::cpu::inPlaceAnyShape(c.data(), n, n);
            transpose::cpu::outOfPlace(original.data(), d.data(), n, n);
            QCOMPARE(misplaced(original, a, n, n), std::int64_t(0));
            QCOMPARE(misplaced(original, b, n, n), std::int64_t(0));
            QCOMPARE(misplaced(original, c, n, n), std::int64_t(0));
            QCOMPARE(misplaced(original, d, n, n), std::int64_t(0));
        }
    }
    template <class T> void anyShapeKernels()
    {
        for (const auto& [m, n] : kShapes) {
            const std::vector<T> original = distinct<T>(m, n);
            std::vector<T> inPlace = original, out(original.size());
            transpose::cpu::inPlaceAnyShape(inPlace.data(), m, n);
            transpose::cpu::outOfPlace(original.data(), out.data(), m, n);
            QVERIFY2(misplaced(original, inPlace, m, n) == 0, qPrintable(QStringLiteral("in place %1x%2").arg(m).arg(n)));
            QVERIFY2(misplaced(original, out, m, n) == 0, qPrintable(QStringLiteral("out of place %1x%2").arg(m).arg(n)));
            // No element left behind or duplicated: the same multiset.
            std::vector<T> sortedBefore = original, sortedAfter = inPlace;
            std::sort(sortedBefore.begin(), sortedBefore.end());
            std::sort(sortedAfter.begin(), sortedAfter.end());
            QVERIFY(sortedBefore == sortedAfter);
            // And back: transposing the n x m result restores the original.
            transpose::cpu::inPlaceAnyShape(inPlace.data(), n, m);
            QVERIFY(inPlace == original);
        }
    }

private slots:
    void squareFloat() { squareKernels<float>(); }
    void squareInt32() { squareKernels<std::int32_t>(); }
    void anyShapeFloat() { anyShapeKernels<float>(); }
    void anyShapeInt32() { anyShapeKernels<std::int32_t>(); }

    void blockSizesThatDoNotDivide()
    {
        for (std::int64_t block : {1, 3, 5, 16, 40})
            for (std::int64_t n : {17, 33, 50}) {
                const std::vector<float> original = distinct<float>(n, n);
                std::vector<float> x = original;
                transpose::cpu::blockedInPlace(x.data(), n, block);
                QCOMPARE(misplaced(original, x, n, n), std::int64_t(0));
            }
    }

    void segmentPermutationIsABijection()
    {
        for (const auto& [m, n] : kShapes) {
            const transpose::cpu::SegmentPermutation p(m, n);
            QCOMPARE(p.g * p.a, m);
            QCOMPARE(p.g * p.b, n);
            std::set<std::int64_t> seen;
            for (std::int64_t s = 0; s < p.count(); ++s) {
                const std::int64_t d = p.destination(s);
                QVERIFY(d >= 0 && d < p.count());
                seen.insert(d);
            }
            QCOMPARE(std::int64_t(seen.size()), p.count());
        }
    }

    // The seed: "time complexity O(n^2 - n)": each loop nest swaps (n^2 - n) / 2 pairs, counted
    // as they happen, and countsOf says the same.
    void swapCountsMatchTheSeed()
    {
        for (std::int64_t n : kSquareSides) {
            std::vector<float> x = distinct<float>(n, n);
            transpose::cpu::SwapCount naive, blocked;
            transpose::cpu::naiveInPlace(x.data(), n, naive);
            transpose::cpu::blockedInPlace(x.data(), n, transpose::cpu::kSeedBlock, blocked);
            const std::int64_t formula = (n * n - n) / 2;
            QCOMPARE(naive.swaps, formula);
            QCOMPARE(blocked.swaps, formula);
            QCOMPARE(countsOf(Variant::Naive, n, n, ElementType::F32).swaps, formula);
            QCOMPARE(countsOf(Variant::Blocked, n, n, ElementType::I32).swaps, formula);
        }
    }

    // Effective bandwidth as the seed defines it: each element read once and written once.
    void bytesFollowTheSeed()
    {
        for (Variant v : {Variant::Naive, Variant::Blocked, Variant::OutOfPlace, Variant::Coalesced, Variant::InPlace,
                          Variant::Padded, Variant::Library}) {
            const Counts c = countsOf(v, 512, 512, ElementType::F32);
            QCOMPARE(c.bytesRead, 512.0 * 512 * 4);
            QCOMPARE(c.bytesWritten, 512.0 * 512 * 4);
        }
        // The C2R decomposition (a ratio other than 2 or 4): column rotation (gcd > 1), row shuffle,
        // column shuffle, each a read and a write of the whole matrix; coprime shapes skip the rotation.
        const Counts rect = countsOf(Variant::InPlace, 768, 256, ElementType::F32);
        QCOMPARE(rect.passes, std::int64_t(3));
        QCOMPARE(rect.trafficBytes, 6.0 * 768 * 256 * 4);
        const Counts coprime = countsOf(Variant::InPlace, 128, 125, ElementType::F32);
        QCOMPARE(coprime.passes, std::int64_t(2));
        QCOMPARE(coprime.trafficBytes, 4.0 * 128 * 125 * 4);
        QCOMPARE(coprime.bytesRead, 128.0 * 125 * 4);
        const Counts square = countsOf(Variant::InPlace, 512, 512, ElementType::F32);
        QCOMPARE(square.passes, std::int64_t(1));
        QCOMPARE(square.trafficBytes, 2.0 * 512 * 512 * 4);
    }

    // Coalesced against strided, as one warp's addresses make them: 32 float32 in a row are 4
    // sectors of 32 bytes; 32 rows apart are 32 sectors; the padded 32 x 33 tile has no bank
    // conflict, the seed's unpadded 32 x 32 read column-wise by 8 x 4 lanes is 8-way.
    void warpAccessCounts()
    {
        const std::int64_t n = 4096;
        QCOMPARE(sectorsTouched([](int lane) { return std::int64_t(lane); }, 4), 4);
        QCOMPARE(sectorsTouched([&](int lane) { return lane * n; }, 4), 32);
        QCOMPARE(bankConflictWays([](int lane) { return std::int64_t(lane) * 32; }), 32);
        QCOMPARE(bankConflictWays([](int lane) { return std::int64_t(lane) * 33; }), 1);

        const Counts naive = countsOf(Variant::Naive, n, n, ElementType::F32);
        QCOMPARE(naive.sectorsPerWarpLoad, (4.0 + 32.0) / 2);
        QCOMPARE(naive.activeThreads, n * (n - 1) / 2);
        QCOMPARE(naive.loadsPerThread, 2.0);
        const Counts seed = countsOf(Variant::Coalesced, n, n, ElementType::F32);
        QCOMPARE(seed.sectorsPerWarpLoad, 4.0);
        QCOMPARE(seed.sharedConflictWays, 8);
        const std::int64_t tiles = n / 32;
        QCOMPARE(seed.threads, tiles * tiles * 256);
        QCOMPARE(seed.activeThreads, tiles * (tiles + 1) / 2 * 256);
        // padded, 16-byte path: a warp's load is two 256-byte rows (16 full sectors), its store two
        // 256-byte output rows (16 full sectors); the rotated component order keeps the 64 x 65
        // tile conflict free both ways. 64 x 64 tiles of 256 threads.
        const Counts padded = countsOf(Variant::Padded, n, n, ElementType::F32);
        QCOMPARE(padded.sectorsPerWarpLoad, 16.0);
        QCOMPARE(padded.sectorsPerWarpStore, 16.0);
        QCOMPARE(padded.sharedConflictWays, 1);
        QCOMPARE(padded.threads, (n / 64) * (n / 64) * 256);
        QCOMPARE(padded.loadsPerThread, 4.0);
        // The scalar fallback (a side not a multiple of 4): 32 x 33 tiles, 4 sectors per warp.
        const Counts odd = countsOf(Variant::Padded, 4097, 4099, ElementType::F32);
        QCOMPARE(odd.sectorsPerWarpLoad, 4.0);
        QCOMPARE(odd.sharedConflictWays, 1);
        // inplace square, 16-byte path: 64 x 64 tile pairs on the triangle, 2 rows of 256 bytes per
        // warp instruction, conflict free.
        const Counts pairs = countsOf(Variant::InPlace, n, n, ElementType::F32);
        QCOMPARE(pairs.threads, pairs.activeThreads);  // no idle blocks below the diagonal
        QCOMPARE(pairs.threads, (n / 64) * (n / 64 + 1) / 2 * 256);
        QCOMPARE(pairs.sectorsPerWarpLoad, 16.0);
        QCOMPARE(pairs.sharedConflictWays, 1);
        const Counts oddPairs = countsOf(Variant::InPlace, 4099, 4099, ElementType::F32);
        QCOMPARE(oddPairs.sharedConflictWays, 1);
        QCOMPARE(oddPairs.sectorsPerWarpLoad, 4.0);
    }

    // The C2R decomposition (decomposition.hpp) on the CPU, the reference of the CUDA kernels:
    // every element at its transposed place, nothing lost or duplicated, and back again.
    void decompositionShapes()
    {
        std::vector<std::pair<std::int64_t, std::int64_t>> shapes{
            {1, 1},   {1, 2},    {2, 1},     {1, 77},    {77, 1},    {1, 1024},   {1024, 1},  {2, 3},    {3, 2},
            {7, 13},  {13, 7},   {31, 33},   {33, 31},   {17, 17},   {64, 64},    {16, 48},   {48, 16},  {64, 32},
            {32, 64}, {128, 96}, {300, 125}, {125, 300}, {127, 129}, {1000, 24},  {24, 1000}, {256, 1024}, {1024, 256},
            {2048, 1536}, {999, 1000}, {4096, 2048}};
        for (const auto& [m, n] : kShapes)
            shapes.emplace_back(m, n);
        for (const auto& [m, n] : shapes) {
            const std::vector<std::int32_t> original = distinct<std::int32_t>(m, n);
            std::vector<std::int32_t> x = original;
            transpose::cpu::decompositionInPlace(x.data(), m, n);
            QVERIFY2(misplaced(original, x, m, n) == 0, qPrintable(QStringLiteral("decomposition %1x%2").arg(m).arg(n)));
            std::vector<std::int32_t> sortedAfter = x;
            std::sort(sortedAfter.begin(), sortedAfter.end());
            QVERIFY2(sortedAfter == original, qPrintable(QStringLiteral("decomposition %1x%2 lost an element").arg(m).arg(n)));
            transpose::cpu::decompositionInPlace(x.data(), n, m);
            QVERIFY2(x == original, qPrintable(QStringLiteral("decomposition %1x%2 and back").arg(m).arg(n)));
        }
        // Every shape up to 24 x 24, both ways of running the passes (C2R on the m x n grid, the
        // inverse passes of C2R(n, m) on the n x m grid), against the cycle-following kernel and
        // the out-of-place one.
        for (std::int64_t m = 1; m <= 24; ++m)
            for (std::int64_t n = 1; n <= 24; ++n) {
                const std::vector<float> original = distinct<float>(m, n);
                std::vector<float> a = original, b = original, c(original.size()), d = original, e = original;
                transpose::cpu::decompositionInPlace(a.data(), m, n);
                transpose::cpu::inPlaceAnyShape(b.data(), m, n);
                transpose::cpu::outOfPlace(original.data(), c.data(), m, n);
                transpose::cpu::c2rInPlace(d.data(), m, n);
                transpose::cpu::r2cInPlace(e.data(), m, n);
                QVERIFY2(a == b && a == c && d == c && e == c,
                         qPrintable(QStringLiteral("decomposition %1x%2 vs references").arg(m).arg(n)));
            }
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{300, 125}, {125, 300}, {1, 500}, {500, 1}, {256, 96}}) {
            const std::vector<std::int32_t> original = distinct<std::int32_t>(m, n);
            std::vector<std::int32_t> c2rWay = original, r2cWay = original;
            transpose::cpu::c2rInPlace(c2rWay.data(), m, n);
            transpose::cpu::r2cInPlace(r2cWay.data(), m, n);
            QCOMPARE(misplaced(original, c2rWay, m, n), std::int64_t(0));
            QCOMPARE(misplaced(original, r2cWay, m, n), std::int64_t(0));
        }
    }

    // Each pass keeps its elements in one column (1, 3) or one row (2) and permutes it: a bijection
    // of every column / row, for coprime, equal and common-factor dimensions.
    void decompositionPassesAreBijections()
    {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {1, 9}, {9, 1}, {5, 7}, {12, 18}, {18, 12}, {16, 16}, {64, 40}, {300, 125}, {97, 1}}) {
            const c2r::Shape s = c2r::shapeOf(m, n);
            QCOMPARE(s.g * s.a, m);
            QCOMPARE(s.g * s.b, n);
            for (std::int64_t c = 0; c < n; ++c) {
                std::set<std::int64_t> pre, post;
                for (std::int64_t r = 0; r < m; ++r) {
                    pre.insert(c2r::prerotationSource(s, r, c));
                    post.insert(c2r::postSource(s, r, c));
                    QCOMPARE(c2r::prerotationTarget(s, c2r::prerotationSource(s, r, c), c), r);  // the inverse rotation
                }
                QCOMPARE(std::int64_t(pre.size()), m);
                QCOMPARE(std::int64_t(post.size()), m);
                QVERIFY(*pre.rbegin() < m && *post.rbegin() < m && *pre.begin() >= 0 && *post.begin() >= 0);
            }
            for (std::int64_t r = 0; r < m; ++r) {
                std::set<std::int64_t> row;
                for (std::int64_t c = 0; c < n; ++c)
                    row.insert(c2r::shuffleDestination(s, r, c));
                QCOMPARE(std::int64_t(row.size()), n);
                QVERIFY(*row.begin() >= 0 && *row.rbegin() < n);
            }
        }
    }

    // The GPU threads' incremental walkers (no division per element) give the closed forms, for
    // the strides the kernels use (1024 threads; 1024 / W rows for strips of W columns) and others.
    void decompositionWalkersMatchClosedForms()
    {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {1, 77}, {77, 1}, {3, 5}, {12, 18}, {300, 125}, {125, 300}, {1000, 24}, {2048, 1536}, {4099, 1031}, {8, 4096}}) {
            const c2r::Shape s = c2r::shapeOf(m, n);
            for (std::int64_t step : {1, 3, 32, 256, 1024}) {
                const c2r::ShuffleStep d = c2r::shuffleStep(s, step);
                for (std::int64_t r : {std::int64_t(0), m / 2, m - 1})
                    for (std::int64_t c0 = 0; c0 < std::min(step, n); c0 += std::max<std::int64_t>(1, step / 7)) {
                        c2r::ShuffleWalker w(s, c0);
                        for (std::int64_t c = c0; c < n; c += step) {
                            QCOMPARE(w.destination(s, r), c2r::shuffleDestination(s, r, c));
                            w.advance(s, d);
                        }
                    }
                const c2r::PostStep p = c2r::postStep(s, step);
                for (std::int64_t j : {std::int64_t(0), n / 3, n - 1})
                    for (std::int64_t i0 = 0; i0 < std::min(step, m); i0 += std::max<std::int64_t>(1, step / 5)) {
                        c2r::PostWalker w(s, i0, j);
                        for (std::int64_t i = i0; i < m; i += step) {
                            QCOMPARE(w.source(s), c2r::postSource(s, i, j));
                            w.advance(s, p);
                        }
                    }
            }
        }
    }

    // Where one side is 2 or 4 times the other, two passes (ratio_decomposition.hpp): every element
    // at its place, none lost, and back again, tall and wide, even and odd sides, against C2R and
    // the out-of-place kernel; other ratios are not taken.
    void ratioDecomposition()
    {
        QVERIFY(!ratio::shapeOf(8, 8).applies());
        QVERIFY(!ratio::shapeOf(24, 8).applies());   // 3: C2R
        QVERIFY(!ratio::shapeOf(64, 8).applies());   // 8: C2R
        QVERIFY(!ratio::shapeOf(10, 4).applies());   // not a multiple
        QVERIFY(!ratio::shapeOf(0, 4).applies());
        const ratio::Shape tall = ratio::shapeOf(16384, 8192), wide = ratio::shapeOf(4096, 16384);
        QVERIFY(tall.applies() && tall.tall && tall.k == 2 && tall.side == 8192);
        QVERIFY(wide.applies() && !wide.tall && wide.k == 4 && wide.side == 4096);
        std::vector<std::pair<std::int64_t, std::int64_t>> shapes{{2, 1}, {1, 2}, {4, 1}, {1, 4},   {6, 3},    {3, 6},
                                                                  {20, 5}, {5, 20}, {34, 17}, {17, 34}, {64, 32}, {32, 64},
                                                                  {132, 33}, {33, 132}, {130, 65}, {65, 130}, {256, 1024}, {1024, 256}};
        for (const auto& [m, n] : shapes) {
            QVERIFY(ratio::shapeOf(m, n).applies());
            const std::vector<std::int32_t> original = distinct<std::int32_t>(m, n);
            std::vector<std::int32_t> x = original, viaC2r = original, out(original.size());
            transpose::cpu::ratioInPlace(x.data(), m, n);
            transpose::cpu::decompositionInPlace(viaC2r.data(), m, n);
            transpose::cpu::outOfPlace(original.data(), out.data(), m, n);
            QVERIFY2(misplaced(original, x, m, n) == 0, qPrintable(QStringLiteral("ratio %1x%2").arg(m).arg(n)));
            QVERIFY(x == out && x == viaC2r);
            std::vector<std::int32_t> sortedAfter = x;
            std::sort(sortedAfter.begin(), sortedAfter.end());
            QVERIFY2(sortedAfter == original, qPrintable(QStringLiteral("ratio %1x%2 lost an element").arg(m).arg(n)));
            transpose::cpu::ratioInPlace(x.data(), n, m);
            QVERIFY2(x == original, qPrintable(QStringLiteral("ratio %1x%2 and back").arg(m).arg(n)));
            const std::vector<float> originalF = distinct<float>(m, n);
            std::vector<float> f = originalF;
            transpose::cpu::rectangularInPlace(f.data(), m, n);
            QCOMPARE(misplaced(originalF, f, m, n), std::int64_t(0));
            // The row pass is a bijection of each row.
            const ratio::Shape s = ratio::shapeOf(m, n);
            std::set<std::int64_t> row;
            for (std::int64_t p = 0; p < s.rowLength(); ++p)
                row.insert(ratio::sourceInRow(p, s.k, s.side));
            QCOMPARE(std::int64_t(row.size()), s.rowLength());
            QCOMPARE(*row.rbegin(), s.rowLength() - 1);
            QCOMPARE(countsOf(Variant::InPlace, m, n, ElementType::F32).passes, std::int64_t(2));
            QCOMPARE(countsOf(Variant::InPlace, m, n, ElementType::F32).trafficBytes, 4.0 * double(m * n) * 4.0);
        }
        // The row pass's shared accesses: conflict free for k = 4, two-way for k = 2 (lanes read
        // every other word of one half of the row).
        QCOMPARE(countsOf(Variant::InPlace, 4096, 16384, ElementType::F32).sharedConflictWays, 1);
        QCOMPARE(countsOf(Variant::InPlace, 16384, 8192, ElementType::F32).sharedConflictWays, 2);
    }

    void cpuRectangularRunsUseTheDecomposition()
    {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {1, 77}, {77, 1}, {300, 125}, {257, 64}, {64, 32}, {100, 400}, {130, 65}}) {
            Config c;
            c.m = m;
            c.n = n;
            c.variant = Variant::InPlace;
            c.backend = BackendKind::Cpu;
            c.reps = 2;
            const Record r = runTranspose(c);
            QVERIFY2(r.verified, qPrintable(QStringLiteral("cpu inplace %1x%2").arg(m).arg(n)));
            QCOMPARE(r.counts.passes, std::int64_t(std::gcd(m, n) > 1 && !ratio::shapeOf(m, n).applies() ? 3 : 2));
        }
    }

    void cpuRunsVerify()
    {
        for (Variant v : {Variant::Naive, Variant::Blocked, Variant::OutOfPlace, Variant::InPlace})
            for (ElementType t : {ElementType::F32, ElementType::I32}) {
                Config c;
                c.m = c.n = 65;
                c.variant = v;
                c.type = t;
                c.backend = BackendKind::Cpu;
                c.reps = 2;  // an even number of in-place calls is made odd by the run
                const Record r = runTranspose(c);
                QVERIFY(r.verified);
                QCOMPARE(r.mismatches, std::int64_t(0));
                QVERIFY(r.gbps > 0);
                QVERIFY(toJson(r).find("\"family\": \"transpose\"") != std::string::npos);
            }
        Config rect;
        rect.m = 96;
        rect.n = 40;
        rect.variant = Variant::InPlace;
        rect.backend = BackendKind::Cpu;
        QVERIFY(runTranspose(rect).verified);
    }

    // The schedule is plain data every executor accepts: copy in, an odd number of in-place
    // transposes (each the current orientation), copy out; out of place into a second buffer.
    void schedules()
    {
        for (Variant v : {Variant::Naive, Variant::Blocked, Variant::OutOfPlace, Variant::Coalesced, Variant::InPlace,
                          Variant::Padded, Variant::Library})
            for (int calls : {1, 2, 4}) {
                const std::int64_t m = squareOnly(v) ? 64 : 96, n = 64;
                const Schedule s = buildSchedule(v, ElementType::F32, m, n, calls);
                QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
                QCOMPARE(s.family, std::string("transpose"));
                QCOMPARE(s.buffers.size(), std::size_t(inPlace(v) ? 1 : 2));
                QVERIFY(s.ops.front().kind == kCopyIn);
                QVERIFY(s.ops.back().kind == kCopyOut);
                const std::size_t transposes = s.ops.size() - 2;
                QVERIFY(transposes >= std::size_t(calls));
                if (inPlace(v))
                    QCOMPARE(transposes % 2, std::size_t(1));
                if (inPlace(v) && transposes > 1)
                    QCOMPARE(s.ops[2].rows, n);  // the second call transposes the n x m result back
            }
    }

    void recordCarriesSpans()
    {
        Config c;
        c.m = 48;
        c.n = 80;
        c.variant = Variant::InPlace;
        c.backend = BackendKind::Cpu;
        c.reps = 4;
        const Record r = runTranspose(c);
        QVERIFY(r.verified);
        QCOMPARE(r.family, std::string("transpose"));
        QCOMPARE(r.spans.size(), std::size_t(2 + 5));  // copy in, 1 + 4 calls, copy out
        QVERIFY(r.kernelMs > 0);
        const std::string json = toJson(r);
        QVERIFY(json.find("\"spans\"") != std::string::npos);
        QVERIFY(json.find("\"format_version\"") != std::string::npos);
    }

    void refusals()
    {
        Config c;
        c.m = c.n = 64;
        c.variant = Variant::Coalesced;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));
        c.variant = Variant::Blocked;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cuda));
        c.variant = Variant::Naive;
        c.n = 32;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));
        c.n = 64;
        c.variant = Variant::Library;
        c.type = ElementType::I32;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cuda));
        c.type = ElementType::F32;
        checkConfig(c, BackendKind::Cuda);  // accepted
        QVERIFY(variantFromString("outofplace") == Variant::OutOfPlace);
        QVERIFY_THROWS_EXCEPTION(InputError, variantFromString("diagonal"));
        c.type = ElementType::I32;
        QVERIFY_THROWS_EXCEPTION(InputError, checkConfig(c, BackendKind::Cpu));  // somatcopy: float32 only
    }

    // The CPU library reference (OpenBLAS somatcopy) on square, odd and rectangular shapes.
    void cpuLibraryVerifies()
    {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{64, 64}, {129, 129}, {100, 37}, {1, 17}, {48, 16}}) {
            Config c;
            c.m = m;
            c.n = n;
            c.variant = Variant::Library;
            c.backend = BackendKind::Cpu;
            c.reps = 1;
            const Record r = runTranspose(c);
            QVERIFY2(r.verified, qPrintable(QStringLiteral("library %1x%2: %3 misplaced").arg(m).arg(n).arg(r.mismatches)));
        }
    }

    // A shape whose matrices cannot fit is refused with the bytes it needs (2^32 x 2^32: 2^66
    // bytes, not an overflowed size of 0).
    void oversizedRefused()
    {
        Config c;
        c.m = c.n = std::int64_t(1) << 32;
        for (BackendKind b : {BackendKind::Cpu, BackendKind::Cuda})
            try {
                checkConfig(c, b);
                QFAIL("2^32 x 2^32 accepted");
            } catch (const InputError& e) {
                const QString what = QString::fromUtf8(e.what());
                QVERIFY2(what.contains(QStringLiteral("needs")) && what.contains(QStringLiteral("no machine has")), e.what());
            }
    }

    // A run cancelled before it starts stops between ops and says so.
    void cancellation()
    {
        Config c;
        c.m = c.n = 64;
        c.variant = Variant::Naive;
        c.backend = BackendKind::Cpu;
        std::atomic<bool> stop{true};
        c.cancel = &stop;
        const Record r = runTranspose(c);
        QCOMPARE(r.status, std::string("cancelled"));
        QVERIFY(!r.verified);
    }
};

QTEST_APPLESS_MAIN(TestTranspose)
#include "tst_transpose.moc"
