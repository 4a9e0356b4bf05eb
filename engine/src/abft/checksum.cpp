// Checksum vectors of the operand blocks (the Gigacheck report's section 2.1.1): c_A as the extra row of an
// A block, r_B as the extra column of a B block.
#include "gigacheck/abft.hpp"

namespace gigacheck {

template <class T>
void columnChecksum(BlockView<T> a)
{
    // Row by row so the walk over memory is contiguous; sums kept in double (less round-off).
    std::vector<double> sums(std::size_t(a.cols), 0.0);
    for (std::int64_t i = 0; i < a.rows; ++i)
        for (std::int64_t k = 0; k < a.cols; ++k)
            sums[std::size_t(k)] += double(a(i, k));
    for (std::int64_t k = 0; k < a.cols; ++k)
        a(a.rows, k) = T(sums[std::size_t(k)]);
}

template <class T>
void rowChecksum(BlockView<T> b)
{
    for (std::int64_t k = 0; k < b.rows; ++k) {
        double sum = 0;
        for (std::int64_t j = 0; j < b.cols; ++j)
            sum += double(b(k, j));
        b(k, b.cols) = T(sum);
    }
}

template void columnChecksum<float>(BlockView<float>);
template void columnChecksum<double>(BlockView<double>);
template void rowChecksum<float>(BlockView<float>);
template void rowChecksum<double>(BlockView<double>);

}  // namespace gigacheck
