// The independent reference check of a product (OpenBLAS, never blocked, never injected): how much
// of C it compares and what it found. Every family that multiplies matrices records one.
#pragma once

#include "gigacheck/names.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace gigacheck {

// Auto: full reference when m*n*q <= 2^34, else a sample of 64 rows (resolveReferenceMode).
enum class ReferenceMode { Auto, Full, Sample, None };
template <> const EnumTable<ReferenceMode>& enumTable<ReferenceMode>();  // names.hpp
std::string_view toString(ReferenceMode);
ReferenceMode referenceModeFromString(std::string_view);

// Independent reference product C_ref = A B compared with C.
struct ReferenceCheck {
    ReferenceMode mode = ReferenceMode::None;
    std::int64_t rowsChecked = 0;
    std::int64_t mismatches = 0;  // elements where |C - C_ref| > tolerance
    double maxAbsError = 0;
    double maxRelError = 0;       // max |C - C_ref| / tolerance
    bool passed = true;
};

}  // namespace gigacheck
