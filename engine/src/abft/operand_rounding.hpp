// How the checksum passes take an FP32 operand that the product multiplies in a narrower format, one
// definition for the host (tests, the choice of model) and the CUDA passes (abft/cuda/).
//
// The checksums must be taken over exactly the values the product multiplies (gigacheck/tf32.hpp).
// Two ways to get there:
//   rounded in place        the pass that reads an operand for its checksum rounds it to nearest in the
//                           input format and writes it back, so that any kernel then multiplies the
//                           stored values (cuBLAS TF32 / BF16 / FP16: which rounding the library
//                           applies, and which kernel it picks, is not ours to know);
//   rounded in registers    the pass rounds the operand to TF32 (nearest, ties away: roundToTf32) as it
//                           loads it and never writes it: the CUTLASS sm_90a kernel of the lab is ours,
//                           and it multiplies each FP32 operand rounded so (measured on an H200 by
//                           tst_cuda_fused_kmajor: C within 0.07-0.38 of the FP32 accumulation bound
//                           of that model, 3-3000 of it for truncation). The operands in memory stay
//                           as the caller wrote them, and the rounding writes are saved.
#pragma once

#include "gigacheck/input_rounding.hpp"
#include "gigacheck/types.hpp"

namespace gigacheck {

struct OperandRounding {
    InputFormat format = InputFormat::F32;  // what the product multiplies (F32: the operand as stored)
    bool roundedInRegisters = false;        // TF32 only: rounded in registers, memory never written

    GIGACHECK_TF32_HD constexpr OperandRounding(InputFormat f = InputFormat::F32, bool inRegisters = false)  // NOLINT: from InputFormat
        : format(f), roundedInRegisters(inRegisters && f == InputFormat::Tf32)
    {
    }
    GIGACHECK_TF32_HD constexpr bool rounds() const { return format != InputFormat::F32; }
    // The pass writes the operand back rounded (the in-place model).
    GIGACHECK_TF32_HD constexpr bool writesBack() const { return rounds() && !roundedInRegisters; }
};

// TF32 rounding in registers: what the fused CUTLASS kernel multiplies, the operands left as stored.
constexpr OperandRounding kTf32InRegisters{InputFormat::Tf32, true};

// The value the product multiplies for an operand x as stored.
GIGACHECK_TF32_HD inline float asMultiplied(float x, OperandRounding r)
{
    return roundToInput(x, r.format);  // in registers or in place: the same values
}

// The model for a product of the given input format (inputFormatOf the variant; F32 for FP64 data)
// whose kernel is, or is not, one that rounds to TF32 itself as the model does (the fused CUTLASS
// kernel reading B^T): rounding in registers only for TF32 on such a kernel, in place otherwise.
constexpr OperandRounding operandRoundingFor(InputFormat format, bool kernelRoundsToTf32)
{
    return OperandRounding{format, kernelRoundsToTf32 && format == InputFormat::Tf32};
}

}  // namespace gigacheck
