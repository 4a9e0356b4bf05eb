// The online ABFT family's CUDA op table. The panel products reuse the device ABFT of
// engine/src/abft/cuda and the blocked family's GEMM and protected-product pieces: the cuBLAS
// GEMM of the panel with the checksum column / row of C and the round-off bound accumulated on a
// side stream beside it (productWithChecksums), and a check that reads C once for row and column
// sums together, then decides and corrects on the device (cuda::verify). Only VerifyOut, the
// faults' before / after and the vote's counts come back.
#include "families/online_abft/ops.hpp"

#include "abft/cuda/verify_out_result.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/op_table.hpp"
#include "families/blocked_gemm/cuda/protected_product.hpp"
#include "families/online_abft/cuda/vote.hpp"
#include "families/online_abft/inputs.hpp"

#include <algorithm>

namespace gigacheck::online_abft {

namespace {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::CublasHandle;
using gigacheck::cuda::DeviceInjection;
using gigacheck::cuda::GemmCall;
using gigacheck::cuda::PinnedBuffer;
using gigacheck::cuda::SideLane;
using gigacheck::cuda::VerifyOut;

std::size_t elemSize(Precision p) { return p == Precision::F64 ? 8 : 4; }

struct State final : gigacheck::cuda::RunState {
    SideLane lane;
    CublasHandle handle;
    std::vector<int> slotOf;  // per op: its slot in verifyOut / injectOut
    PinnedBuffer verifyOut, injectOut, voteOut;
};

State& stateOf(const gigacheck::cuda::OpContext& c) { return *static_cast<State*>(c.state); }

void* buf(const gigacheck::cuda::OpContext& c, int slot) { return c.buffers[std::size_t(slot)]; }
std::int64_t ld(const gigacheck::cuda::OpContext& c, int slot) { return bufferOf(c.schedule, slot).ld; }
AuxView auxOf(const gigacheck::cuda::OpContext& c)
{
    return AuxView{static_cast<double*>(buf(c, kSlotAux)), ld(c, kSlotAux)};
}
RoundoffModel roundoff(const gigacheck::cuda::OpContext& c)
{
    return roundoffModel(inputsOf(c.request).precision, inputsOf(c.request).gemm == GemmVariant::CublasTf32);
}
char* at(const gigacheck::cuda::OpContext& c, int slot, std::int64_t row, std::int64_t col)
{
    return static_cast<char*>(buf(c, slot)) + (std::size_t(row) * std::size_t(ld(c, slot)) + std::size_t(col)) *
                                                  elemSize(inputsOf(c.request).precision);
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
            faults += faultsAfter(in, op.block.k).size();
        }
    }
    state->verifyOut = PinnedBuffer(std::max<std::size_t>(1, checks) * sizeof(VerifyOut));
    state->injectOut = PinnedBuffer(std::max<std::size_t>(1, faults) * 2 * sizeof(double));
    state->voteOut = PinnedBuffer(sizeof(cuda::VoteOut));
    return state;
}

void issueLoad(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(inputsOf(c.request).precision);
    const HostMatrix& src = op.host.matrix == Operand::A ? *inputsOf(c.request).a : *inputsOf(c.request).b;
    CUDA_CHECK(cudaMemcpy2DAsync(buf(c, op.dst), std::size_t(ld(c, op.dst)) * es, src.data(),
                                 std::size_t(src.cols()) * es, std::size_t(op.host.cols) * es,
                                 std::size_t(op.host.rows), cudaMemcpyHostToDevice, s));
}

void issueStore(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::size_t es = elemSize(inputsOf(c.request).precision);
    HostMatrix& dst = *inputsOf(c.request).c;
    CUDA_CHECK(cudaMemcpy2DAsync(dst.data(), std::size_t(dst.cols()) * es, buf(c, op.dst),
                                 std::size_t(ld(c, op.dst)) * es, std::size_t(op.host.cols) * es,
                                 std::size_t(op.host.rows), cudaMemcpyDeviceToHost, s));
}

// r_B and the row norms of B_r for the whole of B, once: every panel product reads its rows.
// (c_A is taken from each A panel by the product's own pass over it.)
void issueEncode(const gigacheck::cuda::OpContext& c, const Operation&, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    // TF32 products: B is rounded to TF32 here, in place, and A panel by panel by the products'
    // pass over it, so the checksums follow the values the tensor cores multiply (abft README).
    const bool roundTf32 = in.gemm == GemmVariant::CublasTf32 && in.precision == Precision::F32;
    gigacheck::cuda::checksumB(in.precision, buf(c, kSlotB), in.shape.n, in.shape.q, ld(c, kSlotB), s, roundTf32);
}

void issuePanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    const Shape& sh = inputsOf(c.request).shape;
    const std::int64_t offset = std::int64_t(op.block.k) * in.panel;
    GemmCall g;
    g.variant = inputsOf(c.request).gemm;
    g.precision = inputsOf(c.request).precision;
    g.m = sh.m;
    g.n = op.depth;
    g.q = sh.q;
    g.a = at(c, kSlotA, 0, offset);
    g.lda = ld(c, kSlotA);
    g.b = at(c, kSlotB, offset, 0);
    g.ldb = ld(c, kSlotB);
    g.c = buf(c, kSlotC);
    g.ldc = ld(c, kSlotC);
    g.accumulate = op.accumulate;
    gigacheck::cuda::productWithChecksums(g, stateOf(c).handle.get(), s, &stateOf(c).lane, auxOf(c),
                                          roundoff(c).uInput > 0);
}

