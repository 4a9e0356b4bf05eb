// The online ABFT family (the online-ABFT paper): C built as a sum of panel outer products C += A_j B_j with the
// full-checksum relation kept after every step, checked every fq steps (online) or only at the end
// (offline), and triple modular redundancy (three products and an element-wise vote) beside them.
// engine/src/families/online_abft/README.md has the scheme, the cost model and the record section.
#pragma once

#include "gigacheck/faults.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/reference_check.hpp"
#include "gigacheck/run_hooks.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gigacheck {

// blocked: the blocked GEMM family (the Gigacheck report, runGemm); the others run here.
enum class Scheme { Blocked, Online, Offline, Tmr };
template <> const EnumTable<Scheme>& enumTable<Scheme>();
std::string_view toString(Scheme);
Scheme schemeFromString(std::string_view);

// Where an online fault lands: a cell of C, of its checksum rows / columns, or an element of the
// input A or B.
enum class OnlineTarget { Result, ChecksumRow, ChecksumCol, A, B };
template <> const EnumTable<OnlineTarget>& enumTable<OnlineTarget>();
std::string_view toString(OnlineTarget);
OnlineTarget onlineTargetFromString(std::string_view);

// Steps between two checks run as one GEMM of their panels together (README "Merged steps"): no
// check sees the C in between, so C += A_j B_j for j in the group equals one product of depth
// b x (steps in the group), without each step's read and write of C. A fault after a step inside
// a group splits the group there, so every fault strikes the C of its step. auto: on the GPU's
// device path (the CPU keeps one product per step, for the lab's step view); on: wherever the
// device path or the CPU runs (not TMR, not the host-checked path); off: one GEMM per step.
enum class StepMerge { Auto, On, Off };
template <> const EnumTable<StepMerge>& enumTable<StepMerge>();
std::string_view toString(StepMerge);
StepMerge stepMergeFromString(std::string_view);

// One fault at a chosen place and moment.
//  result:       C(row, col).
//  checksum-row: C(m + row, col), row < K: column col of weighted checksum row `row`.
//  checksum-col: C(row, q + col), col < K; with G column blocks (K = 1) col < G names the block
//                whose checksum column it strikes.
//  a / b:        A(row, col) / B(row, col).
// step: after which panel product it strikes (0-based). Default: C targets after the last step;
// A / B before the checksums are taken (at encoding). TMR: the replica (0, 1, 2) it corrupts.
struct OnlineFault {
    OnlineTarget target = OnlineTarget::Result;
    std::int64_t row = 0, col = 0;
    std::optional<double> delta;  // default: +-U(10, 100) x the typical |C_ij| (|A_ij|, |B_ij| for inputs)
    std::optional<int> step;
    bool operator==(const OnlineFault&) const = default;
};

// The most panel steps a run (and a record) may have: a run keeps a few ops and spans per step,
// so n = 2^31 - 1 in panels of 1 would hold gigabytes of them; as blocked GEMM's product limit.
inline constexpr std::int64_t kMaxOnlineSteps = std::int64_t(1) << 20;

struct OnlineConfig {
    Shape shape;
    Precision precision = Precision::F32;
    Distribution distribution = Distribution::Uniform;
    std::uint64_t seed = 1;
    BackendKind backend = BackendKind::Auto;
    int device = -1;
    Scheme scheme = Scheme::Online;
    std::int64_t panel = 0;   // panel width b; 0: min(n, 1024)
    int checkEvery = 1;       // fq; 0: only after the last step (offline sets 0)
    int checksums = 1;        // K weighted checksum vectors per axis (1..kMaxChecksums)
    // C in G column blocks, each with its own checksum column, built and checked on its own CUDA
    // stream with no join between them (README "Column blocks"). 0: auto (2 on the GPU's device
    // path when q >= 4096, else 1); > 1 only there (CUDA, K = 1, faults in C, not TF32).
    int columnBlocks = 0;
    std::vector<OnlineFault> faults;
    int randomErrors = 0;     // further random result faults, each after a random step
    FaultModel model = FaultModel::Delta;
    int bit = -1;             // BitFlip: the bit; -1 the top exponent bit
    int bit2 = -1;            // BitFlip: a second bit of the same word flipped at once (-1: none)
    GemmVariant gemm = GemmVariant::Cublas;  // CUDA: cublas, cublas-tf32, cutlass-tf32 or tf32x3 products
    ReferenceMode reference = ReferenceMode::Auto;
    double thresholdLambda = 4.0;
    StepMerge mergeSteps = StepMerge::Auto;  // --merge-steps

