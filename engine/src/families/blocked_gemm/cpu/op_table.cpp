// The blocked GEMM family's CPU op table: each op kind of the family mapped to its function in
// block_ops.cpp, in the right precision. The CPU executor (core/cpu) looks ops up here.
#include "families/blocked_gemm/ops.hpp"

#include "families/blocked_gemm/cpu/block_ops.hpp"

namespace gigacheck::blocked_gemm {

namespace {

// Per run: the family's inputs, the slot memory and the round-off bound accumulators of the Aux slots.
struct State final : cpu::RunState {
    Inputs* inputs = nullptr;
    cpu::Buffers buffers;
};

std::unique_ptr<cpu::RunState> makeState(const cpu::OpContext& context)
{
    auto state = std::make_unique<State>();
    state->inputs = &inputsOf(context.request);
    state->buffers.data = context.buffers;
    state->buffers.bounds.resize(context.buffers.size());
    return state;
}

State& stateOf(cpu::OpContext& context) { return *static_cast<State*>(context.state); }
cpu::Buffers& buffersOf(cpu::OpContext& context) { return stateOf(context).buffers; }
Inputs& in(cpu::OpContext& context) { return *stateOf(context).inputs; }
const Plan& planOf(cpu::OpContext& context) { return stateOf(context).inputs->plan; }

// Calls body with a T of the plan's precision (float or double).
template <class Body> void inPrecision(cpu::OpContext& context, Body&& body)
{
    if (planOf(context).precision == Precision::F32)
        body(float{});
    else
        body(double{});
}

void copyH2D(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        cpu::copyToDevice<T>(op, planOf(c), buffersOf(c), *in(c).a, *in(c).b);
    });
}

void checksum(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) { cpu::checksum<T>(op, planOf(c), buffersOf(c)); });
}

void product(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) { cpu::product<T>(op, planOf(c), buffersOf(c)); });
}

void inject(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    // The fault plan is shared with the caller; only the compute thread touches it.
    inPrecision(c, [&]<class T>(T) {
        out.injections = cpu::inject<T>(op, planOf(c), buffersOf(c), in(c).faults);
    });
}

void verify(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    inPrecision(c, [&]<class T>(T) {
        out.verification = cpu::verify<T>(op, planOf(c), buffersOf(c), in(c).thresholdLambda);
    });
}

void copyD2H(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) { cpu::copyToHost<T>(op, planOf(c), buffersOf(c), *in(c).c); });
}

}  // namespace

const cpu::OpTable& cpuOps()
{
    static const cpu::OpTable table{
        makeState,
        {{OpKind::CopyH2D, copyH2D},
         {OpKind::Checksum, checksum},
         {OpKind::Product, product},
         {OpKind::Inject, inject},
         {OpKind::Verify, verify},
         {OpKind::CopyD2H, copyD2H}},
    };
    return table;
}

}  // namespace gigacheck::blocked_gemm
