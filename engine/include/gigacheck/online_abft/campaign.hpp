// The online ABFT family's own campaign settings, held in CampaignConfig::familySettings and read
// and written by its campaign part (engine/src/families/online_abft/campaign/online_campaign.cpp):
// the campaign file's config.check_every and config.panel, `gigacheck campaign --check-every / --panel`.
#pragma once

#include "gigacheck/campaign.hpp"
#include "gigacheck/online_abft.hpp"

#include <cstdint>
#include <string_view>

namespace gigacheck {

struct OnlineCampaignSettings {
    static constexpr std::string_view kFamily = "online";  // its campaign family (--family online)
    int checkEvery = 1;      // online: check every fq steps (offline: only after the last)
    std::int64_t panel = 0;  // online / offline: panel width b; 0: min(n, 1024)
};

// The exact OnlineConfig of one run of an online-family campaign (what its `reproduce` command and
// the lab re-run: scheme, panel, check interval, seed, bit, the faults and their step).
OnlineConfig onlineCampaignRunConfig(const CampaignConfig& config, const CampaignRun& run);

}  // namespace gigacheck
