// Online ABFT runs for the engine and GPU tests: a checked run's configuration, a run that keeps
// its C, a fault at a cell and step, the check that followed a step, its verdict counts, and C's
// error against an FP64 product.
#pragma once

#include "gigacheck/matrix.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/run_hooks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gigacheck::test {

// Online ABFT of `shape` on `backend` with panel width `panel`, a check every `fq` steps, the panel
// products by `gemm`, and the full reference.
inline OnlineConfig onlineRun(BackendKind backend, GemmVariant gemm, Shape shape, std::int64_t panel, int fq)
{
    OnlineConfig c;
    c.shape = shape;
    c.backend = backend;
    c.scheme = Scheme::Online;
    c.panel = panel;
    c.checkEvery = fq;
    c.gemm = gemm;
    c.reference = ReferenceMode::Full;
    return c;
}

// The bits in which two FP32 values differ: an injection's before and after, for a bit flip.
inline std::uint32_t flippedBitsF32(double before, double after)
{
    const float b = float(before), a = float(after);
    std::uint32_t x, y;
    std::memcpy(&x, &b, sizeof x);
    std::memcpy(&y, &a, sizeof y);
    return x ^ y;
}

// runOnline, C kept in `result`.
inline OnlineRecord runKeeping(const OnlineConfig& c, HostMatrix& result)
{
    RunHooks hooks;
    hooks.resultOut = &result;
    return runOnline(c, hooks);
}

// How many of the run's checks ended with verdict v.
inline int verdicts(const OnlineRecord& r, Verdict v)
{
    int n = 0;
    for (const VerifyEvent& e : r.verifications)
        n += e.result.verdict == v;
    return n;
}

inline OnlineFault at(std::int64_t r, std::int64_t c, int step, OnlineTarget target = OnlineTarget::Result)
{
    OnlineFault f;
    f.target = target;
    f.row = r;
    f.col = c;
    f.step = step;
    return f;
}

// The first check after `step` (block.k is the step a check follows); null when none ran there.
inline const VerifyEvent* checkAt(const OnlineRecord& r, int step)
{
    for (const VerifyEvent& e : r.verifications)
        if (e.block.k == step)
            return &e;
    return nullptr;
}

// max |C - A B| / max |A B| over `rows` rows of C spread over it (every row when m <= rows), with
// A B in FP64 from the run's FP32 inputs regenerated from its seed.
inline double maxRelativeErrorOf(const OnlineConfig& c, const HostMatrix& result, std::int64_t rows = 64)
{
    HostMatrix a(Precision::F32, c.shape.m, c.shape.n), b(Precision::F32, c.shape.n, c.shape.q);
    fillRandom(a, c.distribution, c.seed, 1);
    fillRandom(b, c.distribution, c.seed, 2);
    double worst = 0, largest = 0;
    const std::int64_t stride = std::max<std::int64_t>(1, c.shape.m / rows);
    std::vector<double> exact(std::size_t(c.shape.q));
    for (std::int64_t i = 0; i < c.shape.m; i += stride) {
        std::fill(exact.begin(), exact.end(), 0.0);
        for (std::int64_t k = 0; k < c.shape.n; ++k)
            for (std::int64_t j = 0; j < c.shape.q; ++j)
                exact[std::size_t(j)] += a.at(i, k) * b.at(k, j);
        for (std::int64_t j = 0; j < c.shape.q; ++j) {
            worst = std::max(worst, std::fabs(result.at(i, j) - exact[std::size_t(j)]));
            largest = std::max(largest, std::fabs(exact[std::size_t(j)]));
        }
    }
    return worst / largest;
}

}  // namespace gigacheck::test