    int steps() const;  // ceil(n / panel width)
    std::int64_t panelWidth() const;
    bool checksAfter(int step) const;  // a check follows this step
};

// A fault found in an input (a whole row of C off for A, a whole column for B).
struct InputFaultReport {
    OnlineTarget operand = OnlineTarget::A;
    std::int64_t row = 0, col = 0;  // the element of A / B
    double delta = 0;               // found: current - encoded value
    bool beforeChecksum = false;    // struck before the checksums were taken (found at encoding)
    int caughtAtStep = -1;          // the check that found it; -1: at encoding
    std::int64_t cellsOff = 0;      // cells of C it had spread to (a row of q for A, a column of m for B)
    bool corrected = false;         // the element and the row / column of C restored
    // Not located (row and col -1): the operand's sums moved on one axis only, each by less than
    // the round-off of its line's sum (a change in the last bits, absorbed by the other axis's
    // sums). Too small to locate and too small to move C beyond its checks: left to them.
    bool belowRoundoff = false;
};

// The element-wise majority vote of TMR. A disputed cell (outvoted, or without a majority) is
// settled by computing it again from A and B: two replicas struck alike would otherwise out-vote
// the right one. Disputes beyond the listed ones cannot be settled (the run is then not verified
// by TMR).
struct VoteReport {
    std::int64_t cellsOutvoted = 0;      // cells where one replica disagreed and was outvoted
    std::int64_t cellsWithoutMajority = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> noMajority;  // the first 64 such cells
    std::vector<std::pair<std::int64_t, std::int64_t>> disputed;    // the first kMaxDisputedCells
    std::int64_t cellsRecomputed = 0;    // disputed cells computed again from A and B
    std::int64_t majorityOverruled = 0;  // of those: the majority's value was wrong
    std::int64_t disputes() const { return cellsOutvoted + cellsWithoutMajority; }
    bool settled() const { return cellsRecomputed >= disputes(); }
};
inline constexpr std::int64_t kMaxDisputedCells = 1024;

// The online ABFT family's record: core's envelope (status, devices, spans, events with the checks
// as verifications, metrics) and the family's section.
struct OnlineRecord : RecordEnvelope {
    static constexpr std::string_view kFamily = "online_abft";
    OnlineRecord() { family = std::string(kFamily); }
    // ---- the online ABFT family's section
    OnlineConfig config;
    int steps = 0;
    std::vector<int> checkSteps;  // steps a check follows
    int columnBlocks = 1;         // as run (config.columnBlocks resolved); a check per block and step
    // Envelope: injections = faults in C and its checksums, verifications = one per check (block.k =
    // step, block.j = the column block; indices global: column q + b is block b's checksum column).
    std::vector<InputFaultReport> inputFaults;
    std::vector<OnlineFault> appliedInputFaults;  // A / B faults as applied (delta resolved)
    std::optional<VoteReport> vote;
    bool recomputed = false;  // a check was uncorrectable: the product was computed again
    bool recomputeClean = false;
    double recomputeSeconds = 0;
    ReferenceCheck reference;
    bool mergedSteps = false;  // as run (config.mergeSteps resolved): unchecked steps as one GEMM
    int panelProducts = 0;     // GEMMs (per column block) that built C: steps, or fewer when merged
    // CUDA device path: the panel GEMMs' kernel, cuBLAS's pick or the configuration tuned for the
    // shape, with both times ("" on the CPU and in older records).
    std::string panelGemm;

