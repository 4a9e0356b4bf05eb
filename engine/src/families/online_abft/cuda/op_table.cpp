// The online ABFT family's CUDA op table. The panel products reuse the device ABFT of
// engine/src/abft/cuda and the blocked family's GEMM and protected-product pieces: the cuBLAS
// GEMM of the panel with the checksum column / row of C and the round-off bound accumulated on a
// side stream beside it (productWithChecksums), and a check that reads C once for row and column
// sums together, then decides and corrects on the device (cuda::verify). Only VerifyOut, the
// faults' before / after and the vote's counts come back.
//
// Two paths have files of their own: the step-sums kernel's (step_sums_ops.hpp: the whole product
// as one kernel keeping C in registers, README "C kept across the steps") and the host-checked one
// (host_checked_ops.hpp: K >= 2 weighted checksums and faults in A or B, README "On the GPU": the
// device computes the K weighted residuals and the bound, the host decides with the CPU's own
// code). The run's state and the helpers all three share: op_state.hpp.
#include "families/online_abft/ops.hpp"

#include "abft/cuda/verify_out_result.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/op_table.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"
#include "families/online_abft/cuda/host_checked_ops.hpp"
#include "families/online_abft/cuda/op_state.hpp"
#include "families/online_abft/cuda/panel_tuning.hpp"
#include "families/online_abft/cuda/step_sums_ops.hpp"
#include "families/online_abft/cuda/vote.hpp"
#include "families/online_abft/injection_event.hpp"
#include "families/online_abft/inputs.hpp"
#include "gigacheck/tf32x3.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gigacheck::online_abft::device_ops {

void noteLine(OnlineInputs& in, const std::string& line)
{
    if (in.panelGemm.find(line) == std::string::npos)
        in.panelGemm += (in.panelGemm.empty() ? "" : "; ") + line;
}

namespace {

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
        setUpHostChecked(*state, c, checks);
    } else if (takesStepSums(c)) {
        setUpStepSums(*state, c);
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
    if (hostOf(c).on)
        return hostCheckedEncode(c, s);
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

}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

void issueCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (hostOf(c).on)
        return hostCheckedCheck(c, op, s);
    const int b = op.block.j;
    VerifyCall call = checkCallOf(c, op);
    if (stateOf(c).stepSums)
        return stepSumsCheck(c, op, call, s);
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

}  // namespace gigacheck::online_abft::device_ops

namespace gigacheck::online_abft {

const gigacheck::cuda::OpTable& cudaOps()
{
    using namespace device_ops;
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
