// What an online ABFT record claims, checked before anything uses or draws it: a record
// someone sent may claim 2^31 - 1 steps (the lab's step view would build a position per step) or
// a negative shape. Internal to the online ABFT family.
#pragma once

#include "gigacheck/online_abft.hpp"

#include <cstddef>
#include <cstdint>

namespace gigacheck::online_abft {

// Ceilings a record must stay under, far above what a run writes.
// Panel steps: as many as a run may have (kMaxOnlineSteps).
inline constexpr std::int64_t kMaxRecordSteps = kMaxOnlineSteps;
inline constexpr std::size_t kMaxRecordFaults = 10000;  // config.faults (--inject-at, clicked)
inline constexpr int kMaxRecordRandomErrors = 1 << 20;  // config.random_errors
inline constexpr int kMaxRecordColumnBlocks = 64;
inline constexpr std::size_t kMaxNoMajorityCells = 64;  // vote.no_majority keeps the first 64

// Throws InputError "record: field 'online_abft.<path>' ..." naming the first field out of range
// or inconsistent: the shape (as blocked GEMM records bound it), the panel, steps against the
// panel (OnlineConfig::steps, the family's own planning), the steps checks follow
// (OnlineConfig::checksAfter), K, every fault and event inside its matrix and its steps.
void validateRecord(const OnlineRecord& record);

}  // namespace gigacheck::online_abft