double* injectSlot(const gigacheck::cuda::OpContext& c, int opId)
{
    return stateOf(c).injectOut.as<double>() + 2 * stateOf(c).slotOf[std::size_t(opId)];
}

void issueInject(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    const Shape& sh = inputsOf(c.request).shape;
    std::vector<DeviceInjection> items;
    for (std::size_t i : faultsAfter(in, op.block.k)) {
        const PlannedFault& f = in.faults[i];
        DeviceInjection d;
        d.row = f.at.target == OnlineTarget::ChecksumRow ? sh.m + f.at.row : f.at.row;
        d.col = f.at.target == OnlineTarget::ChecksumCol ? sh.q + f.at.col : f.at.col;
        d.bitFlip = f.model == FaultModel::BitFlip ? 1 : 0;
        d.bit = f.bit;
        d.delta = f.delta;
        items.push_back(d);
    }
    const int slot = in.scheme == Scheme::Tmr ? op.dst : kSlotC;
    if (!items.empty())
        gigacheck::cuda::inject(inputsOf(c.request).precision, buf(c, slot), ld(c, slot), items.data(), int(items.size()),
                                injectSlot(c, op.id), s);
}

VerifyOut* verifySlot(const gigacheck::cuda::OpContext& c, int opId)
{
    return stateOf(c).verifyOut.as<VerifyOut>() + stateOf(c).slotOf[std::size_t(opId)];
}

void issueCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Shape& sh = inputsOf(c.request).shape;
    gigacheck::cuda::verify(gigacheck::cuda::verifyCall(inputsOf(c.request).precision, buf(c, kSlotC), sh.m, sh.q, ld(c, kSlotC),
                                                        op.depth, auxOf(c), roundoff(c), inputsOf(c.request).lambda),
                            verifySlot(c, op.id), s);
}

void issueReplicaProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Shape& sh = inputsOf(c.request).shape;
    GemmCall g;
    g.variant = inputsOf(c.request).gemm == GemmVariant::CublasTf32 ? GemmVariant::CublasTf32 : GemmVariant::Cublas;
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
    gigacheck::cuda::gemm(g, stateOf(c).handle.get(), s);
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
    for (std::size_t i : faultsAfter(in, op.block.k)) {
        PlannedFault& f = in.faults[i];
        f.before = values[2 * n];
        f.after = values[2 * n + 1];
        f.applied = true;
        ++n;
        Injection inj;
        inj.block = BlockIndex{0, 0, op.block.k};
        inj.target = f.at.target == OnlineTarget::ChecksumRow   ? FaultTarget::ChecksumRow
                     : f.at.target == OnlineTarget::ChecksumCol ? FaultTarget::ChecksumCol
                                                                : FaultTarget::Result;
        inj.localRow = f.at.target == OnlineTarget::ChecksumRow ? sh.m + f.at.row : f.at.row;
        inj.localCol = f.at.target == OnlineTarget::ChecksumCol ? sh.q + f.at.col : f.at.col;
        inj.globalRow = f.at.target == OnlineTarget::ChecksumRow ? -1 : f.at.row;
        inj.globalCol = f.at.target == OnlineTarget::ChecksumCol ? -1 : f.at.col;
        inj.model = f.model;
        inj.delta = f.delta;
        inj.bit = f.bit;
        inj.before = f.before;
        inj.after = f.after;
        inj.applied = true;
        out.injections.push_back({op.id, inj, 0});
    }
}

void reportCheck(const gigacheck::cuda::OpContext& c, const Operation& op, Span&, OpOutcome& outcome)
{
    const Shape& sh = inputsOf(c.request).shape;
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = BlockIndex{0, 0, op.block.k};
    ev.rows = sh.m;
    ev.cols = sh.q;
    ev.result = gigacheck::cuda::toVerifyResult(*verifySlot(c, op.id));
    outcome.verification = std::move(ev);
}

void reportVote(const gigacheck::cuda::OpContext& c, const Operation&, Span&, OpOutcome&)
{
    const Shape& sh = inputsOf(c.request).shape;
    const cuda::VoteOut& out = *stateOf(c).voteOut.as<cuda::VoteOut>();
    VoteReport report;
    report.cellsOutvoted = std::int64_t(out.outvoted);
    report.cellsWithoutMajority = std::int64_t(out.withoutMajority);
    for (unsigned i = 0; i < std::min<unsigned>(out.listed, unsigned(cuda::kVoteListed)); ++i)
        report.noMajority.emplace_back(out.cells[i] / sh.q, out.cells[i] % sh.q);
    inputsOf(c.request).vote = std::move(report);
}

}  // namespace

const gigacheck::cuda::OpTable& cudaOps()
{
    static const gigacheck::cuda::OpTable table{
        .makeState = makeState,
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
