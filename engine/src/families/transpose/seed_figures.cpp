// Seed 004's own figures, for the bench and the gallery view to print and draw beside ours.
#include "gigacheck/transpose.hpp"

#include <array>

namespace gigacheck::transpose {

std::span<const SeedFigure> seedFigures()
{
    static const std::array<SeedFigure, 2> figures{{
        {Variant::Naive, std::int64_t(1) << 15, 44.53, 0.4453 * kSeedGpuPeakGbps},
        {Variant::Coalesced, std::int64_t(1) << 15, 60.61, 0.6061 * kSeedGpuPeakGbps},
    }};
    return figures;
}

std::span<const SeedCacheMisses> seedCacheMisses()
{
    static const std::array<SeedCacheMisses, 10> table{{
        {6, 11, 0, 9, 0},
        {7, 1031, 0, 1196, 0},
        {8, 4219, 0, 5111, 0},
        {9, 79552, 0, 25752, 0},
        {10, 549915, 0, 110919, 0},
        {11, 2355172, 565518, 445457, 248956},
        {12, 9533753, 8569073, 1750886, 1390138},
        {13, 39382289, 35564330, 6825333, 5850780},
        {14, 158896368, 138295179, 152459246, 24930779},
        {15, 637092856, 566952987, 609925648, 100592536},
    }};
    return table;
}

}  // namespace gigacheck::transpose
