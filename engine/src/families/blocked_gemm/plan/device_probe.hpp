// The planner's GemmRateProbe on a CUDA device (cost_model.hpp planWithCostModel): the cuBLAS rate
// of one block shape measured there, 0 when it cannot be (no memory for it, a CUDA error). Empty
// in a build without CUDA.
#pragma once

#include "gigacheck/cost_model.hpp"

namespace gigacheck {

GemmRateProbe gemmRateProbeOn(int device);

// The H2D calibration's timer on a CUDA device (cost_model.hpp calibrateH2d): the run's own block
// loads copied alone there. Empty in a build without CUDA.
HostLoadTimer hostLoadTimerOn(int device);

}  // namespace gigacheck
