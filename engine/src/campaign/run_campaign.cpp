// runCampaign: N runs in one process on one backend (the GPU's context, handles and buffers stay
// warm), each classified against the full reference; and the summary tables over them.
#include "gigacheck/campaign.hpp"
#include "campaign/family_campaign.hpp"
#include "core/timestamp.hpp"

#include "gigacheck/version.hpp"

#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

namespace gigacheck {

namespace {

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
    if (!run.familyTarget.empty())  // online and Strassen runs name their own targets
        return run.familyTarget;
    if (run.operand)
        return std::string(1, run.operand) + (run.afterChecksums ? "-after" : "");
    if (run.target == FaultTarget::Result && run.positions.empty())
        return "none";
    return std::string(toString(run.target));
}

CampaignSummary summarize(const std::vector<CampaignRun>& runs, const CampaignFamily& family)
{
    CampaignSummary s;
    const bool byStrategy = campaignFamilyOf(family).traits().strategies;  // the others have none
    std::map<std::string, OutcomeCounts> bits, targets, strategies, levels;
    for (const CampaignRun& run : runs) {
        s.all.add(run.outcome);
        if (run.faults.maxCleanResidualRatio > s.maxCleanResidualRatio) {
            s.maxCleanResidualRatio = run.faults.maxCleanResidualRatio;
            s.maxCleanResidualRun = run.index;
        }
        if (run.bit >= 0)
            bits[std::to_string(run.bit)].add(run.outcome);
        targets[targetKey(run)].add(run.outcome);
        if (byStrategy)
            strategies[std::string(toString(run.strategy))].add(run.outcome);
        if (run.level >= 0)
            levels[std::to_string(run.level)].add(run.outcome);
    }
    s.byBit = ordered(std::move(bits), true);
    s.byTarget = ordered(std::move(targets), false);
    s.byStrategy = ordered(std::move(strategies), false);
    s.byLevel = ordered(std::move(levels), true);
    return s;
}

namespace {

// Runs [begin, end) of the campaign (all of it, or one shard's slice).
CampaignResult runRange(const CampaignConfig& config, const std::optional<CampaignShard>& shard,
                        const CampaignHooks& hooks)
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
    if (shard)
        validateCampaignShard(*shard, config.runs);
    result.shard = shard;
    const RunRange range = shard ? shardRuns(config.runs, *shard) : RunRange{0, config.runs};
    backend->prepare();
    const FamilyCampaign& family = campaignFamilyOf(config);

    for (int i = range.begin; i < range.end; ++i) {
        if (hooks.cancel && hooks.cancel->load()) {
            result.interrupted = true;
            break;
        }
        CampaignRun run = planCampaignRun(config, i);
        const auto started = std::chrono::steady_clock::now();
        if (!family.run(config, run, *backend, hooks.cancel)) {  // a run cut short is no outcome: drop it
            result.interrupted = true;
            break;
        }
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        result.runs.push_back(std::move(run));
        if (hooks.onRun)
            hooks.onRun(result.runs.back(), i - range.begin + 1, range.end - range.begin);
    }
    result.summary = summarize(result.runs, config.family);
    return result;
}

}  // namespace

CampaignResult runCampaign(const CampaignConfig& config, const CampaignHooks& hooks)
{
    return runRange(config, std::nullopt, hooks);
}

CampaignResult runCampaign(const CampaignConfig& config, const CampaignShard& shard, const CampaignHooks& hooks)
{
    return runRange(config, shard, hooks);
}

}  // namespace gigacheck
