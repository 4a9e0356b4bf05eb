// The Strassen family in a campaign (--family strassen): each run a runStrassen with its faults
// between stages (a leaf product, a C quadrant, an A / B quadrant), levels cycled run by run,
// judged against the FP64 reference of the original operands; replayed by `gigacheck strassen`.
#include "campaign/family_campaign.hpp"
#include "campaign/campaign_json_fields.hpp"
#include "campaign/campaign_rng.hpp"
#include "campaign/flipped_bits.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/strassen.hpp"
#include "gigacheck/strassen/campaign.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck {

namespace {

constexpr const char* kStrassenTargets[] = {"product", "c", "a", "b"};

std::vector<int> levelsOf(const CampaignConfig& c) { return familySettingsOf<StrassenCampaignSettings>(c).levels; }

int leavesOf(const Shape& s, int levels)
{
    int n = 1;
    for (int l = 0; l < effectiveLevels(s, levels); ++l)
        n *= 7;
    return n;
}

// A run's fault: its delta, or (a bit-flip run) no delta of its own, so that --fault flips it.
StrassenFault faultOf(const StrassenFaultPlace& p, const CampaignRun& run)
{
    StrassenFault f = parseStrassenFault(p.where + ":" + std::to_string(p.index));
    if (run.bit < 0) {
        f.delta = p.delta;
        f.deltaGiven = true;
    }
    return f;
}


std::string faultFlag(const CampaignRun& run)
{
    FaultModelSpec flip{FaultModel::BitFlip, run.bit, run.bit2};
    return run.bit < 0 ? std::string() : " --fault " + toString(flip);
}

StrassenConfig configOf(const CampaignConfig& c, const CampaignRun& run)
{
    StrassenConfig s;
    s.shape = c.shape;
    s.levels = run.level;
    s.precision = c.type == CampaignType::F64 ? Precision::F64 : Precision::F32;
    s.tf32 = c.type == CampaignType::Tf32;
    s.backend = c.backend;
    s.device = c.device;
    s.seed = run.seed;
    s.distribution = c.distribution;
    s.reference = true;  // the FP64 reference of the original operands judges every run
    s.referenceAlways = true;
    for (const StrassenFaultPlace& p : run.places)
        s.faults.push_back(faultOf(p, run));
    if (run.bit >= 0)
        s.faultModel = FaultModelSpec{FaultModel::BitFlip, run.bit, run.bit2};
    return s;
}

class StrassenCampaign final : public FamilyCampaign {
public:
    const CampaignFamilyTraits& traits() const override
    {
        using T = CampaignTarget;
        // A bit flip strikes the element a delta would: delta by default, any target.
        static const CampaignFamilyTraits traits{
            .name = "strassen",
            .helpWords = "--levels",
            .defaultScheme = "strassen",
            .selectingSchemes = {},
            .ownOptions = {"levels"},
            .optionOwner = "Strassen campaigns (--family strassen)",
            .targets = {T::Product, T::CQuadrant, T::A, T::B, T::Any},
            .defaultModel = FaultModel::Delta,
            .defaultTarget = CampaignTarget::Any,
            .strategies = false,
            .sixteenBitTypes = false,
            .targetWords = "a leaf product (product), a C quadrant (c), an A / B quadrant between stages (a, b), or any",
            .faultWords = "a bit flip strikes the element a delta would"};
        return traits;
    }
    bool replaysInLab() const override { return true; }  // strassenCampaignRunConfig: the lab's Strassen run
    void checkScheme(const std::string& scheme) const override
    {
        if (scheme != "strassen")
            throw InputError("--scheme " + scheme + ": a Strassen campaign has no scheme to choose (its checks are "
                             "the family's own); leave --scheme out");
    }
    void validate(const CampaignConfig& c, const DeviceInfo&) const override
    {
        if (c.scheme != "strassen")
            throw InputError("--scheme " + c.scheme + " is not a scheme of the Strassen family (its checks are its own)");
        if (c.type == CampaignType::Tf32x3)
            throw InputError("--type tf32x3 is a type of the blocked and online families' campaigns; Strassen's "
                             "leaves take f32, f64 or tf32");
        const std::vector<int> levels = levelsOf(c);
        if (levels.empty())
            throw InputError("a Strassen campaign needs at least one level count (--levels)");
        for (int l : levels)
            if (l < 1 || l > kMaxStrassenLevels)
                throw InputError("--levels " + std::to_string(l) + ": Strassen campaigns run 1 to " +
                                 std::to_string(kMaxStrassenLevels) + " levels");
        for (const InjectSpec& at : c.placed) {
            if (at.hasCell() || at.when)
                throw InputError("--inject-at " + toString(at) + ": a Strassen campaign places a quadrant (c:Q, a:Q, "
                                 "b:Q; Q 0-3) or a leaf product (product:K), with :DELTA where wanted");
            if (at.target == InjectTarget::Product)
                for (int l : levels)
                    if (at.product >= leavesOf(c.shape, l))
                        throw InputError("--inject-at " + toString(at) + ": " + std::to_string(l) + " level(s) make " +
                                         std::to_string(leavesOf(c.shape, l)) + " leaf products (0-" +
                                         std::to_string(leavesOf(c.shape, l) - 1) + ")");
        }
        if (c.inject && c.placed.empty() && c.faultsPerRun > 4)
            throw InputError(std::to_string(c.faultsPerRun) + " faults per run: a Strassen campaign places at most 4 "
                             "(one per quadrant or leaf drawn at random)");
    }

