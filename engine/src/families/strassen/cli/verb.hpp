// gigacheck strassen: the family's CLI verb (gigacheck/family.hpp FamilyCommand).
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck::strassen {

const FamilyCommand& command();

}  // namespace gigacheck::strassen
