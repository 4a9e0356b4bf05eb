// How the blocked GEMM's host-to-device block copies leave the host (issue 13, "the link under
// load"). A block of A or B is a rectangle of a row-major host matrix: a 2D copy of narrow rows out
// of a wide matrix ran at 29-39 GB/s beside a GEMM on the H200 where one contiguous copy keeps
// 55 GB/s (resources/results/probes/copy_pitch_probe.cu, host_pages_probe.cu). Packing the block
// on the host first, by a few threads into pinned staging, turns it into one contiguous copy.
// The CUDA backend does it; the CPU backend copies with memcpy and ignores the setting.
#pragma once

#include "gigacheck/names.hpp"

#include <cstdint>
#include <string_view>

namespace gigacheck {

enum class H2dStaging {
    Auto,    // pack the blocks whose rows are narrower than kPackRowsBelowBytes
    Pack,    // pack every block that is not already contiguous in the host matrix
    Direct,  // one 2D copy straight out of the host matrix (the engine before packing)
};
template <> const EnumTable<H2dStaging>& enumTable<H2dStaging>();
std::string_view toString(H2dStaging);
H2dStaging h2dStagingFromString(std::string_view);

// Rows at least this wide kept 54-55 GB/s beside a GEMM at every host pitch measured on the
// H200 (copy_pitch_probe's first form: 32 KiB and wider rows); narrower ones lost up to 45 %.
inline constexpr std::int64_t kPackRowsBelowBytes = 32 * 1024;

// Whether a copy of `rows` rows of rowBytes out of a host matrix whose rows are hostPitchBytes
// apart is packed on the host first. A block that is already contiguous (one row, or rows as wide
// as the matrix) never is: it is one contiguous copy as it stands.
bool packsOnHost(H2dStaging staging, std::int64_t rows, std::int64_t rowBytes, std::int64_t hostPitchBytes);

}  // namespace gigacheck
