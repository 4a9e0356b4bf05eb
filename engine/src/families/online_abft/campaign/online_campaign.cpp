// The online ABFT family in a campaign (--family online, --scheme online | offline | tmr): each run
// a runOnline OnlineRecord with its faults at a chosen step, judged against the FP64 product of the
// original inputs, replayed by `gigacheck run --scheme S ... --inject-at R,C@STEP`.
#include "campaign/family_campaign.hpp"
#include "campaign/campaign_json_fields.hpp"
#include "campaign/campaign_rng.hpp"
#include "campaign/flipped_bits.hpp"

#include "gigacheck/fault_models.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/online_abft/campaign.hpp"
#include "gemm/reference.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <limits>
#include <set>

namespace gigacheck {

namespace {

bool isTmr(const CampaignConfig& c) { return c.scheme == "tmr"; }
OnlineCampaignSettings settingsOf(const CampaignConfig& c) { return familySettingsOf<OnlineCampaignSettings>(c); }

// The family's target names a run can draw ("any" picks one of them).
constexpr const char* kOnlineTargets[] = {"result", "checksum-row", "checksum-col", "a", "b", "a-after", "b-after"};

OnlineConfig baseConfig(const CampaignConfig& c)
{
    OnlineConfig o;
    o.shape = c.shape;
    o.precision = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    o.gemm = c.type == CampaignType::Tf32 || c.type == CampaignType::Tf32x3 ? campaignGemm(c.type) : GemmVariant::Cublas;
    o.distribution = c.distribution;
    o.backend = c.backend;
    o.device = c.device;
    o.scheme = schemeFromString(c.scheme);
    const OnlineCampaignSettings s = settingsOf(c);
    o.panel = s.panel;
    o.checkEvery = c.scheme == "offline" ? 0 : s.checkEvery;
    o.reference = ReferenceMode::Full;  // every cell; the campaign judges against its own reference anyway
    o.thresholdLambda = c.thresholdLambda;
    o.model = c.model;
    return o;
}

OnlineTarget onlineTargetOf(const std::string& name)
{
    return name == "a-after" ? OnlineTarget::A : name == "b-after" ? OnlineTarget::B : onlineTargetFromString(name);
}

// Rows x columns a target's positions are drawn from (checksum-row: weighted row 0; checksum-col:
// the first column block's checksum column).
std::pair<std::int64_t, std::int64_t> extentOf(const std::string& target, const Shape& s)
{
    if (target == "checksum-row")
        return {1, s.q};
    if (target == "checksum-col")
        return {s.m, 1};
    if (target == "a" || target == "a-after")
        return {s.m, s.n};
    if (target == "b" || target == "b-after")
        return {s.n, s.q};
    return {s.m, s.q};
}

// The run's OnlineConfig: its seed, bit and faults at its step, each fault's cells as far as
// --extent reaches from it (a row or column segment, a tile, clipped to its target).
OnlineConfig runConfigOf(const CampaignConfig& c, const CampaignRun& run)
{
    OnlineConfig o = baseConfig(c);
    o.seed = run.seed;
    o.bit = run.bit;
    o.bit2 = run.bit2;
    if (!c.inject)
        return o;
    const OnlineTarget target = onlineTargetOf(run.familyTarget);
    const auto [rows, cols] = extentOf(run.familyTarget, c.shape);
    std::set<std::pair<std::int64_t, std::int64_t>> struck;  // overlapping reaches strike a cell once
    for (std::size_t f = 0; f < run.positions.size(); ++f) {
        const FaultAt& at = run.positions[f];
        const std::optional<double> delta = f < c.placed.size() ? c.placed[f].delta : std::nullopt;  // --inject-at's
        for (const auto& [r, col] : faultReach(c.extent, c.extentLength, at.row, at.col, rows, cols))
            if (struck.insert({r, col}).second)
                o.faults.push_back(OnlineFault{target, r, col, delta,
                                               run.step >= 0 ? std::optional<int>(run.step) : std::nullopt});
    }
    return o;
}

class OnlineCampaign final : public FamilyCampaign {
public:
    const CampaignFamilyTraits& traits() const override
    {
        using T = CampaignTarget;
        static const CampaignFamilyTraits traits{
            .name = "online",
            .helpWords = "online / offline ABFT or TMR, --scheme",
            .defaultScheme = "online",
            .selectingSchemes = {"online", "offline", "tmr"},
            .ownOptions = {"check-every", "panel"},
            .optionOwner = "online campaigns (--family online)",
            .targets = {T::Result, T::Checksum, T::ChecksumRow, T::ChecksumCol, T::A, T::B, T::AAfter, T::BAfter, T::Any},
            .defaultModel = std::nullopt,
            .defaultTarget = std::nullopt,
            .strategies = false,
            .sixteenBitTypes = false,
            .targetWords =
                "C at a random step, a checksum row or column at a step (checksum: either; checksum-row, checksum-col), A / B before the checksums (a, b) or after a "
                "step (a-after, b-after), or any of these (tmr: result, a cell of one replica)",
            .faultWords = "",
            .extents = true};
        return traits;
    }
    bool replaysInLab() const override { return true; }  // onlineCampaignRunConfig: the lab's online run
    void checkOptions(const CampaignConfig& c, const std::function<bool(std::string_view)>& given) const override
    {
        if (given("check-every") && c.scheme != "online")
            throw InputError("--check-every belongs to --scheme online (" + c.scheme +
                             (c.scheme == "offline" ? " checks only after the last step)" : " has no steps to check)"));
        if (given("panel") && isTmr(c))
            throw InputError("--panel has no meaning for --scheme tmr (three whole products and a vote)");
    }
    void validate(const CampaignConfig& c, const DeviceInfo& device) const override
    {
        if (c.scheme != "online" && c.scheme != "offline" && c.scheme != "tmr")
            throw InputError("--scheme " + c.scheme + " is not a scheme of the online family (online, offline or tmr)");
        if (c.scheme == "online" && settingsOf(c).checkEvery < 1)
            throw InputError("--check-every must be at least 1 (offline ABFT: --scheme offline)");
        if (c.inject && isTmr(c) && c.target != CampaignTarget::Result && c.target != CampaignTarget::Any)
            throw InputError("--target " + std::string(toString(c.target)) +
                             ": TMR has no checksums and no input copy to corrupt; its campaigns take --target result "
                             "(a cell of one replica)");
        if (c.inject) {
            const std::string smallest = c.target == CampaignTarget::Any && !isTmr(c) ? "checksum-row"
                                         : c.target == CampaignTarget::Checksum     ? "checksum-row"
                                                                                    : std::string(toString(c.target));
            auto [rows, cols] = extentOf(smallest, c.shape);
            if (c.target == CampaignTarget::Checksum || (c.target == CampaignTarget::Any && !isTmr(c)))
                rows = cols = std::min(c.shape.m, c.shape.q);  // a checksum row of q cells, a column of m
            if (double(c.faultsPerRun) > double(rows) * double(cols))
                throw InputError(std::to_string(c.faultsPerRun) + " faults per run do not fit in the target (" +
                                 std::to_string(rows * cols) + " elements)");
        }
        if (c.inject && !c.placed.empty())
            checkPlaced(c);
        // The family's own checks (panel, steps, TF32 with input faults on the GPU, ...) on a sample run.
        CampaignRun sample = planCampaignRun(c, 0);
        // Every target of --target any first: the first run's own draw may be one the runs refuse,
        // and its bare refusal would not say that --target any is what drew it.
        if (c.inject && c.target == CampaignTarget::Any && !isTmr(c))
            checkEveryTargetOfAny(c, sample, device);
        validateOnlineConfig(runConfigOf(c, sample), device.backend);
    }

