// Memory-efficient Strassen (Krishnan's Strassen thesis): the configuration of a run, its record, and the entry points
// of the strassen family (engine/src/families/strassen/README.md).
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/schedule.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gigacheck {

// How the seven products of a level are organised (family README "Variants").
//  msmes:      the seed's stages 1-7 (section 3.3.3-3.3.4): in-place sums in A and B, each product
//              accumulated into its two C blocks (one beta=1 GEMM per target), A and B recovered.
//  winograd:   Strassen-Winograd's 7 products and 15 additions, staged in place in A and B the same
//              way; products accumulated into every C block they reach.
//  workspace:  the seed's stages with each product computed once into the smallest workspace (one
//              leaf block M) and added into its targets.
//  accumulate: Strassen-Winograd with C blocks transformed in place between products so that each
//              product is one beta=1 GEMM into one C block (in the spirit of Boyer, Dumas, Pernet
//              and Zhou, ISSAC 2009): no memory beyond A, B and C, one GEMM per product.
enum class StrassenVariant { Msmes, Winograd, Workspace, Accumulate };
// The multi-device decomposition (seed chapter 4): 2D (8 block products, then 4 sums) or
// Strassen-Winograd (7 tasks, 8 sums before and 7 after).
enum class StrassenDecomposition { TwoD, Winograd };

template <> const EnumTable<StrassenVariant>& enumTable<StrassenVariant>();
template <> const EnumTable<StrassenDecomposition>& enumTable<StrassenDecomposition>();
std::string_view toString(StrassenVariant);
std::string_view toString(StrassenDecomposition);
StrassenVariant strassenVariantFromString(std::string_view);
StrassenDecomposition strassenDecompositionFromString(std::string_view);

// A fault placed between stages (--inject-at, gigacheck/fault_grammar.hpp): into the result of
// leaf product `index` (issue order), into C quadrant `index` after the top level's first product
// stage, or into A / B quadrant `index` after the top level's first addition stage (an operand
// overwritten in place). With a cell (row, col) the fault strikes that cell instead of the middle of
// the quadrant (C, A, B: the matrix's own coordinates; product: in its first target block); with
// afterProduct it strikes right after leaf product K instead of between stages (@K; one device).
struct StrassenFault {
    enum class Where { Product, C, A, B };
    Where where = Where::Product;
    int index = 0;     // the leaf product K, or the quadrant Q when there is no cell
    double delta = 0;  // added to the cell; 0 and not deltaGiven: 1000 x the typical |value| of the target
    // ":DELTA" given, 0 included (as `run --inject-at R,C:0` adds 0). A given delta is added whatever
    // --fault says (as run does); the others follow StrassenConfig::faultModel.
    bool deltaGiven = false;
    std::int64_t row = -1, col = -1;  // the cell, -1: the middle of the quadrant / the product's target
    int afterProduct = -1;            // @K: right after leaf product K (C, A, B faults)
    bool hasCell() const { return row >= 0; }
};
// The fault grammar's forms Strassen places: [c:|a:|b:]R,C[:DELTA][@K], c:Q / a:Q / b:Q[:DELTA][@K],
// product:K[:R,C][:DELTA]. Throws InputError naming them.
StrassenFault parseStrassenFault(std::string_view);
StrassenFault strassenFaultOf(const InjectSpec&);
// "c:1:0.5", "a:3,4@2" (the delta when given or resolved, shortest round-trip form).
std::string toString(const StrassenFault&);
// Where only: "product:1000", "c:3,4@2".
std::string faultPlace(const StrassenFault&);

struct StrassenConfig {
    Shape shape;
    int levels = 1;
    StrassenVariant variant = StrassenVariant::Msmes;
    Precision precision = Precision::F32;
    bool tf32 = false;  // FP32 storage, TF32 tensor-core leaves (CUDA; the CPU emulates them: operands rounded to TF32)
    // CUDA leaves: cuBLAS (one beta = 1 GEMM per target), or the seed's multi-target kernel (the
    // product computed once, added into every target; FP32 / FP64, not TF32). The CPU: OpenBLAS.
    bool multiTargetKernel = false;
    // --leaf cutlass (TF32 only): each leaf GEMM on the CUTLASS sm_90a TF32 kernel (gemm/cutlass/), which
    // multiplies its operands truncated to TF32; a call the kernel cannot take (shape, alignment, no
    // Hopper device) runs cuBLAS TF32 and the result counts it. The CPU emulates it: operands truncated.
    bool cutlassLeaves = false;
    BackendKind backend = BackendKind::Auto;
    int device = -1;
    int devices = 1;
    // The global decomposition over `devices` (seed chapter 4) is built when devices > 1 or when
    // distribute is set (one device: every task local). Ops carry their device; the backend from
    // makeStrassenBackend has that many (distinct GPUs where the machine has them).
    bool distribute = false;
    StrassenDecomposition decomposition = StrassenDecomposition::Winograd;
    bool exactRestore = false;  // restore A and B from the host copy instead of recovery stages 6-7
    // CUDA: the in-place sums that do not wait for the product just issued run on side compute
    // streams beside it (family README "Sums beside products"); false: every op of a device on one
    // stream, in issue order (--sums inline). The CPU executor runs a queue's ops one at a time.
    bool sumsBeside = true;
    // ABFT on every leaf product (family README "Leaf checks"): the column checksum relation of
    // each product checked on its C targets right after it; one device only.
    bool checkLeaves = false;
    std::vector<StrassenFault> faults;
    // --fault: what the faults without a delta of their own do (a delta, or a bit flip of the element).
    FaultModelSpec faultModel;
    Distribution distribution = Distribution::Uniform;
    std::uint64_t seed = 1;
    bool integerInputs = false;  // small integers: every level is exact (tests)
    bool reference = true;       // FP64 reference product (host): the error of C, part of the verdict
    bool referenceAlways = false;  // also past 2^34 multiply-adds (where auto leaves it out)
    bool verify = true;          // checksums of A, B, C (host); the bench times without them
    double thresholdLambda = 8.0;
};

// Levels actually run: at most the requested ones, fewer when a dimension is smaller than 2^L.
inline constexpr int kMaxStrassenLevels = 4;
int effectiveLevels(const Shape& shape, int levels);

// Builds the family's schedule (plain data; family README "Schedule"). Deterministic.
Schedule buildStrassenSchedule(const StrassenConfig& config);
// validateOperations on the schedule's region view plus the family's own proof: the ops, executed
// symbolically on the sub-blocks, leave A and B as they were and add exactly A*B to C, and no op
// reads a region another op is still overwriting. Empty string when everything holds.
std::string validateStrassenSchedule(const Schedule& schedule, const StrassenConfig& config);

// What a run measured besides the envelope.
struct StrassenLevelError {
    int level = 0;
    double maxUlpsA = 0, maxUlpsB = 0;       // recovered operand vs the original, in ulps
    std::int64_t changedA = 0, changedB = 0;  // elements not bit-equal after recovery
};
struct StrassenCheck {
    std::string where;    // "c", "a", "b"
    std::string verdict;  // "clean", "corrected", "recomputed", "uncorrectable"
    std::int64_t row = -1, col = -1;
    std::string detail;
};
// What a run that ended (status "ok") says of C.
enum class StrassenVerdict {
    Verified,       // C = A*B: every check that ran passed or repaired what it saw
    Uncorrectable,  // C is known wrong
    NotVerified,    // no check could vouch for C (none ran, or C's were too weak and no reference ran)
};
// A Strassen run's record: the envelope every family shares (status ok | cancelled | failed,
// error, devices in schedule order, spans) with the family's own part.
struct StrassenResult : RecordEnvelope {
    StrassenResult() { family = "strassen"; }
    StrassenConfig config;
    int levels = 0;
    Shape core;  // the part multiplied with Strassen; the rest is peeled (family README)
    StrassenVerdict verdict = StrassenVerdict::Verified;  // meaningful when status is "ok"
    double seconds = 0;
    std::size_t peakDeviceBytes = 0, operandBytes = 0, extraBytes = 0;
    int products = 0, gemmCalls = 0, additions = 0;
    int additionsBeside = 0;  // of the additions: on side compute streams (sumsBeside)
    // --check-leaves: leaf products checked, and the largest residual / threshold among them
    // (> 1: that leaf was caught; each caught leaf is also a "detected" entry of checks).
    int leavesChecked = 0;
    double leafWorstRatio = 0;
    // --leaf cutlass: leaf GEMM calls run by the CUTLASS kernel and by the cuBLAS TF32 fallback, and
    // why the first fallback happened (empty: none).
    int cutlassLeafGemms = 0, fallbackLeafGemms = 0;
    std::string leafFallbackReason;
    double relErrorC = -1;  // max |C - C_ref| / max |C_ref| (FP64 reference), -1: not computed
    double maxErrorC = -1;  // over the finite cells; nonFiniteC counts NaN / Inf cells
    std::int64_t nonFiniteC = 0;
    // The reference's verdict: cells beyond its tolerance and the largest |C - C_ref| / tolerance.
    std::int64_t referenceMismatches = 0;
    double referenceWorstRatio = -1;  // -1: no reference
    // C's checks: the largest residual / threshold among the checks that passed (-1: not checked).
    double cWorstCleanRatio = -1;
    // The smallest error of one cell that C's checks are sure to see (its row's or its column's
    // threshold, whichever is smaller, for the cell where that is largest), and the largest |C|
    // beside it: a cell off by less can pass C's checks; the reference, where it runs, judges
    // each cell against its own tolerance. -1: not checked.
    double cDetectionFloor = -1, cMaxAbs = -1;
    // The same for the FP64 reference: the largest of its per-cell tolerances, so any one cell off
    // by more is seen (and repaired from the reference). -1: the reference did not run.
    double referenceFloor = -1;
    // What the verdict rests on: "checksums", "reference", "checksums+reference", "none".
    std::string verifiedBy = "none";
    StrassenLevelError recovery;
    std::vector<StrassenCheck> checks;
    double restoreSeconds = 0;  // exact restore (host copy to device), part of seconds
    // Several devices (devices.size() > 1, CUDA ordinal in DeviceInfo::index): how they map onto
    // the machine ("2 devices on 2 GPUs (CUDA ordinals 0, 1)", "7 devices emulated on 2 GPUs ...",
    // "... emulated on the CPU ..."). Empty on one device.
    std::string placement;
};

// What a run came to, in one word: its status when it did not end (failed, cancelled), else its
// verdict -- ok (verified), uncorrectable, not_verified. The record's "verdict", the benches' column.
std::string strassenOutcome(const StrassenResult& result);

// Plans, runs, verifies and fills the result. Throws InputError on bad input.
// The backend a config asks for, with as many devices as its decomposition places ops on: the
// CPU emulates config.devices devices; CUDA takes distinct GPUs (strassenDeviceOrdinals) and
// repeats them only when the machine has fewer than config.devices (G = 1 real GPU still runs a
// G-device schedule). Throws InputError like makeBackend.
std::unique_ptr<Backend> makeStrassenBackend(const StrassenConfig& config);
// The CUDA ordinal of each of `devices` schedule devices on a machine with `available` GPUs: the
// chosen one first, then the others in ordinal order, round-robin again when devices > available.
std::vector<int> strassenDeviceOrdinals(int chosen, int available, int devices);
// The placement text of StrassenResult for a backend's devices and a schedule over `scheduled`.
std::string strassenPlacement(const std::vector<DeviceInfo>& devices, int scheduled);
StrassenResult runStrassen(const StrassenConfig& config, Backend& backend, RunObserver* observer = nullptr,
                           const std::atomic<bool>* cancel = nullptr);
// The same on inputs the caller made (the bench reuses them across runs); a and b are left as the
// run recovered them.
StrassenResult runStrassenOn(const StrassenConfig& config, Backend& backend, HostMatrix& a, HostMatrix& b,
                             RunObserver* observer = nullptr, const std::atomic<bool>* cancel = nullptr);
// Host matrices in the backend's memory (pinned on CUDA) filled as config asks.
void makeStrassenInputs(const StrassenConfig& config, Backend& backend, HostMatrix& a, HostMatrix& b);

// gigacheck bench strassen (bench/bench_strassen.cpp): ratios against cuBLAS in one process.
// Sizes: GIGACHECK_BENCH_SIZES="1024,4096" overrides the list (a run longer than a device command's
// limit can be split). Returns the exit code (0, or 2 with the reason on err).
int runStrassenBench(bool quick, int device, const std::string& jsonPath, std::ostream& out, std::ostream& err);
// gigacheck bench multi-gpu-strassen (bench/bench_multi_gpu.cpp): the 2D and Strassen-Winograd
// decompositions on one GPU and on every visible GPU (two logical devices of one GPU where there
// is one), FP64 and FP32, N = 7168, 14336, ... (GIGACHECK_BENCH_SIZES overrides; quick: 1792,
// 3584), against one GPU and cuBLAS, with the measured peer bandwidth and both models. 0, or 2
// with the reason on err.
int runMultiGpuStrassenBench(bool quick, int device, const std::string& jsonPath, std::ostream& out, std::ostream& err);

std::string formatStrassenReport(const StrassenResult& result);
// Why a run is not verified, in words for the report, the CLI and the lab: C's checksums were off
// and the FP64 reference did not run -- off (--reference none), or left out by auto past 2^34
// multiply-adds (--reference full runs it).
std::string strassenNotVerifiedReason(const StrassenResult& result);
std::string strassenRecordJson(const StrassenResult& result);
// The record read back (what the report needs); nullopt when the text is not a strassen record.
// Throws InputError on a strassen record that does not parse.
std::optional<StrassenResult> strassenResultFromJson(const std::string& text);
// The record in the file at path, read within the readers' size and depth limits; InputError
// naming the file when it cannot be read, is not a strassen record or does not parse.
StrassenResult loadStrassenRecord(const std::string& path);
// The record written to path (replaced whole or not at all); InputError on I/O failure.
void saveStrassenRecord(const StrassenResult& result, const std::string& path);
// 0 verified correct, 1 uncorrectable, 2 failed, 3 not verified (neither checksums nor reference).
int strassenExitCode(const StrassenResult& result);

}  // namespace gigacheck
