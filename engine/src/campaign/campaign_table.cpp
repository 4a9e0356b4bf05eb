// The campaign table's family words (gigacheck/campaign.hpp campaignVariesTitle ...): each asks
// the campaign's family, so the lab's campaign view holds no family if-chain.
#include "gigacheck/campaign.hpp"
#include "campaign/family_campaign.hpp"

namespace gigacheck {

namespace {

std::string cellText(std::int64_t index)
{
    return index >= 0 ? std::to_string(index) : std::string("checksum");
}

}  // namespace

std::string FamilyCampaign::positionsText(const CampaignRun& run) const
{
    std::string text;
    const auto add = [&](const std::string& item) { text += (text.empty() ? "" : " ") + item; };
    for (const StrassenFaultPlace& p : run.places)  // Strassen: a leaf or a quadrant, not a cell
        add(p.where + ":" + std::to_string(p.index));
    for (const Injection& inj : run.applied)
        add("(" + cellText(inj.globalRow) + ", " + cellText(inj.globalCol) + ")");
    return text;
}

std::string campaignVariesTitle(const CampaignConfig& config)
{
    return std::string(campaignFamilyOf(config).variesTitle());
}

std::string campaignRunVaries(const CampaignConfig& config, const CampaignRun& run)
{
    return campaignFamilyOf(config).variesText(config, run);
}

std::string campaignRunPositions(const CampaignConfig& config, const CampaignRun& run)
{
    return campaignFamilyOf(config).positionsText(run);
}

bool campaignRunsReplayInLab(const CampaignConfig& config) { return campaignFamilyOf(config).replaysInLab(); }

}  // namespace gigacheck
