// gigacheck reduced: the family's CLI verb (gigacheck/family.hpp FamilyCommand).
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck::reduced_matmul {

const FamilyCommand& command();

}  // namespace gigacheck::reduced_matmul