    void plan(const CampaignConfig& c, CampaignRun& run, CampaignRng& rng) const override
    {
        run.seed &= (std::uint64_t(1) << 30) - 1;  // gigacheck strassen --seed takes 0..2^30
        run.strategy = StrategyKind::None;
        const std::vector<int> levels = levelsOf(c);
        run.level = levels[std::size_t(run.index) % levels.size()];
        if (!c.inject)
            return;
        const std::string target = c.target == CampaignTarget::Any ? kStrassenTargets[rng.below(4)]
                                   : c.target == CampaignTarget::CQuadrant ? "c"
                                                                           : std::string(toString(c.target));
        run.familyTarget = target;
        const bool operand = target == "a" || target == "b";
        // +-U(10, 100) x the typical magnitude of what it hits, as the other families' deltas.
        const double typical = operand ? std::sqrt(typicalMagnitude(Shape{1, 1, 1}, c.distribution))
                                       : typicalMagnitude(c.shape, c.distribution);
        for (int f = 0; f < c.faultsPerRun; ++f) {
            StrassenFaultPlace p;
            p.where = target;
            p.index = int(rng.below(target == "product" ? leavesOf(c.shape, run.level) : 4));
            const double sign = rng.below(2) ? 1.0 : -1.0;
            p.delta = sign * (10.0 + 90.0 * rng.uniform()) * typical;
            run.places.push_back(p);
        }
        for (std::size_t f = 0; f < c.placed.size(); ++f) {  // --inject-at: drawn first all the same
            const InjectSpec& at = c.placed[f];
            run.places[f].where = at.target == InjectTarget::Product ? "product" : std::string(toString(at.target));
            run.places[f].index = at.target == InjectTarget::Product ? at.product : at.quadrant.value_or(0);
            if (at.delta)
                run.places[f].delta = *at.delta;
        }
        if (c.model == FaultModel::BitFlip) {
            for (StrassenFaultPlace& p : run.places)
                p.delta = 0;  // drawn all the same: a run's places are those of the delta campaign
            drawFlippedBits(c, rng, run);
        }
    }

    bool run(const CampaignConfig& c, CampaignRun& run, Backend& backend, const std::atomic<bool>* cancel) const override
    {
        const StrassenResult r = runStrassen(configOf(c, run), backend, nullptr, cancel);
        if (r.status == "cancelled")
            return false;
        run.status = r.status == "failed" ? "failed" : "ok";
        run.error = r.error;
        RunJudgement j;
        j.failed = r.status == "failed";
        j.injected = int(r.config.faults.size());
        for (const InjectEvent& e : r.injections)
            if (e.injection.applied)
                run.applied.push_back(e.injection);
        FaultReport& f = run.faults;
        f.injected = j.injected;
        f.maxCleanResidualRatio = std::max(0.0, r.cWorstCleanRatio);  // C's checks (-1: none ran)
        for (const StrassenCheck& k : r.checks) {
            if (k.where == "reference" && k.verdict == "skipped") {  // no judge (host memory): not judged
                j.failed = true;
                run.status = "failed";
                run.error = "the FP64 reference that judges the run could not run: " + k.detail;
                continue;
            }
            if (k.where == "reference") {  // the judge, not a check of the scheme
                // "corrected": cells C's checks let pass that only the reference repaired -- without
                // it (its default is off past 2^34 flops) C would have been wrong: the scheme's SDC.
                j.referencePassed = j.referencePassed && k.verdict != "mismatch" && k.verdict != "corrected";
                continue;
            }
            if (k.verdict == "clean" || k.verdict == "missed")  // missed: known to the lab, not seen by the scheme
                continue;
            ++f.detected;
            f.corrected += k.verdict == "corrected";
            f.correctedByRecompute += k.verdict == "recomputed";
            f.uncorrectable += k.verdict == "uncorrectable";
        }
        j.alarm = f.detected > 0;
        j.gaveUp = f.uncorrectable > 0;  // the checksums' own verdict: C not verified
        j.recomputed = f.correctedByRecompute > 0;
        run.referencePassed = j.referencePassed;
        run.maxErrorOverTolerance = r.referenceWorstRatio;
        run.outcome = judgeRun(j);
        return true;
    }

