// See screen_test_support.hpp.
#include "families/online_abft/cuda/screen_test_support.hpp"

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "families/online_abft/cuda/step_sums.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gigacheck/abft.hpp"

#include <cmath>
#include <random>

namespace gigacheck::online_abft::cuda {

using gigacheck::cuda::DeviceBuffer;
using gigacheck::cuda::PinnedBuffer;
using gigacheck::cuda::VerifyOut;

std::vector<ScreenedOutcome> screenAndVerify(std::int64_t m, std::int64_t q, std::int64_t depth,
                                             const std::vector<ScreenedCase>& checks)
{
    const int count = int(checks.size());
    const std::int64_t ldc = q + 1, ldAux = std::max(m, q) + 1;
    const std::int64_t ldLines = m + q + 1, ldBounds = m + q + 2, ldSums = m + q;
    std::mt19937 gen(std::uint32_t(m * 31 + q));
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> c(std::size_t(m) * std::size_t(ldc), 0.0f);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j)
            c[std::size_t(i * ldc + j)] = value(gen);
    // Each check's C is C (check + 1): its exact sums, their FP32 checksums, and scales as the
    // passes make them (sums of squares).
    std::vector<double> sums(std::size_t(count * ldSums)), bounds(std::size_t(count * ldBounds));
    std::vector<float> lines(std::size_t(count * ldLines));
    for (int t = 0; t < count; ++t) {
        const double f = t + 1;
        double* s = &sums[std::size_t(t * ldSums)];
        double* b = &bounds[std::size_t(t * ldBounds)];
        float* l = &lines[std::size_t(t * ldLines)];
        double total = 0, totalScale = 0;
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j) {
                const double x = f * double(c[std::size_t(i * ldc + j)]);
                s[i] += x;
                s[m + j] += x;
                b[i] += x * x;
                b[m + 1 + j] += x * x;
                total += x;
                totalScale += x * x;
            }
        for (std::int64_t e = 0; e < m + q; ++e)
            l[e] = float(s[e]);
        l[m + q] = float(total);
        b[m] = totalScale;
        b[m + 1 + q] = totalScale;
        if (checks[std::size_t(t)].row >= 0)
            s[checks[std::size_t(t)].row] += checks[std::size_t(t)].delta;
        if (checks[std::size_t(t)].col >= 0)
            s[m + checks[std::size_t(t)].col] += checks[std::size_t(t)].delta;
    }
    DeviceBuffer dc((std::size_t(m) + 1) * std::size_t(ldc) * sizeof(float)), daux(4 * std::size_t(ldAux) * sizeof(double));
    DeviceBuffer dsums(sums.size() * sizeof(double)), dbounds(bounds.size() * sizeof(double));
    DeviceBuffer dlines(lines.size() * sizeof(float));
    CUDA_CHECK(cudaMemset(dc.get(), 0, (std::size_t(m) + 1) * std::size_t(ldc) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dc.get(), c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dsums.get(), sums.data(), sums.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dbounds.get(), bounds.data(), bounds.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dlines.get(), lines.data(), lines.size() * sizeof(float), cudaMemcpyHostToDevice));
    PinnedBuffer screened(std::size_t(std::max(1, count)) * sizeof(VerifyOut));
    PinnedBuffer verified(std::size_t(std::max(1, count)) * sizeof(VerifyOut));
    const gigacheck::cuda::AuxView aux{daux.as<double>(), ldAux};
    const auto callOf = [&] {
        gigacheck::cuda::VerifyCall call = gigacheck::cuda::verifyCall(
            Precision::F32, dc.get(), m, q, ldc, depth, aux, roundoffModel(Precision::F32, InputFormat::Tf32));
        call.sumsFromProduct = true;
        return call;
    };
    std::vector<gigacheck::cuda::ScreenedCheck> x(static_cast<std::size_t>(count));
    for (int t = 0; t < count; ++t) {
        x[std::size_t(t)].call = callOf();
        x[std::size_t(t)].lines = dlines.as<float>() + t * ldLines;
        x[std::size_t(t)].bounds = dbounds.as<double>() + t * ldBounds;
        x[std::size_t(t)].sums = dsums.as<double>() + t * ldSums;
        x[std::size_t(t)].out = screened.as<VerifyOut>() + t;
    }
    gigacheck::cuda::screenChecks(x.data(), count, nullptr);
    for (int t = 0; t < count; ++t) {
        // As a check that runs in full: its step loaded, then verify (C's cells rebuilt from the
        // step's sums where it corrects one).
        loadStep(x[std::size_t(t)].sums, x[std::size_t(t)].lines, x[std::size_t(t)].bounds, dc.as<float>(), ldc, m, q,
                 aux, nullptr);
        gigacheck::cuda::VerifyCall call = callOf();
        call.recomputeFrom = x[std::size_t(t)].sums;
        gigacheck::cuda::verify(call, verified.as<VerifyOut>() + t, nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<ScreenedOutcome> out(static_cast<std::size_t>(count));
    for (int t = 0; t < count; ++t) {
        const VerifyOut& s = screened.as<VerifyOut>()[t];
        const VerifyOut& v = verified.as<VerifyOut>()[t];
        ScreenedOutcome& o = out[std::size_t(t)];
        o.screenClean = s.verdict == gigacheck::cuda::kClean;
        o.screenMismatch = s.verdict == gigacheck::cuda::kScreenedMismatch;
        o.verifyClean = v.verdict == gigacheck::cuda::kClean;
        o.screenRows = s.rowCount;
        o.screenCols = s.colCount;
        o.verifyRows = v.rowCount;
        o.verifyCols = v.colCount;
        o.screenRatio = s.maxCleanRatio;
        o.verifyRatio = v.maxCleanRatio;
        o.screenMinThreshold = s.minThreshold;
        o.verifyMinThreshold = v.minThreshold;
        o.screenMaxThreshold = s.maxThreshold;
        o.verifyMaxThreshold = v.maxThreshold;
    }
    return out;
}

}  // namespace gigacheck::online_abft::cuda
