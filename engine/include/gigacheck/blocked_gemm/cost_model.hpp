// The blocked GEMM family's cost model and planner: each op's time predicted from the
// device's measured rates, the whole schedule's time by simulating its queues and dependencies
// (fill and drain included), and the blocking and strategy that minimise the prediction.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/h2d_staging.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"

#include <functional>
#include <string>
#include <vector>

namespace gigacheck {

// What the model knows of a device: its rate tables (Ceilings::gemmRates, copyRates) and the
// scalar roofs they fall back on. Built by costModelOf from a DeviceInfo.
struct CostModel {
    std::vector<GemmRatePoint> gemmRates;
    std::vector<CopyRatePoint> copyRates;
    double gflopsF32 = 0, gflopsTf32 = 0, gflopsF64 = 0;  // fallbacks when a kind has no points
    double gflopsBf16 = 0, gflopsF16 = 0;
    double h2dGBs = 0, d2hGBs = 0;                        // fallbacks when there are no copy points
    double deviceBandwidthGBs = 0;                        // ABFT passes (checksums, verification)
    double opLatencySeconds = 0;                          // per op: launch / queue hand-off
    std::string source;  // where the rates come from, for the plan text
    // How the run's H2D block copies are made (a run setting, not the device's): a copy packed on
    // the host (packsOnHost) is priced as one contiguous copy of its bytes. costModelOf: Direct;
    // the CUDA runs set their --h2d-staging.
    H2dStaging h2dStaging = H2dStaging::Direct;
    // The host's packing rate (Ceilings::hostPackGBs; 0: unknown, then kAssumedHostPackGBs).
    double hostPackGBs = 0;
    // The run's own host matrices against the table (calibrateH2d): the rate a sample of the
    // schedule's direct block loads reached, alone, over the table's rate for them. Scales every
    // direct H2D load's alone rate; a loaded copy keeps the table's loaded rate unless the scaled
    // alone rate is lower. 1: not calibrated.
    double h2dInSituFactor = 1;
};

// A host whose pack rate was never measured (older ceilings files): about the H200 host's.
inline constexpr double kAssumedHostPackGBs = 25;

// The model of a device from its ceilings. Missing rates are replaced by documented assumptions
// (the source then says "assumed"); the CPU's host link is its memcpy rate.
CostModel costModelOf(const DeviceInfo& device);
// True when the device has both tables measured (devices --measure of this build).
bool hasMeasuredRates(const Ceilings& ceilings);

// The GEMM rate kind of a run: "f64", "tf32" (FP32 with --gemm cublas-tf32) or "f32".
std::string gemmRateKind(Precision precision, GemmVariant gemm);

// Rates the model predicts: GEMM of C m x n with common dimension k (log-linear interpolation in
// the effective size (m n k)^(1/3) between measured points of the same alignment class, i.e.
// whether every extent is a multiple of 8; linear slow-down below the smallest point, the largest
// point's rate above it), and a 2D copy of rows of rowBytes out of a host matrix hostPitchBytes
// wide (log-linear in the pitch between the pitches measured for a width, then in the row width;
// 0: twice the row); a `loaded` copy runs beside a GEMM: the rates measured so where the tables
// have them.
double predictedGemmGflops(const CostModel& model, const std::string& kind, std::int64_t m, std::int64_t n,
                           std::int64_t k);
double predictedCopyGBs(const CostModel& model, Queue direction, double rowBytes, bool loaded = false,
                        double hostPitchBytes = 0);

// The time of one op of a blocked GEMM schedule: copies bytes / copy rate (row width = host
// region columns x element size), products flops / GEMM rate (augmented shape with ABFT),
// checksums and verifications bytes / device bandwidth, each plus the op latency; `loaded`: a copy
// beside a product, out of a host matrix hostPitchBytes wide (0: twice the row); packedOnHost: an
// H2D copy packed into contiguous staging first, priced as one contiguous copy of its bytes.
double predictedOpSeconds(const CostModel& model, const Operation& op, const std::string& gemmKind,
                          std::size_t elementBytes, bool loaded = false, double hostPitchBytes = 0,
                          bool packedOnHost = false);

// The GEMM shape whose rate a product op is predicted with: the block, plus ABFT's checksum row
// and column when the op's flops say the product is augmented.
struct GemmShape {
    std::int64_t m = 0, n = 0, k = 0;
    auto operator<=>(const GemmShape&) const = default;
};
GemmShape productRateShape(const Operation& op);

// The schedule played on the model: every (device, queue) is one server taking its ops in issue
// order (the CPU executor's threads; the CUDA copy engines and the SMs the compute streams share);
// an op starts when its server is free and its deps are done. Played twice where the tables have
// loaded copy rates: a copy that spent at least half its first-play time beside a product of its
// device takes the loaded rate in the second, and so does a direct H2D load that is the first on
// its queue after a product of its device ended (it runs as slowly as one beside a GEMM: s1's and
// s4's loads, simulate.cpp). Spans are the predicted ones (start 0 = the first
// op's start), in op order; totalSeconds = the last end.
struct Prediction {
    std::vector<Span> spans;
    double totalSeconds = 0;
};
Prediction predictSchedule(const Schedule& schedule, const CostModel& model, const std::string& gemmKind,
                           std::size_t elementBytes);

// ---- the link on the run's own host matrices (predicted within 10 %) ---------------
// The table's copy rates are measured on one buffer; the same 2D copy shape runs at 30-51 GB/s
// from different parts of a run's host matrices (results README, fourteenth session). Before a
// run, a sample of its own direct block loads is copied alone and timed, and the model's H2D rates
// are scaled by what they reached.
//
// One load as the calibration copies it: rows of rowBytes, pitchBytes apart, from source.
struct HostLoad {
    const void* source = nullptr;
    std::int64_t rows = 0, rowBytes = 0, pitchBytes = 0;
};
// Copies the loads one after another alone on the device and returns the seconds they took in all
// (0 when it cannot: no device, no memory for its scratch, a CUDA error).
using HostLoadTimer = std::function<double(const std::vector<HostLoad>&)>;
struct H2dCalibration {
    double factor = 1;  // CostModel::h2dInSituFactor
    int loads = 0;      // sampled, of `candidates` distinct direct loads
    int candidates = 0;
    double bytes = 0, measuredGBs = 0, tableGBs = 0;  // the sample's bytes and rates (measured, table)
    std::string text;   // one sentence for the plan / prediction source
};
// The sample: up to kH2dCalibrationLoads of the schedule's distinct direct (not packed) H2D loads
// of A and B, evenly spaced in issue order, each cut to its first rows so that the sample stays
// within budgetBytes (at least one row each). The factor is clamped to [0.25, 1.5] (a measurement
// outside that is not the host's placement); 1 when there is nothing to sample or the timer
// returns 0.
inline constexpr std::uint64_t kH2dCalibrationBudgetBytes = 256ull << 20;
inline constexpr int kH2dCalibrationLoads = 16;
H2dCalibration calibrateH2d(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                            const HostMatrix& a, const HostMatrix& b, const HostLoadTimer& timer,
                            std::uint64_t budgetBytes = kH2dCalibrationBudgetBytes);

// The host's packing on the run's own packed loads (--h2d-staging pack): the table's pack rate is
// one pattern (16 KiB rows into a 32 MiB destination), a run packs its own row widths into pinned
// slots of whole blocks while the link copies the previous slot. A sample of the run's packed loads
// (per operand, whole blocks or cuts large enough to get the run's packing threads) is packed as
// the run packs them, and the rate it reached becomes the model's (as a factor on the table's,
// clamped to [0.25, 2]: beyond that the measurement is not the host's packing).
// The timers pack the sample three times and return the median pass (the host's packing rate varied
// by 20 % between passes seconds apart on an H200's host).
using HostPackTimer = std::function<double(const std::vector<HostLoad>&)>;  // seconds to pack them
inline constexpr std::uint64_t kPackCalibrationBudgetBytes = 384ull << 20;
struct PackCalibration {
    double factor = 1;   // packGBs / the table's rate
    double packGBs = 0;  // the rate to put in CostModel::hostPackGBs
    int loads = 0, candidates = 0;
    double bytes = 0, measuredGBs = 0;
    std::string text;
};
PackCalibration calibratePacking(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                                 const HostMatrix& a, const HostMatrix& b, const HostPackTimer& timer,
                                 std::uint64_t budgetBytes = kPackCalibrationBudgetBytes);

// --h2d-staging auto on a GPU: pack or direct, whichever the model predicts faster for this
// schedule (direct on a tie, e.g. when every load is contiguous, and when the host's pack rate was
// never measured), with both predictions and a sentence for the plan text.
struct StagingChoice {
    H2dStaging staging = H2dStaging::Direct;
    double packSeconds = 0, directSeconds = 0;
    std::string explanation;
};
StagingChoice chooseH2dStaging(const Schedule& schedule, CostModel model, const std::string& gemmKind,
                               std::size_t elementBytes);

// A plan with the given splits (the extents follow: ceil(extent / splits), no empty block), its
// buffers as makePlan lays them out for `gemm`. Throws InputError when they exceed the cap.
Plan planWithSplits(const Shape& shape, Precision precision, StrategyKind strategy, std::uint64_t capBytes,
                    bool abft, int splitM, int splitN, int splitQ, GemmVariant gemm = GemmVariant::Cublas);

struct PlanCandidate {
    StrategyKind strategy = StrategyKind::S1;
    int splitM = 1, splitN = 1, splitQ = 1;
    double lowerBoundSeconds = 0;  // max(compute, H2D, D2H) sums: no overlap can beat it
    double predictedSeconds = -1;  // simulated; < 0 when the bound already ruled it out
    bool fewestProducts = false;   // makePlan's choice for this strategy
    // Tapered ends (withTaperedEnds): the equal-block candidate of splits baseSplitM x splitN x
    // baseSplitQ with first and last block rows of endRows and columns of endCols (0: equal).
    int baseSplitM = 0, baseSplitQ = 0;
    std::int64_t endRows = 0, endCols = 0;
    bool tapered() const { return endRows > 0 || endCols > 0; }
};
struct PlannerChoice {
    Plan plan;                 // its explanation tells the candidates and why this one
    double predictedSeconds = 0;
    CostModel model;           // the model of the choice: the given one plus the rates the probe measured
    std::vector<PlanCandidate> candidates;  // best first (simulated ones), then the pruned ones
    int simulated = 0;                      // at most kPlannerMaxSimulations (+ one per strategy)
};
// Searches the blockings of each strategy (cuts of m and n of at most kPlannerMaxSplits each, the
// fewest splits of q that fit for each, plus makePlan's plan), bounds each from below, simulates
// them in order of their bound until the bound exceeds the best prediction (or kPlannerMaxSimulations
// were simulated) and keeps the fastest.
// Throws InputError like makePlan when no strategy fits.
inline constexpr int kPlannerMaxSplits = 64;
inline constexpr int kPlannerMaxSimulations = 96;
//
// With a probe (a run on a device, never the GUI's preview): the GEMM rates of the block shapes
// of the kPlannerProbedCandidates best predictions are measured on the device (the tables'
// interpolation between square points misses a few per cent at ABFT's odd extents, which decides
// between blockings as close as 3x2x3 and 3x3x2 at 32768), those candidates predicted again with
// them, and the fastest of those kept.
using GemmRateProbe = std::function<double(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k)>;
inline constexpr int kPlannerProbedCandidates = 3;
//
// Tapered ends: the best kPlannerTaperedBases equal-block predictions are predicted again with
// thinner first and last block rows and/or columns (half and a quarter of a block, a multiple of
// 64): the first product's loads and the last block's store, which overlap nothing, shrink, at
// the price of more, smaller products and reloads. Auto keeps them where predicted faster; Off
// never tries them; Forced takes the best tapered plan even when it predicts slower (the bench
// runs it to check the model's verdict), equal blocks only where none can be tapered.
enum class EndTaper { Off, Auto, Forced };
inline constexpr int kPlannerTaperedBases = 3;
PlannerChoice planWithCostModel(const Shape& shape, Precision precision, const std::vector<StrategyKind>& strategies,
                                std::uint64_t capBytes, bool abft, const CostModel& model, const std::string& gemmKind,
                                const GemmRateProbe& probe = {}, EndTaper taper = EndTaper::Auto,
                                GemmVariant gemm = GemmVariant::Cublas);

}  // namespace gigacheck
