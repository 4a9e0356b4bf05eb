// What a campaign needs from an algorithm family: how run i is drawn (its config and fault), how
// it runs and is judged against the FP64 reference of the original operands, and the gigacheck
// command that replays it. One implementation per family in families/, declared in the family's
// contract (Family::campaign, gigacheck/family.hpp); run_campaign.cpp, campaign_config.cpp, the
// CLI's --family and the JSON / report code ask the registry and hold no family if-chains.
#pragma once

#include "gigacheck/campaign.hpp"
#include "gigacheck/command_options.hpp"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

// How `gigacheck campaign` names a family and what it takes by default.
struct CampaignFamilyTraits {
    std::string_view name;       // --family NAME, the campaign file's "family"
    std::string_view helpWords;  // after its name in --family's help ("" for none)
    std::string_view defaultScheme;
    std::vector<std::string_view> selectingSchemes;  // --scheme S without --family picks this family
    std::vector<std::string_view> ownOptions;        // options only its campaigns take
    std::string_view optionOwner;                    // "online campaigns (--family online)"
    std::vector<CampaignTarget> targets;             // its --target names, in the help's order
    std::optional<FaultModel> defaultModel;          // --fault when not given (nullopt: the campaign's)
    std::optional<CampaignTarget> defaultTarget;     // --target when not given
    bool strategies = false;  // its runs cycle the memory-capped strategies (--strategy): a table by strategy
    // It takes 16-bit inputs (--type bf16, f16); the others refuse them.
    bool sixteenBitTypes = false;
    // What its --target names mean, after "NAME: " in --target's help ("the result C, ...").
    std::string_view targetWords;
    // Said of its default fault model in --fault's help, after "NAME: delta" ("" for none).
    std::string_view faultWords;
    // It takes --extent row:L / col:L / tile:S (faults that reach beyond one cell); the others refuse it.
    bool extents = false;
};

class FamilyCampaign {
public:
    virtual ~FamilyCampaign() = default;
    virtual const CampaignFamilyTraits& traits() const = 0;
    // The options of `gigacheck campaign` it declares and reads itself (each among
    // traits().ownOptions), in the order --help lists them; one of them given, its value (as
    // written) into config, or InputError saying what is wrong with the value.
    virtual std::vector<OptionSpec> optionSpecs() const { return {}; }
    virtual void readOption(std::string_view /*name*/, const std::string& /*value*/, CampaignConfig&) const {}
    // InputError for a --scheme this family's campaigns refuse before anything else is read.
    virtual void checkScheme(const std::string& /*scheme*/) const {}
    // InputError for one of its own options that config.scheme has no use for (given(name): --name was).
    virtual void checkOptions(const CampaignConfig&, const std::function<bool(std::string_view)>& /*given*/) const {}
    // InputError for what this family cannot run (scheme, target, fault model, shape) -- the
    // checks every family shares (runs, faults per run) are done before.
    virtual void validate(const CampaignConfig& config, const DeviceInfo& device) const = 0;
    // Run `index`'s identity after its seed was drawn from `rng` (run.index, run.seed and
    // run.strategy are set): target, bit, positions / places, step, level.
    virtual void plan(const CampaignConfig& config, CampaignRun& run, class CampaignRng& rng) const = 0;
    // Runs it on `backend` and fills status, faults, reference and outcome. False: cancelled (no
    // outcome; the campaign drops the run and stops).
    virtual bool run(const CampaignConfig& config, CampaignRun& run, Backend& backend,
                     const std::atomic<bool>* cancel) const = 0;
    virtual std::string reproduce(const CampaignConfig& config, const CampaignRun& run) const = 0;
    // Its settings after the scheme on the report's first line (", levels 1,2"), "" for none.
    virtual std::string settingsText(const CampaignConfig& config) const = 0;
    // What the scheme promises for the campaign's faults (lines of the report), "" for none.
    virtual std::string promise(const CampaignConfig& config) const = 0;
    // Its own fields of a campaign file, written after the shared ones (a family with none reads
    // as before) and read back (InputError naming the field; at: "config." or "runs[N].").
    virtual void writeConfig(const CampaignConfig&, nlohmann::ordered_json&) const {}
    virtual void readConfig(const nlohmann::json&, CampaignConfig&, const std::string& /*at*/) const {}
    virtual void writeRun(const CampaignRun&, nlohmann::ordered_json&) const {}
    virtual void readRun(const nlohmann::json&, CampaignRun&, const std::string& /*at*/) const {}
    // A campaign file read back: InputError for a value of the fields only this family has that
    // its runs cannot hold (config; run `at`, "runs[N].", as the file has it).
    virtual void checkReadConfig(const CampaignConfig&) const {}
    virtual void checkReadRun(const CampaignRun&, const std::string& /*at*/) const {}
    // The campaign table's column of what varies run by run (gigacheck/campaign.hpp
    // campaignVariesTitle): its title and a run's value.
    virtual std::string_view variesTitle() const = 0;
    virtual std::string variesText(const CampaignConfig& config, const CampaignRun& run) const = 0;
    // A run's faults as the table lists them: its places, then the cells the backend changed.
    virtual std::string positionsText(const CampaignRun& run) const;
    // Its runs replay in the lab's animation (the blocked GEMM's, from campaignRunConfig).
    virtual bool replaysInLab() const { return false; }
};

// By the registry's campaign-capable families (Family::campaign).
const FamilyCampaign& campaignFamilyOf(std::string_view family);
const FamilyCampaign& campaignFamilyOf(const CampaignConfig& config);
// The family whose selectingSchemes hold scheme; nullptr when none.
const FamilyCampaign* campaignFamilyOfScheme(std::string_view scheme);

// Shared by the families: the outcome from what the run's own checks said and the reference.
struct RunJudgement {
    bool failed = false;        // the run could not finish (backend error)
    int injected = 0;           // faults that were applied
    bool alarm = false;         // any check raised something (detected, corrected, recomputed, gave up)
    bool gaveUp = false;        // the run's verdict without the reference: not verified (exit 1)
    bool recomputed = false;    // repaired by recomputing
    bool referencePassed = true;
};
Outcome judgeRun(const RunJudgement& j);

}  // namespace gigacheck
