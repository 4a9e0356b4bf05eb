#include "gigacheck/cuda_status.hpp"

namespace gigacheck {

// GIGACHECK_CUTLASS_STATUS is set on this file alone by engine/CMakeLists.txt.
std::string cutlassKernelsStatus() { return GIGACHECK_CUTLASS_STATUS; }

}  // namespace gigacheck
