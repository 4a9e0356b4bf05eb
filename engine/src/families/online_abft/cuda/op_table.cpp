// The online ABFT family's CUDA op table. The panel products reuse the device ABFT of
// engine/src/abft/cuda and the blocked family's GEMM and protected-product pieces: the cuBLAS
// GEMM of the panel with the checksum column / row of C and the round-off bound accumulated on a
// side stream beside it (productWithChecksums), and a check that reads C once for row and column
// sums together, then decides and corrects on the device (cuda::verify). Only VerifyOut, the
// faults' before / after and the vote's counts come back.
//
// K >= 2 weighted checksums and faults in A or B take the host-checked path (inputs.hpp
// hostChecked; README "On the GPU"): A's K checksum rows and B's K checksum columns are encoded
// once for the whole operands (so a later fault in A is not self-consistent), the products are
// augmented GEMMs, the device computes the K weighted residuals of every line of C_f and the
// round-off bound (cuda/weighted_sums.cu), and the host decides with the CPU's own code
// (host_check.hpp): C_f (and A_c / B_r for an input fault) comes to the host only when a check
// flags something, and what the host corrected goes back.
#include "families/online_abft/ops.hpp"

#include "abft/cuda/verify_out_result.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/op_table.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/cutlass_step_sums.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"
#include "families/online_abft/cuda/panel_tuning.hpp"
#include "families/online_abft/cuda/step_sums.hpp"
#include "families/online_abft/cuda/vote.hpp"
#include "families/online_abft/cuda/weighted_sums.hpp"
#include "families/online_abft/host_check.hpp"
#include "families/online_abft/injection_event.hpp"
#include "families/online_abft/inputs.hpp"
#include "gigacheck/tf32x3.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gigacheck::online_abft {

namespace {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::CublasHandle;
using gigacheck::cuda::DeviceInjection;
using gigacheck::cuda::GemmCall;
using gigacheck::cuda::PinnedBuffer;
using gigacheck::cuda::SideLane;
using gigacheck::cuda::VerifyCall;
using gigacheck::cuda::VerifyOut;

std::size_t elemSize(Precision p) { return p == Precision::F64 ? 8 : 4; }

// The host-checked path's host side: the check state the CPU keeps too, the weights, pinned room
// for what the device sends (input sums, residuals and bound), each check's verdict (decided by
// the issuing thread, read by the reporting thread once the check's done event passed), and host
// copies of C_f, A_c and B_r made only when a check flags something.
struct HostSide {
    bool on = false;
    CheckState check;
    PinnedBuffer weights;    // K x auxLd doubles: w_t(x)
    PinnedBuffer sums;       // max(input sums of A and B, residuals + bound)
    PinnedBuffer encodeOut;  // before / after of the faults struck at encoding
    std::vector<VerifyResult> results;  // per check slot
    PinnedBuffer mirrorC, mirrorA, mirrorB;
};

// One side lane and one cuBLAS handle per column block: the blocks' GEMMs run at once on their
// own streams, and a handle's workspace must not be shared by concurrent kernels. With column
// blocks the side lanes, and the lanes that run the checks and faults, are of the greatest
// priority (README "Column blocks": otherwise a block's check waits for every wave of the other
// block's GEMM, and its next product waits for the check).
struct State final : gigacheck::cuda::RunState {
    std::vector<std::unique_ptr<SideLane>> lanes, checkLanes;
    std::vector<std::unique_ptr<CublasHandle>> handles;
    std::vector<int> slotOf;  // per op: its slot in verifyOut / injectOut
    PinnedBuffer verifyOut, injectOut, voteOut;
    HostSide host;
    // Per column block: whether the block's last product wrote C's sums into its aux scratch rows
    // (cutlass-tf32 where the kernel takes the shape, README "C's sums from the product"). A block's
    // ops are issued in order (product -> inject -> check on its stream).
    std::vector<char> sumsInAux;
    // The step-sums kernel (stepSumsProduct): per op, the product op it follows or is (its slot in
    // the step sums); the checks' slots in verifyOut run in the same order.
    bool stepSums = false;
    std::vector<int> stepOf;
    int stepSlots = 0;
    // Its steps' checksum passes, launched beside the kernel: they start on the multiprocessors its
    // persistent CTAs leave (all in its last round of tiles, some from its start where fewer walk C
    // in as many rounds) and end before the first check.
    std::unique_ptr<SideLane> passLane;
    std::int64_t stepDepth = 0;  // every product op's (stepsOfOneDepth)
    // The passes go in groups of kStepsPerGroup steps, each group's event recorded when its steps'
    // checksums are complete: the checks of a group then run beside the next group's passes.
    std::vector<gigacheck::cuda::Event> groupDone;
    // The checks of a group screened at once (screenChecks), its first check waiting for the screen:
    // per op, whether its clean verdict is in its VerifyOut already; the last group screened; whether
    // the last check ran in full (the group's later checks are then screened again).
    std::vector<char> screenedClean;
    int screenedGroup = -1;
    bool lastInFull = false;
    bool screens = true;  // GIGACHECK_NO_SCREEN=1: every check in full (to measure the screen against)
    std::unique_ptr<gigacheck::cuda::Event> screened;
};

State& stateOf(const gigacheck::cuda::OpContext& c) { return *static_cast<State*>(c.state); }

// Steps per group of the step-sums path's checksum passes (State::groupDone).
constexpr int kStepsPerGroup = 4;

void* buf(const gigacheck::cuda::OpContext& c, int slot) { return c.buffers[std::size_t(slot)]; }
std::int64_t ld(const gigacheck::cuda::OpContext& c, int slot) { return bufferOf(c.schedule, slot).ld; }
AuxView auxOf(const gigacheck::cuda::OpContext& c, int block = 0)
{
    return AuxView{static_cast<double*>(buf(c, slotAux(block))), ld(c, slotAux(block))};
}
cublasHandle_t handleOf(const gigacheck::cuda::OpContext& c, int block = 0)
{
    return stateOf(c).handles[std::size_t(block)]->get();
}
// TF32, BF16, FP16 products: the operands rounded where the checksums see it (roundoffModel sets the
// rounded-input part for FP32 only); tf32x3: FP32's model and the tensor cores' accumulation. The one
// model of the blocked family.
RoundoffModel roundoff(const gigacheck::cuda::OpContext& c)
{
    return roundoffModelOf(inputsOf(c.request).precision, inputsOf(c.request).gemm);
}
char* at(const gigacheck::cuda::OpContext& c, int slot, std::int64_t row, std::int64_t col)
{
    return static_cast<char*>(buf(c, slot)) + (std::size_t(row) * std::size_t(ld(c, slot)) + std::size_t(col)) *
                                                  elemSize(inputsOf(c.request).precision);
}

GemmCall panelGemm(const gigacheck::cuda::OpContext& c, const Operation& op);

void noteLine(OnlineInputs& in, const std::string& line)
{
    if (in.panelGemm.find(line) == std::string::npos)
        in.panelGemm += (in.panelGemm.empty() ? "" : "; ") + line;
}

// --type bf16 / f16: which kernel multiplies the panels' 16-bit copies, for the record's panel_gemm.
void note16BitProduct(OnlineInputs& in, const GemmCall& g)
{
    const InputFormat f = gigacheck::cuda::operandRounding(g);
    const std::string type = f == InputFormat::Bf16 ? "BF16" : "FP16";
    if (gigacheck::cuda::writesSumsOfC16(g)) {
        noteLine(in, "CUTLASS sm_90a " + type + " with C's sums from its epilogue (the checks read no C), operands "
                     "rounded to " + type + " by the checksum passes");
        return;
    }
    const std::string line = "cuBLAS " + type + " for " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " +
                             std::to_string(g.q) +
                             ", operands rounded by the checksum passes, FP32 accumulation (the checks read C; the "
                             "CUTLASS 16-bit kernel " +
                             (gigacheck::cuda::cutlass16BitRuns()
                                  ? "needs the panel width, q and C's leading dimension in whole 16 bytes"
                                  : "needs a build with CUTLASS and a Hopper GPU") +
                             ")";
    noteLine(in, line);
}

// cutlass-tf32: which kernel a panel product runs, for the record's panel_gemm. With B K-major the
// configuration the CUTLASS tuner keeps for the panel's shape is chosen here (timed on scratch, before
// anything is loaded) and named.
void noteFusedSums(OnlineInputs& in, const GemmCall& g, cudaStream_t s)
{
    if (gigacheck::cuda::multipliesIn16Bit(g))
        return note16BitProduct(in, g);
    if (g.variant == GemmVariant::Tf32x3 && g.precision == Precision::F32)
        return noteLine(in, "tf32x3 for " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " +
                                std::to_string(g.q) + ": each panel split into TF32 big and small parts, cuBLAS TF32 "
                                "products of the small terms (one of twice the depth) and of the big parts (FP32 "
                                "accuracy; the checks read C)");
    if (g.variant == GemmVariant::CublasTf32 && g.precision == Precision::F32)
        return noteLine(in, "cuBLAS TF32 for " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " +
                                std::to_string(g.q) + " (cuBLAS's own pick; the checks read C)");
    if (g.variant != GemmVariant::CutlassTf32 || g.precision != Precision::F32)
        return;
    if (gigacheck::cuda::writesSumsOfC(g)) {
        std::string config;
        if (g.bTransposed) {
            const int pick = gigacheck::cuda::cutlassTf32KMajorPick(gigacheck::cuda::cutlassCallOf(g), s);
            if (pick >= 0)
                config = std::string(" ") + gigacheck::cuda::cutlassTf32ConfigName(pick) + ",";
        }
        noteLine(in, std::string("CUTLASS sm_90a TF32") + (g.bTransposed ? ", B K-major," : "") + config +
                         " with C's sums from its epilogue (the checks read no C)");
        return;
    }
    noteLine(in, "cuBLAS TF32 for " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.q) +
                     " (the CUTLASS kernel needs the inner dimension, the width, the leading dimensions and the "
                     "addresses in whole 16 bytes; the checks read C)");
}

