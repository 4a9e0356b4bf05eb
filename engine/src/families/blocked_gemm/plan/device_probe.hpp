// The planner's GemmRateProbe on a CUDA device (cost_model.hpp planWithCostModel): the cuBLAS rate
// of one block shape measured there, 0 when it cannot be (no memory for it, a CUDA error). Empty
// in a build without CUDA.
#pragma once

#include "gigacheck/blocked_gemm/cost_model.hpp"

namespace gigacheck {

GemmRateProbe gemmRateProbeOn(int device);

// The H2D calibration's timer on a CUDA device (cost_model.hpp calibrateH2d): the run's own block
// loads copied alone there. Empty in a build without CUDA.
HostLoadTimer hostLoadTimerOn(int device);

// The pack calibration's timer (cost_model.hpp calibratePacking): the run's own packed loads packed
// into pinned slots, each copied to the device while the next is packed, as the run does
// (cuda::timeHostPacking); on the host alone (hostPackTimer) in a build without CUDA.
HostPackTimer hostPackTimerOn(int device);

// Both calibrations on a run's own host matrices, as runGemm and the bench make them before a run
// on a CUDA device: model.h2dInSituFactor from calibrateH2d and, where model.h2dStaging packs,
// model.hostPackGBs from calibratePacking. text: their sentences for the prediction source.
struct RunCalibration {
    H2dCalibration h2d;
    PackCalibration pack;
    std::string text;
};
RunCalibration calibrateOnRunsMatrices(CostModel& model, const Schedule& schedule, std::size_t elementBytes,
                                       const HostMatrix& a, const HostMatrix& b, int device);

}  // namespace gigacheck
