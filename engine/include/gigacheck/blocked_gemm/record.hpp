// The blocked GEMM run record: the one artefact `gigacheck run` writes, the GUI draws and the
// tests check. Saved as versioned JSON (format_version); newer versions are refused with a clear
// message. The envelope (RecordEnvelope: status, devices, spans, events, metrics) is every
// family's; config, plan, fault report, reference and repairs are the blocked GEMM family's section
// (README "Record format").
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/h2d_staging.hpp"
#include "gigacheck/blocked_gemm/operand_checks.hpp"
#include "gigacheck/operands.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/reference_check.hpp"
#include "gigacheck/blocked_gemm/repair.hpp"

#include <string>
#include <vector>

namespace gigacheck {

inline constexpr int kMaxRunDevices = 64;

struct RunConfig {
    Shape shape;
    Precision precision = Precision::F32;
    Distribution distribution = Distribution::Uniform;
    std::uint64_t seed = 1;
    BackendKind backend = BackendKind::Auto;
    int device = -1;  // CUDA device ordinal; -1: the first one
    // Devices the C blocks are spread over (makePlan / buildSchedule with devices); on CUDA the
    // chosen device first, then the other GPUs, ordinals repeated when there are fewer GPUs; on
    // the CPU emulated devices. The record says "devices" only when above 1.
    int devices = 1;  // 1 .. kMaxRunDevices
    StrategyKind strategy = StrategyKind::S1;
    std::uint64_t memCapBytes = 0;  // 0: the device's memory (CPU: 1 GiB)
    bool abft = true;
    GemmVariant gemm = GemmVariant::Cublas;
    int tile = 32;
    FaultSpec faults;
    // Auto: full reference when m*n*q <= 2^34, else a sample of 64 rows.
    ReferenceMode reference = ReferenceMode::Auto;
    double thresholdLambda = 4.0;
    // --strategy auto: the cost-model planner (gigacheck/blocked_gemm/cost_model.hpp) chooses the strategy and
    // the blocking; `strategy` then holds its choice.
    bool planByCostModel = false;
    // How the CUDA backend's block loads leave the host (gigacheck/blocked_gemm/h2d_staging.hpp).
    H2dStaging h2dStaging = H2dStaging::Auto;
};

// The blocked GEMM family's record: the envelope and its section.
struct RunRecord : RecordEnvelope {
    RunRecord() { family = "blocked_gemm"; }
    // ---- the blocked GEMM family's section
    RunConfig config;
    Plan plan;
    FaultReport faults;
    ReferenceCheck reference;
    // The repair pass after the run, one per C block it looked at (blocked GEMM's block
    // recompute: written in the family section, where format 2 has always kept it).
    std::vector<RepairEvent> repairs;
    // The end-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp): copies of A and B compared
    // with the checksums taken where they entered; ran = false where the backend does not
    // compare (section "operand_checks" absent).
    OperandCheckReport operandChecks;
    // The cost model's prediction of the schedule that ran: one span per op, timed
    // from 0, beside the measured ones; empty in records from before it ("prediction" absent).
    std::vector<Span> predictedSpans;
    double predictedSeconds = 0;
    std::string predictionSource;  // the model's rates (CostModel::source)
    // The user's own A and B when the run multiplied imported matrices (section "inputs"; absent,
    // and empty here, when the run generated them, as in every record before it).
    std::vector<InputMatrix> inputs;

    // Verified correct: a check that could have seen a fault ran, and every check that ran says
    // C is right: every block clean, corrected, or made right by the repair pass, and the
    // reference agrees. A full reference that agrees is enough on its own (C is then right
    // whatever an ABFT check said); without ABFT only a full reference verifies.
    bool verifiedCorrect() const;
    // The run ended but nothing that could have seen a fault ran (--no-abft without a full
    // reference): neither verified nor known wrong (exit 3).
    bool notVerified() const;
    // What the verdict rests on: "ABFT", "ABFT and the full reference", "ABFT and a sampled
    // reference", "the full reference", or "nothing".
    std::string verifiedBy() const;
};

std::string toJson(const RunRecord& r, int indent = 1);
// Throws InputError: malformed JSON, a missing field, format_version newer than supported, or a
// record of another family (recordFamilyOf says which).
RunRecord recordFromJson(const std::string& text);
void saveRecord(const RunRecord& r, const std::string& path);  // throws InputError on I/O failure
RunRecord loadRecord(const std::string& path);

// The cost model's prediction against what ran: totals (measured: first span start to last end)
// and the busy time of each op kind (the sum of its spans), predicted and measured. Empty perKind
// when the record has no prediction.
struct PredictionError {
    std::string kind;  // "copy-h2d", "product", ...
    int ops = 0;
    double predictedSeconds = 0, measuredSeconds = 0;
    double errorPercent() const { return measuredSeconds > 0 ? 100 * (predictedSeconds / measuredSeconds - 1) : 0; }
};
// The ends of a run where the compute queue has nothing to do: fill, from the first op's start to
// the first product's; drain, from the last product's end to the last op's (the first loads and
// the last store, which no strategy overlaps with a product).
struct FillDrain {
    double fillSeconds = 0, drainSeconds = 0;
};
FillDrain fillDrainOf(const std::vector<Span>& spans);
struct PredictionComparison {
    double predictedTotal = 0, measuredTotal = 0;
    FillDrain predictedEnds, measuredEnds;
    std::vector<PredictionError> perKind;
    double errorPercent() const { return measuredTotal > 0 ? 100 * (predictedTotal / measuredTotal - 1) : 0; }
};
PredictionComparison comparePrediction(const RunRecord& r);

// "Your matrices: A from a.npy (300 x 200, float32, C order), B from ...; the run computes in f32"
// (no newline); empty when the record has no inputs. formatReport includes it.
std::string formatInputsLine(const RunRecord& r);

// Seed 000 section 6 report: the GIGACHECK block plus the fault report.
std::string formatReport(const RunRecord& r);

// Metrics computed from spans and the plan (used by runGemm and by tests).
Metrics computeMetrics(const RunRecord& r);
FaultReport computeFaultReport(const RunRecord& r);

}  // namespace gigacheck
