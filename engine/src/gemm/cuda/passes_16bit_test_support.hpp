// GPU test support of the checksum passes -- the BF16 / FP16 ones (abft/cuda/checksums_16bit.hpp),
// the protected product on 16-bit operands (protected_product_16bit.hpp) and the passes of many panel
// products at once (panelChecksumIncrements, abft/cuda/abft_device.hpp) -- in plain C++ (no CUDA
// types). Operands are row-major FP32 on the host.
#pragma once

#include "gigacheck/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck::cuda {

// The fused passes (FP32 read once, rounded in registers, 16-bit copies written) against the
// two-step path they replace (checksumB / checksumProducts rounding A and B in place, then
// convertTo16Bit of the rounded operands), on the same A (m x n) and B (n x q).
struct Passes16Comparison {
    bool copiesBitExact = false;     // the 16-bit copies of A and B, byte for byte
    bool operandsUntouched = false;  // the fused passes left the FP32 A and B as they were
    // Largest |fused - two-step| / (|two-step| + scale) over r_B and B's row norms, C's checksum
    // column and row (scale: the largest magnitude of the line), and the bounds rowScale / colScale.
    double checksumDifference = 0, boundDifference = 0;
};
Passes16Comparison compareFusedWithTwoStep(InputFormat format, const std::vector<float>& a, const std::vector<float>& b,
                                           std::int64_t m, std::int64_t n, std::int64_t q);

struct Protected16Result {
    std::string verdict;  // clean | corrected | uncorrectable
    int corrections = 0;
    std::int64_t row = -1, col = -1;  // the first corrected cell
    double corrected = 0;             // its value after the correction
    double clean = 0;                 // the same cell of plain cuBLAS on the same 16-bit operands
    double maxCleanResidualRatio = 0;
    bool checksumColumnByKernel = false;  // the kernel took C's checksum column (bWithChecksumColumns)
    bool checksumsBySideProducts = false;  // both checksums by the products beside the kernel (checksumParts)
    // fusedSums: C's row and column sums as the check left them (Aux) against C after it, summed on
    // the host in double: the largest |left - C's| / (sum of |C| over the line + 1) over the lines
    // without the fault, and on the fault's row and column what the left sum exceeds C's by (the
    // faulted value less the corrected one, as the sums were checked with the fault in them);
    // the fault's cell before and after it was faulted (its pinned beforeAfter).
    double rowSumDifference = 0, colSumDifference = 0;
    double faultRowSumGap = 0, faultColSumGap = 0;
    double faultBefore = 0, faultAfter = 0;
};
// A and B converted to 16 bits on the device, then protectedProductOf16BitOperands with the
// thresholds of roundoffModel(F32, format); a fault adds delta to C[row, col] when row >= 0.
// fusedSums (BF16, FP16): C's sums from the CUTLASS kernel's epilogue (throws BackendError where it
// cannot run). prepared: the operands prepared once before (prepare16BitOperands, as when they
// entered) and the product run twice on them (the second's result returned: nothing of the first may
// leak into it). strike ('a' or 'b', prepared only): after the entry, A's cell (m / 3, n / 2) or B's
// (n / 2, q / 3) in device memory becomes its value + 64 before the second product.
// checksumColumns (prepared, BF16): B's checksum columns made at entry too
// (prepare16BitChecksumColumns), so that the kernel takes C's checksum column where that pays.
// checksumParts (prepared): c_A's and r_B's parts made at entry too (prepare16BitChecksumParts), so
// that the products beside the kernel make both checksums where the kernel leaves SMs idle.
Protected16Result protectedProductOf16BitOnDevice(InputFormat format, const std::vector<float>& a,
                                                  const std::vector<float>& b, std::int64_t m, std::int64_t n,
                                                  std::int64_t q, std::int64_t faultRow = -1, std::int64_t faultCol = -1,
                                                  double delta = 0, bool fusedSums = false, bool prepared = false,
                                                  char strike = 0, bool checksumColumns = false,
                                                  bool checksumParts = false);

// One configuration of the CUTLASS 16-bit kernel (config < cutlass16BitConfigCount()) writing C and
// its sums, on A and B converted to 16 bits: C's largest difference from plain cuBLAS on the same
// operands and the largest difference of its row / column sums from C's own, summed on the host in
// double (each relative to the line's magnitude plus the largest). `refused`: why it did not run.
struct Config16Check {
    std::string refused;
    double cDifference = 0, rowSumDifference = 0, colSumDifference = 0;
};
// cutlass16BitConfigCount(), for tests that include no CUDA header.
int cutlass16BitConfigurations();
Config16Check check16BitConfig(InputFormat format, const std::vector<float>& a, const std::vector<float>& b,
                               std::int64_t m, std::int64_t n, std::int64_t q, int config, bool accumulate);

// panelChecksumIncrements for the n / depth panel products C += A_p B_p of A (m x n) and B (n x q),
// the operands rounded to TF32 in registers, each panel's shares summed up on the host in double,
// against checksumProducts run panel by panel, accumulating, on the same operands (the path a
// product per step takes). n must be a multiple of depth.
struct PanelIncrementsComparison {
    // Largest |summed shares - accumulated| / (|accumulated| + the largest magnitude of its kind),
    // over every panel's C checksum column and row (corner included), and over its rowScale and
    // colScale; largestLine: that largest checksum magnitude (a comparison of zeros proves nothing).
    double lineDifference = 0, boundDifference = 0, largestLine = 0;
    int panels = 0;
};
PanelIncrementsComparison comparePanelIncrements(const std::vector<float>& a, const std::vector<float>& b,
                                                 std::int64_t m, std::int64_t n, std::int64_t q, std::int64_t depth);

}  // namespace gigacheck::cuda
