// Fault-injection campaigns: many single runs in one process, each classified against an
// independent reference into the outcome classes of NVBitFI / SASSIFI users (masked, DUE, SDC, ...),
// with 95 % Wilson intervals and tables by bit, target and strategy.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/command_options.hpp"
#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/types.hpp"

#include <any>
#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

// What one run ended as. Order is the order of every table and of the lab's chart.
enum class Outcome {
    Masked,                 // no effect beyond rounding: nothing flagged, the reference agrees
    Corrected,              // detected and corrected from the checksums, the reference agrees
    CorrectedByRecompute,   // detected and repaired by recomputing rows / columns / the block
    DetectedUncorrectable,  // DUE: the run gave up (uncorrectable verdict) or failed
    SilentCorruption,       // SDC: the verdict says correct, the reference says wrong
    FalseAlarm,             // a detection or correction with nothing injected, or of a clean cell
};
inline constexpr int kOutcomeCount = 6;
inline constexpr std::array kOutcomes{Outcome::Masked,           Outcome::Corrected,
                                      Outcome::CorrectedByRecompute, Outcome::DetectedUncorrectable,
                                      Outcome::SilentCorruption, Outcome::FalseAlarm};
// "masked", "corrected", "corrected-by-recompute", "due", "sdc", "false-alarm"
template <> const EnumTable<Outcome>& enumTable<Outcome>();  // names.hpp
std::string_view toString(Outcome);
std::string_view describe(Outcome);  // "detected uncorrectable (DUE)", ...
Outcome outcomeFromString(std::string_view);  // throws InputError

// A blocked GEMM run's outcome (classifyRun) and run configuration (campaignRunConfig):
// gigacheck/blocked_gemm/campaign.hpp.

// 95 % Wilson score interval of k successes in n trials ([0, 1] when n == 0).
struct Interval {
    double low = 0, high = 1;
};
Interval wilsonInterval(std::int64_t successes, std::int64_t trials, double z = 1.959963984540054);

// Where a campaign's faults go. Checksum: the checksum row or column of a block product (chosen at
// random per run). A / B (also spelled a-before / b-before): an element of the operand, corrupted
// before the run takes its checksums. AAfter / BAfter (a-after / b-after): an element corrupted
// after its checksums were taken, injected as what the product then computes: the block products
// that use it get delta * B[k, :] on row r of C (A(r, k)) or A[:, k] * delta on column c
// (B(k, c)), before their verification (engine/src/campaign/README.md). Any: result, checksum
// row / column, A or B (before), as before this split.
// Strassen (--family strassen): Product (a leaf product's result, right after it), CQuadrant ("c":
// a quadrant of C after the top level's first product stage); A / B there are a quadrant of the
// operand between stages (gigacheck strassen --inject-at product:K|c:Q|a:Q|b:Q). Online (--family
// online): Result is C at a step, Checksum a checksum row / column at a step, A / B an input before
// its checksums (at encoding), AAfter / BAfter an input after a step. Which targets a family takes:
// campaignTargetsOf.
// The checker's own faults (blocked family, CPU backend; gigacheck/fault_models.hpp): Check (one
// row / column check of a verification lies: it reports a mismatch over a clean line), Correction
// (a result cell's fault and the write of its correction hit), Encoding (an entry of an A / B
// block's checksum c_A / r_B hit right after the checksum kernel).
// Checksum / Encoding: either line or operand at random, run by run; the others one place (the
// words of `run --target`: checksum-row, checksum-col, encoding-a, encoding-b).
enum class CampaignTarget {
    Result, Checksum, A, B, Any, AAfter, BAfter, Product, CQuadrant, Check, Correction, Encoding,
    ChecksumRow, ChecksumCol, EncodingA, EncodingB
};
std::string_view toString(CampaignTarget);
CampaignTarget campaignTargetFromString(std::string_view);  // throws InputError

// The precision of a campaign: tf32 is FP32 storage with the TF32 tensor-core GEMM (on the CPU:
// emulated, operands rounded to TF32 and multiplied in FP32); bf16 / f16 the same with 16-bit
// inputs (--gemm cublas-bf16 / cublas-f16; blocked family only).
// tf32x3: FP32 values, FP32-accurate products from TF32 products of their big and small parts
// (--gemm tf32x3), checked as FP32 (blocked and online families).
enum class CampaignType { F32, F64, Tf32, Bf16, F16, Tf32x3 };
std::string_view toString(CampaignType);
CampaignType campaignTypeFromString(std::string_view);  // throws InputError