    // Every check clean or corrected (or the recompute clean), TMR found a majority everywhere,
    // and the reference agrees.
    bool verifiedCorrect() const;
    // The same verdict with the reference left out (what the run's own checks say; campaigns judge
    // the reference separately).
    bool verifiedByChecks() const;
    // TMR found cells where no two replicas agreed and no full reference ran: their values come
    // from a recompute that nothing checked (exit 3, "not verified"; never "verified").
    bool notVerified() const;
    int uncorrectableChecks() const;
};

// C_f right after one op of an online / offline run (a panel product, the faults after a step, a
// check): resultRows x resultCols of C and its checksum rows / columns beyond, row-major with
// leading dimension ld. Valid only during the call, on the compute queue's thread. Reported where
// C lives in host memory (the CPU backend); a viewer of a device run replays it on the CPU
// (ui/README.md, "Online ABFT").
struct StepSnapshot {
    int opId = 0;
    OpKind kind{};
    int step = 0;
    const void* data = nullptr;
    Precision precision = Precision::F32;
    std::int64_t rows = 0, cols = 0, ld = 0;
    std::int64_t resultRows = 0, resultCols = 0;
};
using StepSnapshotSink = std::function<void(const StepSnapshot&)>;

// Throws InputError on inconsistent settings before anything runs (panel 0, a step beyond the
// step count, a fault outside its matrix, K beyond the limit, a setting the backend cannot run).
void validateOnlineConfig(const OnlineConfig& config, BackendKind resolvedBackend);
// The column blocks a run of this config has on that backend (config.columnBlocks, auto resolved).
int resolvedColumnBlocks(const OnlineConfig& config, BackendKind resolvedBackend);
// Whether a run of this config merges the steps between checks into one GEMM (auto resolved).
bool resolvedMergeSteps(const OnlineConfig& config, BackendKind resolvedBackend);
OnlineRecord runOnline(const OnlineConfig& config, const RunHooks& hooks = {});
// The same with C handed to `onStep` after every op that changes it (CPU backend).
OnlineRecord runOnline(const OnlineConfig& config, const RunHooks& hooks, const StepSnapshotSink& onStep);

std::string formatOnlineReport(const OnlineRecord& record);

// The fq sweep (README "Bench" 3): per check frequency (0: offline), the compute
// time against the plain product, and for each fault count how many of `trials` runs with that
// many faults (random cells, random steps) ended with every check correcting (no recompute).
struct FqSweepOptions {
    std::int64_t n = 512;      // n x n x n, FP32, uniform inputs
    std::int64_t panel = 32;   // panel width b
    std::vector<int> checkEvery{1, 2, 4, 8, 0};
    std::vector<int> faultCounts{1, 2, 4, 8};
    int trials = 10;
    int reps = 3;              // timed runs per fq (median)
    std::uint64_t seed = 7;    // inputs and placements
};
struct FqSweepRow {
    int checkEvery = 1;
    double seconds = 0;   // median compute time, no fault
    double overhead = 0;  // seconds / plain - 1
    std::vector<int> correctable;  // per faultCounts entry: runs of `trials` with no uncorrectable check
};
struct FqSweepResult {
    FqSweepOptions options;
    std::string device;
    double plainSeconds = 0;  // the plain product (cuBLAS / OpenBLAS) in the same process
    std::vector<FqSweepRow> rows;
};
// progress(fraction) returning false cancels (throws InputError "fq sweep cancelled").
FqSweepResult sweepCheckEvery(const FqSweepOptions& options, Backend& backend,
                              const std::function<bool(double)>& progress = {});

// `gigacheck bench online` (README of engine/src/families/online_abft): returns the exit code.
struct BenchOptions;
int runOnlineBench(const BenchOptions& options, std::ostream& out, std::ostream& err);
std::string onlineToJson(const OnlineRecord& record, int indent = 1);
OnlineRecord onlineRecordFromJson(const std::string& text);
// Throws InputError when the file cannot be read, is not an online_abft record or is malformed.
OnlineRecord loadOnlineRecord(const std::string& path);
void saveOnlineRecord(const OnlineRecord& record, const std::string& path);

}  // namespace gigacheck
