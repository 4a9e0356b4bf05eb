#include "gemm/gemm_workspace.hpp"

#include <limits>

namespace gigacheck {

namespace {

constexpr std::size_t kMost = std::numeric_limits<std::size_t>::max();

std::size_t times(std::size_t x, std::size_t y)
{
    std::size_t out = 0;
    return __builtin_mul_overflow(x, y, &out) ? kMost : out;
}

std::size_t plus(std::size_t x, std::size_t y)
{
    std::size_t out = 0;
    return __builtin_add_overflow(x, y, &out) ? kMost : out;
}

std::size_t aligned256(std::size_t bytes) { return bytes > kMost - 255 ? kMost : (bytes + 255) / 256 * 256; }

std::size_t extent(std::int64_t x) { return x > 0 ? std::size_t(x) : 0; }

std::size_t roundedUp(std::size_t x, std::int64_t step) { return (x + std::size_t(step) - 1) / std::size_t(step) * std::size_t(step); }

}  // namespace

std::size_t operandCopyBytes(GemmVariant gemm, Precision precision, std::int64_t m, std::int64_t n, std::int64_t q)
{
    if (precision != Precision::F32)
        return 0;  // FP64 runs cuBLAS DGEMM on the operands themselves
    const std::size_t a = times(extent(m), extent(n)), b = times(extent(n), extent(q));
    switch (gemm) {
    case GemmVariant::CublasBf16:
    case GemmVariant::CublasF16:  // 2 bytes an element (gemm_16bit.cu, copies16For)
        return plus(aligned256(times(a, 2)), times(b, 2));
    case GemmVariant::Tf32x3:  // big and small parts, 4 bytes each (gemm_tf32x3.cu)
        return plus(aligned256(times(a, 8)), aligned256(times(b, 8)));
    default:
        return 0;
    }
}

std::size_t rowSumPartialBytes(GemmVariant gemm, Precision precision, std::int64_t m, std::int64_t q)
{
    const bool writesSums =
        gemm == GemmVariant::CutlassTf32 || gemm == GemmVariant::CublasBf16 || gemm == GemmVariant::CublasF16;
    if (precision != Precision::F32 || !writesSums || m <= 0 || q <= 0)
        return 0;
    const std::size_t tiles = roundedUp(extent(q), kRowSumPartialTileColumnsAtLeast) / kRowSumPartialTileColumnsAtLeast;
    const std::size_t width = roundedUp(extent(m), kRowSumPartialRowRoundingAtMost);
    return times(times(tiles, width), sizeof(float));
}

}  // namespace gigacheck
