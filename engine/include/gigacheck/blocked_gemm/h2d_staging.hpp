// How the blocked GEMM's host-to-device block copies leave the host ("the link under
// load"). A block of A or B is a rectangle of a row-major host matrix: a 2D copy of narrow rows out
// of a wide matrix ran at 29-39 GB/s beside a GEMM on the H200 where one contiguous copy keeps
// 55 GB/s (resources/results/probes/copy_pitch_probe.cu, host_pages_probe.cu). Packing the block
// on the host first, by host threads into pinned staging, turns it into one contiguous copy, at
// the price of the host's packing rate (25-30 GB/s on the H200's host: it pays where a copy waits
// for a product anyway, as in s1, not where copies run beside the products).
// The CUDA backend does it; the CPU backend copies with memcpy and ignores the setting.
#pragma once

#include "gigacheck/names.hpp"

#include <cstdint>
#include <string_view>

namespace gigacheck {

enum class H2dStaging {
    Auto,    // the run chooses pack or direct, whichever the cost model predicts faster for its
             // schedule with the host's measured pack rate (direct when none is stored)
    Pack,    // pack every block that is not already contiguous in the host matrix
    Direct,  // one 2D copy straight out of the host matrix (the engine before packing)
};
template <> const EnumTable<H2dStaging>& enumTable<H2dStaging>();
std::string_view toString(H2dStaging);
H2dStaging h2dStagingFromString(std::string_view);

// Pinned staging slots per device, used in turn: packing runs up to kStagingSlots - 1 loads ahead
// of the copy engine.
inline constexpr int kStagingSlots = 3;

// Whether a copy of `rows` rows of rowBytes out of a host matrix whose rows are hostPitchBytes
// apart is packed on the host first under a resolved staging (Auto, unresolved, copies directly).
// A block that is already contiguous (one row, or rows as wide as the matrix) never is.
bool packsOnHost(H2dStaging staging, std::int64_t rows, std::int64_t rowBytes, std::int64_t hostPitchBytes);

}  // namespace gigacheck
