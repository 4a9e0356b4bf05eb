#include "families/blocked_gemm/plan/buffer_layout.hpp"

#include "core/saturating_bytes.hpp"
#include "gemm/gemm_workspace.hpp"

#include <algorithm>

namespace gigacheck {

namespace {

std::int64_t padded(std::int64_t cols)
{
    return (cols + kLeadingDimensionPad - 1) / kLeadingDimensionPad * kLeadingDimensionPad;
}

// room: extra columns inside the leading dimension that are not part of the block's extent.
BufferSpec spec(const char* name, BufferRole role, std::int64_t rows, std::int64_t cols,
                std::size_t elem, std::int64_t room = 0)
{
    BufferSpec b;
    b.name = name;
    b.role = role;
    b.rows = rows;
    b.cols = cols;
    b.ld = padded(cols + room);
    b.bytes = std::size_t(rows) * std::size_t(b.ld) * elem;
    return b;
}

}  // namespace

BufferCounts bufferCounts(StrategyKind strategy)
{
    switch (strategy) {
    case StrategyKind::None:
    case StrategyKind::S1: return {1, 1, 1};
    case StrategyKind::S2: return {2, 2, 1};
    case StrategyKind::S3: return {2, 2, 2};
    case StrategyKind::S4: return {1, 2, 2};
    }
    return {1, 1, 1};
}

int productStreamsOf(StrategyKind strategy)
{
    return strategy == StrategyKind::None || strategy == StrategyKind::S1 ? 1 : 2;
}

std::size_t GemmWorkspaceParts::bytes() const { return addSaturated(operandCopies, rowSumPartials); }

GemmWorkspaceParts gemmWorkspaceParts(GemmVariant gemm, Precision precision, bool abft, std::int64_t blockM,
                                      std::int64_t blockN, std::int64_t blockQ)
{
    const std::int64_t extra = abft ? 1 : 0;
    GemmWorkspaceParts parts;
    parts.operandCopies = roundedUpSaturated(operandCopyBytes(gemm, precision, blockM + extra, blockN, blockQ + extra), 256);
    parts.rowSumPartials = roundedUpSaturated(rowSumPartialBytes(gemm, precision, blockM + extra, blockQ + extra), 256);
    return parts;
}

std::string workspaceSentence(const std::vector<BufferSpec>& buffers)
{
    int count = 0;
    std::size_t bytes = 0;
    for (const BufferSpec& b : buffers)
        if (b.role == BufferRole::Workspace) {
            ++count;
            bytes = b.bytes;
        }
    if (count == 0)
        return {};
    std::string sentence = " ";
    if (count > 1)
        sentence.append(std::to_string(count)).append(" x ");
    sentence.append(formatBytes(double(bytes)))
        .append(count > 1 ? " of them are the GEMM's workspaces, one per stream of products"
                          : " of them is the GEMM's workspace")
        .append(": what it keeps beside the blocks (their copies in the format it multiplies, partial sums of C's rows).");
    return sentence;
}

BufferSizes bufferSizes(Precision precision, bool abft, std::int64_t blockM, std::int64_t blockN,
                        std::int64_t blockQ, GemmVariant gemm)
{
    const std::size_t elem = elementSize(precision);
    const std::int64_t extra = abft ? 1 : 0;
    BufferSizes s;
    s.a = spec("A", BufferRole::A, blockM + extra, blockN, elem);
    s.b = spec("B", BufferRole::B, blockN, blockQ + extra, elem, kBNormRoom * extra);
    s.c = spec("C", BufferRole::C, blockM + extra, blockQ + extra, elem);
    if (abft)
        s.aux = spec("auxC", BufferRole::Aux, 4, std::max(blockM, blockQ) + 1, sizeof(double));
    // Bytes as one row of elements (a multiple of 256 bytes: whole elements of either precision).
    const std::size_t workspace = gemmWorkspaceParts(gemm, precision, abft, blockM, blockN, blockQ).bytes();
    s.workspace.name = "work";
    s.workspace.role = BufferRole::Workspace;
    s.workspace.rows = workspace > 0 ? 1 : 0;
    s.workspace.cols = s.workspace.ld = std::int64_t(workspace / elem);
    s.workspace.bytes = workspace;
    return s;
}

std::vector<BufferSpec> bufferLayout(StrategyKind strategy, Precision precision, bool abft,
                                     std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ, GemmVariant gemm)
{
    const BufferCounts n = bufferCounts(strategy);
    const BufferSizes s = bufferSizes(precision, abft, blockM, blockN, blockQ, gemm);
    std::vector<BufferSpec> out;
    auto add = [&out](BufferSpec b, int count) {
        const std::string base = b.name;
        for (int i = 0; i < count; ++i) {
            b.name = i == 0 ? base : base + "'";
            out.push_back(b);
        }
    };
    add(s.a, n.a);
    add(s.b, n.b);
    add(s.c, n.c);
    if (abft)
        add(s.aux, n.c);
    if (s.workspace.bytes > 0)
        add(s.workspace, productStreamsOf(strategy));
    return out;
}

}  // namespace gigacheck
