// GPU test support of the step-sums kernel (see step_sums_test_support.hpp).
#include "gemm/cuda/step_sums_test_support.hpp"

#include "core/cuda/check.hpp"
#include "core/median.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/operand_transpose.hpp"
#include "gemm/cutlass/cutlass_step_sums.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace gigacheck::cuda {

StepSumsRun stepSumsOnDevice(const HostMatrix& a, const HostMatrix& b, std::int64_t panel,
                             const std::vector<StepSumsFault>& faults)
{
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    const std::int64_t steps = stepCount(n, panel);
    StepSumsRun run;
    if (faults.size() > std::size_t(kStepFaultsMax)) {
        run.error = "too many faults";
        return run;
    }
    DeviceBuffer da(a.bytes()), db(b.bytes()), dbt(b.bytes()), dc(std::size_t(m * q) * 4),
        sums(std::size_t(std::max<std::int64_t>(steps, 1) * (m + q)) * 8);
    PinnedBuffer values(std::max<std::size_t>(faults.size(), 1) * 16);
    CUDA_CHECK(cudaMemcpy(da.get(), a.data(), a.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db.get(), b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(sums.get(), 0, sums.bytes()));
    transposeOperand(db.as<float>(), n, q, q, dbt.as<float>(), n, nullptr);
    CutlassStepSumsCall call;
    call.m = m;
    call.n = n;
    call.q = q;
    call.a = da.as<float>();
    call.lda = n;
    call.bt = dbt.as<float>();
    call.ldbt = n;
    call.c = dc.as<float>();
    call.ldc = q;
    call.panel = panel;
    call.stepSums = sums.as<double>();
    for (const StepSumsFault& f : faults) {
        StepFault& x = call.faults[call.faultCount++];
        x.step = f.step;
        x.row = f.row;
        x.col = f.col;
        x.bitFlip = f.bit >= 0 ? 1 : 0;
        x.bit = std::max(f.bit, 0);
        x.delta = f.delta;
    }
    call.faultValues = values.as<double>();
    if (const char* why = cutlassTf32StepSums(call, nullptr)) {
        run.error = why;
        return run;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    run.c = HostMatrix(Precision::F32, m, q);
    CUDA_CHECK(cudaMemcpy(run.c.data(), dc.get(), run.c.bytes(), cudaMemcpyDeviceToHost));
    run.sums.resize(std::size_t(steps * (m + q)));
    CUDA_CHECK(cudaMemcpy(run.sums.data(), sums.get(), run.sums.size() * 8, cudaMemcpyDeviceToHost));
    run.values.assign(values.as<double>(), values.as<double>() + 2 * faults.size());
    return run;
}

namespace {

template <class Launch> double medianMs(int reps, Launch&& launch)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventRecord(start));
        launch();
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return median(ms);
}

}  // namespace

StepSumsTiming timeStepSums(std::int64_t n, std::int64_t panel, int reps, int swizzle, int raster)
{
    StepSumsTiming t;
    const std::size_t elems = std::size_t(n) * std::size_t(n);
    std::vector<float> host(elems);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : host)
        x = u(rng);
    DeviceBuffer a(elems * 4), b(elems * 4), bt(elems * 4), c(elems * 4), c2(elems * 4),
        sums(std::size_t(stepCount(n, panel) * 2 * n) * 8);
    CUDA_CHECK(cudaMemcpy(a.get(), host.data(), elems * 4, cudaMemcpyHostToDevice));
    std::reverse(host.begin(), host.end());
    CUDA_CHECK(cudaMemcpy(b.get(), host.data(), elems * 4, cudaMemcpyHostToDevice));
    transposeOperand(b.as<float>(), n, n, n, bt.as<float>(), n, nullptr);
    CutlassStepSumsCall call;
    call.m = call.n = call.q = n;
    call.a = a.as<float>();
    call.bt = bt.as<float>();
    call.c = c.as<float>();
    call.lda = call.ldbt = call.ldc = n;
    call.panel = panel;
    call.stepSums = sums.as<double>();
    call.maxSwizzle = swizzle;
    call.raster = raster;
    const char* why = nullptr;
    CublasHandle h;
    CUBLAS_CHECK(cublasSetMathMode(h.get(), CUBLAS_TF32_TENSOR_OP_MATH));
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS reads B and A as they lie.
    const auto cublas = [&] {
        CUBLAS_CHECK(cublasSgemm(h.get(), CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, b.as<float>(), int(n),
                                 a.as<float>(), int(n), &zero, c2.as<float>(), int(n)));
    };
    const auto kernel = [&] {
        CUDA_CHECK(cudaMemsetAsync(sums.get(), 0, sums.bytes()));
        if (!why)
            why = cutlassTf32StepSums(call, nullptr);
    };
    kernel();
    cublas();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (why) {
        t.error = why;
        return t;
    }
    for (int round = 0; round < 2; ++round) {  // alternated, the first round a warm-up
        t.cublasMs = medianMs(reps, cublas);
        t.kernelMs = medianMs(reps, kernel);
    }
    std::vector<float> x(elems), y(elems);
    CUDA_CHECK(cudaMemcpy(x.data(), c.get(), elems * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(y.data(), c2.get(), elems * 4, cudaMemcpyDeviceToHost));
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < elems; ++i) {
        worst = std::max(worst, double(std::fabs(x[i] - y[i])));
        scale = std::max(scale, double(std::fabs(y[i])));
    }
    t.relDifference = scale > 0 ? worst / scale : worst;
    return t;
}

}  // namespace gigacheck::cuda