    std::string reproduce(const CampaignConfig& c, const CampaignRun& run) const override
    {
        const Shape& s = c.shape;
        std::string cmd = "gigacheck strassen --shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                          std::to_string(s.q) + " --levels " + std::to_string(run.level) + " --type " +
                          std::string(toString(c.type)) + " --backend " + std::string(toString(c.backend));
        if (c.device >= 0)
            cmd += " --device " + std::to_string(c.device);
        cmd += " --dist " + std::string(toString(c.distribution)) + " --seed " + std::to_string(run.seed) +
               " --reference full";
        cmd += faultFlag(run);
        for (const StrassenFaultPlace& p : run.places)
            cmd += " --inject-at " + toString(faultOf(p, run));
        return cmd;
    }

    std::string settingsText(const CampaignConfig& c) const override
    {
        const std::vector<int> levels = levelsOf(c);
        std::string out = ", levels ";
        for (std::size_t i = 0; i < levels.size(); ++i)
            out.append(i ? "," : "").append(std::to_string(levels[i]));
        return out;
    }
    void writeConfig(const CampaignConfig& c, nlohmann::ordered_json& out) const override { out["levels"] = levelsOf(c); }
    void readConfig(const nlohmann::json& j, CampaignConfig& c, const std::string& at) const override
    {
        StrassenCampaignSettings s;
        s.levels.clear();
        const auto& levels = j.at("levels");
        for (std::size_t n = 0; n < levels.size(); ++n)
            s.levels.push_back(campaignjson::element<int>(levels, n, at + "levels"));
        setFamilySettings(c, s);
    }
    void writeRun(const CampaignRun& run, nlohmann::ordered_json& out) const override
    {
        out["level"] = run.level;
        campaignjson::Json places = campaignjson::Json::array();
        for (const StrassenFaultPlace& p : run.places)
            places.push_back({{"where", p.where}, {"index", p.index}, {"delta", campaignjson::number(p.delta)}});
        out["places"] = places;
    }
    void readRun(const nlohmann::json& j, CampaignRun& run, const std::string& at) const override
    {
        using campaignjson::field;
        run.level = field<int>(j, "level", at);
        for (const auto& p : j.at("places")) {
            StrassenFaultPlace place;
            place.where = field<std::string>(p, "where", at + "places.");
            place.index = field<int>(p, "index", at + "places.");
            place.delta = field<double>(p, "delta", at + "places.");
            run.places.push_back(place);
        }
    }
    std::string promise(const CampaignConfig& c) const override
    {
        if (!c.inject)
            return "";
        return "Strassen promise: a fault in a leaf product, a C quadrant or an A / B quadrant between stages that "
               "changes C beyond the reference tolerance is detected by C's (or the operands') checksums and "
               "corrected or recomputed, or the run says uncorrectable (DUE); never a verified wrong C.\n";
    }

    void checkReadConfig(const CampaignConfig& c) const override
    {
        const std::vector<int> levels = levelsOf(c);
        if (levels.empty() ||
            std::any_of(levels.begin(), levels.end(), [](int l) { return l < 1 || l > kMaxStrassenLevels; }))
            throw InputError("campaign: config.levels must hold level counts from 1 to " +
                             std::to_string(kMaxStrassenLevels));
        if (c.scheme != traits().defaultScheme)  // its runs are replayed by its own checks only
            throw InputError("campaign: config.scheme '" + c.scheme + "' is not a scheme of the strassen family");
    }

    void checkReadRun(const CampaignRun& run, const std::string& at) const override
    {
        if (run.level < 1 || run.level > kMaxStrassenLevels)
            throw InputError("campaign: field '" + at + "level' must be 1 to " + std::to_string(kMaxStrassenLevels));
        for (const StrassenFaultPlace& place : run.places)
            parseStrassenFault(place.where + ":" + std::to_string(place.index));  // product / c / a / b, index in range
    }
    std::string_view variesTitle() const override { return "levels"; }
    std::string variesText(const CampaignConfig&, const CampaignRun& run) const override
    {
        return "L" + std::to_string(run.level);
    }
    std::vector<OptionSpec> optionSpecs() const override
    {
        return {{"levels", "Strassen: recursion levels, a comma list cycled run by run (1-4). Default 1.", "L[,L...]"}};
    }
    // --levels "1,2,3": level counts, cycled run by run.
    void readOption(std::string_view name, const std::string& value, CampaignConfig& c) const override
    {
        if (name != "levels")
            return;
        std::vector<int> levels;
        std::size_t start = 0;
        while (true) {
            const std::size_t comma = value.find(',', start);
            levels.push_back(parseInteger<int>(value.substr(start, comma == std::string::npos ? comma : comma - start), 1,
                                               kMaxStrassenLevels, "a level count (1-4)"));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        setFamilySettings(c, StrassenCampaignSettings{std::move(levels)});
    }
};

}  // namespace

StrassenConfig strassenCampaignRunConfig(const CampaignConfig& config, const CampaignRun& run)
{
    return configOf(config, run);
}

const FamilyCampaign& strassenCampaign()
{
    static const StrassenCampaign family;
    return family;
}

}  // namespace gigacheck
