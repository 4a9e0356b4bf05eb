// The Strassen family's own campaign settings, held in CampaignConfig::familySettings and read and
// written by its campaign part (engine/src/families/strassen/campaign/strassen_campaign.cpp): the
// campaign file's config.levels, `gigacheck campaign --levels`.
#pragma once

#include "gigacheck/campaign.hpp"
#include "gigacheck/strassen.hpp"

#include <string_view>
#include <vector>

namespace gigacheck {

struct StrassenCampaignSettings {
    static constexpr std::string_view kFamily = "strassen";  // its campaign family (--family strassen)
    std::vector<int> levels{1};  // recursion levels, cycled run by run as strategies
};

// The exact StrassenConfig of one run of a Strassen campaign (what its `reproduce` command and the
// lab re-run: levels, seed, bit, the faults between stages, the FP64 reference always on).
StrassenConfig strassenCampaignRunConfig(const CampaignConfig& config, const CampaignRun& run);

}  // namespace gigacheck
