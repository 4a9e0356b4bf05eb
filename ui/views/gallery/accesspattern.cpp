#include "views/gallery/accesspattern.hpp"

#include <set>
#include <tuple>

namespace gigacheck::ui::gallery {

int sectorsOf(const std::vector<Touch>& touches)
{
    std::set<std::tuple<int, int, int>> sectors;
    for (const Touch& t : touches)
        sectors.insert({t.matrix, t.row, t.col / kSectorElements});
    return int(sectors.size());
}

const std::vector<PatternInfo>& patterns()
{
    static const std::vector<PatternInfo> list{
        {Pattern::TransposeCpuNaive, QStringLiteral("Transpose, CPU naive (the paper's Algorithm 1)"), QStringLiteral("X"), {}},
        {Pattern::TransposeCpuBlocked, QStringLiteral("Transpose, CPU blocked (the paper's Algorithm 2)"), QStringLiteral("X"), {}},
        {Pattern::TransposeGpuNaive, QStringLiteral("Transpose, GPU naive: one warp"), QStringLiteral("X"), {}},
        {Pattern::TransposeGpuTilePair, QStringLiteral("Transpose, GPU tile pair (the paper's Algorithm 3, in place)"), QStringLiteral("X"), {}},
        {Pattern::TransposeGpuPadded, QStringLiteral("Transpose, GPU padded out of place"), QStringLiteral("X"), QStringLiteral("Y = X^T")},
        {Pattern::ReducedNaive, QStringLiteral("Reduced matmul, naive: one thread (the chapter's fig. 4.2)"), QStringLiteral("A"), QStringLiteral("B")},
        {Pattern::ReducedTiled, QStringLiteral("Reduced matmul, tiled: one C tile's sweep (the chapter's fig. 4.3)"), QStringLiteral("A"), QStringLiteral("B")},
    };
    return list;
}

namespace {

QString sectorCost(int sectors, int lanes)
{
    const int ideal = (lanes + kSectorElements - 1) / kSectorElements;
    return QStringLiteral("%1 sectors for %2 elements (%3)")
        .arg(sectors)
        .arg(lanes)
        .arg(sectors <= ideal ? QStringLiteral("coalesced") : QStringLiteral("strided: %1x the ideal").arg(double(sectors) / ideal));
}

AccessStep finish(AccessStep s)
{
    s.sectors = sectorsOf(s.touches);
    if (s.cost.isEmpty())
        s.cost = sectorCost(s.sectors, int(s.touches.size()));
    return s;
}

std::vector<AccessStep> cpuNaive()
{
    std::vector<AccessStep> steps;
    for (int i = 0; i < kSide - 1; ++i) {
        AccessStep s;
        s.title = QStringLiteral("i = %1: swap X(%1, j) with X(j, %1) for j > %1").arg(i);
        for (int j = i + 1; j < kSide; ++j) {
            s.touches.push_back({0, i, j, Role::Read});
            s.touches.push_back({0, j, i, Role::Swap});
        }
        s = finish(s);
        s.cost = QStringLiteral("%1 lines touched: row %2 is %3 lines, column %2 one line per element")
                     .arg(s.sectors)
                     .arg(i)
                     .arg((kSide - i - 1 + kSectorElements - 1) / kSectorElements);
        steps.push_back(s);
    }
    return steps;
}

std::vector<AccessStep> cpuBlocked()
{
    std::vector<AccessStep> steps;
    const int blocks = kSide / kTile;
    for (int d = 0; d < blocks; ++d) {
        AccessStep s;
        s.title = QStringLiteral("diagonal block %1: swaps inside one block").arg(d);
        for (int i = 0; i < kTile; ++i)
            for (int j = i + 1; j < kTile; ++j) {
                s.touches.push_back({0, d * kTile + i, d * kTile + j, Role::Read});
                s.touches.push_back({0, d * kTile + j, d * kTile + i, Role::Swap});
            }
        s = finish(s);
        s.cost = QStringLiteral("%1 lines, all reused while the block is in cache").arg(s.sectors);
        steps.push_back(s);
    }
    for (int r = 0; r < blocks; ++r)
        for (int c = r + 1; c < blocks; ++c) {
            AccessStep s;
            s.title = QStringLiteral("block pair (%1, %2) <-> (%2, %1)").arg(r).arg(c);
            for (int i = 0; i < kTile; ++i)
                for (int j = 0; j < kTile; ++j) {
                    s.touches.push_back({0, r * kTile + i, c * kTile + j, Role::Read});
                    s.touches.push_back({0, c * kTile + j, r * kTile + i, Role::Swap});
                }
            s = finish(s);
            s.cost = QStringLiteral("%1 lines for %2 swaps: each line fetched once").arg(s.sectors).arg(kTile * kTile);
            steps.push_back(s);
        }
    return steps;
}

std::vector<AccessStep> gpuNaive()
{
    // Warp w covers row w's 16 columns; the lanes above the diagonal read X(w, c) and X(c, w).
    std::vector<AccessStep> steps;
    for (int w = 0; w < 3; ++w) {
        AccessStep row, mirror;
        row.title = QStringLiteral("warp %1, load 1: X(%1, c), lanes c > %1: one row").arg(w);
        mirror.title = QStringLiteral("warp %1, load 2: X(c, %1): one element per row").arg(w);
        for (int c = w + 1; c < kSide; ++c) {
            row.touches.push_back({0, w, c, Role::Read});
            mirror.touches.push_back({0, c, w, Role::Swap});
        }
        steps.push_back(finish(row));
        steps.push_back(finish(mirror));
    }
    return steps;
}

std::vector<AccessStep> gpuTilePair()
{
    std::vector<AccessStep> steps;
    const int ti = 0, tj = 2;  // the pair (0, 2) <-> (2, 0)
    for (int r = 0; r < kTile; ++r) {
        AccessStep s;
        s.title = QStringLiteral("load row %1 of tile (%2, %3) and of its mirror (%3, %2) into shared memory").arg(r).arg(ti).arg(tj);
        for (int c = 0; c < kTile; ++c) {
            s.touches.push_back({0, ti * kTile + r, tj * kTile + c, Role::Read});
            s.touches.push_back({0, tj * kTile + r, ti * kTile + c, Role::Read});
        }
        steps.push_back(finish(s));
    }
    for (int r = 0; r < kTile; ++r) {
        AccessStep s;
        s.title = QStringLiteral("store row %1 of both tiles, each from the other's column in shared memory").arg(r);
        for (int c = 0; c < kTile; ++c) {
            s.touches.push_back({0, ti * kTile + r, tj * kTile + c, Role::Write});
            s.touches.push_back({0, tj * kTile + r, ti * kTile + c, Role::Write});
        }
        steps.push_back(finish(s));
    }
    return steps;
}

std::vector<AccessStep> gpuPadded()
{
    std::vector<AccessStep> steps;
    const int tr = 1, tc = 2;
    for (int r = 0; r < kTile; ++r) {
        AccessStep s;
        s.title = QStringLiteral("read row %1 of tile (%2, %3) of X").arg(r).arg(tr).arg(tc);
        for (int c = 0; c < kTile; ++c)
            s.touches.push_back({0, tr * kTile + r, tc * kTile + c, Role::Read});
        steps.push_back(finish(s));
    }
    for (int r = 0; r < kTile; ++r) {
        AccessStep s;
        s.title = QStringLiteral("write row %1 of tile (%3, %2) of Y from a column of the padded shared tile").arg(r).arg(tr).arg(tc);
        for (int c = 0; c < kTile; ++c)
            s.touches.push_back({1, tc * kTile + r, tr * kTile + c, Role::Write});
        steps.push_back(finish(s));
    }
    return steps;
}

std::vector<AccessStep> reducedNaive()
{
    // Thread (i, j) = (1, 2) of C (8 x 8): rows 2, 3 of A and columns 4, 5 of B, four at a time.
    std::vector<AccessStep> steps;
    const int i = 1, j = 2;
    for (int k0 = 0; k0 < kSide; k0 += kTile) {
        AccessStep s;
        s.title = QStringLiteral("thread C(%1, %2), k = %3..%4: A rows %5, %6 and B columns %7, %8")
                      .arg(i).arg(j).arg(k0).arg(k0 + kTile - 1).arg(2 * i).arg(2 * i + 1).arg(2 * j).arg(2 * j + 1);
        for (int k = k0; k < k0 + kTile; ++k) {
            s.touches.push_back({0, 2 * i, k, Role::Read});
            s.touches.push_back({0, 2 * i + 1, k, Role::Read});
            s.touches.push_back({1, k, 2 * j, Role::Read});
            s.touches.push_back({1, k, 2 * j + 1, Role::Read});
        }
        s = finish(s);
        s.cost = QStringLiteral("%1 global loads by this thread (4 per k: 4N = %2 in all), %3 sectors")
                     .arg(s.touches.size()).arg(4 * kSide).arg(s.sectors);
        steps.push_back(s);
    }
    return steps;
}

std::vector<AccessStep> reducedTiled()
{
    // C tile (0, 1) with TILE = 4: 4 x 4 threads; each step a 8 x 4 slab of A, a 4 x 8 slab of B.
    std::vector<AccessStep> steps;
    const int ti = 0, tj = 1;
    for (int k0 = 0; k0 < kSide; k0 += kTile) {
        AccessStep s;
        s.title = QStringLiteral("step %1: A rows %2..%3 x k %4..%5, B k %4..%5 x columns %6..%7, pairs summed into shared tiles")
                      .arg(k0 / kTile).arg(2 * ti * kTile).arg(2 * ti * kTile + 2 * kTile - 1).arg(k0).arg(k0 + kTile - 1)
                      .arg(2 * tj * kTile).arg(2 * tj * kTile + 2 * kTile - 1);
        for (int r = 0; r < 2 * kTile; ++r)
            for (int k = k0; k < k0 + kTile; ++k) {
                s.touches.push_back({0, 2 * ti * kTile + r, k, Role::Read});
                s.touches.push_back({1, k, 2 * tj * kTile + r, Role::Read});
            }
        s = finish(s);
        s.cost = QStringLiteral("4 global loads per thread per step (4N / TILE = %1 in all, naive: %2), %3 sectors for the block")
                     .arg(4 * kSide / kTile).arg(4 * kSide).arg(s.sectors);
        steps.push_back(s);
    }
    return steps;
}

}  // namespace

bool patternShows(Pattern pattern, Family family, bool gpu)
{
    switch (pattern) {
    case Pattern::TransposeCpuNaive:
    case Pattern::TransposeCpuBlocked: return family == Family::Transpose && !gpu;
    case Pattern::TransposeGpuNaive:
    case Pattern::TransposeGpuTilePair:
    case Pattern::TransposeGpuPadded: return family == Family::Transpose && gpu;
    case Pattern::ReducedNaive:
    case Pattern::ReducedTiled: return family == Family::Reduced;
    }
    return false;
}

Pattern firstPatternOf(Family family, bool gpu)
{
    for (const PatternInfo& p : patterns())
        if (patternShows(p.pattern, family, gpu))
            return p.pattern;
    return patterns().front().pattern;
}

std::vector<AccessStep> buildSteps(Pattern pattern)
{
    switch (pattern) {
    case Pattern::TransposeCpuNaive: return cpuNaive();
    case Pattern::TransposeCpuBlocked: return cpuBlocked();
    case Pattern::TransposeGpuNaive: return gpuNaive();
    case Pattern::TransposeGpuTilePair: return gpuTilePair();
    case Pattern::TransposeGpuPadded: return gpuPadded();
    case Pattern::ReducedNaive: return reducedNaive();
    case Pattern::ReducedTiled: return reducedTiled();
    }
    return {};
}

}  // namespace gigacheck::ui::gallery
