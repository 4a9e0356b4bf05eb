// The reduced matmul family as the executors see it: its op kinds (copy A and B in, reduce the
// pairs, the library GEMM of the reduced shape, clear what the variant writes, a hand-written
// kernel, copy C out), their names,
// its inputs and the tables of their CPU and CUDA implementations (README.md "Adding a family").
#pragma once

#include "core/op_table.hpp"
#include "gigacheck/reduced_matmul.hpp"

namespace gigacheck::reduced_matmul {

// Its OpKind range: family number 61 (the kernel gallery: transpose 60, reduced matmul 61; 40 is tst_op_table's toy family).
inline constexpr std::uint16_t kFamilyNumber = 61;
inline constexpr OpKind kCopyIn = OpKind(kFamilyNumber * kOpKindsPerFamily + 0);
inline constexpr OpKind kReduce = OpKind(kFamilyNumber * kOpKindsPerFamily + 1);  // A -> Ar, B -> Br
inline constexpr OpKind kGemm = OpKind(kFamilyNumber * kOpKindsPerFamily + 2);    // C = Ar Br (OpenBLAS / cuBLAS)
inline constexpr OpKind kKernel = OpKind(kFamilyNumber * kOpKindsPerFamily + 3);  // C from A, B (naive / tiled)
inline constexpr OpKind kCopyOut = OpKind(kFamilyNumber * kOpKindsPerFamily + 4);
// Fills its written operands with NaN (all bits set) between the reference and the variant: the
// reference GEMM leaves a correct C (and Ar, Br) behind, which would hide an element the variant
// never writes.
inline constexpr OpKind kClear = OpKind(kFamilyNumber * kOpKindsPerFamily + 5);

// Operation::block of the product ops: i = 1 for the variant's own calls, 0 for the library
// reference; k = the repetition (0: the warm-up).
inline constexpr int kReferenceCall = 0;
inline constexpr int kVariantCall = 1;
inline constexpr int kClearCall = 2;  // the clear op's block.i

// Test hook: GIGACHECK_REDUCED_TEST_SKIP names op kinds ("reduced-kernel", "reduced-reduce",
// "reduced-gemm", comma-separated) whose variant calls (block.i == kVariantCall) do nothing, so
// that the tests can show a variant that writes nothing fails verification.
bool skippedForTest(const Operation& op);

struct Inputs : FamilyInputs {
    Variant variant = Variant::ReduceBlas;
    Precision precision = Precision::F32;
    std::int64_t n = 0;
    const void* a = nullptr;  // n x n, float or double
    const void* b = nullptr;
    void* c = nullptr;        // n/2 x n/2
};

std::span<const OpKindName> opKindNames();
const gigacheck::cpu::OpTable& cpuOps();    // cpu/op_table.cpp
const gigacheck::cuda::OpTable& cudaOps();  // cuda/op_table.cpp (CUDA builds only)
const FamilyOps& family();       // ops.cpp

}  // namespace gigacheck::reduced_matmul
