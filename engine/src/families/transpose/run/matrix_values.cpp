#include "families/transpose/run/matrix_values.hpp"

namespace gigacheck::transpose {

namespace {
std::uint32_t valueOf(std::uint64_t k, std::uint64_t seed)
{
    constexpr std::uint64_t kExact = std::uint64_t(1) << 23;
    std::uint64_t v = k;
    if (k >= kExact) {
        v = k ^ seed;
        v ^= v >> 33;
        v *= 0xff51afd7ed558ccdULL;
        v ^= v >> 33;
    }
    return 0x3F800000u | std::uint32_t(v & 0x7FFFFFu);
}
}  // namespace

void fillDistinct(std::vector<std::uint32_t>& data, std::uint64_t seed)
{
    for (std::size_t k = 0; k < data.size(); ++k)
        data[k] = valueOf(k, seed);
}

std::int64_t countMisplaced(const std::vector<std::uint32_t>& original, const std::vector<std::uint32_t>& result,
                            std::int64_t m, std::int64_t n)
{
    if (original.size() != std::size_t(m * n) || result.size() != original.size())
        return m * n;
    std::int64_t wrong = 0;
    for (std::int64_t j = 0; j < n; ++j)  // result row j is column j of the original
        for (std::int64_t i = 0; i < m; ++i)
            wrong += result[std::size_t(j * m + i)] != original[std::size_t(i * n + j)];
    return wrong;
}

}  // namespace gigacheck::transpose
