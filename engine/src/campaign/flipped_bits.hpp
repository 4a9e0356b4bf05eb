// The bits a bit-flip campaign run strikes, drawn and checked the same way by every family's
// campaign part: bit B (or a random bit of the element) and, for two-bit flips (--fault bitflip2,
// bitflip:B+B2), a second bit B2 (or a random bit other than the first).
#pragma once

#include "campaign/campaign_rng.hpp"
#include "gigacheck/campaign.hpp"

namespace gigacheck {

// Bits of the element a campaign of this type stores (64 for f64, else 32).
int campaignElementBits(CampaignType type);
// run.bit (and run.bit2 for two-bit flips) of a bit-flip campaign; nothing for a delta campaign.
// Draws from rng in the same order for every family, so that a run replays alone.
void drawFlippedBits(const CampaignConfig& config, CampaignRng& rng, CampaignRun& run);
// InputError when a bit is outside the element, or the two bits of a two-bit flip are one.
void validateFlippedBits(const CampaignConfig& config);

}  // namespace gigacheck
