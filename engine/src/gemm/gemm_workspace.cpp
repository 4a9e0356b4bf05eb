#include "gemm/gemm_workspace.hpp"

#include "core/saturating_bytes.hpp"

namespace gigacheck {

namespace {

std::size_t extent(std::int64_t x) { return x > 0 ? std::size_t(x) : 0; }

}  // namespace

std::size_t operandCopyBytes(GemmVariant gemm, Precision precision, std::int64_t m, std::int64_t n, std::int64_t q)
{
    if (precision != Precision::F32)
        return 0;  // FP64 runs cuBLAS DGEMM on the operands themselves
    const std::size_t a = mulSaturated(extent(m), extent(n)), b = mulSaturated(extent(n), extent(q));
    switch (gemm) {
    case GemmVariant::CublasBf16:
    case GemmVariant::CublasF16:  // 2 bytes an element (gemm_16bit.cu, copies16For)
        return addSaturated(roundedUpSaturated(mulSaturated(a, 2), 256), mulSaturated(b, 2));
    case GemmVariant::Tf32x3:  // big and small parts, 4 bytes each (gemm_tf32x3.cu)
        return addSaturated(roundedUpSaturated(mulSaturated(a, 8), 256), roundedUpSaturated(mulSaturated(b, 8), 256));
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
    const std::size_t tiles = roundedUpSaturated(extent(q), kRowSumPartialTileColumnsAtLeast) / kRowSumPartialTileColumnsAtLeast;
    const std::size_t width = roundedUpSaturated(extent(m), kRowSumPartialRowRoundingAtMost);
    return mulSaturated(mulSaturated(tiles, width), sizeof(float));
}

}  // namespace gigacheck