// The record's line on the panel GEMMs: each distinct shape's kernel once.
void noteTuning(OnlineInputs& in, const gigacheck::cuda::GemmTuning& t)
{
    if (!t.tried)
        return;
    char times[160];
    std::snprintf(times, sizeof times, ": %.3f ms per GEMM against %.3f ms for cuBLAS's pick (%d configuration%s timed)",
                  t.bestMs, t.libraryMs, t.configurations, t.configurations == 1 ? "" : "s");
    noteLine(in, t.kept + (t.kept == "cuBLAS's pick" ? std::string() : std::string(times)));
}

// Whether every product op but the last spans `depth` (the last at most that): the step-sums
// kernel's steps are of one depth. Merged steps split where a fault strikes between two checks;
// such a run takes a product per step (its plan's B^T holds all of the depth).
bool stepsOfOneDepth(const Schedule& schedule, std::int64_t depth)
{
    std::vector<std::int64_t> depths;
    for (const Operation& op : schedule.ops)
        if (op.kind == kPanelProduct)
            depths.push_back(op.depth);
    for (std::size_t i = 0; i < depths.size(); ++i)
        if (depths[i] > depth || (i + 1 < depths.size() && depths[i] != depth))
            return false;
    return !depths.empty();
}

std::unique_ptr<gigacheck::cuda::RunState> makeState(const gigacheck::cuda::OpContext& c)
{
    auto state = std::make_unique<State>();
    const OnlineInputs& in = inputsOf(c.request);
    std::size_t checks = 0, faults = 0;
    state->slotOf.assign(c.schedule.ops.size(), -1);
    for (const Operation& op : c.schedule.ops) {
        if (op.kind == kCheck)
            state->slotOf[std::size_t(op.id)] = int(checks++);
        if (op.kind == kInjectFault) {
            state->slotOf[std::size_t(op.id)] = int(faults);
            faults += faultsAfter(in, op.block.k, op.block.j).size();
        }
    }
    for (int b = 0; b < std::max(1, in.columnBlocks); ++b) {
        if (in.columnBlocks > 1) {
            state->lanes.push_back(std::make_unique<gigacheck::cuda::PriorityLane>());
            state->checkLanes.push_back(std::make_unique<gigacheck::cuda::PriorityLane>());
        } else {
            state->lanes.push_back(std::make_unique<SideLane>());
        }
        state->handles.push_back(std::make_unique<CublasHandle>());
    }
    state->verifyOut = PinnedBuffer(std::max<std::size_t>(1, checks) * sizeof(VerifyOut));
    state->injectOut = PinnedBuffer(std::max<std::size_t>(1, faults) * 2 * sizeof(double));
    state->voteOut = PinnedBuffer(sizeof(cuda::VoteOut));
    state->sumsInAux.assign(std::size_t(std::max(1, in.columnBlocks)), 0);
    if (hostChecked(in)) {
        HostSide& h = state->host;
        const Shape& s = in.shape;
        const std::int64_t k = in.checksums, auxLd = ld(c, kSlotAux);
        if (bufferOf(c.schedule, kSlotAux).rows < auxRows(in) || auxLd < std::max({s.m, s.q, s.n}) + k + 1)
            throw BackendError("online ABFT on the GPU: the plan's aux buffer is too small for the host-checked path");
        h.on = true;
        h.check.reset(s, int(k));
        h.weights = PinnedBuffer(std::size_t(k * auxLd) * sizeof(double));
        for (int t = 0; t < int(k); ++t)
            for (std::int64_t x = 0; x < auxLd; ++x)
                h.weights.as<double>()[t * auxLd + x] = checksumWeight(t, x);
        const std::int64_t inputSums = s.m + 2 * s.n + s.q;
        const std::int64_t checkSums = (s.m + k + s.q + k) * (k + 1);
        h.sums = PinnedBuffer(std::size_t(std::max(inputSums, checkSums)) * sizeof(double));
        h.encodeOut = PinnedBuffer(std::max<std::size_t>(1, faultsAfter(in, -1).size()) * 2 * sizeof(double));
        h.results.resize(std::max<std::size_t>(1, checks));
    } else if (stepSumsProduct(in) && stepsOfOneDepth(c.schedule, longestProductDepth(in, in.shape.n))) {
        state->stepSums = true;
        state->stepOf.assign(c.schedule.ops.size(), -1);
        int slot = -1;
        for (const Operation& op : c.schedule.ops) {
            if (op.kind == kPanelProduct)
                ++slot;
            state->stepOf[std::size_t(op.id)] = slot;
        }
        state->stepSlots = slot + 1;
        state->stepDepth = longestProductDepth(in, in.shape.n);
        if (bufferOf(c.schedule, kSlotStepSums).rows < state->stepSlots ||
            std::int64_t(c.schedule.buffers.size()) <= kSlotStepBounds ||
            bufferOf(c.schedule, kSlotStepLines).rows < state->stepSlots ||
            bufferOf(c.schedule, kSlotStepLines).cols < stepLinesWidth(in.shape) ||
            bufferOf(c.schedule, kSlotStepBounds).rows < state->stepSlots ||
            bufferOf(c.schedule, kSlotStepBounds).cols < in.shape.m + in.shape.q + 2 + 2 * state->stepDepth)
            throw BackendError("online ABFT on the GPU: the plan's step sums hold fewer steps than the schedule has");
        state->passLane = std::make_unique<SideLane>();
        for (int g = 0; g < (state->stepSlots + kStepsPerGroup - 1) / kStepsPerGroup; ++g)
            state->groupDone.emplace_back(cudaEventDisableTiming);
        state->screenedClean.assign(c.schedule.ops.size(), 0);
        state->screened = std::make_unique<gigacheck::cuda::Event>(cudaEventDisableTiming);
        state->screens = std::getenv("GIGACHECK_NO_SCREEN") == nullptr;
        noteLine(inputsOf(c.request),
                 "CUTLASS sm_90a TF32 step-sums kernel (128x256x32 c2x1, B K-major): the whole product in one "
                 "kernel that keeps C in registers across the steps and writes C's row and column sums after each "
                 "step of " + std::to_string(stepSumsPanel(in)) + " (the checks read no C; C written once)");
    } else {
        // cuBLAS's pick for a panel shape can be far from its best kernel (gemm_tuning.hpp): each
        // distinct panel GEMM is tuned here, untimed, on the run's own buffers before anything is
        // loaded into them (C is written by each block's first product).
        for (const Operation& op : c.schedule.ops)
            if (op.kind == kPanelProduct) {
                const std::size_t b = std::size_t(op.block.j);
                noteFusedSums(inputsOf(c.request), panelGemm(c, op), state->lanes[b]->side.get());
                noteTuning(inputsOf(c.request), gigacheck::cuda::tuneGemm(panelGemm(c, op), state->handles[b]->get(), state->lanes[b]->side.get(),
                                                                                 cuda::panelTuningOptions()));
            }
    }
    return state;
}

