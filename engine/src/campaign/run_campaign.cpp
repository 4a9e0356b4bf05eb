// runCampaign: N runs in one process on one backend (the GPU's context, handles and buffers stay
// warm), each classified against the full reference; and the summary tables over them.
#include "gigacheck/campaign.hpp"

#include "gigacheck/run.hpp"
#include "gigacheck/version.hpp"

#include <chrono>
#include <ctime>
#include <map>
#include <memory>

namespace gigacheck {

namespace {

std::string nowIso8601()
{
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

void fillOutcome(CampaignRun& run, const RunRecord& record)
{
    for (const InjectEvent& e : record.injections)
        if (e.injection.applied)
            run.applied.push_back(e.injection);
    run.status = record.status;
    run.error = record.error;
    run.faults = record.faults;
    run.referencePassed = record.reference.passed;
    run.maxErrorOverTolerance = record.reference.maxRelError;
    run.outcome = classifyRun(record);
}

std::vector<CampaignGroup> ordered(std::map<std::string, OutcomeCounts>&& groups, bool numeric)
{
    std::vector<CampaignGroup> out;
    for (auto& [key, counts] : groups)
        out.push_back({key, counts});
    if (numeric)
        std::stable_sort(out.begin(), out.end(),
                         [](const CampaignGroup& a, const CampaignGroup& b) { return std::stoi(a.key) < std::stoi(b.key); });
    return out;
}

}  // namespace

std::string targetKey(const CampaignRun& run)
{
    // A result run always has positions; a checksum run never targets Result: none is --fault none.
    if (run.target == FaultTarget::Result && run.positions.empty())
        return "none";
    return std::string(toString(run.target));
}

CampaignSummary summarize(const std::vector<CampaignRun>& runs)
{
    CampaignSummary s;
    std::map<std::string, OutcomeCounts> bits, targets, strategies;
    for (const CampaignRun& run : runs) {
        s.all.add(run.outcome);
        if (run.bit >= 0)
            bits[std::to_string(run.bit)].add(run.outcome);
        targets[targetKey(run)].add(run.outcome);
        strategies[std::string(toString(run.strategy))].add(run.outcome);
    }
    s.byBit = ordered(std::move(bits), true);
    s.byTarget = ordered(std::move(targets), false);
    s.byStrategy = ordered(std::move(strategies), false);
    return s;
}

CampaignResult runCampaign(const CampaignConfig& config, const CampaignHooks& hooks)
{
    std::unique_ptr<Backend> own;
    Backend* backend = hooks.backend;
    if (!backend) {
        own = makeBackend(config.backend, config.device);
        backend = own.get();
    }
    CampaignResult result;
    result.config = config;
    result.device = backend->device();
    result.toolVersion = kVersion;
    result.createdAt = nowIso8601();
    validateCampaign(config, result.device);
    backend->prepare();

    for (int i = 0; i < config.runs; ++i) {
        if (hooks.cancel && hooks.cancel->load()) {
            result.interrupted = true;
            break;
        }
        CampaignRun run = planCampaignRun(config, i);
        RunHooks runHooks;
        runHooks.backend = backend;
        runHooks.cancel = hooks.cancel;
        const auto started = std::chrono::steady_clock::now();
        const RunRecord record = runGemm(campaignRunConfig(config, run), runHooks);
        if (record.status == "cancelled") {  // a run cut short is no outcome: drop it
            result.interrupted = true;
            break;
        }
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        fillOutcome(run, record);
        result.runs.push_back(std::move(run));
        if (hooks.onRun)
            hooks.onRun(result.runs.back(), i + 1, config.runs);
    }
    result.summary = summarize(result.runs);
    return result;
}

}  // namespace gigacheck
