// The seed's Strassen primitive M = A_j B_k; C_l += M; C_m -= M ... as one kernel: the product is
// computed once in registers and added into every target with its sign (section 3.3.2), so a
// product with several targets costs one GEMM and no workspace. Targets of one launch are distinct
// blocks. Products sharing a C block are ordered by the schedule's dependencies (plain
// read-modify-write); the seed let them run at once with atomic adds instead, which the Atomic
// epilogue reproduces for `bench strassen`'s comparison (cuda/shared_target_products.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::strassen::device {

inline constexpr int kMaxTargets = 16;  // 2^4 at 4 levels of msmes

template <class T> struct Targets {
    int count = 0;
    T* c[kMaxTargets] = {};
    std::int64_t ldc[kMaxTargets] = {};
    T sign[kMaxTargets] = {};
};

// How the accumulators reach a target: load, add, store (only one product may write a block at a
// time), or atomicAdd (products sharing a block may run at once; the sums' order is then the
// hardware's, so results may differ in the last bits between runs).
enum class Epilogue { ReadModifyWrite, Atomic };

// Row-major: every target (m x q) += sign * A (m x n, lda) * B (n x q, ldb).
template <class T>
void launchMultiTargetGemm(std::int64_t m, std::int64_t n, std::int64_t q, const T* a, std::int64_t lda, const T* b,
                           std::int64_t ldb, const Targets<T>& targets, cudaStream_t s,
                           Epilogue epilogue = Epilogue::ReadModifyWrite);

// Loads the kernel's instantiations on the current device (lazy module loading), untimed.
void loadMultiTargetKernels();

}  // namespace gigacheck::strassen::device