// ---- the host-checked path ----------------------------------------------------------------------

HostSide& hostOf(const gigacheck::cuda::OpContext& c) { return stateOf(c).host; }
double* auxRow(const gigacheck::cuda::OpContext& c, std::int64_t row)
{
    return static_cast<double*>(buf(c, kSlotAux)) + row * ld(c, kSlotAux);
}
const double* deviceWeights(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4); }
double* rowResiduals(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4 + inputsOf(c.request).checksums); }
double* colResiduals(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4 + 2 * inputsOf(c.request).checksums); }

// A host copy of a whole buffer slot (rows x ld elements), made on stream s and waited for.
template <class T> T* mirror(const gigacheck::cuda::OpContext& c, int slot, PinnedBuffer& into, cudaStream_t s)
{
    const BufferSpec& b = bufferOf(c.schedule, slot);
    const std::size_t bytes = std::size_t(b.rows) * std::size_t(b.ld) * sizeof(T);
    if (into.bytes() < bytes)
        into = PinnedBuffer(bytes);
    CUDA_CHECK(cudaMemcpyAsync(into.get(), buf(c, slot), bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return into.as<T>();
}

// Element (row, col) of a host copy back to its slot on the device (ordered on s; the pinned copy
// stays as it is until the next host step, which waits for s first).
template <class T>
void writeBack(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t row, std::int64_t col,
               cudaStream_t s)
{
    const std::int64_t l = ld(c, slot);
    CUDA_CHECK(cudaMemcpyAsync(static_cast<T*>(buf(c, slot)) + row * l + col, host + row * l + col, sizeof(T),
                               cudaMemcpyHostToDevice, s));
}
// Rows [row, row + n) (every column of the slot) / columns [col, col + n) (every row) of a host copy
// back to the device: a recomputed line of C, or its rebuilt checksum rows and columns.
template <class T>
void writeBackRows(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t row, std::int64_t n,
                   cudaStream_t s)
{
    const std::int64_t l = ld(c, slot);
    CUDA_CHECK(cudaMemcpyAsync(static_cast<T*>(buf(c, slot)) + row * l, host + row * l,
                               std::size_t(n) * std::size_t(l) * sizeof(T), cudaMemcpyHostToDevice, s));
}
template <class T>
void writeBackCols(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t col, std::int64_t n,
                   cudaStream_t s)
{
    const std::size_t pitch = std::size_t(ld(c, slot)) * sizeof(T);
    CUDA_CHECK(cudaMemcpy2DAsync(static_cast<T*>(buf(c, slot)) + col, pitch, host + col, pitch, std::size_t(n) * sizeof(T),
                                 std::size_t(bufferOf(c.schedule, slot).rows), cudaMemcpyHostToDevice, s));
}

// Encoding: the faults planned before the checksums, the inputs against their sums taken where
// they were made (the device's sums in the host's order: equal bits unless an element changed;
// then the host locates and restores with the CPU's code on a copy), the K weighted checksums of
// A and B, and the plain sums kept for locating a later fault.
template <class T> void hostCheckedEncode(const gigacheck::cuda::OpContext& c, cudaStream_t s)
{
    OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const int k = in.checksums;
    const std::int64_t auxLd = ld(c, kSlotAux), lda = ld(c, kSlotA), ldb = ld(c, kSlotB);
    CUDA_CHECK(cudaMemcpyAsync(auxRow(c, 4), h.weights.get(), h.weights.bytes(), cudaMemcpyHostToDevice, s));

    const std::vector<std::size_t> early = faultsAfter(in, -1);
    for (std::size_t n = 0; n < early.size(); ++n) {
        const PlannedFault& f = in.faults[early[n]];
        DeviceInjection d;
        d.row = f.at.row;
        d.col = f.at.col;
        d.bitFlip = f.model == FaultModel::BitFlip ? 1 : 0;
        d.bit = f.bit;
        d.bit2 = f.bit2;
        d.delta = f.delta;
        const int slot = f.at.target == OnlineTarget::B ? kSlotB : kSlotA;
        gigacheck::cuda::inject(in.precision, buf(c, slot), ld(c, slot), &d, 1, h.encodeOut.as<double>() + 2 * n, s);
    }

    // Input sums: A's rows and columns, then B's, through the residual rows of aux.
    double* scratch = rowResiduals(c);
    double* sums = h.sums.as<double>();
    double* rowsA = sums;
    double* colsA = rowsA + sh.m;
    double* rowsB = colsA + sh.n;
    double* colsB = rowsB + sh.n;
    cuda::inputSums(in.precision, buf(c, kSlotA), sh.m, sh.n, lda, scratch, scratch + sh.m, s);
    CUDA_CHECK(cudaMemcpyAsync(rowsA, scratch, sizeof(double) * std::size_t(sh.m + sh.n), cudaMemcpyDeviceToHost, s));
    cuda::inputSums(in.precision, buf(c, kSlotB), sh.n, sh.q, ldb, scratch, scratch + sh.n, s);
    CUDA_CHECK(cudaMemcpyAsync(rowsB, scratch, sizeof(double) * std::size_t(sh.n + sh.q), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    for (std::size_t n = 0; n < early.size(); ++n) {
        PlannedFault& f = in.faults[early[n]];
        f.before = h.encodeOut.as<double>()[2 * n];
        f.after = h.encodeOut.as<double>()[2 * n + 1];
        f.applied = true;
    }

    const auto vec = [](const double* p, std::int64_t n) { return std::vector<double>(p, p + n); };
    const auto checkInput = [&](int slot, PinnedBuffer& into, std::int64_t rows, std::int64_t cols, std::int64_t l,
                                OnlineTarget operand, const double* devRows, const double* devCols,
                                const std::vector<double>& goodRows, const std::vector<double>& goodCols,
                                std::vector<double>& keptRows, std::vector<double>& keptCols) {
        keptRows = vec(devRows, rows);
        keptCols = vec(devCols, cols);
        if (goodRows.empty() || (keptRows == goodRows && keptCols == goodCols))
            return;
        // Something differs: the CPU's location and restore on a host copy, the restored
        // elements back to the device, and the sums kept from the copy as it now is.
        T* x = mirror<T>(c, slot, into, s);
        for (const Located& l2 : checkInputAtEncoding(in, x, rows, cols, l, operand, goodRows, goodCols))
            writeBack(c, slot, x, l2.row, l2.col, s);
        plainSums(x, rows, cols, l, keptRows, keptCols);
    };
    checkInput(kSlotA, h.mirrorA, sh.m, sh.n, lda, OnlineTarget::A, rowsA, colsA, in.hostRowSumsA, in.hostColSumsA,
               h.check.rowSumsA, h.check.colSumsA);
    checkInput(kSlotB, h.mirrorB, sh.n, sh.q, ldb, OnlineTarget::B, rowsB, colsB, in.hostRowSumsB, in.hostColSumsB,
               h.check.rowSumsB, h.check.colSumsB);

    cuda::weightedChecksumsA(in.precision, buf(c, kSlotA), sh.m, sh.n, lda, k, deviceWeights(c), auxLd, s);
    cuda::weightedChecksumsB(in.precision, buf(c, kSlotB), sh.n, sh.q, ldb, k, deviceWeights(c), auxLd, s);
}

// A panel product on the augmented panels (the checksum rows of A and columns of B ride along, as
// on the CPU), then its round-off bound.
void hostCheckedPanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const std::int64_t k = in.checksums, offset = std::int64_t(op.block.k) * in.panel;
    GemmCall g;
    g.variant = in.gemm;
    g.precision = in.precision;
    g.m = sh.m + k;
    g.n = op.depth;
    g.q = sh.q + k;
    g.a = at(c, kSlotA, 0, offset);
    g.lda = ld(c, kSlotA);
    g.b = at(c, kSlotB, offset, 0);
    g.ldb = ld(c, kSlotB);
    g.c = buf(c, kSlotC);
    g.ldc = ld(c, kSlotC);
    g.accumulate = op.accumulate;
    gigacheck::cuda::gemm(g, handleOf(c), s);
    if (!op.accumulate)
        CUDA_CHECK(cudaMemsetAsync(auxRow(c, 0), 0, 2 * sizeof(double) * std::size_t(ld(c, kSlotAux)), s));
    cuda::weightedBound(in.precision, g.a, g.lda, g.b, g.ldb, sh.m + k, op.depth, sh.q + k, auxRow(c, 0), auxRow(c, 1),
                        auxRow(c, 2), s);
    h.check.consumed = offset + op.depth;
}

// A check: the device's residuals and bound to the host (K (m + q + 2K) + m + q + 2K doubles),
// the CPU's thresholds and rule on them; when something mismatches, C_f to the host and the CPU's
// check on it (and on A_c / B_r for an input fault), what it changed back to the device.
template <class T> void hostCheckedCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const int k = in.checksums;
    const std::int64_t augRows = sh.m + k, augCols = sh.q + k;
    cuda::weightedResiduals(in.precision, buf(c, kSlotC), sh.m, sh.q, ld(c, kSlotC), k, deviceWeights(c),
                            ld(c, kSlotAux), rowResiduals(c), colResiduals(c), s);
    double* rowRes = h.sums.as<double>();
    double* colRes = rowRes + augRows * k;
    double* rowScale = colRes + augCols * k;
    double* colScale = rowScale + augRows;
    const auto d2h = [&](double* to, const double* from, std::int64_t n) {
        CUDA_CHECK(cudaMemcpyAsync(to, from, sizeof(double) * std::size_t(n), cudaMemcpyDeviceToHost, s));
    };
    d2h(rowRes, rowResiduals(c), augRows * k);
    d2h(colRes, colResiduals(c), augCols * k);
    d2h(rowScale, auxRow(c, 0), augRows);
    d2h(colScale, auxRow(c, 1), augCols);
    CUDA_CHECK(cudaStreamSynchronize(s));

    CheckState& st = h.check;
    if (k == 1) {
        st.plainBound.rowScale.assign(rowScale, rowScale + augRows);
        st.plainBound.colScale.assign(colScale, colScale + augCols);
        st.plainBound.depth = st.consumed;
    } else {
        st.weightedBound.rowScale.assign(rowScale, rowScale + augRows);
        st.weightedBound.colScale.assign(colScale, colScale + augCols);
        st.weightedBound.depth = st.consumed;
    }
    const Thresholds thresholds = checkThresholds(in, st);
    ResidualVerdict v = classifyResiduals(std::vector<double>(rowRes, rowRes + augRows * k),
                                          std::vector<double>(colRes, colRes + augCols * k), k, thresholds);
    VerifyResult& out = h.results[std::size_t(stateOf(c).slotOf[std::size_t(op.id)])];
    // Clean with an overflowed threshold proves nothing: the host check looks at the operands.
    if (v.clean && thresholdsFinite(thresholds)) {
        out = std::move(v.result);
        return;
    }

    HostOperands<T> ops;
    ops.c = mirror<T>(c, kSlotC, h.mirrorC, s);
    ops.ldc = ld(c, kSlotC);
    T* a = nullptr;
    T* b = nullptr;
    ops.a = [&] { return a ? a : (a = mirror<T>(c, kSlotA, h.mirrorA, s)); };
    ops.b = [&] { return b ? b : (b = mirror<T>(c, kSlotB, h.mirrorB, s)); };
    ops.lda = ld(c, kSlotA);
    ops.ldb = ld(c, kSlotB);
    const std::size_t reportsBefore = in.inputFaults.size();
    out = checkOnHost(in, st, ops, op.block.k);
    bool operandRestored = false;

    // What the host changed goes back, and only that: the restored input elements and the line of
    // C each repair computed again (a row of C_f for A, a column for B), the checksum rows and
    // columns when they were rebuilt, and the corrected cells (their values as the host copy
    // holds them now).
    for (std::size_t x = reportsBefore; x < in.inputFaults.size(); ++x) {
        const InputFaultReport& f = in.inputFaults[x];
        const bool inA = f.operand == OnlineTarget::A;
        if (f.row >= 0 && (inA ? a : b)) {
            writeBack(c, inA ? kSlotA : kSlotB, inA ? a : b, f.row, f.col, s);
            operandRestored = true;
        }
        if (f.row >= 0 && f.cellsOff > 0) {
            if (inA)
                writeBackRows(c, kSlotC, ops.c, f.row, 1, s);
            else
                writeBackCols(c, kSlotC, ops.c, f.col, 1, s);
        }
    }
    if (out.checksumsRecomputed) {
        writeBackRows(c, kSlotC, ops.c, sh.m, k, s);
        writeBackCols(c, kSlotC, ops.c, sh.q, k, s);
    }
    for (const Correction& x : out.corrections)
        writeBack(c, kSlotC, ops.c, x.row, x.col, s);
    // The device's bound taken again from the restored operands, panel by panel as the steps took
    // it (the host did the same for this check): later checks see finite thresholds again.
    if (operandRestored) {
        CUDA_CHECK(cudaMemsetAsync(auxRow(c, 0), 0, 2 * sizeof(double) * std::size_t(ld(c, kSlotAux)), s));
        for (std::int64_t offset = 0; offset < st.consumed; offset += in.panel)
            cuda::weightedBound(in.precision, at(c, kSlotA, 0, offset), ld(c, kSlotA), at(c, kSlotB, offset, 0),
                                ld(c, kSlotB), sh.m + k, std::min(in.panel, st.consumed - offset), sh.q + k,
                                auxRow(c, 0), auxRow(c, 1), auxRow(c, 2), s);
    }
}

// The op's host region (a column block's part of B or C, or all of the matrix) to / from its slot.
std::size_t hostOffset(const HostMatrix& m, const Region& r, std::size_t es)
{
    return (std::size_t(r.row) * std::size_t(m.cols()) + std::size_t(r.col)) * es;
}

void issueLoad(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(inputsOf(c.request).precision);
    const HostMatrix& src = op.host.matrix == Operand::A ? *inputsOf(c.request).a : *inputsOf(c.request).b;
    CUDA_CHECK(cudaMemcpy2DAsync(buf(c, op.dst), std::size_t(ld(c, op.dst)) * es,
                                 static_cast<const char*>(src.data()) + hostOffset(src, op.host, es),
                                 std::size_t(src.cols()) * es, std::size_t(op.host.cols) * es,
                                 std::size_t(op.host.rows), cudaMemcpyHostToDevice, s));
}

void issueStore(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(inputsOf(c.request).precision);
    HostMatrix& dst = *inputsOf(c.request).c;
    CUDA_CHECK(cudaMemcpy2DAsync(static_cast<char*>(dst.data()) + hostOffset(dst, op.host, es),
                                 std::size_t(dst.cols()) * es, buf(c, op.dst), std::size_t(ld(c, op.dst)) * es,
                                 std::size_t(op.host.cols) * es, std::size_t(op.host.rows), cudaMemcpyDeviceToHost, s));
}

// r_B and the row norms of B_r for the whole of B, once: every panel product reads its rows.
// (c_A is taken from each A panel by the product's own pass over it.)
void issueEncode(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    if (hostOf(c).on) {
        if (in.precision == Precision::F64)
            hostCheckedEncode<double>(c, s);
        else
            hostCheckedEncode<float>(c, s);
        return;
    }
    const int b = op.block.j;
    // BF16 / FP16 products: r_B and B's row norms over B rounded in registers (B not written); each
    // product's passes write the 16-bit copies of its panels that the GEMM reads.
    GemmCall whole;
    whole.variant = in.gemm;
    whole.precision = in.precision;
    whole.n = in.shape.n;
    whole.q = columnBlock(in, b).cols;
    whole.b = buf(c, slotB(b));
    whole.ldb = ld(c, slotB(b));
    if (gigacheck::cuda::multipliesIn16Bit(whole))
        return gigacheck::cuda::checksumB16Of(whole, s);
    if (stateOf(c).stepSums) {
        // r_B, B's row norms and all of B^T (rounded to TF32) from one read of B, B not written: the
        // step-sums kernel reads B^T, the passes round A and B in registers.
        whole.m = in.shape.m;
        whole.a = buf(c, kSlotA);
        whole.lda = ld(c, kSlotA);
        whole.c = buf(c, kSlotC);
        whole.ldc = ld(c, kSlotC);
        whole.bTransposed = buf(c, kSlotBTransposed);
        return gigacheck::cuda::checksumBOf(whole, s);
    }
    // TF32 products: B is rounded to TF32 here, in place, and A panel by panel by the products'
    // pass over it, so the checksums follow the values the tensor cores multiply (abft README).
    const bool roundTf32 = multipliesInTf32(in.gemm) && in.precision == Precision::F32;
    gigacheck::cuda::checksumB(in.precision, buf(c, slotB(b)), in.shape.n, columnBlock(in, b).cols, ld(c, slotB(b)), s,
                               roundTf32 ? InputFormat::Tf32 : InputFormat::F32);
}

// The device path's GEMM of a panel product: the block's unaugmented panels, C accumulated.
GemmCall panelGemm(const gigacheck::cuda::OpContext& c, const Operation& op)
{
    const OnlineInputs& in = inputsOf(c.request);
    const std::int64_t offset = std::int64_t(op.block.k) * in.panel;
    const int b = op.block.j;
    GemmCall g;
    g.variant = in.gemm;
    g.precision = in.precision;
    g.m = in.shape.m;
    g.n = op.depth;
    g.q = columnBlock(in, b).cols;
    g.a = at(c, kSlotA, 0, offset);
    g.lda = ld(c, kSlotA);
    g.b = at(c, slotB(b), offset, 0);
    g.ldb = ld(c, slotB(b));
    g.c = buf(c, slotC(b));
    g.ldc = ld(c, slotC(b));
    g.accumulate = op.accumulate;
    g.tuned = true;
    // cutlass-tf32: productWithChecksums lays the rounded panel of B out K-major here first.
    // (Only where the plan's B^T holds this product's depth: a schedule deeper than the plan
    // reads B as it lies.)
    if (kMajorPanels(in) && std::int64_t(c.schedule.buffers.size()) > kSlotBTransposed &&
        bufferOf(c.schedule, kSlotBTransposed).cols >= op.depth && bufferOf(c.schedule, kSlotBTransposed).rows >= g.q)
        g.bTransposed = buf(c, kSlotBTransposed);
    return g;
}

double* stepSumsOf(const gigacheck::cuda::OpContext& c, int slot)
{
    const OnlineInputs& in = inputsOf(c.request);
    return static_cast<double*>(buf(c, kSlotStepSums)) + std::int64_t(slot) * (in.shape.m + in.shape.q);
}

// The step-sums kernel over the whole product, with the faults planned in C's main part applied to
// its registers after their step (their before / after straight into injectOut).
void launchStepSums(const gigacheck::cuda::OpContext& c, cudaStream_t s)
{
    static_assert(kStepSumsFaultsMax == std::size_t(gigacheck::cuda::kStepFaultsMax));
    const OnlineInputs& in = inputsOf(c.request);
    const State& state = stateOf(c);
    gigacheck::cuda::CutlassStepSumsCall call;
    call.m = in.shape.m;
    call.n = in.shape.n;
    call.q = in.shape.q;
    call.a = static_cast<const float*>(buf(c, kSlotA));
    call.lda = ld(c, kSlotA);
    call.bt = static_cast<const float*>(buf(c, kSlotBTransposed));
    call.ldbt = ld(c, kSlotBTransposed);
    call.c = static_cast<float*>(buf(c, kSlotC));
    call.ldc = ld(c, kSlotC);
    call.panel = stepSumsPanel(in);
    call.stepSums = stepSumsOf(c, 0);
    // Swizzle 8 from 8192 on: 101-104 % of cuBLAS TF32's time there against 106-118 % unswizzled
    // (H100, resources/results/README.md "Step sums").
    call.maxSwizzle = std::min(in.shape.m, in.shape.q) >= 8192 ? 8 : 1;
    call.leavesIdleSms = true;  // the steps' checksum passes run there (stepSumsProductOp)
    call.faultValues = state.injectOut.as<double>();
    for (const Operation& op : c.schedule.ops) {
        if (op.kind != kInjectFault)
            continue;
        const std::vector<std::size_t> planned = faultsAfter(in, op.block.k, op.block.j);
        for (std::size_t n = 0; n < planned.size(); ++n) {
            const PlannedFault& f = in.faults[planned[n]];
            gigacheck::cuda::StepFault& x = call.faults[call.faultCount++];
            x.step = state.stepOf[std::size_t(op.id)];
            x.row = f.at.row;
            x.col = f.at.col;
            x.bitFlip = f.model == FaultModel::BitFlip ? 1 : 0;
            x.bit = f.bit;
            x.bit2 = f.bit2;
            x.delta = f.delta;
            // injectOut holds each inject op's faults from its slot on; the kernel's faults in the
            // same order then index it directly.
            if (state.slotOf[std::size_t(op.id)] + int(n) != call.faultCount - 1)
                throw BackendError("online ABFT on the GPU: the step-sums kernel's faults out of the schedule's order");
        }
    }
    CUDA_CHECK(cudaMemsetAsync(call.stepSums, 0,
                               std::size_t(state.stepSlots) * std::size_t(in.shape.m + in.shape.q) * sizeof(double), s));
    if (const char* why = gigacheck::cuda::cutlassTf32StepSums(call, s))
        throw BackendError(std::string("online ABFT on the GPU: ") + why);
}

float* stepLinesOf(const gigacheck::cuda::OpContext& c, int slot)
{
    return static_cast<float*>(buf(c, kSlotStepLines)) + std::int64_t(slot) * ld(c, kSlotStepLines);
}

double* stepBoundsOf(const gigacheck::cuda::OpContext& c, int slot)
{
    return static_cast<double*>(buf(c, kSlotStepBounds)) + std::int64_t(slot) * ld(c, kSlotStepBounds);
}

// Step `slot`'s checksum lines, bounds and sums of C where a check reads them (cuda::loadStep).
void loadStepOf(const gigacheck::cuda::OpContext& c, int slot, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    cuda::loadStep(stepSumsOf(c, slot), stepLinesOf(c, slot), stepBoundsOf(c, slot), static_cast<float*>(buf(c, kSlotC)),
                   ld(c, kSlotC), in.shape.m, in.shape.q, auxOf(c), s);
}

// Every step's checksum lines and bounds, each as a product per step would have accumulated them:
// each panel's share from one pass over A and one over B for a group of steps (they read only A and
// B, never C), summed up over the steps so far; groupDone[g] once group g's are.
void stepChecksums(const gigacheck::cuda::OpContext& c, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    const State& state = stateOf(c);
    const std::int64_t m = in.shape.m, q = in.shape.q, depth = state.stepDepth;
    CUDA_CHECK(cudaMemsetAsync(stepLinesOf(c, 0), 0, std::size_t(state.stepSlots) * std::size_t(ld(c, kSlotStepLines)) *
                                                         sizeof(float), s));
    CUDA_CHECK(cudaMemsetAsync(stepBoundsOf(c, 0), 0,
                               std::size_t(state.stepSlots) * std::size_t(ld(c, kSlotStepBounds)) * sizeof(double), s));
    GemmCall whole;  // the model of the kernel's operands: rounded in registers, B^T laid out
    for (const Operation& op : c.schedule.ops)
        if (op.kind == kPanelProduct) {
            whole = panelGemm(c, op);
            break;
        }
    whole.bTransposed = buf(c, kSlotBTransposed);
    for (int first = 0, g = 0; first < state.stepSlots; first += kStepsPerGroup, ++g) {
        const int steps = std::min(kStepsPerGroup, state.stepSlots - first);
        gigacheck::cuda::PanelIncrements out;
        out.lines = stepLinesOf(c, first);
        out.ldLines = ld(c, kSlotStepLines);
        out.bounds = stepBoundsOf(c, first);
        out.ldBounds = ld(c, kSlotStepBounds);
        out.scratch = out.bounds + (m + q + 2);  // each step's own, after its bounds
        out.ldScratch = out.ldBounds;
        gigacheck::cuda::panelChecksumIncrements(
            static_cast<const float*>(buf(c, kSlotA)) + first * depth, ld(c, kSlotA),
            static_cast<const float*>(buf(c, kSlotB)) + first * depth * ld(c, kSlotB), ld(c, kSlotB), m, depth, q,
            steps, out, s, roundoff(c).uInput > 0, gigacheck::cuda::operandModel(whole));
        // From the last step of the group before (already summed up) on.
        const int from = first > 0 ? first - 1 : 0;
        cuda::sumSteps(stepLinesOf(c, from), out.ldLines, stepBoundsOf(c, from), out.ldBounds, m, q,
                       first + steps - from, s);
        CUDA_CHECK(cudaEventRecord(state.groupDone[std::size_t(g)].get(), s));
    }
}

// The step-sums kernel's product op p. The first launches the kernel and, on the pass lane behind
// it, every step's checksums (stepChecksums); the first of a group waits until that group's
// checksums are complete, and the last loads its step's sums and checksums into C's checksum cells
// and aux, where they stay (a check that runs in full loads its own step's, issueCheck). The
// passes' blocks wait for multiprocessors the kernel leaves, so they run beside its last round of
// tiles instead of after it.
void stepSumsProductOp(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const State& state = stateOf(c);
    const int slot = state.stepOf[std::size_t(op.id)];
    if (slot == 0) {
        SideLane& lane = *state.passLane;
        CUDA_CHECK(cudaEventRecord(lane.fork.get(), s));
        launchStepSums(c, s);
        CUDA_CHECK(cudaStreamWaitEvent(lane.side.get(), lane.fork.get(), 0));
        stepChecksums(c, lane.side.get());
    }
    if (slot % kStepsPerGroup == 0)
        CUDA_CHECK(cudaStreamWaitEvent(s, state.groupDone[std::size_t(slot / kStepsPerGroup)].get(), 0));
    if (slot + 1 == state.stepSlots)
        loadStepOf(c, slot, s);
    stateOf(c).sumsInAux[0] = 1;
}

void issuePanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (hostOf(c).on)
        return hostCheckedPanelProduct(c, op, s);
    if (stateOf(c).stepSums)
        return stepSumsProductOp(c, op, s);
    const int b = op.block.j;
    const GemmCall g = panelGemm(c, op);
    if (gigacheck::cuda::multipliesIn16Bit(g)) {
        // The CUTLASS 16-bit kernel where it takes the panel, writing C's sums as cutlass-tf32 does.
        stateOf(c).sumsInAux[std::size_t(b)] =
            gigacheck::cuda::productWithChecksums16(g, handleOf(c, b), s, auxOf(c, b), true) ? 1 : 0;
        return;
    }
    // cutlass-tf32: the product's epilogue writes C's sums (after the accumulation, so of all of C
    // so far) into the block's aux scratch rows, which the inject and the check after it use.
    stateOf(c).sumsInAux[std::size_t(b)] = gigacheck::cuda::writesSumsOfC(g) ? 1 : 0;
    gigacheck::cuda::productWithChecksums(g, handleOf(c, b), s, stateOf(c).lanes[std::size_t(b)].get(), auxOf(c, b),
                                          roundoff(c).uInput > 0);
}

// The sums the block's last product wrote, for a fault to adjust as the epilogue would have seen it
// (none when the product did not write them).
gigacheck::cuda::ProductSums productSumsOfBlock(const gigacheck::cuda::OpContext& c, int block)
{
    if (!stateOf(c).sumsInAux[std::size_t(block)])
        return {};
    const OnlineInputs& in = inputsOf(c.request);
    return gigacheck::cuda::productSumsOf(auxOf(c, block), in.shape.m, columnBlock(in, block).cols);
}

// Issues `work` on the block's priority lane, ordered after what s has and before what s gets
// next (column blocks); on s itself with one block.
template <class Work> void onCheckLane(const gigacheck::cuda::OpContext& c, int block, cudaStream_t s, Work&& work)
{
    if (stateOf(c).checkLanes.empty())
        return work(s);
    SideLane& lane = *stateOf(c).checkLanes[std::size_t(block)];
    CUDA_CHECK(cudaEventRecord(lane.fork.get(), s));
    CUDA_CHECK(cudaStreamWaitEvent(lane.side.get(), lane.fork.get(), 0));
    work(lane.side.get());
    CUDA_CHECK(cudaEventRecord(lane.join.get(), lane.side.get()));
    CUDA_CHECK(cudaStreamWaitEvent(s, lane.join.get(), 0));
}

double* injectSlot(const gigacheck::cuda::OpContext& c, int opId)
{
    return stateOf(c).injectOut.as<double>() + 2 * stateOf(c).slotOf[std::size_t(opId)];
}

void issueInject(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    const Shape& sh = inputsOf(c.request).shape;
    // Block-local columns: a column block's C_f holds its columns and its checksum column after them.
    const ColumnBlock cb = in.scheme == Scheme::Tmr ? ColumnBlock{0, sh.q} : columnBlock(in, op.block.j);
    std::vector<DeviceInjection> items;
    for (std::size_t i : faultsAfter(in, op.block.k, op.block.j)) {
        const PlannedFault& f = in.faults[i];
        DeviceInjection d;
        d.row = f.at.target == OnlineTarget::ChecksumRow ? sh.m + f.at.row : f.at.row;
        d.col = f.at.target == OnlineTarget::ChecksumCol ? (in.columnBlocks > 1 ? cb.cols : sh.q + f.at.col)
                                                         : f.at.col - cb.col;
        d.bitFlip = f.model == FaultModel::BitFlip ? 1 : 0;
        d.bit = f.bit;
        d.bit2 = f.bit2;
        d.delta = f.delta;
        items.push_back(d);
    }
    const int slot = in.scheme == Scheme::Tmr ? op.dst : slotC(op.block.j);
    if (hostOf(c).on) {
        // One call per fault: a fault in A or B strikes the device copy of that input.
        const std::vector<std::size_t> planned = faultsAfter(in, op.block.k);
        for (std::size_t n = 0; n < items.size(); ++n) {
            const OnlineTarget target = in.faults[planned[n]].at.target;
            const int into = target == OnlineTarget::A ? kSlotA : target == OnlineTarget::B ? kSlotB : kSlotC;
            gigacheck::cuda::inject(in.precision, buf(c, into), ld(c, into), &items[n], 1, injectSlot(c, op.id) + 2 * n,
                                    s);
        }
        return;
    }
    if (stateOf(c).stepSums)
        return;  // the kernel applied them (stepSumsProduct has faults in C's main part only)
    if (!items.empty())
        onCheckLane(c, op.block.j, s, [&](cudaStream_t on) {
            // A fault in C after a fused-sums product is one the epilogue would have summed: the
            // sums take its change, so the check finds it without reading C.
            gigacheck::cuda::inject(in.precision, buf(c, slot), ld(c, slot), items.data(), int(items.size()),
                                    injectSlot(c, op.id), on,
                                    in.scheme == Scheme::Tmr ? gigacheck::cuda::ProductSums{}
                                                             : productSumsOfBlock(c, op.block.j));
        });
}

VerifyOut* verifySlot(const gigacheck::cuda::OpContext& c, int opId)
{
    return stateOf(c).verifyOut.as<VerifyOut>() + stateOf(c).slotOf[std::size_t(opId)];
}

// The device check of column block op.block.j after op's product (C's sums from the product where
// it wrote them).
VerifyCall checkCallOf(const gigacheck::cuda::OpContext& c, const Operation& op)
{
    const OnlineInputs& in = inputsOf(c.request);
    const int b = op.block.j;
    VerifyCall call = gigacheck::cuda::verifyCall(in.precision, buf(c, slotC(b)), in.shape.m, columnBlock(in, b).cols,
                                                  ld(c, slotC(b)), op.depth, auxOf(c, b), roundoff(c), in.lambda);
    // The other blocks' GEMMs run beside every check but the last (the blocks end together).
    call.besideGemm = in.columnBlocks > 1 && op.block.k + 1 < in.steps;
    call.sumsFromProduct = stateOf(c).sumsInAux[std::size_t(b)] != 0;  // the check reads no C
    return call;
}

// The step-sums path: the check `op` and the later checks of its group of steps decided by one
// launch from their steps' slots (their checksums are complete then: stepSumsProductOp). A clean
// one's verdict is then in its VerifyOut and it launches nothing; the first that is not clean runs
// in full, and its correction changes the later steps' sums, so the checks after it are screened
// again (issueCheck). A check in full was four launches, ~30 us on an H100 at N = 16384 (results
// README). The issuing thread waits for the screen, as the host-checked path waits for its checks.
void screenChecksFrom(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    State& state = stateOf(c);
    const int slot = state.stepOf[std::size_t(op.id)], group = slot / kStepsPerGroup;
    std::vector<const Operation*> checks;
    for (const Operation& o : c.schedule.ops) {
        const int step = state.stepOf[std::size_t(o.id)];
        if (o.kind == kCheck && step >= slot && step / kStepsPerGroup == group)
            checks.push_back(&o);
    }
    if (checks.empty() || checks.size() > std::size_t(gigacheck::cuda::kScreenedMax))
        return;
    std::vector<gigacheck::cuda::ScreenedCheck> screened(checks.size());
    for (std::size_t n = 0; n < checks.size(); ++n) {
        const int step = state.stepOf[std::size_t(checks[n]->id)];
        screened[n].call = checkCallOf(c, *checks[n]);
        screened[n].call.sumsFromProduct = true;  // loadStep puts the step's sums there
        screened[n].lines = stepLinesOf(c, step);
        screened[n].bounds = stepBoundsOf(c, step);
        screened[n].sums = stepSumsOf(c, step);
        screened[n].out = verifySlot(c, checks[n]->id);
    }
    gigacheck::cuda::screenChecks(screened.data(), int(screened.size()), s);
    CUDA_CHECK(cudaEventRecord(state.screened->get(), s));
    CUDA_CHECK(cudaEventSynchronize(state.screened->get()));
    for (std::size_t n = 0; n < checks.size() && screened[n].out->verdict == gigacheck::cuda::kClean; ++n)
        state.screenedClean[std::size_t(checks[n]->id)] = 1;
}

void issueCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (hostOf(c).on) {
        if (inputsOf(c.request).precision == Precision::F64)
            hostCheckedCheck<double>(c, op, s);
        else
            hostCheckedCheck<float>(c, op, s);
        return;
    }
    const OnlineInputs& in = inputsOf(c.request);
    const int b = op.block.j;
    VerifyCall call = checkCallOf(c, op);
    if (stateOf(c).stepSums) {
        // C is final: its checksum cells are rebuilt from the step's sums, and what this check
        // corrects is taken out of the later steps' sums.
        State& state = stateOf(c);
        const int slot = state.stepOf[std::size_t(op.id)], group = slot / kStepsPerGroup;
        if (state.screens && (state.screenedGroup < group || state.lastInFull)) {
            state.screenedGroup = group;
            screenChecksFrom(c, op, s);
        }
        state.lastInFull = false;
        if (state.screenedClean[std::size_t(op.id)])
            return;
        state.lastInFull = true;
        if (slot + 1 < state.stepSlots)
            loadStepOf(c, slot, s);  // the last step's is loaded by its product op
        call.sumsFromProduct = true;
        call.recomputeFrom = stepSumsOf(c, slot);
        call.cellsFrom = {static_cast<const float*>(buf(c, kSlotA)), ld(c, kSlotA),
                          static_cast<const float*>(buf(c, kSlotBTransposed)), ld(c, kSlotBTransposed), in.shape.n};
        gigacheck::cuda::verify(call, verifySlot(c, op.id), s);
        cuda::carryCorrections(verifySlot(c, op.id), stepSumsOf(c, slot + 1), state.stepSlots - slot - 1, in.shape.m,
                               in.shape.q, s);
        return;
    }
    onCheckLane(c, b, s, [&](cudaStream_t on) { gigacheck::cuda::verify(call, verifySlot(c, op.id), on); });
}

void issueReplicaProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Shape& sh = inputsOf(c.request).shape;
    GemmCall g;
    const GemmVariant v = inputsOf(c.request).gemm;
    g.variant = multipliesInTf32(v) ? GemmVariant::CublasTf32 : v == GemmVariant::Tf32x3 ? v : GemmVariant::Cublas;
    g.precision = inputsOf(c.request).precision;
    g.m = sh.m;
    g.n = sh.n;
    g.q = sh.q;
    g.a = buf(c, kSlotA);
    g.lda = ld(c, kSlotA);
    g.b = buf(c, kSlotB);
    g.ldb = ld(c, kSlotB);
    g.c = buf(c, op.dst);
    g.ldc = ld(c, op.dst);
    gigacheck::cuda::gemm(g, handleOf(c), s);
}

void issueVote(const gigacheck::cuda::OpContext& c, const Operation&, cudaStream_t s)
{
    const Shape& sh = inputsOf(c.request).shape;
    cuda::vote(inputsOf(c.request).precision, buf(c, kSlotC), buf(c, kSlotReplica1), buf(c, kSlotReplica2), sh.m * sh.q,
               static_cast<cuda::VoteOut*>(buf(c, kSlotVote)), stateOf(c).voteOut.as<cuda::VoteOut>(), s);
}

