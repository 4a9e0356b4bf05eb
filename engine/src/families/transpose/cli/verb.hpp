// gigacheck transpose: the family's CLI verb (gigacheck/family.hpp FamilyCommand).
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck::transpose {

const FamilyCommand& command();

}  // namespace gigacheck::transpose
