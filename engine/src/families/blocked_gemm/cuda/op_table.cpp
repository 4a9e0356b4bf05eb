// The blocked GEMM family's CUDA op table: how each of its op kinds is issued on a stream and
// what is read back once it is done. The executor (core/cuda/cuda_backend.cpp) owns buffers,
// streams, events and the order; this file owns what the family's kernels need besides: one
// cuBLAS handle and one side lane (protected_product.hpp) per schedule stream, and the pinned
// slots the verifications and injections write their results to.
#include "families/blocked_gemm/ops.hpp"

#include "abft/cuda/verify_out_result.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/op_table.hpp"
#include "families/blocked_gemm/cuda/host_staging.hpp"
#include "families/blocked_gemm/cuda/operand_sums.hpp"
#include "families/blocked_gemm/plan/buffer_layout.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "families/blocked_gemm/cuda/warm_up.hpp"
#include "gigacheck/fault_models.hpp"
#include "gigacheck/blocked_gemm/operand_checks.hpp"
#include "gigacheck/tf32x3.hpp"

#include <algorithm>

namespace gigacheck::blocked_gemm {

namespace {

using namespace cuda;

std::size_t elemSize(Precision p) { return p == Precision::F64 ? 8 : 4; }

struct State final : cuda::RunState {
    Inputs* inputs = nullptr;
    // The inputs' plan with the schedule's buffers: over several devices each has a copy of the
    // plan's, and the ops index them by schedule slot.
    Plan plan;
    // Per device and schedule stream (device * lanes + stream), made with that device current:
    // ABFT passes beside the GEMM.
    std::vector<std::unique_ptr<SideLane>> lanes;
    // One cuBLAS handle per device and compute stream: handles keep per-stream workspace state
    // and belong to the device current when they were made.
    std::vector<std::unique_ptr<CublasHandle>> handles;
    std::vector<int> ordinalOf;  // per lane / handle: the GPU it was made on
    // Per lane: the slot of its GEMM workspace (plan/buffer_layout.hpp; -1: none, the GEMM layer
    // then takes the stream's scratch), and how a workspace splits into its two parts.
    std::vector<int> workspaceOf;
    GemmWorkspaceParts workspaceParts;
    std::vector<int> slotOf;  // per op: its slot in verifyOut / injectOut
    std::vector<int> auxOfInject;  // per inject op: the Aux slot of the product before it (-1: none)
    // Per buffer slot: whether the last product issued with this Aux wrote C's sums into it
    // (cutlass-tf32 where the kernel takes the shape). Ops of one block are issued in order
    // (product -> inject -> verify on one stream); each block has its own Aux slot.
    std::vector<char> sumsInAux;
    PinnedBuffer verifyOut, injectOut;
    // The checker's own faults (gigacheck/fault_models.hpp), each applied by one op: per op, the
    // injections it applies (encoding-b: B's Checksum op, encoding-a: the first product that
    // encodes that A block, check / correction: the block's Verify op), and per injection three
    // pinned doubles (before, after, applied).
    std::vector<std::vector<std::size_t>> checkerFaultsOf;
    std::vector<int> checkerSlotOf;
    PinnedBuffer checkerOut;
    // End-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp), where the run took entry checksums:
    // per Checksum op, where its copy's line sums start in operandSums (-1: none).
    std::vector<std::int64_t> operandSumsAt;
    PinnedBuffer operandSums;
    // The block loads packed on the host (null when none is).
    std::unique_ptr<HostStaging> staging;

