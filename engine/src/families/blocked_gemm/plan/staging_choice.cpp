// --h2d-staging auto: the cost model decides whether a run's block loads are packed on the host.
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include "core/table.hpp"

namespace gigacheck {

StagingChoice chooseH2dStaging(const Schedule& schedule, CostModel model, const std::string& gemmKind,
                               std::size_t elementBytes)
{
    StagingChoice choice;
    model.h2dStaging = H2dStaging::Direct;
    choice.directSeconds = predictSchedule(schedule, model, gemmKind, elementBytes).totalSeconds;
    if (model.hostPackGBs <= 0) {
        choice.packSeconds = choice.directSeconds;
        choice.explanation = "Block loads: direct 2D copies (the host's pack rate is not measured: gigacheck devices "
                             "--measure).";
        return choice;
    }
    model.h2dStaging = H2dStaging::Pack;
    choice.packSeconds = predictSchedule(schedule, model, gemmKind, elementBytes).totalSeconds;
    const std::string both = " (predicted " + bench::fixed(choice.packSeconds, 3) + " s packed on the host at " +
                             bench::fixed(model.hostPackGBs, 1) + " GB/s, " + bench::fixed(choice.directSeconds, 3) + " s direct).";
    if (choice.packSeconds < choice.directSeconds) {
        choice.staging = H2dStaging::Pack;
        choice.explanation = "Block loads: packed on the host into pinned staging, then contiguous copies" + both;
    } else {
        choice.explanation = "Block loads: direct 2D copies" + both;
    }
    return choice;
}

}  // namespace gigacheck
