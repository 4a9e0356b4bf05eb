// The C2R decomposition on the CPU (decomposition.hpp): the reference the tests run on any machine,
// and the CPU backend's rectangular `inplace`. Scratch: one column or one row (max(m, n) elements).
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/decomposition.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose::cpu {

template <class T> void decompositionInPlace(T* x, std::int64_t m, std::int64_t n)
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

template void decompositionInPlace<float>(float*, std::int64_t, std::int64_t);
template void decompositionInPlace<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t);
template void decompositionInPlace<double>(double*, std::int64_t, std::int64_t);

}  // namespace gigacheck::transpose::cpu
