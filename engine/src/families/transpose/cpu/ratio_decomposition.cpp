// The ratio decomposition on the CPU (ratio_decomposition.hpp): the reference of the CUDA passes,
// and the CPU backend's rectangular `inplace` where one side is 2 or 4 times the other. Scratch:
// one row of k·min(m, n) elements.
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/ratio_decomposition.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose::cpu {

namespace {

constexpr std::int64_t kVectorBlock = 16;  // vectors per cache block of the square pass

// Row pass: every row of k·side elements, gathered (tall) or scattered (wide) by sourceInRow.
template <class T> void rowPass(T* x, const ratio::Shape& s)
{
    const std::int64_t length = s.rowLength();
    std::vector<T> line(static_cast<std::size_t>(length));
    for (std::int64_t a = 0; a < s.side; ++a) {
        T* row = x + a * length;
        std::copy_n(row, length, line.begin());
        for (std::int64_t p = 0; p < length; ++p) {
            const std::int64_t q = ratio::sourceInRow(p, s.k, s.side);
            if (s.tall)
                row[p] = line[std::size_t(q)];
            else
                row[q] = line[std::size_t(p)];
        }
    }
}

// Square pass: the side x side matrix of k-element vectors transposed in place, block by block.
template <class T> void squarePass(T* x, const ratio::Shape& s)
{
    const std::int64_t k = s.k, ld = s.rowLength();
    for (std::int64_t ib = 0; ib < s.side; ib += kVectorBlock)
        for (std::int64_t jb = ib; jb < s.side; jb += kVectorBlock)
            for (std::int64_t i = ib; i < std::min(ib + kVectorBlock, s.side); ++i)
                for (std::int64_t j = std::max(jb, i + 1); j < std::min(jb + kVectorBlock, s.side); ++j)
                    std::swap_ranges(x + i * ld + j * k, x + i * ld + j * k + k, x + j * ld + i * k);
}

}  // namespace

template <class T> void ratioInPlace(T* x, std::int64_t m, std::int64_t n)
{
    const ratio::Shape s = ratio::shapeOf(m, n);
    if (!s.applies())
        return decompositionInPlace(x, m, n);
    if (s.tall) {
        rowPass(x, s);
        squarePass(x, s);
    } else {
        squarePass(x, s);
        rowPass(x, s);
    }
}

template <class T> void rectangularInPlace(T* x, std::int64_t m, std::int64_t n)
{
    if (ratio::shapeOf(m, n).applies())
        ratioInPlace(x, m, n);
    else
        decompositionInPlace(x, m, n);
}

#define GIGACHECK_RATIO_CPU(T)                                     \
    template void ratioInPlace<T>(T*, std::int64_t, std::int64_t); \
    template void rectangularInPlace<T>(T*, std::int64_t, std::int64_t);
GIGACHECK_RATIO_CPU(float)
GIGACHECK_RATIO_CPU(std::int32_t)
#undef GIGACHECK_RATIO_CPU

}  // namespace gigacheck::transpose::cpu