// ---- report -----------------------------------------------------------------------------------

void reportPanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, Span& span, OpOutcome&)
{
    // The device multiplies the unaugmented panels and adds the checksum sides beside: count the
    // flops it does (2 m q b for the GEMM, ~2 (m + q) b for the checksum products).
    const Shape& sh = inputsOf(c.request).shape;
    span.flops = 2.0 * double(sh.m) * double(sh.q) * double(op.depth) + 2.0 * double(sh.m + sh.q) * double(op.depth);
}

void reportInject(const gigacheck::cuda::OpContext& c, const Operation& op, Span&, OpOutcome& out)
{
    OnlineInputs& in = inputsOf(c.request);
    const Shape& sh = inputsOf(c.request).shape;
    const double* values = injectSlot(c, op.id);
    std::size_t n = 0;
    for (std::size_t i : faultsAfter(in, op.block.k, op.block.j)) {
        PlannedFault& f = in.faults[i];
        f.before = values[2 * n];
        f.after = values[2 * n + 1];
        f.applied = true;
        ++n;
        if (f.at.target == OnlineTarget::A || f.at.target == OnlineTarget::B)
            continue;  // an input fault is reported as such by the check that finds it
        out.injections.push_back(injectionEvent(op.id, f, sh, op.block.k));
    }
}

