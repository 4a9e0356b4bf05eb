// See step_sums_ops.hpp.
#include "families/online_abft/cuda/step_sums_ops.hpp"

#include "core/cuda/check.hpp"
#include "families/online_abft/cuda/step_sums.hpp"
#include "gemm/cutlass/cutlass_step_sums.hpp"

#include <algorithm>
#include <cstdlib>

namespace gigacheck::online_abft::device_ops {

namespace {

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

// The step-sums path: the check `op` and the later checks of its group of steps decided by one
// launch from their steps' slots (their checksums are complete then: stepSumsProductOp). A clean
// one's verdict is then in its VerifyOut and it launches nothing; the first that is not clean runs
// in full, and its correction changes the later steps' sums, so the checks after it are screened
// again (stepSumsCheck). A check in full is three launches, ~30 us with their gaps on an H100 at
// N = 16384 (results README). The issuing thread waits for the screen, as the host-checked path
// waits for its checks.
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

}  // namespace

// The step-sums kernel's product op p. The first launches the kernel and, on the pass lane behind
// it, every step's checksums (stepChecksums); the first of a group waits until that group's
// checksums are complete, and the last loads its step's sums and checksums into C's checksum cells
// and aux, where they stay (a check that runs in full loads its own step's, stepSumsCheck). The
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

bool takesStepSums(const gigacheck::cuda::OpContext& c)
{
    const OnlineInputs& in = inputsOf(c.request);
    return stepSumsProduct(in) && stepsOfOneDepth(c.schedule, longestProductDepth(in, in.shape.n));
}

void setUpStepSums(State& state, const gigacheck::cuda::OpContext& c)
{
    const OnlineInputs& in = inputsOf(c.request);
    state.stepSums = true;
    state.stepOf.assign(c.schedule.ops.size(), -1);
    int slot = -1;
    for (const Operation& op : c.schedule.ops) {
        if (op.kind == kPanelProduct)
            ++slot;
        state.stepOf[std::size_t(op.id)] = slot;
    }
    state.stepSlots = slot + 1;
    state.stepDepth = longestProductDepth(in, in.shape.n);
    if (bufferOf(c.schedule, kSlotStepSums).rows < state.stepSlots ||
        std::int64_t(c.schedule.buffers.size()) <= kSlotStepBounds ||
        bufferOf(c.schedule, kSlotStepLines).rows < state.stepSlots ||
        bufferOf(c.schedule, kSlotStepLines).cols < stepLinesWidth(in.shape) ||
        bufferOf(c.schedule, kSlotStepBounds).rows < state.stepSlots ||
        bufferOf(c.schedule, kSlotStepBounds).cols < in.shape.m + in.shape.q + 2 + 2 * state.stepDepth)
        throw BackendError("online ABFT on the GPU: the plan's step sums hold fewer steps than the schedule has");
    state.passLane = std::make_unique<SideLane>();
    for (int g = 0; g < (state.stepSlots + kStepsPerGroup - 1) / kStepsPerGroup; ++g)
        state.groupDone.emplace_back(cudaEventDisableTiming);
    state.screenedClean.assign(c.schedule.ops.size(), 0);
    state.screened = std::make_unique<gigacheck::cuda::Event>(cudaEventDisableTiming);
    state.screens = std::getenv("GIGACHECK_NO_SCREEN") == nullptr;
    noteLine(inputsOf(c.request),
             "CUTLASS sm_90a TF32 step-sums kernel (128x256x32 c2x1, B K-major): the whole product in one "
             "kernel that keeps C in registers across the steps and writes C's row and column sums after each "
             "step of " + std::to_string(stepSumsPanel(in)) + " (the checks read no C; C written once)");
}

void stepSumsCheck(const gigacheck::cuda::OpContext& c, const Operation& op, VerifyCall call, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    // C is final: its checksum cells are rebuilt from the step's sums, and what this check
    // corrects is carried into the later steps' sums (VerifyCall::later).
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
    const int laterSteps = state.stepSlots - slot - 1;  // what it corrects is carried into their sums
    call.later = {laterSteps > 0 ? stepSumsOf(c, slot + 1) : nullptr, laterSteps};
    gigacheck::cuda::verify(call, verifySlot(c, op.id), s);
}

}  // namespace gigacheck::online_abft::device_ops
