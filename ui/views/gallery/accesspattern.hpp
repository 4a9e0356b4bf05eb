// The access-pattern animation of the kernel gallery, as plain data: on a 16 x 16 matrix in 4 x 4
// tiles, which elements one warp (GPU) or one loop step (CPU) touches at each step, and the
// sectors that costs. Scaled down with the matrix: a "warp" is 16 lanes and a "sector" 4 elements
// (one tile row), so a coalesced warp row costs 4 sectors and a strided one 16, as 32 float32
// lanes cost 4 and 32 sectors of 32 bytes on the device. Built without a screen, tested in
// tests/ui/tst_gallery.cpp; AccessPatternWidget draws it.
#pragma once

#include "views/gallery/gallerysweep.hpp"

#include <QString>

#include <vector>

namespace gigacheck::ui::gallery {

inline constexpr int kSide = 16;
inline constexpr int kTile = 4;
inline constexpr int kLanes = 16;
inline constexpr int kSectorElements = 4;

enum class Pattern {
    TransposeCpuNaive,     // seed Algorithm 1: one i of the loop per step
    TransposeCpuBlocked,   // seed Algorithm 2: diagonal blocks, then block pairs
    TransposeGpuNaive,     // one warp of the naive kernel: its row read, then its strided mirror read
    TransposeGpuTilePair,  // seed Algorithm 3 / inplace: two symmetric tiles through shared memory
    TransposeGpuPadded,    // out of place: a tile read row-wise, written row-wise into Y
    ReducedNaive,          // one thread's rows of A and columns of B (seed figure 4.2)
    ReducedTiled,          // one C tile's sweep over A's and B's slabs (seed figure 4.3)
};

enum class Role { Read, Write, Swap };

struct Touch {
    int matrix = 0;  // 0: X (transpose) / A (reduced); 1: Y (out of place) / B (reduced)
    int row = 0, col = 0;
    Role role = Role::Read;
};

struct AccessStep {
    QString title;
    QString cost;  // "4 sectors (coalesced)" ...
    std::vector<Touch> touches;
    int sectors = 0;
};

struct PatternInfo {
    Pattern pattern;
    QString name;
    QString matrix0, matrix1;  // labels of the grids; matrix1 empty: one grid
};

const std::vector<PatternInfo>& patterns();
// Whether a pattern shows a kernel of the family on that backend (the reduced matmul's patterns
// serve both backends), and the one the gallery opens on for them.
bool patternShows(Pattern pattern, Family family, bool gpu);
Pattern firstPatternOf(Family family, bool gpu);
std::vector<AccessStep> buildSteps(Pattern pattern);
// Distinct sectors (kSectorElements consecutive elements of a row) among the touches.
int sectorsOf(const std::vector<Touch>& touches);

}  // namespace gigacheck::ui::gallery