// A column block's verdict in C's own indices: its columns shifted by the block's first, its
// checksum column (local index = its width) numbered q + b.
void toGlobalColumns(VerifyResult& v, const OnlineInputs& in, int block)
{
    const ColumnBlock cb = columnBlock(in, block);
    const auto global = [&](std::int64_t col) { return col < cb.cols ? cb.col + col : in.shape.q + block; };
    for (std::int64_t& col : v.mismatchCols)
        col = global(col);
    for (Correction& x : v.corrections)
        x.col = global(x.col);
}

void reportCheck(const gigacheck::cuda::OpContext& c, const Operation& op, Span&, OpOutcome& outcome)
{
    const OnlineInputs& in = inputsOf(c.request);
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = BlockIndex{0, op.block.j, op.block.k};
    ev.rows = in.shape.m;
    ev.cols = in.shape.q;
    ev.result = hostOf(c).on ? std::move(hostOf(c).results[std::size_t(stateOf(c).slotOf[std::size_t(op.id)])])
                             : gigacheck::cuda::toVerifyResult(*verifySlot(c, op.id));
    if (in.columnBlocks > 1)
        toGlobalColumns(ev.result, in, op.block.j);
    outcome.verification = std::move(ev);
}

static_assert(sizeof(cuda::VoteOut) <= 8 * (kMaxDisputedCells + 4), "the plan's vote buffer holds VoteOut");
static_assert(cuda::kVoteListed == kMaxDisputedCells);

