#include "families/transpose/cpu/kernels.hpp"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace gigacheck::transpose::cpu {

template <class T, class Counter> void naiveInPlace(T* x, std::int64_t n, Counter& counter)
{
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = i + 1; j < n; ++j) {
            std::swap(x[i * n + j], x[j * n + i]);
            counter.swap();
        }
}

namespace {

// Swaps inside the square block at (d, d) of side s of an ld-strided matrix.
template <class T, class Counter> void transposeDiagonalBlock(T* x, std::int64_t ld, std::int64_t d, std::int64_t s, Counter& counter)
{
    for (std::int64_t i = 0; i < s; ++i)
        for (std::int64_t j = i + 1; j < s; ++j) {
            std::swap(x[(d + i) * ld + d + j], x[(d + j) * ld + d + i]);
            counter.swap();
        }
}

// Swaps the rows x cols block at (r, c) with its mirror at (c, r).
template <class T, class Counter>
void swapMirrorBlocks(T* x, std::int64_t ld, std::int64_t r, std::int64_t c, std::int64_t rows, std::int64_t cols, Counter& counter)
{
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
            std::swap(x[(r + i) * ld + c + j], x[(c + j) * ld + r + i]);
            counter.swap();
        }
}

// Square n x n block of an ld-strided matrix, transposed in place: Algorithm 2's two phases.
template <class T, class Counter> void blockedSquare(T* x, std::int64_t ld, std::int64_t n, std::int64_t block, Counter& counter)
{
    for (std::int64_t d = 0; d < n; d += block)
        transposeDiagonalBlock(x, ld, d, std::min(block, n - d), counter);
    for (std::int64_t r = 0; r < n; r += block)
        for (std::int64_t c = r + block; c < n; c += block)
            swapMirrorBlocks(x, ld, r, c, std::min(block, n - r), std::min(block, n - c), counter);
}

}  // namespace

template <class T, class Counter> void blockedInPlace(T* x, std::int64_t n, std::int64_t block, Counter& counter)
{
    blockedSquare(x, n, n, std::max<std::int64_t>(block, 1), counter);
}

template <class T> void outOfPlace(const T* x, T* y, std::int64_t m, std::int64_t n)
{
    constexpr std::int64_t b = kSeedBlock;
    for (std::int64_t r = 0; r < m; r += b)
        for (std::int64_t c = 0; c < n; c += b) {
            const std::int64_t re = std::min(r + b, m), ce = std::min(c + b, n);
            for (std::int64_t i = r; i < re; ++i)
                for (std::int64_t j = c; j < ce; ++j)
                    y[j * m + i] = x[i * n + j];
        }
}

SegmentPermutation::SegmentPermutation(std::int64_t m, std::int64_t n)
    : g(std::gcd(m, n)), a(m / std::gcd(m, n)), b(n / std::gcd(m, n))
{
}

template <class T> void inPlaceAnyShape(T* x, std::int64_t m, std::int64_t n)
{
    if (m <= 0 || n <= 0)
        return;
    const SegmentPermutation p(m, n);
    NoCount none;
    if (p.g > 1)
        for (std::int64_t i = 0; i < p.a; ++i)
            for (std::int64_t j = 0; j < p.b; ++j)
                blockedSquare(x + i * p.g * n + j * p.g, n, p.g, kSeedBlock, none);
    if (p.a == 1 && p.b == 1)
        return;
    const std::int64_t count = p.count();
    std::vector<bool> visited(std::size_t(count), false);
    std::vector<T> carried(std::size_t(p.g));
    for (std::int64_t start = 0; start < count; ++start) {
        if (visited[std::size_t(start)])
            continue;
        visited[std::size_t(start)] = true;
        std::int64_t to = p.destination(start);
        if (to == start)
            continue;
        std::copy_n(x + start * p.g, p.g, carried.begin());
        while (to != start) {  // carry the segment to its place, pick up the one that was there
            std::swap_ranges(carried.begin(), carried.end(), x + to * p.g);
            visited[std::size_t(to)] = true;
            to = p.destination(to);
        }
        std::copy(carried.begin(), carried.end(), x + start * p.g);
    }
}

#define GIGACHECK_TRANSPOSE_CPU(T)                                                        \
    template void naiveInPlace<T, NoCount>(T*, std::int64_t, NoCount&);                  \
    template void naiveInPlace<T, SwapCount>(T*, std::int64_t, SwapCount&);              \
    template void blockedInPlace<T, NoCount>(T*, std::int64_t, std::int64_t, NoCount&);     \
    template void blockedInPlace<T, SwapCount>(T*, std::int64_t, std::int64_t, SwapCount&); \
    template void outOfPlace<T>(const T*, T*, std::int64_t, std::int64_t);                \
    template void inPlaceAnyShape<T>(T*, std::int64_t, std::int64_t);
GIGACHECK_TRANSPOSE_CPU(float)
GIGACHECK_TRANSPOSE_CPU(std::int32_t)
GIGACHECK_TRANSPOSE_CPU(double)
#undef GIGACHECK_TRANSPOSE_CPU

}  // namespace gigacheck::transpose::cpu
