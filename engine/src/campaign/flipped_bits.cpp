#include "campaign/flipped_bits.hpp"

#include <string>

namespace gigacheck {

int campaignElementBits(CampaignType type) { return type == CampaignType::F64 ? 64 : 32; }

void drawFlippedBits(const CampaignConfig& c, CampaignRng& rng, CampaignRun& run)
{
    if (c.model != FaultModel::BitFlip)
        return;
    const int bits = campaignElementBits(c.type);
    run.bit = c.bit >= 0 ? c.bit : int(rng.below(bits));
    if (!c.twoBits)
        return;
    run.bit2 = c.bit2 >= 0 ? c.bit2 : int(rng.below(bits - 1));
    if (c.bit2 < 0 && run.bit2 >= run.bit)  // a second bit other than the first
        ++run.bit2;
}

void validateFlippedBits(const CampaignConfig& c)
{
    if (!c.inject || c.model != FaultModel::BitFlip)
        return;
    const int bits = campaignElementBits(c.type);
    const std::string element = "an " + std::string(toString(c.type)) + " element (bits 0-" + std::to_string(bits - 1) + ")";
    if (c.bit >= bits)
        throw InputError("bit " + std::to_string(c.bit) + " is outside " + element);
    if (c.twoBits && (c.bit2 >= bits || (c.bit >= 0 && c.bit == c.bit2)))
        throw InputError("two-bit flip: the bits must be two different bits of " + element);
}

}  // namespace gigacheck