    // --target any draws each of kOnlineTargets: every one must run here, or the campaign would stop
    // at the first run that drew a refused one (TF32 on the GPU takes no faults in A or B) after
    // some runs were made. Refused before any run, naming the target.
    static void checkEveryTargetOfAny(const CampaignConfig& c, CampaignRun sample, const DeviceInfo& device)
    {
        for (const char* target : kOnlineTargets) {
            sample.familyTarget = target;
            const bool beforeChecksums = std::string_view(target) == "a" || std::string_view(target) == "b";
            sample.step = beforeChecksums ? -1 : 0;
            const std::int64_t cols = extentOf(target, c.shape).second;  // the first cells of the target
            for (std::size_t f = 0; f < sample.positions.size(); ++f)
                sample.positions[f] = FaultAt{std::int64_t(f) / cols, std::int64_t(f) % cols, std::nullopt, std::nullopt};
            try {
                validateOnlineConfig(runConfigOf(c, sample), device.backend);
            } catch (const InputError& e) {
                throw InputError(std::string("--target any draws faults in ") + target + " too, which this campaign's runs "
                                 "refuse: " + e.what() + "; give a --target they take (result, checksum)");
            }
        }
    }

    // --inject-at: cells of C, of a checksum line, of A / B (before the checksums, or after step WHEN)
    // inside the target, all at one step (TMR: one replica).
    static void checkPlaced(const CampaignConfig& c)
    {
        using T = CampaignTarget;
        const T t = c.target;
        if (t != T::Result && t != T::ChecksumRow && t != T::ChecksumCol && t != T::A && t != T::B && t != T::AAfter &&
            t != T::BAfter)
            throw InputError("--inject-at " + toString(c.placed.front()) + ": the online family places cells of C, "
                             "checksum-row, checksum-col, a or b (R,C[:DELTA][@STEP])");
        const auto [rows, cols] = extentOf(std::string(toString(t)), c.shape);
        const int steps = isTmr(c) ? 3 : baseConfig(c).steps();
        for (const InjectSpec& at : c.placed) {
            if (!at.hasCell())
                throw InputError("--inject-at " + toString(at) + ": the online family places cells (R,C), not quadrants");
            if (at.row >= rows || at.col >= cols)
                throw InputError("--inject-at " + toString(at) + " is outside its target (" + std::to_string(rows) +
                                 " x " + std::to_string(cols) + ")");
            if (at.when != c.placed.front().when)
                throw InputError("--inject-at " + toString(at) + ": a campaign run's faults strike after one step; "
                                 "give every place the same @STEP");
            if (at.when && *at.when >= steps)
                throw InputError("--inject-at " + toString(at) + ": @" + std::to_string(*at.when) + " is past the last " +
                                 (isTmr(c) ? "replica (0-2)" : "step (0-" + std::to_string(steps - 1) + ")"));
        }
    }

