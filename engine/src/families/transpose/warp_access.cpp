#include "families/transpose/warp_access.hpp"

#include <algorithm>
#include <set>

namespace gigacheck::transpose {

int sectorsTouched(const LaneAddress& element, std::size_t elementBytes)
{
    std::set<std::int64_t> sectors;
    for (int lane = 0; lane < kWarp; ++lane)
        if (const std::int64_t e = element(lane); e >= 0)
            sectors.insert(e * std::int64_t(elementBytes) / kSectorBytes);
    return int(sectors.size());
}

int bankConflictWays(const LaneAddress& word)
{
    std::array<std::set<std::int64_t>, kBanks> perBank;
    for (int lane = 0; lane < kWarp; ++lane)
        if (const std::int64_t w = word(lane); w >= 0)
            perBank[std::size_t(w % kBanks)].insert(w);
    std::size_t ways = 0;
    for (const auto& bank : perBank)
        ways = std::max(ways, bank.size());
    return int(ways);
}

}  // namespace gigacheck::transpose
