// What the online ABFT family's ops work on besides the buffers: the settings of the run, the
// faults at their steps, the host checksums of the inputs, and what the ops find (input faults,
// the vote). Handed to the executors as ExecutionRequest::inputs; the ops reach it through
// inputsOf().
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/schedule.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace gigacheck::online_abft {

// A fault with everything resolved: its delta (or bit) and the moment it strikes.
struct PlannedFault {
    OnlineFault at;        // at.step: after which step (C targets), -1 before encoding (A / B), the replica (TMR)
    FaultModel model = FaultModel::Delta;
    double delta = 0;
    int bit = 0;
    int bit2 = -1;  // a second bit of the same word (-1: none)
    double before = 0, after = 0;
    bool applied = false;
};

// Buffer slots of the schedule (plan.buffers).
// ABFT: A_c, B_r, C_f, aux (with G column blocks: those of block 0, then B_r, C_f, aux of block 1,
// ...: slotB / slotC / slotAux). TMR: A, B, replicas 0 (the result), 1 and 2, the vote's scratch.
// cutlass-tf32 (one block): B^T of the panel being multiplied after aux (kMajorPanels); with the
// step-sums kernel all of B^T, the sums of C per step (stepSumsProduct), then per step C's checksum
// column and row and the bounds that the check of that step compares the sums with (stepLinesWidth,
// stepBoundsWidth).
enum Slot : int {
    kSlotA = 0, kSlotB = 1, kSlotC = 2, kSlotAux = 3, kSlotBTransposed = 4, kSlotStepSums = 5, kSlotStepLines = 6,
    kSlotStepBounds = 7,
    kSlotReplica1 = 3, kSlotReplica2 = 4, kSlotVote = 5
};
inline int slotB(int block) { return block == 0 ? kSlotB : 4 + 3 * (block - 1); }
inline int slotC(int block) { return block == 0 ? kSlotC : 5 + 3 * (block - 1); }
inline int slotAux(int block) { return block == 0 ? kSlotAux : 6 + 3 * (block - 1); }

struct OnlineInputs final : FamilyInputs {
    Shape shape;
    Precision precision = Precision::F32;
    HostMatrix* a = nullptr;  // m x n, read by load-inputs (stays clean: faults strike the copies)
    HostMatrix* b = nullptr;  // n x q
    HostMatrix* c = nullptr;  // m x q, written by store-result
    Scheme scheme = Scheme::Online;
    int checksums = 1;
    int columnBlocks = 1;  // resolved (resolvedColumnBlocks); > 1 only on the CUDA device path
    std::int64_t panel = 1;
    int steps = 1;
    int checkEvery = 1;  // 0: only after the last step
    bool mergeSteps = false;  // resolved (resolvedMergeSteps): the steps between checks as one product op
    double lambda = 4.0;
    GemmVariant gemm = GemmVariant::Cublas;
    bool onDevice = false;  // the CUDA backend runs it (stepSumsProduct)
    std::vector<PlannedFault> faults;
    // Host checksums of the inputs as they were made (A e, e^T A, B e, e^T B), against which the
    // encoding finds an input corrupted before its checksums were taken.
    std::vector<double> hostRowSumsA, hostColSumsA, hostRowSumsB, hostColSumsB;

    // C after each op that changes it, for a viewer (null: nobody asked; CPU ops only).
    const StepSnapshotSink* onStep = nullptr;

    // Filled by the ops (compute queue only).
    std::vector<InputFaultReport> inputFaults;
    std::optional<VoteReport> vote;
    std::string panelGemm;  // how the device multiplied the panels (cuda/op_table.cpp noteTuning)
};

OnlineInputs& inputsOf(const ExecutionRequest& request);  // ops.cpp
// FamilyOps::checkInputs: the inputs present, the host matrices of the shape and precision.
void checkInputs(const ExecutionRequest& request, const std::string& backendName);

// A buffer slot of the schedule.
inline const BufferSpec& bufferOf(const Schedule& schedule, int slot)
{
    return schedule.buffers[std::size_t(slot)];
}

// The CUDA backend's host-checked path (cuda/op_table.cpp, README "On the GPU"): K >= 2 weighted
// checksums, or a fault in A or B. The device computes the K weighted residuals of every line of
// C_f and the round-off bound; the host decides with the CPU's code (host_check.hpp), and copies C
// (and A / B) over only when a check flags something. Otherwise (K = 1, faults in C or its
// checksums) the device path of the blocked family runs, decided and corrected on the device.
inline bool hostChecked(const OnlineInputs& in)
{
    if (in.scheme == Scheme::Tmr)
        return false;
    if (in.checksums > 1)
        return true;
    for (const PlannedFault& f : in.faults)
        if (f.at.target == OnlineTarget::A || f.at.target == OnlineTarget::B)
            return true;
    return false;
}

// cutlass-tf32 on FP32 data (the device path: one block, K = 1): each panel of B, rounded, is laid
// out transposed in its own buffer before the product, so that the CUTLASS kernel reads both
// operands K-major (gemm/cuda/gemm.hpp GemmCall::bTransposed; measured 93-96 % of cuBLAS TF32
// against ~78 % with B as it lies).
inline bool kMajorPanels(const OnlineInputs& in)
{
    return in.gemm == GemmVariant::CutlassTf32 && in.precision == Precision::F32 && in.scheme != Scheme::Tmr &&
           !hostChecked(in) && in.columnBlocks <= 1;
}
// The inner dimension of the longest product op: a panel, or with merged steps the steps between
// two checks (all of n for offline).
inline std::int64_t longestProductDepth(const OnlineInputs& in, std::int64_t n)
{
    if (!in.mergeSteps)
        return std::min(n, in.panel);
    const int group = in.checkEvery > 0 ? in.checkEvery : in.steps;
    return std::min(n, in.panel * std::int64_t(group));
}

// The faults in C the step-sums kernel applies (gemm/cutlass/cutlass_step_sums.hpp kStepFaultsMax).
inline constexpr std::size_t kStepSumsFaultsMax = 8;

// cutlass-tf32 on the device path with faults in C's main part only (at most kStepSumsFaultsMax; no
// flip of a high exponent bit):
// the whole product is one CUTLASS kernel that keeps C in registers across the steps and writes the
// row and column sums of C after each product op's depth (README "C kept across the steps"); each
// check reads that step's sums. B^T is laid out whole, rounded, at encoding. GIGACHECK_NO_STEP_SUMS=1
// runs a product per step instead (the bench's comparison).
inline bool stepSumsProduct(const OnlineInputs& in)
{
    if (!in.onDevice || !kMajorPanels(in) || in.checksums != 1 || in.faults.size() > kStepSumsFaultsMax)
        return false;
    // A flip of exponent bit 27-30 scales a value by 2^16 or more (or makes it infinite): kept in the
    // registers to the end, it swamps the FP32 sums of its row and column at every later step, which
    // no correction can then take it out of (README "C kept across the steps").
    const auto swamps = [](int bit) { return bit < 0 || (bit >= 27 && bit <= 30); };
    for (const PlannedFault& f : in.faults)
        if (f.at.target != OnlineTarget::Result ||
            (f.model == FaultModel::BitFlip && (swamps(f.bit) || (f.bit2 >= 0 && swamps(f.bit2)))))
            return false;
    const std::int64_t depth = longestProductDepth(in, in.shape.n);
    const char* off = std::getenv("GIGACHECK_NO_STEP_SUMS");
    return (depth % 32 == 0 || depth >= in.shape.n) && in.shape.n % 4 == 0 && in.shape.q % 4 == 0 &&
           !(off && *off && *off != '0');
}
// Its kernel's depth per step: a product op's (the last may be shorter), in whole k tiles of 32.
inline std::int64_t stepSumsPanel(const OnlineInputs& in)
{
    return (longestProductDepth(in, in.shape.n) + 31) / 32 * 32;
}
// Per step, C's checksum column (m floats) and row with the corner (q + 1) as of that step
// (gigacheck::cuda::PanelIncrements::lines, then summed over the steps).
inline std::int64_t stepLinesWidth(const Shape& s) { return s.m + s.q + 1; }
// Per step, the bounds' scales (m + 1 row, q + 1 column doubles) as of that step, then the pass's
// column sums and norms of A's panel (2 x panel doubles; PanelIncrements::bounds, scratch).
inline std::int64_t stepBoundsWidth(const OnlineInputs& in) { return in.shape.m + in.shape.q + 2 + 2 * stepSumsPanel(in); }

// Rows of the aux buffer (doubles, ld = max(m, q, n) + K + 1 on the host-checked path): 0 rowScale,
// 1 colScale, 2 and 3 per-step scratch; host-checked: 4 .. 4 + K - 1 the weights w_t(x),
// 4 + K .. 4 + 2K - 1 the row residuals (row i, sum s at (4 + K) * ld + i * K + s, spilling over
// the K rows), 4 + 2K .. 4 + 3K - 1 the column residuals likewise.
inline std::int64_t auxRows(const OnlineInputs& in) { return hostChecked(in) ? 4 + 3 * in.checksums : 4; }

// The faults that strike right after this op (an InjectFault op of step / replica block.k).
std::vector<std::size_t> faultsAfter(const OnlineInputs& in, int step);

// Rows of the column blocks' B_r and C_f start on 128-byte boundaries (32 elements), so that the
// GEMMs of the unaugmented panels read and write them with aligned vector accesses
// (plan/schedule_builder.cpp; cuda/panel_floor.cpp multiplies the same layout).
inline constexpr std::int64_t kColumnBlockRowAlignment = 32;

// Column block b of C (README "Column blocks"): columns [col, col + cols); block starts fall on
// multiples of 64 columns where the shape allows. One block: all of C.
struct ColumnBlock {
    std::int64_t col = 0, cols = 0;
};
ColumnBlock columnBlock(const OnlineInputs& in, int block);
// The block a fault in C or its checksums strikes (checksum-col: the block it names).
int blockOf(const OnlineInputs& in, const OnlineFault& f);
// faultsAfter(in, step) restricted to one column block.
std::vector<std::size_t> faultsAfter(const OnlineInputs& in, int step, int block);

}  // namespace gigacheck::online_abft
