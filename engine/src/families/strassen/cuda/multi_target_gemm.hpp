// The seed's Strassen primitive M = A_j B_k; C_l += M; C_m -= M ... as one kernel: the product is
// computed once in registers and added into every target with its sign (section 3.3.2), so a
// product with several targets costs one GEMM and no workspace. Targets of one launch are distinct
// blocks and products sharing a C block are ordered by the schedule's dependencies (plain
// read-modify-write, no atomics: see the family README for why atomics were not measured).
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

// Row-major: every target (m x q) += sign * A (m x n, lda) * B (n x q, ldb).
template <class T>
void launchMultiTargetGemm(std::int64_t m, std::int64_t n, std::int64_t q, const T* a, std::int64_t lda, const T* b,
                           std::int64_t ldb, const Targets<T>& targets, cudaStream_t s);

// Loads the kernel's instantiations on the current device (lazy module loading), untimed.
void loadMultiTargetKernels();

}  // namespace gigacheck::strassen::device
