// One reduced matmul run, configured (gigacheck/family.hpp FamilyRun): from its verb's options or a record.
#pragma once

#include "families/gallery/contract_parts.hpp"
#include "gigacheck/reduced_matmul.hpp"

namespace gigacheck::reduced_matmul {

const Family& familyContract();
// "reduced matmul ..., f32, 3 reps" (family.cpp).
std::string describeConfig(const Config& config);

using ConfiguredRun = gallery::GalleryRun<Config, Record, &runReduced, &describeConfig, &familyContract>;

}  // namespace gigacheck::reduced_matmul
