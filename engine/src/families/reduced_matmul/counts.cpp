// Counts of each reduced matmul kernel from its loop nest (the reduced-matmul chapter's section 4.3.3: "Total loads
// by T0 = 4N" naive, "(N / TILE) * 4" tiled).
#include "gigacheck/reduced_matmul.hpp"

namespace gigacheck::reduced_matmul {

std::int64_t replayLoadsOfOneThread(Variant v, std::int64_t n)
{
    std::int64_t loads = 0;
    if (v == Variant::ReduceBlas)
        return 2;  // each reduction thread: one pair of A (or B) elements
    if (const int tile = tileOf(v)) {
        for (std::int64_t k0 = 0; k0 < n; k0 += tile)
            loads += 2 + 2;  // its pair of A into blockA, its pair of B into blockB; the rest from shared
        return loads;
    }
    for (std::int64_t k = 0; k < n; ++k)
        loads += 2 + 2;  // A(2i, k), A(2i+1, k), B(k, 2j), B(k, 2j+1)
    return loads;
}

Counts countsOf(Variant v, std::int64_t n, Precision p)
{
    Counts c;
    const double N = double(n), h = N / 2, eb = double(elementSize(p));
    c.multiplications = v == Variant::Naive4p ? 4 * h * h * N : h * h * N;
    c.flops = 2 * h * h * N;
    c.loadsPerThread = double(replayLoadsOfOneThread(v, n));
    c.threads = v == Variant::ReduceBlas ? 2 * (n / 2) * n : (n / 2) * (n / 2);
    c.loadBytesRequested = double(c.threads) * c.loadsPerThread * eb;
    c.footprintBytes = (2 * N * N + h * h) * eb;
    return c;
}

}  // namespace gigacheck::reduced_matmul
