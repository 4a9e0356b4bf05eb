// The transpose family as the executors see it: its op kinds (copy the matrix in, transpose it,
// copy the result out), their names, its inputs and the tables of their CPU and CUDA
// implementations (README.md "Adding a family").
#pragma once

#include "core/op_table.hpp"
#include "gigacheck/transpose.hpp"

namespace gigacheck::transpose {

// Its OpKind range: family number 60 (the kernel gallery: transpose 60, reduced matmul 61; 40 is tst_op_table's toy family).
inline constexpr std::uint16_t kFamilyNumber = 60;
inline constexpr OpKind kCopyIn = OpKind(kFamilyNumber * kOpKindsPerFamily + 0);
inline constexpr OpKind kTranspose = OpKind(kFamilyNumber * kOpKindsPerFamily + 1);
inline constexpr OpKind kCopyOut = OpKind(kFamilyNumber * kOpKindsPerFamily + 2);

// What the ops work on: the host matrix (m x n in, n x m out, 32-bit elements) and the kernel.
// Each kTranspose op transposes the buffer's current orientation, op.rows x op.cols.
struct Inputs : FamilyInputs {
    Variant variant = Variant::InPlace;
    ElementType type = ElementType::F32;
    std::int64_t m = 0, n = 0;
    std::uint32_t* host = nullptr;
};

std::span<const OpKindName> opKindNames();
const gigacheck::cpu::OpTable& cpuOps();    // cpu/op_table.cpp
const gigacheck::cuda::OpTable& cudaOps();  // cuda/op_table.cpp (CUDA builds only)
const FamilyOps& family();       // ops.cpp

}  // namespace gigacheck::transpose
