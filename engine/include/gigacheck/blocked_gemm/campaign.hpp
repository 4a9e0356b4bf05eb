// A blocked GEMM run in a campaign (engine/src/families/blocked_gemm/campaign/blocked_campaign.cpp): the exact
// run configuration of one campaign run and the outcome class of its record. The campaign's
// family-neutral interface (gigacheck/campaign.hpp) names no family's types.
#pragma once

#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/campaign.hpp"

namespace gigacheck {

// Classifies one finished run (status ok or failed; a cancelled run is not an outcome) from its
// fault report, its verdicts and its reference check. The reference must have been run.
Outcome classifyRun(const RunRecord& record);

// The exact RunConfig of one run (what `gigacheck run` and the lab re-run). Blocked campaigns only.
RunConfig campaignRunConfig(const CampaignConfig& config, const CampaignRun& run);

}  // namespace gigacheck
