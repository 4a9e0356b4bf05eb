// runCampaign: N runs in one process on one backend (the GPU's context, handles and buffers stay
// warm), each classified against the full reference; and the summary tables over them.
#include "gigacheck/campaign.hpp"
#include "campaign/operand_faults.hpp"
#include "core/timestamp.hpp"

#include "gigacheck/run.hpp"
#include "gigacheck/version.hpp"
#include "families/blocked_gemm/run/reference.hpp"

#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

namespace gigacheck {

namespace {

// The run's operand element(s) as injections whose block is (-1, -1, -1) and whose positions are in
// the operand; with `m`, also corrupted in place (before the checksums: RunHooks::onInputs).
void recordOperandFault(CampaignRun& run, const CampaignConfig& c, const HostMatrix& intended, HostMatrix* m)
{
    for (std::size_t n = 0; n < run.positions.size(); ++n) {
        const FaultAt& at = run.positions[n];
        Injection inj;
        inj.block = {-1, -1, -1};
        inj.localRow = inj.globalRow = at.row;
        inj.localCol = inj.globalCol = at.col;
        inj.model = c.model;
        inj.bit = run.bit < 0 ? 0 : run.bit;
        inj.before = intended.at(at.row, at.col);
        inj.after = corruptedOperandValue(c, run, n, inj.before, intended.precision());
        inj.delta = inj.after - inj.before;
        if (m)
            m->set(at.row, at.col, inj.after);
        inj.applied = true;
        run.applied.push_back(inj);
    }
}

// The reference of an operand run is the product of the inputs as they were meant to be.
ReferenceCheck referenceOfIntendedInputs(const RunConfig& rc, const HostMatrix& c)
{
    HostMatrix a(rc.precision, rc.shape.m, rc.shape.n), b(rc.precision, rc.shape.n, rc.shape.q);
    fillRandom(a, rc.distribution, rc.seed, 1);
    fillRandom(b, rc.distribution, rc.seed, 2);
    return checkAgainstReference(a, b, c, ReferenceMode::Full, rc.thresholdLambda, rc.gemm == GemmVariant::CublasTf32);
}

void fillOutcome(CampaignRun& run, RunRecord& record)
{
    // After the checksums the record's own injections (the row / column of C) are the fault.
    if (run.operand && !run.afterChecksums) {
        // ABFT never saw these injections; they count as injected so an alarm is not "false".
        record.faults.injected = int(run.applied.size());
    }
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
    if (run.operand)
        return std::string(1, run.operand) + (run.afterChecksums ? "-after" : "");
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

    for (int i = range.begin; i < range.end; ++i) {
        if (hooks.cancel && hooks.cancel->load()) {
            result.interrupted = true;
            break;
        }
        CampaignRun run = planCampaignRun(config, i);
        RunHooks runHooks;
        runHooks.backend = backend;
        runHooks.cancel = hooks.cancel;
        HostMatrix c;
        if (run.operand && run.afterChecksums) {
            // The intended inputs stay as they are; the schedule injects the fault's effect on C.
            runHooks.onInputs = [&](HostMatrix& a, HostMatrix& b) {
                recordOperandFault(run, config, run.operand == 'a' ? a : b, nullptr);
            };
        } else if (run.operand) {
            runHooks.onInputs = [&](HostMatrix& a, HostMatrix& b) {
                HostMatrix& m = run.operand == 'a' ? a : b;
                HostMatrix intended(m.precision(), m.rows(), m.cols());
                std::memcpy(intended.data(), m.data(), m.bytes());
                recordOperandFault(run, config, intended, &m);
            };
            runHooks.resultOut = &c;
        }
        const RunConfig runConfig = campaignRunConfig(config, run);
        const auto started = std::chrono::steady_clock::now();
        RunRecord record = runGemm(runConfig, runHooks);
        if (record.status == "cancelled") {  // a run cut short is no outcome: drop it
            result.interrupted = true;
            break;
        }
        if (run.operand && !run.afterChecksums && record.status == "ok")
            record.reference = referenceOfIntendedInputs(runConfig, c);
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        fillOutcome(run, record);
        result.runs.push_back(std::move(run));
        if (hooks.onRun)
            hooks.onRun(result.runs.back(), i - range.begin + 1, range.end - range.begin);
    }
    result.summary = summarize(result.runs);
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
