// Counts of each transpose, from its loop nest (CPU) or its index arithmetic replayed for one
// warp of an off-diagonal block (GPU, warp_access.hpp). Effective bandwidth follows the seed:
// every element read once and written once, whatever the kernel really moves.
#include "families/transpose/decomposition.hpp"
#include "families/transpose/ratio_decomposition.hpp"
#include "families/transpose/warp_access.hpp"
#include "gigacheck/transpose.hpp"

#include <algorithm>
#include <numeric>

namespace gigacheck::transpose {

namespace {

constexpr int kTile = 32;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// lane -> (tx, ty) for a block blockDimX wide.
struct Lane {
    int tx, ty;
    Lane(int lane, int blockDimX) : tx(lane % blockDimX), ty(lane / blockDimX) {}
};

void countNaiveGpu(Counts& c, std::int64_t n, std::size_t eb)
{
    c.threads = ceilDiv(n, 32) * 32 * ceilDiv(n, 8) * 8;
    c.activeThreads = n * (n - 1) / 2;
    c.loadsPerThread = 2;
    const std::int64_t bx = n > kTile ? 1 : 0;  // a block above the diagonal
    auto row = [&](int l) { Lane t(l, 32); const std::int64_t r = t.ty, col = bx * 32 + t.tx; return col < n && col > r ? r * n + col : -1; };
    auto mirror = [&](int l) { Lane t(l, 32); const std::int64_t r = t.ty, col = bx * 32 + t.tx; return col < n && col > r ? col * n + r : -1; };
    const double coalesced = sectorsTouched(row, eb), strided = sectorsTouched(mirror, eb);
    c.sectorsPerWarpLoad = c.sectorsPerWarpStore = (coalesced + strided) / 2;
    c.sharedConflictWays = 0;
}

void countSeedCoalesced(Counts& c, std::int64_t n, std::size_t eb)
{
    const std::int64_t t = ceilDiv(n, kTile);
    c.threads = t * t * 8 * 32;
    c.activeThreads = t * (t + 1) / 2 * 8 * 32;
    c.loadsPerThread = t > 1 ? 8 : 4;  // 4 elements of each tile of the pair
    const std::int64_t bx = t > 1 ? 1 : 0;
    auto global = [&](int l) { Lane k(l, 8); const std::int64_t r = k.ty, col = bx * kTile + k.tx; return r < n && col < n ? r * n + col : -1; };
    c.sectorsPerWarpLoad = c.sectorsPerWarpStore = sectorsTouched(global, eb);
    auto sharedWrite = [](int l) { Lane k(l, 8); return std::int64_t(k.ty) * kTile + k.tx; };
    auto sharedRead = [](int l) { Lane k(l, 8); return std::int64_t(k.tx) * kTile + k.ty; };
    c.sharedConflictWays = std::max(bankConflictWays(sharedWrite), bankConflictWays(sharedRead));
}

// 32 x 8 threads over a 32 x 33 shared tile: the padded and the tile-pair kernels.
void countPaddedTile(Counts& c, std::int64_t rowsOfTiles, std::int64_t colsOfTiles, std::int64_t ld, std::size_t eb)
{
    auto global = [&](int l) { Lane k(l, 32); return std::int64_t(k.ty) * ld + k.tx; };
    c.sectorsPerWarpLoad = c.sectorsPerWarpStore = sectorsTouched(global, eb);
    auto sharedWrite = [](int l) { Lane k(l, 32); return std::int64_t(k.ty) * (kTile + 1) + k.tx; };
    auto sharedRead = [](int l) { Lane k(l, 32); return std::int64_t(k.tx) * (kTile + 1) + k.ty; };
    c.sharedConflictWays = std::max(bankConflictWays(sharedWrite), bankConflictWays(sharedRead));
    (void)rowsOfTiles;
    (void)colsOfTiles;
}

// The 16-byte paths (cuda/kernels.cuh: kPaddedTile, kPairTile; the same numbers).
constexpr int kPaddedTile = 64, kPairTile = 64;
constexpr std::size_t kVectorBytes = 16;

// Worst bank conflict over the 4 component steps e of a vector kernel's shared access.
int worstOverComponents(const std::function<std::int64_t(int lane, int e)>& word)
{
    int ways = 0;
    for (int e = 0; e < 4; ++e)
        ways = std::max(ways, bankConflictWays([&](int lane) { return word(lane, e); }));
    return ways;
}

// The 64 x 65 shared tile of both 64 x 64 16-byte kernels, warp 0: lanes t = lane % 16 write the
// 4 components of a float4 into tile row h = lane / 16, lanes l read 4 tile rows of column q; the
// component order rotated per 8-lane group in both directions.
int tile64ConflictWays()
{
    const int pitch = 64 + 1;
    const int store = worstOverComponents([&](int lane, int e) {
        const int t = lane & 15, h = lane >> 4;
        return std::int64_t(h * pitch + 4 * t + ((e + 2 * (t >> 3)) & 3));
    });
    const int load = worstOverComponents([&](int lane, int e) {
        const int l = lane & 15, q = lane >> 4;
        return std::int64_t((4 * l + ((e + 2 * (l >> 3)) & 3)) * pitch + q);
    });
    return std::max(store, load);
}

// padded, 16-byte path: warp 0 of a 64 x 64 tile, 256 threads; lanes t = lane % 16 load float4s
// of 2 input rows (h = lane / 16) and store float4s of 2 output rows, component order rotated per
// 8-lane group.
void countPaddedTile64(Counts& c, std::int64_t m, std::int64_t n)
{
    c.threads = c.activeThreads = ceilDiv(n, kPaddedTile) * ceilDiv(m, kPaddedTile) * 256;
    c.loadsPerThread = kPaddedTile / 16;  // 16-byte loads
    c.sectorsPerWarpLoad = sectorsTouched([&](int lane) { return (lane >> 4) * (n / 4) + (lane & 15); }, kVectorBytes);
    c.sectorsPerWarpStore = sectorsTouched([&](int lane) { return (lane >> 4) * (m / 4) + (lane & 15); }, kVectorBytes);
    c.sharedConflictWays = tile64ConflictWays();
}

// inplace square, 16-byte path: 64 x 64 tile pairs, 256 threads; warp 0, pass 0.
void countTilePairs64(Counts& c, std::int64_t n)
{
    const std::int64_t side = ceilDiv(n, kPairTile);
    c.threads = c.activeThreads = side * (side + 1) / 2 * 256;
    c.loadsPerThread = side > 1 ? 8 : 4;  // 16-byte loads: 4 of each tile of the pair
    auto global = [&](int lane) { return (lane >> 4) * (n / 4) + (lane & 15); };  // 2 rows of 256 bytes
    c.sectorsPerWarpLoad = c.sectorsPerWarpStore = sectorsTouched(global, kVectorBytes);
    c.sharedConflictWays = tile64ConflictWays();
}

// Rectangular in place, the C2R decomposition (cuda/decomposition.cu): the row shuffle's figures
// (one block of 1024 threads per row, coalesced reads, the scatter into the shared row replayed
// for the first warp of row 1); the column passes move strips of whole columns the same way.
void countDecomposition(Counts& c, std::int64_t m, std::int64_t n, std::size_t eb, double bytes)
{
    const c2r::Shape s = c2r::shapeOf(m, n);
    c.passes = s.g > 1 ? 3 : 2;  // column rotation (gcd > 1), row shuffle, column shuffle
    c.trafficBytes = 2.0 * double(c.passes) * bytes;
    c.threads = c.activeThreads = m * 1024;
    c.loadsPerThread = double(ceilDiv(n, 1024));
    auto row = [&](int lane) { return lane < n ? std::int64_t(n + lane) : -1; };
    c.sectorsPerWarpLoad = sectorsTouched(row, eb);
    auto rowVector = [&](int lane) { return 4 * lane < n ? std::int64_t(n / 4 + lane) : -1; };  // 16-byte write-back
    c.sectorsPerWarpStore = n % 4 == 0 ? sectorsTouched(rowVector, kVectorBytes) : sectorsTouched(row, eb);
    const std::int64_t r = m > 1 ? 1 : 0;
    c.sharedConflictWays = bankConflictWays([&](int lane) { return lane < n ? c2r::shuffleDestination(s, r, lane) : -1; });
}

// Rectangular in place where one side is 2 or 4 times the other: the ratio decomposition
// (cuda/ratio_decomposition.cu): two passes; the figures of the row pass (512 threads per row,
// 16-byte loads and stores, the permuted side in shared memory replayed for warp 0 of a row, worst
// over the 4 components of a lane's vector).
void countRatio(Counts& c, const ratio::Shape& s, double bytes)
{
    c.passes = 2;
    c.trafficBytes = 4.0 * bytes;
    c.threads = c.activeThreads = s.side * 512;
    c.loadsPerThread = double(ceilDiv(s.rowLength(), 4 * 512));
    auto linear = [&](int lane) { return 4 * lane < s.rowLength() ? std::int64_t(lane) : -1; };
    c.sectorsPerWarpLoad = c.sectorsPerWarpStore = sectorsTouched(linear, kVectorBytes);
    c.sharedConflictWays = worstOverComponents([&](int lane, int e) {
        const std::int64_t p = 4 * std::int64_t(lane) + e;
        return p < s.rowLength() ? ratio::sourceInRow(p, s.k, s.side) : -1;
    });
}

}  // namespace

Counts countsOf(Variant v, std::int64_t m, std::int64_t n, ElementType type)
{
    Counts c;
    const std::size_t eb = elementBytes(type);
    const double bytes = double(m) * double(n) * double(eb);
    c.bytesRead = c.bytesWritten = bytes;
    c.trafficBytes = 2 * bytes;
    const bool square = m == n;
    if (inPlace(v) && square) {
        c.swaps = n * (n - 1) / 2;  // seed: O(n^2 - n), the diagonal stays
        c.moves = 2 * c.swaps;
    } else {
        c.moves = m * n;
    }
    switch (v) {
    case Variant::Naive:
        // The CPU loop nest has no threads; the GPU figures describe the kernel of the same name.
        countNaiveGpu(c, n, eb);
        break;
    case Variant::Coalesced: countSeedCoalesced(c, n, eb); break;
    case Variant::InPlace:
        if (!square && ratio::shapeOf(m, n).applies()) {
            countRatio(c, ratio::shapeOf(m, n), bytes);
        } else if (!square) {
            countDecomposition(c, m, n, eb, bytes);
        } else if (n % 4 == 0) {
            countTilePairs64(c, n);
        } else {
            const std::int64_t side = ceilDiv(n, kTile);
            c.threads = c.activeThreads = side * (side + 1) / 2 * 256;
            c.loadsPerThread = side > 1 ? 8 : 4;
            countPaddedTile(c, side, side, n, eb);
        }
        break;
    case Variant::Padded:
        if (m % 4 == 0 && n % 4 == 0) {
            countPaddedTile64(c, m, n);
        } else {
            c.threads = c.activeThreads = ceilDiv(m, kTile) * ceilDiv(n, kTile) * 256;
            c.loadsPerThread = 4;
            countPaddedTile(c, ceilDiv(m, kTile), ceilDiv(n, kTile), n, eb);
        }
        break;
    case Variant::Blocked:
    case Variant::OutOfPlace:
    case Variant::Library:  // OpenBLAS / cuBLAS: their kernels are not ours to count
        break;
    }
    return c;
}

}  // namespace gigacheck::transpose
