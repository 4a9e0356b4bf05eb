// What the GPU tests of the fused K-major TF32 product (tests/gpu/tst_cuda_fused_kmajor.cpp) run on
// the device, in plain C++ (no CUDA types): the CUTLASS kernel alone on operands as they are, and the
// protected product as protectedProduct runs it (checksumBOf laying B^T out, the passes rounding
// in registers, C's sums from the epilogue, optional fault, verification).
#pragma once

#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck::cuda {

// C = A B (FP32 host matrices) by the CUTLASS TF32 kernel that reads B^T, B^T laid out from B as it
// is (no rounding by the engine). Throws BackendError where the kernel cannot run (no sm_90a kernels,
// n or q not a multiple of 4).
void fusedKMajorGemmOnDevice(const HostMatrix& a, const HostMatrix& b, HostMatrix& c);

// C = C0 + A B by each configuration of the CUTLASS TF32 kernel that runs B^T
// (cutlassTf32ConfigCount), with the epilogue's row and column sums of the C it writes. `error` says
// why a configuration did not run (then its C and sums are empty).
struct CutlassConfigRun {
    std::string name, error;
    HostMatrix c;
    std::vector<double> rowSums, colSums;
};
std::vector<CutlassConfigRun> everyKMajorConfigAccumulatingOnDevice(const HostMatrix& a, const HostMatrix& b,
                                                                    const HostMatrix& c0);

struct FusedFault {
    std::int64_t row = -1, col = -1;  // a cell of C's main part; none when row < 0
    double delta = 0;                 // added to the cell, unless
    int bit = -1;                     // >= 0: this bit of the FP32 cell flipped instead
};

struct FusedProtectedRun {
    bool fusedSums = false;  // the CUTLASS kernel ran and its epilogue wrote C's sums (writesSumsOfC)
    bool roundedInRegisters = false;  // the passes took the operands rounded (operandModel)
    std::string verdict;     // clean | corrected | uncorrectable
    int corrections = 0;
    double before = 0, after = 0;      // of the first correction
    std::int64_t row = -1, col = -1;  // the first corrected cell
    double maxCleanResidualRatio = 0, maxThreshold = 0;
    bool aUnchanged = false, bUnchanged = false;  // A and B's main part byte-equal after the product
    HostMatrix c;                                 // C's main part after the verification (m x q)
    bool checksumColumnByKernel = false;          // prepared products: the kernel wrote C's checksum column
};
// One protected fused product (cutlass-tf32, FP32, B^T scratch set) of host matrices in the plan's
// layout, with the TF32 round-off model.
FusedProtectedRun fusedProtectedProductOnDevice(const HostMatrix& a, const HostMatrix& b, const FusedFault& fault = {});

// A cell of an operand changed in device memory after its checksums were taken at entry.
struct OperandFault {
    char operand = 0;                 // 'a', 'b' (B's cell (row k, col j), changed in the B^T the kernel reads); 0: none
    std::int64_t row = 0, col = 0;
    double delta = 0;
};
// The same product on operands prepared at entry (protectedProductPrepared): prepareOperands, then
// the optional operand fault, then the product with the optional fault of C, its pass on a side
// stream in the GEMM's last round (protectedProductPrepared's tail).
// sumsByPass: the kernel writes only C and the check sums C in a pass (SumsOfC::ByPass).
// column: who takes C's checksum column A r_B (protectedProductPrepared's ChecksumColumnBy): the
// product's choice, the pass over A, or the kernel (BackendError where it cannot: C's width not a
// multiple of 128).
enum class PreparedColumn { Choice, ByPass, ByKernel };
FusedProtectedRun preparedProtectedProductOnDevice(const HostMatrix& a, const HostMatrix& b, const FusedFault& fault = {},
                                                   const OperandFault& operandFault = {}, bool sumsByPass = false,
                                                   PreparedColumn column = PreparedColumn::Choice);

}  // namespace gigacheck::cuda
