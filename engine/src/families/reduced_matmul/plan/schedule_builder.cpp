#include "families/reduced_matmul/plan/schedule_builder.hpp"

#include "families/reduced_matmul/ops.hpp"

namespace gigacheck::reduced_matmul {

namespace {
Operation op(Schedule& s, OpKind kind, Queue queue, std::vector<OperandRegion> operands)
{
    Operation o;
    o.id = int(s.ops.size());
    o.kind = kind;
    o.queue = queue;
    o.operands = std::move(operands);
    if (o.id > 0)
        o.deps = {o.id - 1};  // one chain: each call is timed alone
    return o;
}
}  // namespace

Schedule buildSchedule(Variant variant, Precision precision, std::int64_t n, int calls)
{
    const std::size_t e = elementSize(precision);
    const std::int64_t h = n / 2;
    const std::size_t full = std::size_t(n * n) * e, half = full / 2, quarter = full / 4;
    const double N = double(n), H = double(h);
    Schedule s;
    s.family = std::string(kFamilyName);
    s.buffers = {{"A", BufferRole::Other, n, n, n, full, 0},        {"B", BufferRole::Other, n, n, n, full, 0},
                 {"C", BufferRole::Other, h, h, h, quarter, 0},     {"Ar (row pairs of A)", BufferRole::Other, h, n, n, half, 0},
                 {"Br (column pairs of B)", BufferRole::Other, n, h, h, half, 0}};
    for (const BufferSpec& b : s.buffers)
        s.capBytes += b.bytes;
    calls = std::max(calls, 1);

    Operation in = op(s, kCopyIn, Queue::H2D, {{kSlotA, Access::Write}, {kSlotB, Access::Write}});
    in.bytes = double(2 * full);
    s.ops.push_back(in);
    auto reduce = [&](int who, int k) {
        Operation r = op(s, kReduce, Queue::Compute,
                         {{kSlotA, Access::Read}, {kSlotB, Access::Read}, {kSlotAr, Access::Write}, {kSlotBr, Access::Write}});
        r.block = {who, 0, k};
        r.flops = 2 * H * N;                   // one addition per reduced element
        r.bytes = double(2 * full + 2 * half);  // read A and B, write Ar and Br
        s.ops.push_back(r);
    };
    auto gemm = [&](int who, int k) {
        Operation g = op(s, kGemm, Queue::Compute, {{kSlotAr, Access::Read}, {kSlotBr, Access::Read}, {kSlotC, Access::Write}});
        g.block = {who, 0, k};
        g.rows = h;
        g.cols = h;
        g.depth = n;
        g.flops = 2 * H * H * N;
        g.bytes = double(2 * half + quarter);
        s.ops.push_back(g);
    };
    reduce(kReferenceCall, 0);
    for (int k = 0; k < calls; ++k)
        gemm(kReferenceCall, k);
    // The reference left a correct C (and Ar, Br) in the slots the variant writes: NaN them, so an
    // element the variant never writes fails the check instead of passing on the reference's value.
    const bool reduces = variant == Variant::ReduceBlas;
    std::vector<OperandRegion> cleared{{kSlotC, Access::Write}};
    if (reduces)
        cleared.insert(cleared.end(), {{kSlotAr, Access::Write}, {kSlotBr, Access::Write}});
    Operation clear = op(s, kClear, Queue::Compute, cleared);
    clear.block = {kClearCall, 0, 0};
    clear.bytes = double(quarter + (reduces ? 2 * half : 0));  // written once
    s.ops.push_back(clear);
    for (int k = 0; k < calls; ++k) {
        if (reduces) {
            reduce(kVariantCall, k);
            gemm(kVariantCall, k);
        } else {
            Operation kernel = op(s, kKernel, Queue::Compute, {{kSlotA, Access::Read}, {kSlotB, Access::Read}, {kSlotC, Access::Write}});
            kernel.block = {kVariantCall, 0, k};
            kernel.rows = h;
            kernel.cols = h;
            kernel.depth = n;
            kernel.flops = 2 * H * H * N;
            kernel.bytes = countsOf(variant, n, precision).loadBytesRequested + double(quarter);
            s.ops.push_back(kernel);
        }
    }
    Operation out = op(s, kCopyOut, Queue::D2H, {{kSlotC, Access::Read}});
    out.bytes = double(quarter);
    s.ops.push_back(out);
    return s;
}

}  // namespace gigacheck::reduced_matmul
