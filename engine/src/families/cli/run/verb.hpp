// gigacheck run: one verb for two families. --scheme blocked (the default) runs blocked GEMM,
// --scheme online | offline | tmr the online ABFT family (which has no verb of its own), so the
// verb sits above both (families/cli/) and neither family's folder includes the other. Blocked
// GEMM's contract names it as its command (gigacheck/family.hpp FamilyCommand).
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck {

const FamilyCommand& runVerbCommand();

}  // namespace gigacheck
