// gigacheck run: the blocked GEMM family's CLI verb (gigacheck/family.hpp FamilyCommand); its
// --scheme online | offline | tmr runs the online ABFT family (which has no verb of its own).
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck::blocked_gemm {

const FamilyCommand& command();

}  // namespace gigacheck::blocked_gemm