    // A campaign file's runs are replayed by the online schemes only.
    void checkReadConfig(const CampaignConfig& c) const override
    {
        const auto& schemes = traits().selectingSchemes;
        if (std::find(schemes.begin(), schemes.end(), c.scheme) == schemes.end())
            throw InputError("campaign: config.scheme '" + c.scheme + "' is not a scheme of the online family");
    }

    void plan(const CampaignConfig& c, CampaignRun& run, CampaignRng& rng) const override
    {
        run.strategy = StrategyKind::None;  // no memory cap in this family: the whole problem resident
        if (!c.inject)
            return;
        std::string target;
        switch (c.target) {
        case CampaignTarget::Any: target = isTmr(c) ? "result" : kOnlineTargets[rng.below(7)]; break;
        case CampaignTarget::Checksum: target = rng.below(2) ? "checksum-col" : "checksum-row"; break;
        default: target = std::string(toString(c.target)); break;
        }
        run.familyTarget = target;
        drawFlippedBits(c, rng, run);
        const int steps = baseConfig(c).steps();
        // A / B before the checksums strike at encoding (no step); TMR's step is the replica.
        run.step = isTmr(c) ? int(rng.below(3)) : target == "a" || target == "b" ? -1 : int(rng.below(steps));
        const auto [rows, cols] = extentOf(target, c.shape);
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        while (int(run.positions.size()) < c.faultsPerRun) {
            const std::int64_t r = rng.below(rows), col = rng.below(cols);
            if (seen.insert({r, col}).second)
                run.positions.push_back(FaultAt{r, col, std::nullopt, std::nullopt});
        }
        if (!c.placed.empty()) {  // drawn first all the same: a run's bit is that of the drawn campaign
            for (std::size_t f = 0; f < c.placed.size(); ++f)
                run.positions[f] = FaultAt{c.placed[f].row, c.placed[f].col, std::nullopt, std::nullopt};
            if (c.placed.front().when)
                run.step = *c.placed.front().when;
        }
    }

