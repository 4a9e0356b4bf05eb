#include "gemm/tf32x3_host.hpp"

#include "gigacheck/tf32x3.hpp"

#include <cblas.h>

#include <algorithm>
#include <vector>

namespace gigacheck {

namespace {

// The big and small parts of a rows x cols block laid out as the device lays them
// (gemm/cuda/gemm_tf32x3.hpp): A as [A_big | A_small] (rows x 2 cols), B as [B_small; B_big]
// (2 rows x cols).
std::vector<float> splitSideBySide(const float* x, std::int64_t ld, std::int64_t rows, std::int64_t cols)
{
    std::vector<float> out(std::size_t(2 * rows * cols));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t col = 0; col < cols; ++col) {
            const Tf32Split s = splitTf32(x[r * ld + col]);
            out[std::size_t(r * 2 * cols + col)] = s.big;
            out[std::size_t(r * 2 * cols + cols + col)] = s.small;
        }
    return out;
}
std::vector<float> splitStacked(const float* x, std::int64_t ld, std::int64_t rows, std::int64_t cols)
{
    std::vector<float> out(std::size_t(2 * rows * cols));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t col = 0; col < cols; ++col) {
            const Tf32Split s = splitTf32(x[r * ld + col]);
            out[std::size_t(r * cols + col)] = s.small;
            out[std::size_t((rows + r) * cols + col)] = s.big;
        }
    return out;
}

}  // namespace

void tf32x3GemmHost(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                    std::int64_t m, std::int64_t n, std::int64_t q, bool accumulate)
{
    if (m <= 0 || q <= 0)
        return;
    if (n <= 0) {
        if (!accumulate)
            for (std::int64_t r = 0; r < m; ++r)
                for (std::int64_t col = 0; col < q; ++col)
                    c[r * ldc + col] = 0.0f;
        return;
    }
    const std::vector<float> aParts = splitSideBySide(a, lda, m, n), bParts = splitStacked(b, ldb, n, q);
    // Depth slice [k0, k0 + depth) of X Y (X: m x 2n, Y's rows from y) added to (or written into) C.
    const auto product = [&](const float* y, std::int64_t k0, std::int64_t depth, bool add) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(depth), 1.0f, aParts.data() + k0,
                    int(2 * n), y + k0 * q, int(q), add ? 1.0f : 0.0f, c, int(ldc));
    };
    // The device's order (gemm/cuda/gemm_tf32x3.cu): the two small terms as one product of depth 2n,
    // then the big product in depth chunks, adding to their sum.
    product(bParts.data(), 0, 2 * n, accumulate);
    const std::int64_t chunk = tf32x3ChunkOf(n);
    for (std::int64_t k0 = 0; k0 < n; k0 += chunk)
        product(bParts.data() + n * q, k0, std::min(chunk, n - k0), true);
}

}  // namespace gigacheck