void reportVote(const gigacheck::cuda::OpContext& c, const Operation&, Span&, OpOutcome&)
{
    const Shape& sh = inputsOf(c.request).shape;
    const cuda::VoteOut& out = *stateOf(c).voteOut.as<cuda::VoteOut>();
    VoteReport report;
    report.cellsOutvoted = std::int64_t(out.outvoted);
    report.cellsWithoutMajority = std::int64_t(out.withoutMajority);
    for (unsigned i = 0; i < std::min<unsigned>(out.listed, unsigned(cuda::kVoteListed)); ++i) {
        const long long x = out.cells[i] < 0 ? -out.cells[i] - 1 : out.cells[i];
        report.disputed.emplace_back(x / sh.q, x % sh.q);
        if (out.cells[i] < 0 && report.noMajority.size() < 64)
            report.noMajority.emplace_back(x / sh.q, x % sh.q);
    }
    inputsOf(c.request).vote = std::move(report);
}

// The family's own kernels loaded before anything is timed; the checks and passes are the blocked
// family's (its warm-up loads them). GIGACHECK_NO_WARMUP=1 measures a cold first run.
void warmUp(int device)
{
    if (std::getenv("GIGACHECK_NO_WARMUP"))
        return;
    CUDA_CHECK(cudaSetDevice(device));
    cuda::loadVoteKernels();
}

}  // namespace

const gigacheck::cuda::OpTable& cudaOps()
{
    static const gigacheck::cuda::OpTable table{
        .makeState = makeState,
        .warmUp = warmUp,
        .ops = {{kLoadInputs, issueLoad},
         {kEncode, issueEncode},
         {kPanelProduct, issuePanelProduct, reportPanelProduct},
         {kInjectFault, issueInject, reportInject},
         {kCheck, issueCheck, reportCheck},
         {kReplicaProduct, issueReplicaProduct},
         {kVote, issueVote, reportVote},
         {kStoreResult, issueStore}},
    };
    return table;
}

}  // namespace gigacheck::online_abft
