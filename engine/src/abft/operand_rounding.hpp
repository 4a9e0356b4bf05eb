// How the checksum passes take an FP32 operand that the product multiplies in a narrower format, one
// definition for the host (tests, the choice of model) and the CUDA passes (abft/cuda/).
//
// The checksums must be taken over exactly the values the product multiplies (gigacheck/tf32.hpp).
// Two ways to get there:
//   rounded in place        the pass that reads an operand for its checksum rounds it to nearest in the
//                           input format and writes it back, so that any kernel then multiplies the
//                           stored values (cuBLAS TF32 / BF16 / FP16: which rounding the library
//                           applies, and which kernel it picks, is not ours to know);
//   truncated in registers  the pass truncates the operand to TF32 as it loads it and never writes it:
//                           the CUTLASS sm_90a kernel reads its operands from shared memory straight
//                           into the tensor cores, which use a register's upper 19 bits, i.e. multiply
//                           the truncated value (gemm/cutlass/cutlass_tf32_gemm.hpp). The operands in
//                           memory stay as the caller wrote them, and the rounding writes are saved.
#pragma once

#include "gigacheck/input_rounding.hpp"
#include "gigacheck/types.hpp"

namespace gigacheck {

struct OperandRounding {
    InputFormat format = InputFormat::F32;  // what the product multiplies (F32: the operand as stored)
    bool truncatedInRegisters = false;      // TF32 only: truncation taken in registers, memory never written

    GIGACHECK_TF32_HD constexpr OperandRounding(InputFormat f = InputFormat::F32, bool truncated = false)  // NOLINT: from InputFormat
        : format(f), truncatedInRegisters(truncated && f == InputFormat::Tf32)
    {
    }
    GIGACHECK_TF32_HD constexpr bool rounds() const { return format != InputFormat::F32; }
    // The pass writes the operand back rounded (the in-place model).
    GIGACHECK_TF32_HD constexpr bool writesBack() const { return rounds() && !truncatedInRegisters; }
};

// TF32 truncation in registers: what a kernel that reads only the upper 19 bits multiplies.
constexpr OperandRounding kTruncatedTf32{InputFormat::Tf32, true};

// The value the product multiplies for an operand x as stored.
GIGACHECK_TF32_HD inline float asMultiplied(float x, OperandRounding r)
{
    return r.truncatedInRegisters ? truncateToTf32(x) : roundToInput(x, r.format);
}

// The model for a product of the given input format (inputFormatOf the variant; F32 for FP64 data)
// whose kernel is, or is not, one that truncates to TF32 itself (the fused CUTLASS kernel reading
// B^T): truncation in registers only for TF32 on such a kernel, rounding in place otherwise.
constexpr OperandRounding operandRoundingFor(InputFormat format, bool kernelTruncatesToTf32)
{
    return OperandRounding{format, kernelTruncatesToTf32 && format == InputFormat::Tf32};
}

}  // namespace gigacheck