// The algorithm family a campaign drives, by its --family name ("blocked", "online", "strassen"):
// each family declares its campaign part in its contract (Family::campaign, gigacheck/family.hpp);
// names, defaults and targets come from there, so a new one adds no value here.
using CampaignFamily = std::string;
// The name if a campaign part of this build has it; InputError naming the names otherwise.
CampaignFamily campaignFamilyFromString(std::string_view);
// The --family names, in the registry's order.
std::vector<std::string_view> campaignFamilyNames();
// The --target names a family takes, in the order the help lists them ("result, checksum, ...").
std::vector<CampaignTarget> campaignTargetsOf(const CampaignFamily&);
// What `gigacheck campaign --help` says of --family, and its list of the families
// ("blocked (default), online (--scheme online|offline|tmr), strassen").
std::string campaignFamilyHelp();
std::string campaignFamilyList();
// What `gigacheck campaign --help` says of the options whose meaning depends on the family, each
// family's part from its campaign traits: --scheme (text and "blocked|online|..."), --fault,
// --target (text and the names of every family's targets), --model and --type.
struct CampaignOptionHelp {
    std::string text;
    std::string values;
};
CampaignOptionHelp campaignSchemeHelp();
std::string campaignFaultHelp();
CampaignOptionHelp campaignTargetHelp();
std::string campaignModelHelp();
std::string campaignTypeHelp();

struct CampaignConfig {
    CampaignFamily family = "blocked";  // the default family
    int runs = 100;
    Shape shape{256, 256, 256};
    CampaignType type = CampaignType::F32;
    std::vector<StrategyKind> strategies{StrategyKind::S1};  // cycled run by run
    std::uint64_t memCapBytes = 0;                            // 0: see campaignCapBytes
    // blocked family: "blocked"; online family: "online", "offline" or "tmr"; strassen: "strassen".
    std::string scheme = "blocked";
    // The families' own settings (online: check every fq steps, panel width; Strassen: levels), each
    // a payload of its family's type that only that family's campaign part reads and writes (its
    // config fields in the campaign file, its options), keyed by the family's name; one not held:
    // that family's defaults (familySettingsOf / setFamilySettings).
    std::map<std::string, std::any, std::less<>> familySettings;
    bool inject = true;                                       // false: --fault none (false-alarm mode)
    FaultModel model = FaultModel::BitFlip;
    int bit = -1;  // bit flips: -1 = a random bit per run
    bool twoBits = false;  // bit flips of two bits of one word (--fault bitflip2 / bitflip:B+B2)
    int bit2 = -1;         // the second bit; -1 = a random one per run (another than the first)
    // Blocked family: how far each fault reaches (--model cell|row:L|col:L|tile:S).
    FaultExtent extent = FaultExtent::Cell;
    int extentLength = 32;
    CampaignTarget target = CampaignTarget::Result;
    int faultsPerRun = 1;
    // --inject-at: the places every run strikes, one fault each, in the fault grammar of every verb
    // (empty: drawn run by run). Their TARGET agrees with `target`, faultsPerRun is their count; the
    // runs still vary their inputs, and the bit where --fault draws one (placeCampaignFaults).
    std::vector<InjectSpec> placed;
    BackendKind backend = BackendKind::Auto;
    int device = -1;
    std::uint64_t seed = 1;
    Distribution distribution = Distribution::Uniform;
    double thresholdLambda = 4.0;
};

// A family's settings in config (Settings::kFamily names the family): a copy of what it holds, or
// the defaults when it holds none.
template <class Settings> Settings familySettingsOf(const CampaignConfig& config)
{
    const auto held = config.familySettings.find(Settings::kFamily);
    const Settings* s = held == config.familySettings.end() ? nullptr : std::any_cast<Settings>(&held->second);
    return s ? *s : Settings{};
}
template <class Settings> void setFamilySettings(CampaignConfig& config, Settings settings)
{
    config.familySettings[std::string(Settings::kFamily)] = std::move(settings);
}

// --family and --scheme (nullopt: not given) into config.family and config.scheme: --scheme alone
// picks the family that takes it (online, offline, tmr: the online family); a scheme the family
// refuses, or an option given (given(name): --name was) that only another family takes or that
// the scheme has no use for, is an InputError; the family's own default fault model and target
// fill those not given.
void chooseCampaignFamily(CampaignConfig& config, std::optional<CampaignFamily> family,
                          const std::optional<std::string>& scheme, const std::function<bool(std::string_view)>& given);

