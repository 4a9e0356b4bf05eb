// The blocked GEMM family's CPU op table: each op kind of the family mapped to its function in
// block_ops.cpp, in the right precision. The CPU executor (core/cpu) looks ops up here.
#include "families/blocked_gemm/ops.hpp"

#include "families/blocked_gemm/cpu/block_ops.hpp"
#include "gigacheck/tf32x3.hpp"

namespace gigacheck::blocked_gemm {

namespace {

// Per run: the family's inputs, the slot memory and the round-off bound accumulators of the Aux slots.
struct State final : cpu::RunState {
    Inputs* inputs = nullptr;
    // The inputs' plan with the schedule's buffers: over several devices each has a copy of the
    // plan's, and the ops index them by schedule slot.
    Plan plan;
    cpu::Buffers buffers;
};

std::unique_ptr<cpu::RunState> makeState(const cpu::OpContext& context)
{
    auto state = std::make_unique<State>();
    state->inputs = &inputsOf(context.request);
    state->plan = state->inputs->plan;
    state->plan.buffers = context.schedule.buffers;
    state->buffers.data = context.buffers;
    state->buffers.bounds.resize(context.buffers.size());
    return state;
}

State& stateOf(cpu::OpContext& context) { return *static_cast<State*>(context.state); }
cpu::Buffers& buffersOf(cpu::OpContext& context) { return stateOf(context).buffers; }
Inputs& in(cpu::OpContext& context) { return *stateOf(context).inputs; }
const Plan& planOf(cpu::OpContext& context) { return stateOf(context).plan; }

// Calls body with a T of the plan's precision (float or double).
template <class Body> void inPrecision(cpu::OpContext& context, Body&& body)
{
    if (planOf(context).precision == Precision::F32)
        body(float{});
    else
        body(double{});
}

// `--gemm cublas-tf32 / -bf16 / -f16` on the CPU: the tensor cores emulated (operands rounded to
// TF32 / BF16 / FP16, FP32 products); F32 for every other product (tf32x3: split in product()).
InputFormat emulatedInput(cpu::OpContext& c)
{
    return planOf(c).precision == Precision::F32 ? inputFormatOf(in(c).gemm) : InputFormat::F32;
}

void copyH2D(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        cpu::copyToDevice<T>(op, planOf(c), buffersOf(c), *in(c).a, *in(c).b);
    });
}

void checksum(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    inPrecision(c, [&]<class T>(T) {
        // The copy as it arrived, before TF32 rounding and encoding: against its entry checksums.
        if (in(c).entry && in(c).operandLog)
            cpu::checkOperandCopy<T>(op, planOf(c), buffersOf(c), *in(c).entry, *in(c).operandLog,
                                     in(c).thresholdLambda);
        cpu::checksum<T>(op, planOf(c), buffersOf(c), emulatedInput(c));
        out.injections = cpu::injectEncoding<T>(op, planOf(c), buffersOf(c), in(c).faults);
    });
}

void product(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        cpu::product<T>(op, planOf(c), buffersOf(c), emulatedInput(c), in(c).gemm == GemmVariant::Tf32x3);
    });
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
        out.verification = cpu::verify<T>(op, planOf(c), buffersOf(c), in(c).thresholdLambda,
                                          roundoffModelOf(planOf(c).precision, in(c).gemm), in(c).faults,
                                          out.injections);
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