    ~State() override
    {
        // A cuBLAS handle is released with the device it was made on current.
        for (std::size_t i = 0; i < handles.size(); ++i) {
            if (cudaSetDevice(ordinalOf[i]) != cudaSuccess)
                (void)cudaGetLastError();
            handles[i].reset();
            lanes[i].reset();
        }
    }
};

State& stateOf(const cuda::OpContext& c) { return *static_cast<State*>(c.state); }
Inputs& in(const cuda::OpContext& c) { return *stateOf(c).inputs; }
const Plan& planOf(const cuda::OpContext& c) { return stateOf(c).plan; }
void* buf(const cuda::OpContext& c, int slot) { return c.buffers[std::size_t(slot)]; }
std::int64_t ld(const cuda::OpContext& c, int slot) { return planOf(c).buffers[std::size_t(slot)].ld; }
AuxView auxOf(const cuda::OpContext& c, int slot) { return AuxView{static_cast<double*>(buf(c, slot)), ld(c, slot)}; }
RoundoffModel roundoff(const cuda::OpContext& c)
{
    return roundoffModelOf(planOf(c).precision, in(c).gemm);  // TF32, BF16, FP16 alike; tf32x3 as FP32
}

// cutlass-tf32: the block's product (the op before this inject / verify, on its stream: the
// schedule builder's product -> inject -> verify) wrote C's sums into its Aux scratch rows.
bool productWroteSums(const cuda::OpContext& c, int aux)
{
    return aux >= 0 && stateOf(c).sumsInAux[std::size_t(aux)] != 0;
}

// The fault plan's injections for this op's block that lie inside the stored block.
std::vector<std::size_t> injectionsFor(const Inputs& inputs, const Operation& op)
{
    std::vector<std::size_t> out;
    if (!inputs.faults)
        return out;
    const std::int64_t extra = inputs.plan.abft ? 1 : 0;
    for (std::size_t index : inputs.faults->forBlock(op.block)) {
        const Injection& inj = inputs.faults->injections[index];
        if (isCheckerFault(inj.target))  // applied by the checksum, product and verify ops
            continue;
        // Outside the stored block (a checksum target without ABFT): nothing there to corrupt.
        if (inj.localRow < 0 || inj.localCol < 0 || inj.localRow >= op.rows + extra || inj.localCol >= op.cols + extra)
            continue;
        out.push_back(index);
    }
    return out;
}

const HostMatrix& sourceOf(const Inputs& inputs, const Operation& op)
{
    return op.host.matrix == Operand::A ? *inputs.a : *inputs.b;
}

// The loads --h2d-staging packs on the host, and the staging for them. Without pinned memory for
// the slots the run copies directly, as before packing existed.
std::unique_ptr<HostStaging> makeStaging(const cuda::OpContext& c, const State& state)
{
    const std::int64_t es = std::int64_t(elemSize(state.plan.precision));
    std::vector<std::int64_t> packedBytes(c.schedule.ops.size(), 0);
    bool any = false;
    for (const Operation& op : c.schedule.ops) {
        if (op.kind != OpKind::CopyH2D)
            continue;
        const std::int64_t rowBytes = op.host.cols * es;
        if (!packsOnHost(state.inputs->h2dStaging, op.host.rows, rowBytes, sourceOf(*state.inputs, op).cols() * es))
            continue;
        packedBytes[std::size_t(op.id)] = (op.host.rows - 1) * state.plan.buffers[std::size_t(op.dst)].ld * es + rowBytes;
        any = true;
    }
    if (!any)
        return nullptr;
    try {
        return std::make_unique<HostStaging>(c, packedBytes);
    } catch (const BackendError&) {
        (void)cudaGetLastError();
        CUDA_CHECK(cudaSetDevice(c.ordinals.front()));
        return nullptr;
    }
}

// Which op applies each of the checker's faults, in issue order as the CPU backend applies them:
// the first op of its kind whose block the fault names.
void assignCheckerFaults(const cuda::OpContext& c, State& state)
{
    state.checkerFaultsOf.assign(c.schedule.ops.size(), {});
    const FaultPlan* faults = state.inputs->faults;
    if (!faults)
        return;
    state.checkerSlotOf.assign(faults->injections.size(), -1);
    int slots = 0;
    for (std::size_t index = 0; index < faults->injections.size(); ++index) {
        const Injection& inj = faults->injections[index];
        if (!isCheckerFault(inj.target))
            continue;
        for (const Operation& op : c.schedule.ops) {
            const BlockIndex& b = op.block;
            const bool bBlock = op.kind == OpKind::Checksum &&
                                state.plan.buffers[std::size_t(op.dst)].role == BufferRole::B;
            bool mine = false;
            switch (inj.target) {
            case FaultTarget::EncodingA:
                mine = op.kind == OpKind::Product && b.i == inj.block.i && b.k == inj.block.k && inj.localRow < op.depth;
                break;
            case FaultTarget::EncodingB:
                mine = bBlock && b.j == inj.block.j && b.k == inj.block.k && inj.localRow < op.depth;
                break;
            default:  // check, correction
                mine = op.kind == OpKind::Verify && b == inj.block;
                break;
            }
            if (!mine || !state.plan.abft)
                continue;
            state.checkerFaultsOf[std::size_t(op.id)].push_back(index);
            state.checkerSlotOf[index] = slots++;
            break;
        }
    }
    state.checkerOut = PinnedBuffer(std::size_t(std::max(1, slots)) * 3 * sizeof(double));
}

std::unique_ptr<cuda::RunState> makeState(const cuda::OpContext& c)
{
    auto state = std::make_unique<State>();
    state->inputs = &inputsOf(c.request);
    state->plan = state->inputs->plan;
    state->plan.buffers = c.schedule.buffers;
    for (int d = 0; d < c.schedule.devices; ++d) {
        CUDA_CHECK(cudaSetDevice(c.ordinals[std::size_t(d)]));
        for (int i = 0; i < c.lanes; ++i) {
            state->lanes.push_back(std::make_unique<SideLane>());
            state->handles.push_back(std::make_unique<CublasHandle>());
            state->ordinalOf.push_back(c.ordinals[std::size_t(d)]);
        }
    }
    CUDA_CHECK(cudaSetDevice(c.ordinals.front()));  // as the executor left it
    // The k-th workspace of a device is its product stream k's.
    const Plan& plan = state->inputs->plan;
    state->workspaceParts =
        gemmWorkspaceParts(state->inputs->gemm, plan.precision, plan.abft, plan.blockM, plan.blockN, plan.blockQ);
    state->workspaceOf.assign(state->lanes.size(), -1);
    std::vector<int> workspacesSeen(std::size_t(c.schedule.devices), 0);
    for (std::size_t slot = 0; slot < c.schedule.buffers.size(); ++slot) {
        const BufferSpec& b = c.schedule.buffers[slot];
        if (b.role != BufferRole::Workspace || b.bytes < state->workspaceParts.bytes())
            continue;
        const int stream = workspacesSeen[std::size_t(b.device)]++;
        if (stream < c.lanes)
            state->workspaceOf[std::size_t(b.device * c.lanes + stream)] = int(slot);
    }
    std::size_t verifies = 0, injections = 0;
    std::int64_t operandLines = 0;
    state->operandSumsAt.assign(c.schedule.ops.size(), -1);
    state->slotOf.assign(c.schedule.ops.size(), -1);
    state->auxOfInject.assign(c.schedule.ops.size(), -1);
    state->sumsInAux.assign(c.schedule.buffers.size(), 0);
    std::vector<int> auxOfProductInto(c.schedule.buffers.size(), -1);
    for (const Operation& op : c.schedule.ops) {
        if (op.kind == OpKind::Product)
            auxOfProductInto[std::size_t(op.dst)] = op.aux;
        if (op.kind == OpKind::Inject)
            state->auxOfInject[std::size_t(op.id)] = auxOfProductInto[std::size_t(op.dst)];
        if (op.kind == OpKind::Verify)
            state->slotOf[std::size_t(op.id)] = int(verifies++);
        if (op.kind == OpKind::Checksum && state->inputs->entry && state->inputs->operandLog) {
            state->operandSumsAt[std::size_t(op.id)] = operandLines;
            operandLines += op.depth;  // A (i, k): a sum per column; B (k, j): a sum per row
        }
        if (op.kind == OpKind::Inject) {
            state->slotOf[std::size_t(op.id)] = int(injections);
            injections += injectionsFor(*state->inputs, op).size();
        }
    }
    state->verifyOut = PinnedBuffer(std::max<std::size_t>(1, verifies) * sizeof(VerifyOut));
    state->injectOut = PinnedBuffer(std::max<std::size_t>(1, injections) * 2 * sizeof(double));
    if (operandLines > 0)
        state->operandSums = PinnedBuffer(std::size_t(operandLines) * sizeof(double));
    state->staging = makeStaging(c, *state);
    assignCheckerFaults(c, *state);
    return state;
}

VerifyOut* verifySlot(const cuda::OpContext& c, int opId)
{
    return stateOf(c).verifyOut.as<VerifyOut>() + stateOf(c).slotOf[std::size_t(opId)];
}
double* injectSlot(const cuda::OpContext& c, int opId)
{
    return stateOf(c).injectOut.as<double>() + 2 * stateOf(c).slotOf[std::size_t(opId)];
}
double* checkerSlot(const cuda::OpContext& c, std::size_t injection)
{
    return stateOf(c).checkerOut.as<double>() + 3 * stateOf(c).checkerSlotOf[injection];
}
const std::vector<std::size_t>& checkerFaultsOf(const cuda::OpContext& c, const Operation& op)
{
    return stateOf(c).checkerFaultsOf[std::size_t(op.id)];
}

// An injection as the device applies it (bit flips checked against the element size).
DeviceInjection deviceInjection(const Injection& inj, std::int64_t row, std::int64_t col, Precision p)
{
    DeviceInjection d;
    d.row = row;
    d.col = col;
    d.bitFlip = inj.model == FaultModel::BitFlip ? 1 : 0;
    d.bit = inj.bit;
    d.bit2 = inj.bit2;
    d.delta = inj.delta;
    const int bits = int(8 * elemSize(p));
    if (d.bitFlip && (d.bit < 0 || d.bit >= bits || d.bit2 >= bits))
        throw BackendError("CUDA backend: bit " + std::to_string(d.bit2 >= bits ? d.bit2 : d.bit) +
                           " is outside an element");
    return d;
}

// The checker's faults an op applied, reported as the CPU backend reports them.
void reportCheckerFaults(const cuda::OpContext& c, const Operation& op, OpOutcome& out)
{
    for (std::size_t index : checkerFaultsOf(c, op)) {
        Injection& inj = in(c).faults->injections[index];
        const double* v = checkerSlot(c, index);
        if (inj.target == FaultTarget::Correction && v[2] == 0)
            continue;  // the cell was not corrected here: nothing was written to hit
        inj.before = v[0];
        inj.after = inj.target == FaultTarget::Check ? -1e300 : v[1];
        inj.applied = true;
        if (inj.target == FaultTarget::EncodingA || inj.target == FaultTarget::EncodingB)
            inj.block = op.block;
        out.injections.push_back({op.id, inj, 0});
    }
}

// ---- issue ------------------------------------------------------------------------------------

void issueCopyH2D(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(planOf(c).precision);
    const HostMatrix& src = sourceOf(in(c), op);
    const char* base = static_cast<const char*>(src.data()) +
                       (std::size_t(op.host.row) * std::size_t(src.cols()) + std::size_t(op.host.col)) * es;
    if (HostStaging* staging = stateOf(c).staging.get(); staging && staging->packs(op.id)) {
        const std::int64_t e = std::int64_t(es);
        staging->issue(op, {base, nullptr, op.host.rows, op.host.cols * e, src.cols() * e, ld(c, op.dst) * e},
                       buf(c, op.dst), s);
        return;
    }
    CUDA_CHECK(cudaMemcpy2DAsync(buf(c, op.dst), std::size_t(ld(c, op.dst)) * es, base, std::size_t(src.cols()) * es,
                                 std::size_t(op.host.cols) * es, std::size_t(op.host.rows), cudaMemcpyHostToDevice, s));
}

void issueCopyD2H(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(planOf(c).precision);
    HostMatrix& dst = *in(c).c;
    char* base = static_cast<char*>(dst.data()) +
                 (std::size_t(op.host.row) * std::size_t(dst.cols()) + std::size_t(op.host.col)) * es;
    CUDA_CHECK(cudaMemcpy2DAsync(base, std::size_t(dst.cols()) * es, buf(c, op.dst), std::size_t(ld(c, op.dst)) * es,
                                 std::size_t(op.host.cols) * es, std::size_t(op.host.rows), cudaMemcpyDeviceToHost, s));
}

double* operandSumsOf(const cuda::OpContext& c, const Operation& op)
{
    const std::int64_t at = stateOf(c).operandSumsAt[std::size_t(op.id)];
    return at < 0 ? nullptr : stateOf(c).operandSums.as<double>() + at;
}

bool isABlock(const cuda::OpContext& c, const Operation& op)
{
    return planOf(c).buffers[std::size_t(op.dst)].role == BufferRole::A;
}

void issueChecksum(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    // The copy as it arrived, before anything rounds it: its line sums for the entry checksums.
    if (double* sums = operandSumsOf(c, op)) {
        if (isABlock(c, op))
            operandColumnSums(planOf(c).precision, buf(c, op.dst), op.rows, op.depth, ld(c, op.dst), sums, s);
        else
            operandRowSums(planOf(c).precision, buf(c, op.dst), op.depth, op.cols, ld(c, op.dst), sums, s);
    }
    // A's column checksum is computed (into Aux) by each product's pass over A, which that pass
    // needs anyway: on the device the Checksum op of an A block has no work.
    // TF32: B is rounded to TF32 in the same pass (protected_product.hpp, roundsOperandsToTf32).
    // BF16 / FP16: rounded in registers only; the products' passes write the 16-bit copies the GEMM
    // reads (protected_product_16bit.hpp).
    const InputFormat rounding = planOf(c).precision == Precision::F32 ? inputFormatOf(in(c).gemm) : InputFormat::F32;
    if (planOf(c).buffers[std::size_t(op.dst)].role == BufferRole::B) {
        float* b = static_cast<float*>(buf(c, op.dst));
        if (rounding == InputFormat::Bf16 || rounding == InputFormat::F16)
            checksumB16(rounding, Operand16{b, ld(c, op.dst), false}, op.depth, op.cols,
                        RowChecksumsB{b + op.cols, ld(c, op.dst)}, s);
        else
            checksumB(planOf(c).precision, buf(c, op.dst), op.depth, op.cols, ld(c, op.dst), s, rounding);
    }
    // encoding-b: r_B[k], column `cols` of the B block, hit right after it was made.
    for (std::size_t index : checkerFaultsOf(c, op)) {
        const Injection& inj = in(c).faults->injections[index];
        const DeviceInjection d = deviceInjection(inj, inj.localRow, op.cols, planOf(c).precision);
        inject(planOf(c).precision, buf(c, op.dst), ld(c, op.dst), &d, 1, checkerSlot(c, index), s);
    }
}

void issueProduct(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    GemmCall g;
    g.variant = in(c).gemm;
    g.tile = in(c).tile;
    g.precision = planOf(c).precision;
    g.m = op.rows;
    g.n = op.depth;
    g.q = op.cols;
    g.a = buf(c, op.srcA);
    g.lda = ld(c, op.srcA);
    g.b = buf(c, op.srcB);
    g.ldb = ld(c, op.srcB);
    g.c = buf(c, op.dst);
    g.ldc = ld(c, op.dst);
    g.accumulate = op.accumulate;
    const bool abft = planOf(c).abft && op.aux >= 0;
    if (abft)
        stateOf(c).sumsInAux[std::size_t(op.aux)] = sumsOfCFromProduct(g) ? 1 : 0;
    const std::size_t lane = std::size_t(op.device * c.lanes + op.stream);
    if (const int work = stateOf(c).workspaceOf[lane]; work >= 0) {
        char* base = static_cast<char*>(buf(c, work));
        const GemmWorkspaceParts& parts = stateOf(c).workspaceParts;
        g.operandCopies = {base, parts.operandCopies};
        g.rowSumPartials = {base + parts.operandCopies, parts.rowSumPartials};
    }
    productWithChecksums(g, stateOf(c).handles[lane]->get(), s, abft ? stateOf(c).lanes[lane].get() : nullptr,
                         abft ? auxOf(c, op.aux) : AuxView{}, roundoff(c).uInput > 0);
    // encoding-a: c_A[k] hit as this product's pass over A made it.
    for (std::size_t index : checkerFaultsOf(c, op)) {
        const Injection& inj = in(c).faults->injections[index];
        injectIntoEncodingA(g.precision, g.a, g.lda, op.rows, g.b, g.ldb, g.c, g.ldc, op.cols,
                            deviceInjection(inj, inj.localRow, 0, g.precision), checkerSlot(c, index), s);
    }
}

void issueInject(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const int aux = stateOf(c).auxOfInject[std::size_t(op.id)];
    std::vector<DeviceInjection> items;
    for (std::size_t index : injectionsFor(in(c), op)) {
        const Injection& inj = in(c).faults->injections[index];
        items.push_back(deviceInjection(inj, inj.localRow, inj.localCol, planOf(c).precision));
    }
    if (!items.empty())
        inject(planOf(c).precision, buf(c, op.dst), ld(c, op.dst), items.data(), int(items.size()),
               injectSlot(c, op.id), s,
               productWroteSums(c, aux) ? productSumsOf(auxOf(c, aux), op.rows, op.cols) : ProductSums{});
}

void issueVerify(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Plan& plan = planOf(c);
    VerifyCall v = verifyCall(plan.precision, buf(c, op.dst), op.rows, op.cols, ld(c, op.dst),
                              plan.depthOffset(op.block.k) + op.depth, auxOf(c, op.aux), roundoff(c),
                              in(c).thresholdLambda);
    v.sumsFromProduct = productWroteSums(c, op.aux);
    // check: the row check (a fault placed in the checksum column) or the column check that lies.
    for (std::size_t index : checkerFaultsOf(c, op)) {
        const Injection& inj = in(c).faults->injections[index];
        if (inj.target != FaultTarget::Check)
            continue;
        if (inj.localCol == op.cols)
            v.lieRow = inj.localRow;
        else
            v.lieCol = inj.localCol;
        v.lieThreshold = checkerSlot(c, index);
    }
    verify(v, verifySlot(c, op.id), s);
    // correction: the value a correction of the fault's cell writes is hit.
    for (std::size_t index : checkerFaultsOf(c, op)) {
        const Injection& inj = in(c).faults->injections[index];
        if (inj.target == FaultTarget::Correction)
            injectIntoCorrection(plan.precision, buf(c, op.dst), ld(c, op.dst), verifySlot(c, op.id),
                                 deviceInjection(inj, inj.localRow, inj.localCol, plan.precision),
                                 checkerSlot(c, index), s);
    }
}

// ---- report -----------------------------------------------------------------------------------

void reportChecksum(const cuda::OpContext& c, const Operation& op, Span& span, OpOutcome& outcome)
{
    reportCheckerFaults(c, op, outcome);
    if (const double* sums = operandSumsOf(c, op)) {
        const bool isA = isABlock(c, op);
        double cleanRatio = 0;
        OperandMismatch m = compareSumsWithEntry(*in(c).entry, isA ? 'a' : 'b', isA ? op.block.i : op.block.k,
                                                 isA ? op.block.k : op.block.j, sums, in(c).thresholdLambda,
                                                 &cleanRatio);
        if (m.lines.empty()) {
            in(c).operandLog->addClean(cleanRatio);
        } else {
            m.product = op.block;
            in(c).operandLog->add(std::move(m), cleanRatio);
        }
    }
    // A's column checksum is made by every product's pass over A on the device (the A block's
    // Checksum op has no work): count it there, so the roofline's per-kind rates stay true.
    if (planOf(c).buffers[std::size_t(op.dst)].role == BufferRole::A)
        span.flops = span.bytes = 0;
}

void reportProduct(const cuda::OpContext& c, const Operation& op, Span& span, OpOutcome& outcome)
{
    reportCheckerFaults(c, op, outcome);
    if (planOf(c).abft && op.aux >= 0)
        span.flops += double(op.rows) * double(op.depth);
}

// The caller's fault plan gets what was applied (as the CPU implementation fills it in): only
// this reporting thread writes these fields; the issuing thread reads the others.
void reportInject(const cuda::OpContext& c, const Operation& op, Span&, OpOutcome& out)
{
    const double* values = injectSlot(c, op.id);
    std::size_t n = 0;
    for (std::size_t index : injectionsFor(in(c), op)) {
        Injection& inj = in(c).faults->injections[index];
        inj.before = values[2 * n];
        inj.after = values[2 * n + 1];
        inj.applied = true;
        ++n;
        out.injections.push_back({op.id, inj, 0});
    }
}

void reportVerify(const cuda::OpContext& c, const Operation& op, Span&, OpOutcome& outcome)
{
    const Plan& plan = planOf(c);
    const VerifyOut& out = *verifySlot(c, op.id);
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = op.block;
    ev.rowOffset = plan.rowOffset(op.block.i);
    ev.colOffset = plan.colOffset(op.block.j);
    ev.rows = op.rows;
    ev.cols = op.cols;
    ev.result = cuda::toVerifyResult(out);  // the lists capped at kMaxListed, as the device fills them
    outcome.verification = ev;
    reportCheckerFaults(c, op, outcome);
}

// The tiled kernel comes in three tile sides.
void checkTile(const ExecutionRequest& request)
{
    const Inputs& inputs = inputsOf(request);
    if (inputs.gemm == GemmVariant::Tiled && inputs.tile != 8 && inputs.tile != 16 && inputs.tile != 32)
        throw InputError("--tile must be 8, 16 or 32 (got " + std::to_string(inputs.tile) + ")");
}

}  // namespace

const cuda::OpTable& cudaOps()
{
    static const cuda::OpTable table{
        makeState,
        checkTile,
        warmUpDevice,
        forgetWarmUp,
        {{OpKind::CopyH2D, issueCopyH2D},
         {OpKind::Checksum, issueChecksum, reportChecksum},
         {OpKind::Product, issueProduct, reportProduct},
         {OpKind::Inject, issueInject, reportInject},
         {OpKind::Verify, issueVerify, reportVerify},
         {OpKind::CopyD2H, issueCopyD2H}},
    };
    return table;
}

}  // namespace gigacheck::blocked_gemm