// The options only one family's campaigns take (--check-every, --panel, --levels), declared by the
// families, in the registry's order as --help lists them; and one of them given, read by its
// family into config (InputError on its value).
std::vector<OptionSpec> campaignFamilyOptions();
void readCampaignFamilyOption(std::string_view name, const std::string& value, CampaignConfig& config);

// --inject-at's texts into config.placed, config.target (the one target they name; --target, where
// given (targetGiven), must agree) and config.faultsPerRun (their count). Throws InputError naming
// the accepted forms. Each family refuses in its validate what it cannot place.
void placeCampaignFaults(CampaignConfig& config, const std::vector<std::string>& texts, bool targetGiven);
// The f-th place's cell as a fault position (row, column, its :DELTA and @WHEN where given).
FaultAt placedCell(const CampaignConfig& config, std::size_t f);

// "bitflip:any", "bitflip:B", "delta" or "none" into the config's inject / model / bit.
void parseCampaignFault(std::string_view text, CampaignConfig& config);
std::string campaignFaultText(const CampaignConfig& config);

// One Strassen fault of a campaign run: product K, C / A / B quadrant Q, and its delta (explicit,
// so that `gigacheck strassen --inject-at WHERE:DELTA` replays it exactly).
struct StrassenFaultPlace {
    std::string where;  // "product", "c", "a", "b"
    int index = 0;
    double delta = 0;
};

// One run: what it was (enough to reproduce it alone) and how it ended.
struct CampaignRun {
    int index = 0;
    std::uint64_t seed = 0;  // the run's inputs and faults (`gigacheck run --seed`)
    StrategyKind strategy = StrategyKind::S1;
    FaultTarget target = FaultTarget::Result;  // resolved per run
    int bit = -1;                              // -1: not a bit flip
    int bit2 = -1;                             // two-bit flips: the second bit (-1: none)
    char operand = 0;                          // 'a' / 'b': an operand fault; positions are in A / B
    bool afterChecksums = false;               // the operand fault came after the checksums (a-after / b-after)
    std::vector<FaultAt> positions;            // result faults, in C coordinates (--inject-at)
    // Online and Strassen runs: the family's own name of the target ("checksum-row", "product",
    // "c", ...; empty for blocked runs), the step (online: after which panel product; TMR: the
    // replica; -1: before the checksums) and the level count (Strassen; -1 otherwise).
    std::string familyTarget;
    int step = -1;
    int level = -1;
    std::vector<StrassenFaultPlace> places;  // Strassen: where each fault goes (quadrant / leaf, delta)
    std::vector<Injection> applied;            // what the backend actually changed
    Outcome outcome = Outcome::Masked;
    std::string status;  // the record's status ("ok" or "failed") and its error
    std::string error;
    FaultReport faults;
    bool referencePassed = true;
    double maxErrorOverTolerance = 0;
    double seconds = 0;
};

// The campaign table's family words, from the campaign's family (its contract's campaign part), so
// that a view of campaigns names no family: the title of the column of what varies run by run
// ("strategy", "step", "levels") and a run's value there ("s2", "step 3", "L2"); a run's faults
// ("(12, 40)", "c:2", "(checksum, 7)"); whether its runs replay in the lab's animation.
std::string campaignVariesTitle(const CampaignConfig& config);
std::string campaignRunVaries(const CampaignConfig& config, const CampaignRun& run);
std::string campaignRunPositions(const CampaignConfig& config, const CampaignRun& run);
bool campaignRunsReplayInLab(const CampaignConfig& config);

// Counts per outcome over a group of runs.
struct OutcomeCounts {
    std::array<std::int64_t, kOutcomeCount> count{};
    std::int64_t total = 0;
    void add(Outcome o) { ++count[std::size_t(o)]; ++total; }
    std::int64_t operator[](Outcome o) const { return count[std::size_t(o)]; }
};

struct CampaignGroup {
    std::string key;  // "17", "checksum-row", "s2"
    OutcomeCounts counts;
};

struct CampaignSummary {
    OutcomeCounts all;
    // The checks' margin against false alarms: the largest clean residual / threshold over the runs
    // that report one (faults.maxCleanResidualRatio; < 1: no alarm) and that run's number (-1: none).
    double maxCleanResidualRatio = 0;
    int maxCleanResidualRun = -1;
    // ordered: bit / level ascending, then by name. byStrategy: blocked runs; byLevel: Strassen runs.
    std::vector<CampaignGroup> byBit, byTarget, byStrategy, byLevel;
};
CampaignSummary summarize(const std::vector<CampaignRun>& runs, const CampaignFamily& family = CampaignConfig{}.family);
// The run's target as the tables name it: result, checksum-row, checksum-col, a, b, a-after, b-after,
// none; online and Strassen runs their own (familyTarget: product, c, ...).
std::string targetKey(const CampaignRun& run);

