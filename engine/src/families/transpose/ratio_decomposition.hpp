// Rectangular in place in two passes where one side is 2 or 4 times the other ("ratio
// decomposition"), one definition for the CPU (cpu/ratio_decomposition.cpp, the tests' reference)
// and the GPU (cuda/ratio_decomposition.cu).
//
// A tall m x n matrix with m = k·n is, in memory, n rows of k·n elements: row a holds the original
// rows k·a … k·a + k − 1, one after the other. Two passes transpose it:
//
//   1. row pass: inside every such row, the k x n block is transposed to n x k (the element of
//      original row k·a + r, column c moves from r·n + c to c·k + r): the row now reads, column by
//      column, k-element vectors (X(k·a + r, c))_r;
//   2. square pass: the n x n matrix of those k-element vectors is transposed in place (the
//      square tile-pair kernel with a k·4-byte element): vector (a, c) moves to (c, a), i.e. to
//      memory c·k·n + k·a + r, which is where X(k·a + r, c) belongs in the n x m result.
//
// A wide m x n with n = k·m runs the same two passes backwards: the m x m matrix of k-element
// vectors (X(r, k·x + c))_c transposed first, then every row of k·m elements transposed from
// m x k to k x m. Each pass reads and writes the matrix once, so the decomposition moves it twice
// (C2R: three times where gcd(m, n) > 1), and the row pass keeps one row (k·min(m, n) elements) in
// shared memory. k is 2 or 4 so that a vector is an 8- or 16-byte element the square kernel moves
// whole; other ratios take C2R.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define GIGACHECK_RATIO_HD __host__ __device__
#else
#define GIGACHECK_RATIO_HD
#endif

namespace gigacheck::transpose::ratio {

struct Shape {
    std::int64_t k = 0;     // max(m, n) / min(m, n); 0: the ratio decomposition does not apply
    std::int64_t side = 0;  // min(m, n): the square pass is side x side vectors of k elements
    bool tall = false;      // m = k·n: row pass first; wide (n = k·m): square pass first
    bool applies() const { return k != 0; }
    // Each row pass row: `rows` rows of k·side elements.
    std::int64_t rowLength() const { return k * side; }
};

inline Shape shapeOf(std::int64_t m, std::int64_t n)
{
    Shape s;
    if (m <= 0 || n <= 0 || m == n)
        return s;
    const std::int64_t lo = m < n ? m : n, hi = m < n ? n : m;
    if (hi % lo != 0 || (hi / lo != 2 && hi / lo != 4))
        return s;
    s.k = hi / lo;
    s.side = lo;
    s.tall = m > n;
    return s;
}

// The row pass's permutation of one row of k·side elements, as a gather into position p (tall:
// row p takes line[sourceInRow(p)]) or, run the other way, a scatter (wide: element p goes to
// sourceInRow(p)). Position p = c·k + r of the transposed k x side block holds element r·side + c.
GIGACHECK_RATIO_HD inline std::int64_t sourceInRow(std::int64_t p, std::int64_t k, std::int64_t side)
{
    return (p % k) * side + p / k;
}

}  // namespace gigacheck::transpose::ratio