    bool run(const CampaignConfig& c, CampaignRun& run, Backend& backend, const std::atomic<bool>* cancel) const override
    {
        const OnlineConfig config = runConfigOf(c, run);
        RunHooks hooks;
        hooks.backend = &backend;
        hooks.cancel = cancel;
        HostMatrix result;
        hooks.resultOut = &result;
        const OnlineRecord record = runOnline(config, hooks);
        if (record.status == "cancelled")
            return false;
        run.status = record.status;
        run.error = record.error;
        RunJudgement j;
        j.failed = record.status != "ok";
        for (const InjectEvent& e : record.injections)
            if (e.injection.applied) {
                run.applied.push_back(e.injection);
                ++j.injected;
            }
        j.injected += int(record.appliedInputFaults.size());
        FaultReport& f = run.faults;
        for (const VerifyEvent& e : record.verifications) {
            f.maxCleanResidualRatio = std::max(f.maxCleanResidualRatio, e.result.maxCleanResidualRatio);
            f.corrected += e.result.verdict == Verdict::Corrected;
            f.uncorrectable += e.result.verdict == Verdict::Uncorrectable;
        }
        // An operand change below the round-off of its sums is seen but not acted on: not a detection.
        f.detected = f.corrected + f.uncorrectable +
                     int(std::count_if(record.inputFaults.begin(), record.inputFaults.end(),
                                       [](const InputFaultReport& in) { return !in.belowRoundoff; }));
        if (record.vote)
            f.detected += int(record.vote->disputes());
        const bool recomputed = (record.recomputed && record.recomputeClean) ||
                                (record.vote && record.vote->cellsRecomputed > 0);
        f.correctedByRecompute = recomputed ? 1 : 0;
        f.injected = j.injected;
        j.alarm = f.detected > 0 || record.recomputed;
        j.gaveUp = !j.failed && !record.verifiedByChecks();
        j.recomputed = recomputed;
        if (!j.failed) {
            // Judged against the product of the inputs as generated, before any fault touched them.
            HostMatrix a(config.precision, c.shape.m, c.shape.n), b(config.precision, c.shape.n, c.shape.q);
            fillRandom(a, config.distribution, config.seed, 1);
            fillRandom(b, config.distribution, config.seed, 2);
            const ReferenceCheck ref = checkAgainstReference(a, b, result, ReferenceMode::Full, c.thresholdLambda,
                                                             config.gemm == GemmVariant::CublasTf32);
            j.referencePassed = ref.passed;
            run.maxErrorOverTolerance = ref.maxRelError;
        }
        run.referencePassed = j.referencePassed;
        run.outcome = judgeRun(j);
        return true;
    }

    std::string reproduce(const CampaignConfig& c, const CampaignRun& run) const override
    {
        const OnlineConfig o = runConfigOf(c, run);
        const Shape& s = c.shape;
        std::string cmd = "gigacheck run --scheme " + c.scheme + " --shape " + std::to_string(s.m) + "x" +
                          std::to_string(s.n) + "x" + std::to_string(s.q) + " --type " +
                          std::string(toString(o.precision));
        if (c.type == CampaignType::Tf32 || c.type == CampaignType::Tf32x3)
            cmd += " --gemm " + std::string(toString(o.gemm));
        cmd += " --backend " + std::string(toString(c.backend));
        if (c.device >= 0)
            cmd += " --device " + std::to_string(c.device);
        const OnlineCampaignSettings settings = settingsOf(c);
        if (!isTmr(c) && settings.panel > 0)
            cmd += " --panel " + std::to_string(settings.panel);
        if (c.scheme == "online")
            cmd += " --check-every " + std::to_string(settings.checkEvery);
        cmd += " --dist " + std::string(toString(c.distribution)) + " --seed " + std::to_string(run.seed) +
               " --reference full";
        if (!c.inject)
            return cmd;
        cmd += c.model == FaultModel::Delta ? " --fault delta"
                                            : " --fault " + toString(FaultModelSpec{FaultModel::BitFlip, run.bit, run.bit2});
        cmd += " --target " + std::string(toString(onlineTargetOf(run.familyTarget)));
        // Every cell struck, as --extent reached it from the run's positions.
        for (const OnlineFault& f : o.faults) {
            cmd += " --inject-at " + std::to_string(f.row) + "," + std::to_string(f.col);
            if (f.delta) {
                char delta[40];
                std::snprintf(delta, sizeof delta, "%.17g", *f.delta);
                cmd.append(":").append(delta);
            }
            if (run.step >= 0)
                cmd += "@" + std::to_string(run.step);
        }
        return cmd;
    }

