#include "families/transpose/plan/schedule_builder.hpp"

#include "families/transpose/ops.hpp"

namespace gigacheck::transpose {

Schedule buildSchedule(Variant variant, ElementType type, std::int64_t m, std::int64_t n, int calls)
{
    const std::size_t bytes = std::size_t(m * n) * elementBytes(type);
    const bool inPlaceKernel = inPlace(variant);
    if (calls < 1)
        calls = 1;
    if (inPlaceKernel && calls % 2 == 0)
        ++calls;
    Schedule s;
    s.family = std::string(kFamilyName);
    s.buffers.push_back({"X", BufferRole::Other, m, n, n, bytes, 0});
    if (!inPlaceKernel)
        s.buffers.push_back({"Y = X^T", BufferRole::Other, n, m, m, bytes, 0});
    for (const BufferSpec& b : s.buffers)
        s.capBytes += b.bytes;
    const int result = inPlaceKernel ? 0 : 1;
    const double moved = 2.0 * double(bytes);  // each element read once and written once

    Operation in;
    in.id = 0;
    in.kind = kCopyIn;
    in.queue = Queue::H2D;
    in.operands = {{0, Access::Write}};
    in.rows = m;
    in.cols = n;
    in.bytes = double(bytes);
    s.ops.push_back(in);
    for (int c = 0; c < calls; ++c) {
        Operation t;
        t.id = int(s.ops.size());
        t.kind = kTranspose;
        t.queue = Queue::Compute;
        t.block = {0, 0, c};  // k: the repetition (0: the warm-up)
        const bool forward = !inPlaceKernel || c % 2 == 0;
        t.rows = forward ? m : n;
        t.cols = forward ? n : m;
        if (inPlaceKernel)
            t.operands = {{0, Access::ReadWrite}};
        else
            t.operands = {{0, Access::Read}, {1, Access::Write}};
        t.deps = {t.id - 1};
        t.bytes = moved;
        s.ops.push_back(t);
    }
    Operation out;
    out.id = int(s.ops.size());
    out.kind = kCopyOut;
    out.queue = Queue::D2H;
    out.operands = {{result, Access::Read}};
    out.rows = n;
    out.cols = m;
    out.deps = {out.id - 1};
    out.bytes = double(bytes);
    s.ops.push_back(out);
    return s;
}

}  // namespace gigacheck::transpose