// One of N disjoint slices of a campaign, for campaigns spread over machines (a Slurm job array:
// K is 1-based, as SLURM_ARRAY_TASK_ID with --array=1-N). Shard K holds runs
// [(K-1) R / N, K R / N) of the whole campaign's R, each drawn exactly as in the whole campaign.
struct CampaignShard {
    int index = 1;  // K, 1..count
    int count = 1;  // N, 1..runs
};
struct RunRange {
    int begin = 0, end = 0;  // run numbers [begin, end), 0-based as CampaignRun::index
};
RunRange shardRuns(int runs, const CampaignShard& shard);
// Throws InputError unless 1 <= K <= N <= runs.
void validateCampaignShard(const CampaignShard& shard, int runs);

struct CampaignResult {
    CampaignConfig config;  // the whole campaign's, in a shard too (config.runs: all the shards' runs)
    DeviceInfo device;
    std::string toolVersion, createdAt;
    bool interrupted = false;
    std::optional<CampaignShard> shard;  // set for a shard; a whole or merged campaign has none
    std::vector<CampaignRun> runs;
    CampaignSummary summary;
};

// The memory cap of a run under this strategy: --mem, or by default a quarter of A + B + C (several
// blocks; at least 64 KiB) for s1-s4 and the device's memory (0) for none, which keeps the whole problem on the device.
std::uint64_t campaignCapBytes(const CampaignConfig& config, StrategyKind strategy);
// The GEMM a campaign of this type multiplies with on CUDA (cublas-tf32 for tf32, ...).
GemmVariant campaignGemm(CampaignType type);
// The gigacheck command line that reproduces one run on its own (`gigacheck run`, `gigacheck run
// --scheme online|offline|tmr` or `gigacheck strassen`, as the family runs it).
std::string reproduceCommand(const CampaignConfig& config, const CampaignRun& run);
// The run's identity drawn from the campaign seed (strategy, target, bit, positions, seed).
CampaignRun planCampaignRun(const CampaignConfig& config, int index);

// Throws InputError for bad configurations (runs < 1, unknown scheme, operand
// targets, faults that do not fit) before the first run.
void validateCampaign(const CampaignConfig& config, const DeviceInfo& device);

struct CampaignHooks {
    Backend* backend = nullptr;  // reused by every run; when null the campaign makes one
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const CampaignRun&, int done, int total)> onRun;  // after each run
};

// Runs the campaign in this process. An interrupted campaign returns the runs that finished.
CampaignResult runCampaign(const CampaignConfig& config, const CampaignHooks& hooks = {});
// Runs shard K of N only (onRun counts within the shard); the result says which shard it is.
CampaignResult runCampaign(const CampaignConfig& config, const CampaignShard& shard, const CampaignHooks& hooks = {});

// Joins every shard 1..N of one campaign into the campaign the whole run gives (its runs in order,
// its summary recomputed from them; created now, on the first shard's device, or the shards'
// devices named together). Throws InputError, one line naming the files (names[i] for shards[i]),
// for a whole campaign or an interrupted shard, shards of different campaigns (configuration,
// split, backend or gigacheck version), a shard given twice, missing shards (which K), or a
// shard whose runs are not its slice's.
CampaignResult mergeCampaignShards(const std::vector<CampaignResult>& shards, const std::vector<std::string>& names = {});

// Outputs. The text report holds the outcome table with intervals and the three group tables.
std::string formatCampaignReport(const CampaignResult& result);
std::string campaignToJson(const CampaignResult& result);
CampaignResult campaignFromJson(const std::string& text);  // throws InputError
CampaignResult loadCampaign(const std::string& path);      // throws InputError
// The configuration as a campaign file writes it (a JSON object): what shards must share.
std::string campaignConfigJson(const CampaignConfig& config);
// Whether the file is a campaign ("format": "gigacheck-campaign"), for readers handed a file that
// may be a run record or a campaign (`gigacheck show`). Never throws: false when unreadable.
bool isCampaignFile(const std::string& path);
// One row per run; the summary (outcome, group, count, fraction, interval) in a second CSV.
std::string campaignRunsCsv(const CampaignResult& result);
std::string campaignSummaryCsv(const CampaignResult& result);

}  // namespace gigacheck