    std::string settingsText(const CampaignConfig& c) const override
    {
        if (isTmr(c))
            return "";
        const OnlineCampaignSettings s = settingsOf(c);
        return ", panel " + (s.panel ? std::to_string(s.panel) : std::string("min(n, 1024)")) +
               (c.scheme == "online" ? ", check every " + std::to_string(s.checkEvery) + " step(s)" : std::string());
    }
    void writeConfig(const CampaignConfig& c, nlohmann::ordered_json& out) const override
    {
        const OnlineCampaignSettings s = settingsOf(c);
        out["check_every"] = s.checkEvery;
        out["panel"] = s.panel;
    }
    void readConfig(const nlohmann::json& j, CampaignConfig& c, const std::string& at) const override
    {
        OnlineCampaignSettings s;
        s.checkEvery = campaignjson::field<int>(j, "check_every", at);
        s.panel = campaignjson::field<std::int64_t>(j, "panel", at);
        if (s.checkEvery < 0 || s.panel < 0 || s.panel > std::numeric_limits<std::int32_t>::max())
            throw InputError("campaign: config.check_every and config.panel must be 0 or more (panel below 2^31)");
        setFamilySettings(c, s);
    }
    void writeRun(const CampaignRun& run, nlohmann::ordered_json& out) const override { out["step"] = run.step; }
    void readRun(const nlohmann::json& j, CampaignRun& run, const std::string& at) const override
    {
        run.step = campaignjson::field<int>(j, "step", at);
    }
    std::string promise(const CampaignConfig& c) const override
    {
        if (!c.inject)
            return "";
        const std::string reach = c.extent == FaultExtent::Cell
                                      ? std::string()
                                      : ", " + faultExtentText(c.extent, c.extentLength) + " per fault";
        if (isTmr(c))
            return "TMR promise (result" + reach + "): cells struck in one replica are outvoted by the other two and "
                   "recomputed from A and B; never silent.\n";
        return "ABFT promise (" + c.scheme + reach +
               "): a fault in C or its checksums at any step is detected by the next check (online: every fq steps; "
               "offline: after the last) and corrected, or the product is computed again (cells on one row or column "
               "are corrected, a tile is recomputed); a fault in A or B, before or after the checksums, is found against the inputs' sums "
               "taken where they were made and the element and its row / column of C restored; never silent unless "
               "below round-off.\n";
    }
    std::string_view variesTitle() const override { return "step"; }
    std::string variesText(const CampaignConfig& c, const CampaignRun& run) const override
    {
        if (run.step < 0)
            return "at encoding";
        return (isTmr(c) ? "replica " : "step ") + std::to_string(run.step);
    }
    // The planned cells: its record holds no blocks to name the applied ones by.
    std::string positionsText(const CampaignRun& run) const override
    {
        std::string text;
        for (const FaultAt& at : run.positions)
            text += (text.empty() ? "(" : " (") + std::to_string(at.row) + ", " + std::to_string(at.col) + ")";
        return text;
    }
    std::vector<OptionSpec> optionSpecs() const override
    {
        return {{"check-every", "Online scheme: check every FQ steps. Default 1.", "FQ"},
                {"panel", "Online / offline: panel width b. Default min(N, 1024).", "B"}};
    }
    void readOption(std::string_view name, const std::string& value, CampaignConfig& c) const override
    {
        OnlineCampaignSettings s = settingsOf(c);
        if (name == "check-every")
            s.checkEvery = parseInteger<int>(value, 1, 1 << 30, "a step count");
        else if (name == "panel")
            s.panel = parseInteger<std::int64_t>(value, 1, std::numeric_limits<std::int32_t>::max(), "a panel width");
        setFamilySettings(c, s);
    }
};

}  // namespace

OnlineConfig onlineCampaignRunConfig(const CampaignConfig& config, const CampaignRun& run)
{
    return runConfigOf(config, run);
}

const FamilyCampaign& onlineCampaign()
{
    static const OnlineCampaign family;
    return family;
}

}  // namespace gigacheck
