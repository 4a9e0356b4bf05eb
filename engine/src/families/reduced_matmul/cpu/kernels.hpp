// The CPU reduced matmuls (the reduced-matmul chapter): A, B n x n row-major, C (n/2) x (n/2), n even.
#pragma once

#include <atomic>
#include <cstdint>

namespace gigacheck::reduced_matmul::cpu {

// The naive loops check `cancel` before each row of C and return early when it is set (a
// cancelled run's C is incomplete; the executor then stops). Seed 4.3.1 on one core: C_ij = sum_k A(2i,k)B(k,2j) + A(2i,k)B(k,2j+1) + A(2i+1,k)B(k,2j) + A(2i+1,k)B(k,2j+1).
template <class T> void naive4p(const T* a, const T* b, T* c, std::int64_t n, const std::atomic<bool>* cancel = nullptr);
// Seed 4.3.2: C_ij = sum_k (A(2i,k) + A(2i+1,k)) (B(k,2j) + B(k,2j+1)).
template <class T> void naiveP(const T* a, const T* b, T* c, std::int64_t n, const std::atomic<bool>* cancel = nullptr);
// Reductions: ar (n/2 x n) = row pairs of A summed; br (n x n/2) = column pairs of B summed.
template <class T> void reduceRowPairs(const T* a, T* ar, std::int64_t n);
template <class T> void reduceColumnPairs(const T* b, T* br, std::int64_t n);
// Reduce, then one OpenBLAS GEMM of the reduced shape; ar and br are scratch of n^2 / 2 each.
template <class T> void reduceBlas(const T* a, const T* b, T* c, T* ar, T* br, std::int64_t n);
// The OpenBLAS GEMM alone: c (n/2 x n/2) = ar br.
template <class T> void blasGemm(const T* ar, const T* br, T* c, std::int64_t n);

}  // namespace gigacheck::reduced_matmul::cpu
