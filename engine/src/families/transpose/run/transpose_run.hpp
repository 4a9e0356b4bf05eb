// One transpose run, configured (gigacheck/family.hpp FamilyRun): from its verb's options or a record.
#pragma once

#include "families/gallery/contract_parts.hpp"
#include "gigacheck/transpose.hpp"

namespace gigacheck::transpose {

const Family& familyContract();
// "transpose ..., f32, 3 reps" (family.cpp).
std::string describeConfig(const Config& config);

using ConfiguredRun = gallery::GalleryRun<Config, Record, &runTranspose, &describeConfig, &familyContract>;

}  // namespace gigacheck::transpose
