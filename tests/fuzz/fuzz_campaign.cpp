// libFuzzer target: the campaign-result reader (the lab's File > Open campaign, campaigns sent
// around as JSON). Any input may be refused with an InputError; nothing else may escape, crash,
// hang or leak, and a campaign that is accepted must print its report and CSVs and survive a save
// and a reload unchanged.
#include "gigacheck/campaign.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    gigacheck::CampaignResult campaign;
    try {
        campaign = gigacheck::campaignFromJson(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const gigacheck::InputError&) {
        return 0;
    }
    (void)gigacheck::formatCampaignReport(campaign);
    (void)gigacheck::campaignRunsCsv(campaign);
    // The first few runs' replay commands (a run after the checksums rebuilds its inputs).
    for (std::size_t n = 0; n < campaign.runs.size() && n < 8; ++n)
        (void)gigacheck::reproduceCommand(campaign.config, campaign.runs[n]);
    const std::string saved = gigacheck::campaignToJson(campaign);
    if (gigacheck::campaignToJson(gigacheck::campaignFromJson(saved)) != saved)
        std::abort();  // an accepted campaign must reload to the same text
    return 0;
}
