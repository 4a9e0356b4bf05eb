// The CPU transposes (the transpose paper's sections 1-2). Templates over the element type (int32 / float32)
// and a swap counter: production code passes NoCount, the tests count the swaps each loop nest
// really performs and compare them with the seed's (n^2 - n) / 2.
#pragma once

#include <cstdint>

namespace gigacheck::transpose::cpu {

struct NoCount {
    void swap() {}
};
struct SwapCount {
    std::int64_t swaps = 0;
    void swap() { ++swaps; }
};

// Seed Algorithm 1: for i, for j > i, swap X(i,j) with X(j,i). Square n x n, in place.
template <class T, class Counter = NoCount> void naiveInPlace(T* x, std::int64_t n, Counter& counter);
template <class T> void naiveInPlace(T* x, std::int64_t n)
{
    NoCount c;
    naiveInPlace(x, n, c);
}

// Seed Algorithm 2: the diagonal blocks first (swaps inside one block), then every pair of
// symmetric off-diagonal blocks, row by row. Block 16 (a 64-byte line of int32 / float32). Any n:
// the last block row / column is shorter when block does not divide n.
inline constexpr std::int64_t kSeedBlock = 16;
template <class T, class Counter = NoCount>
void blockedInPlace(T* x, std::int64_t n, std::int64_t block, Counter& counter);
template <class T> void blockedInPlace(T* x, std::int64_t n, std::int64_t block = kSeedBlock)
{
    NoCount c;
    blockedInPlace(x, n, block, c);
}

// y (n x m) = transpose of x (m x n), 16 x 16 cache blocks so that both sides stay in L1.
template <class T> void outOfPlace(const T* x, T* y, std::int64_t m, std::int64_t n);

// In place for any m x n, no second matrix: with g = gcd(m, n) the matrix is an (m/g) x (n/g)
// grid of g x g tiles; (1) each tile is transposed in place (blocked swaps), (2) the g-element
// row segments are permuted to their places in the n x m result by following the permutation's
// cycles, one g-element buffer carried along, a visited bitset marking the segments done.
// Square: step 2 is the identity. gcd 1: element-wise cycle following.
template <class T> void inPlaceAnyShape(T* x, std::int64_t m, std::int64_t n);

// In place for any m x n by the C2R decomposition (decomposition.hpp, Catanzaro, Keller, Garland,
// PPoPP 2014): a column rotation (when gcd(m, n) > 1), a row shuffle, a column shuffle, each
// through one column or one row of scratch (max(m, n) elements). c2rInPlace runs the passes on the
// m x n grid, r2cInPlace the inverse passes of C2R(n, m) on the n x m grid; both are correct for
// every shape, decompositionInPlace picks the one whose columns are the shorter (m <= n: C2R), as
// the CUDA kernels do (cuda/decomposition.cu): the CPU reference, the same index functions.
template <class T> void c2rInPlace(T* x, std::int64_t m, std::int64_t n);
template <class T> void r2cInPlace(T* x, std::int64_t m, std::int64_t n);
template <class T> void decompositionInPlace(T* x, std::int64_t m, std::int64_t n);

// In place in two passes where one side is 2 or 4 times the other (ratio_decomposition.hpp: a row
// pass through one row of scratch and the square transpose of k-element vectors); other shapes go
// to decompositionInPlace. rectangularInPlace picks the ratio decomposition where it applies, else
// C2R, as the CUDA kernels do: the CPU backend's rectangular `inplace`.
template <class T> void ratioInPlace(T* x, std::int64_t m, std::int64_t n);
template <class T> void rectangularInPlace(T* x, std::int64_t m, std::int64_t n);

// Where segment s (g elements) of the tile-transposed m x n matrix belongs in the n x m result
// (shared with the CUDA kernel's host-side cycle search).
struct SegmentPermutation {
    std::int64_t g = 1, a = 1, b = 1;  // g = gcd(m, n), a = m / g, b = n / g
    SegmentPermutation(std::int64_t m, std::int64_t n);
    std::int64_t count() const { return a * b * g; }
    std::int64_t destination(std::int64_t s) const
    {
        const std::int64_t j = s % b, t = s / b, r = t % g, i = t / g;
        return (j * g + r) * a + i;
    }
};

}  // namespace gigacheck::transpose::cpu
