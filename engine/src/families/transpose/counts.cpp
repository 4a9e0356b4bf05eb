// Counts of each transpose, from its loop nest (CPU) or its index arithmetic replayed for one
// warp of an off-diagonal block (GPU, warp_access.hpp). Effective bandwidth follows the seed:
// every element read once and written once, whatever the kernel really moves.
#include "families/transpose/warp_access.hpp"
#include "gigacheck/transpose.hpp"

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
    case Variant::InPlace: {
        const std::int64_t g = std::gcd(m, n);
        const std::int64_t side = ceilDiv(g, kTile);
        c.threads = c.activeThreads = side * (side + 1) / 2 * 256 * ((m / g) * (n / g));
        c.loadsPerThread = side > 1 ? 8 : 4;
        countPaddedTile(c, side, side, n, eb);
        if (!square) {
            c.passes = 2;  // tiles in place, then the segment cycles
            c.trafficBytes = 4 * bytes;
        }
        break;
    }
    case Variant::Padded:
        c.threads = c.activeThreads = ceilDiv(m, kTile) * ceilDiv(n, kTile) * 256;
        c.loadsPerThread = 4;
        countPaddedTile(c, ceilDiv(m, kTile), ceilDiv(n, kTile), n, eb);
        break;
    case Variant::Blocked:
    case Variant::OutOfPlace:
    case Variant::Library:  // cuBLAS: its kernels are not ours to count
        break;
    }
    return c;
}

}  // namespace gigacheck::transpose
