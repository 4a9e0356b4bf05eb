// The C2R decomposition on the CPU (decomposition.hpp): the reference the tests run on any machine,
// and the CPU backend's rectangular `inplace`. Scratch: one column or one row (max(m, n) elements).
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/decomposition.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose::cpu {

template <class T> void c2rInPlace(T* x, std::int64_t m, std::int64_t n)
{
    if (m <= 0 || n <= 0)
        return;
    const c2r::Shape s = c2r::shapeOf(m, n);
    std::vector<T> line(std::size_t(std::max(m, n)));
    // Pass 1: column c rotated down by c / b (only when gcd(m, n) > 1).
    if (s.g > 1)
        for (std::int64_t c = 0; c < n; ++c) {
            for (std::int64_t r = 0; r < m; ++r)
                line[std::size_t(r)] = x[r * n + c];
            for (std::int64_t r = 0; r < m; ++r)
                x[r * n + c] = line[std::size_t(c2r::prerotationSource(s, r, c))];
        }
    // Pass 2: every row scattered by its permutation.
    for (std::int64_t r = 0; r < m; ++r) {
        T* row = x + r * n;
        for (std::int64_t c = 0; c < n; ++c)
            line[std::size_t(c2r::shuffleDestination(s, r, c))] = row[c];
        std::copy_n(line.begin(), n, row);
    }
    // Pass 3: every column gathered by its permutation.
    for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < m; ++i)
            line[std::size_t(i)] = x[i * n + j];
        for (std::int64_t i = 0; i < m; ++i)
            x[i * n + j] = line[std::size_t(c2r::postSource(s, i, j))];
    }
}

template <class T> void r2cInPlace(T* x, std::int64_t m, std::int64_t n)
{
    if (m <= 0 || n <= 0)
        return;
    // The inverse passes of C2R(n, m), on the memory viewed as R = n rows of C = m columns.
    const c2r::Shape s = c2r::shapeOf(n, m);
    const std::int64_t rows = s.m, cols = s.n;
    std::vector<T> line(std::size_t(std::max(m, n)));
    // Inverse pass 3: every column scattered back.
    for (std::int64_t j = 0; j < cols; ++j) {
        for (std::int64_t i = 0; i < rows; ++i)
            line[std::size_t(c2r::postSource(s, i, j))] = x[i * cols + j];
        for (std::int64_t i = 0; i < rows; ++i)
            x[i * cols + j] = line[std::size_t(i)];
    }
    // Inverse pass 2: every row gathered.
    for (std::int64_t r = 0; r < rows; ++r) {
        T* row = x + r * cols;
        std::copy_n(row, cols, line.begin());
        for (std::int64_t c = 0; c < cols; ++c)
            row[c] = line[std::size_t(c2r::shuffleDestination(s, r, c))];
    }
    // Inverse pass 1: column c rotated up by c / b.
    if (s.g > 1)
        for (std::int64_t c = 0; c < cols; ++c) {
            for (std::int64_t r = 0; r < rows; ++r)
                line[std::size_t(r)] = x[r * cols + c];
            for (std::int64_t r = 0; r < rows; ++r)
                x[r * cols + c] = line[std::size_t(c2r::prerotationTarget(s, r, c))];
        }
}

template <class T> void decompositionInPlace(T* x, std::int64_t m, std::int64_t n)
{
    if (m <= n)
        c2rInPlace(x, m, n);
    else
        r2cInPlace(x, m, n);
}

#define GIGACHECK_DECOMPOSITION_CPU(T)                                   \
    template void c2rInPlace<T>(T*, std::int64_t, std::int64_t);         \
    template void r2cInPlace<T>(T*, std::int64_t, std::int64_t);         \
    template void decompositionInPlace<T>(T*, std::int64_t, std::int64_t);
GIGACHECK_DECOMPOSITION_CPU(float)
GIGACHECK_DECOMPOSITION_CPU(std::int32_t)
GIGACHECK_DECOMPOSITION_CPU(double)
#undef GIGACHECK_DECOMPOSITION_CPU

}  // namespace gigacheck::transpose::cpu
