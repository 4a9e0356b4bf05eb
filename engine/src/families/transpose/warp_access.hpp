// What one warp's memory instruction costs, from the 32 addresses its lanes touch: the 32-byte
// sectors of global memory (coalesced: 4 for 32 float32; strided: 32) and the shared-memory bank
// conflict degree (32 banks of 4 bytes). The counts of counts.cpp replay each kernel's index
// arithmetic for one warp through these; the gallery's animation draws the same lanes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

namespace gigacheck::transpose {

inline constexpr int kWarp = 32;
inline constexpr int kSectorBytes = 32;
inline constexpr int kBanks = 32;

// lane -> element index, or -1 when the lane is idle at that instruction.
using LaneAddress = std::function<std::int64_t(int lane)>;

int sectorsTouched(const LaneAddress& element, std::size_t elementBytes);
// The largest number of distinct 4-byte words one bank serves (1 = conflict free).
int bankConflictWays(const LaneAddress& word);

}  // namespace gigacheck::transpose
