// Blocked GEMM runs for the engine and GPU tests: a run that keeps its C (and, when asked, a copy
// of its inputs or a corruption of them), and the comparisons of the matrices it gives.
#pragma once

#include "gigacheck/blocked_gemm/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>

namespace gigacheck::test {

// The run's record and C, with onInputs applied to the host inputs once they are filled.
struct FinishedRun {
    RunRecord record;
    HostMatrix c;
};
inline FinishedRun runKeepingC(const RunConfig& config, std::function<void(HostMatrix&, HostMatrix&)> onInputs = {})
{
    FinishedRun out;
    RunHooks hooks;
    hooks.onInputs = std::move(onInputs);
    hooks.resultOut = &out.c;
    out.record = runGemm(config, hooks);
    return out;
}

// An onInputs hook that copies the run's A and B (as generated, before any rounding) into a, b.
inline std::function<void(HostMatrix&, HostMatrix&)> copyInputsTo(HostMatrix& a, HostMatrix& b)
{
    return [&a, &b](HostMatrix& ha, HostMatrix& hb) {
        a = HostMatrix(ha.precision(), ha.rows(), ha.cols());
        b = HostMatrix(hb.precision(), hb.rows(), hb.cols());
        std::memcpy(a.data(), ha.data(), ha.bytes());
        std::memcpy(b.data(), hb.data(), hb.bytes());
    };
}

inline double maxDifference(const HostMatrix& x, const HostMatrix& y)
{
    double worst = 0;
    for (std::int64_t i = 0; i < x.rows(); ++i)
        for (std::int64_t j = 0; j < x.cols(); ++j)
            worst = std::max(worst, std::fabs(x.at(i, j) - y.at(i, j)));
    return worst;
}

inline double maxAbs(const HostMatrix& x)
{
    double worst = 0;
    for (std::int64_t i = 0; i < x.rows(); ++i)
        for (std::int64_t j = 0; j < x.cols(); ++j)
            worst = std::max(worst, std::fabs(x.at(i, j)));
    return worst;
}

// C against the product of its inputs (in double) with each input rounded by round(float), and
// against the product of the inputs as they are: the largest difference to each.
struct ModelGaps {
    double toRounded = 0, toPlain = 0;
};
template <class Round>
ModelGaps gapsToRoundedProduct(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, Round round)
{
    ModelGaps g;
    for (std::int64_t i = 0; i < c.rows(); ++i)
        for (std::int64_t j = 0; j < c.cols(); ++j) {
            double rounded = 0, plain = 0;
            for (std::int64_t k = 0; k < a.cols(); ++k) {
                rounded += double(round(float(a.at(i, k)))) * double(round(float(b.at(k, j))));
                plain += a.at(i, k) * b.at(k, j);
            }
            g.toRounded = std::max(g.toRounded, std::fabs(c.at(i, j) - rounded));
            g.toPlain = std::max(g.toPlain, std::fabs(c.at(i, j) - plain));
        }
    return g;
}

// The first cell of C, in row-major order from element `from` on, with |C| in [low, high);
// (-1, -1) when there is none.
inline std::pair<std::int64_t, std::int64_t> cellWithMagnitude(const HostMatrix& c, double low, double high,
                                                               std::int64_t from = 0)
{
    for (std::int64_t e = from; e < c.rows() * c.cols(); ++e) {
        const double v = std::fabs(c.at(e / c.cols(), e % c.cols()));
        if (v >= low && v < high)
            return {e / c.cols(), e % c.cols()};
    }
    return {-1, -1};
}

}  // namespace gigacheck::test
