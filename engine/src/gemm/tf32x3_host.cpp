#include "gemm/tf32x3_host.hpp"

#include "gigacheck/tf32x3.hpp"

#include <cblas.h>

#include <algorithm>
#include <vector>

namespace gigacheck {

namespace {

// The big and small parts of a rows x cols block, packed (leading dimension cols).
struct SplitBlock {
    std::vector<float> big, small;
    SplitBlock(const float* x, std::int64_t ld, std::int64_t rows, std::int64_t cols)
        : big(std::size_t(rows * cols)), small(std::size_t(rows * cols))
    {
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t col = 0; col < cols; ++col) {
                const Tf32Split s = splitTf32(x[r * ld + col]);
                big[std::size_t(r * cols + col)] = s.big;
                small[std::size_t(r * cols + col)] = s.small;
            }
    }
};

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
    const SplitBlock sa(a, lda, m, n), sb(b, ldb, n, q);
    // Depth slice [k0, k0 + depth) of X Y added to (or written into) C.
    const auto product = [&](const std::vector<float>& x, const std::vector<float>& y, std::int64_t k0,
                             std::int64_t depth, bool add) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(depth), 1.0f, x.data() + k0, int(n),
                    y.data() + k0 * q, int(q), add ? 1.0f : 0.0f, c, int(ldc));
    };
    // The small terms first, so the big product adds to their sum, and the big product in depth
    // chunks (gemm/cuda/gemm_tf32x3.cu, same order and chunks).
    product(sa.big, sb.small, 0, n, accumulate);
    product(sa.small, sb.big, 0, n, true);
    const std::int64_t chunk = tf32x3ChunkOf(n);
    for (std::int64_t k0 = 0; k0 < n; k0 += chunk)
        product(sa.big, sb.big, k0, std::min(chunk, n - k0), true);
}

}  // namespace gigacheck
