#include "families/blocked_gemm/bench/tf32x3_rows.hpp"

#ifdef GIGACHECK_HAVE_CUDA

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/blocked_gemm/cuda/measure_tf32x3.hpp"

#include <string>

namespace gigacheck::blocked_gemm {

namespace {

using bench::fixed;
using bench::percent;

constexpr std::int64_t kTimeTargetN = 16384;
constexpr double kTimeTarget = 0.8;   // tf32x3 time / SGEMM time at 16384
constexpr double kErrorTarget = 2.0;  // tf32x3 error / SGEMM error against FP64

std::string timeTarget(std::int64_t n, double ratio)
{
    if (n != kTimeTargetN)
        return "-";
    return "<=" + fixed(kTimeTarget, 1) + "x: " + (ratio <= kTimeTarget ? "met" : "MISSED");
}

std::string errorTarget(double ratio)
{
    return "<=" + fixed(kErrorTarget, 0) + "x: " + (ratio <= kErrorTarget ? "met" : "MISSED");
}

}  // namespace

std::vector<std::int64_t> tf32x3Sizes(bool quick)
{
    std::vector<std::int64_t> sizes = quick ? std::vector<std::int64_t>{1024, 2048}
                                            : std::vector<std::int64_t>{4096, 8192, kTimeTargetN};
    if (const auto items = bench::envList("GIGACHECK_BENCH_SIZES"); !items.empty()) {
        sizes.clear();
        for (const std::string& item : items)
            sizes.push_back(std::stoll(item));
    }
    return sizes;
}

void tf32x3KernelRows(const std::vector<std::int64_t>& sizes, std::ostream& out, nlohmann::json& rows)
{
    bench::Table t({"N", "SGEMM ms", "tf32x3 ms", "time vs SGEMM", "target", "SGEMM rel.err", "TF32 rel.err",
                    "tf32x3 rel.err", "err vs SGEMM", "target"});
    for (std::int64_t n : sizes) {
        const cuda::Tf32x3Timing r = cuda::timeTf32x3(n, 0, 5);
        const double time = r.tf32x3Ms / r.sgemmMs, error = r.tf32x3Error / r.sgemmError;
        t.add({std::to_string(n), fixed(r.sgemmMs, 3), fixed(r.tf32x3Ms, 3), fixed(time, 2) + "x", timeTarget(n, time),
               fixed(r.sgemmError, 9), fixed(r.tf32Error, 9), fixed(r.tf32x3Error, 9), fixed(error, 2) + "x",
               errorTarget(error)});
        rows.push_back({{"n", n}, {"variant", "tf32x3"}, {"ms", r.tf32x3Ms}, {"sgemm_ms", r.sgemmMs},
                        {"vs_sgemm_time", time}, {"rel_error", r.tf32x3Error}, {"sgemm_rel_error", r.sgemmError},
                        {"tf32_rel_error", r.tf32Error}});
        out << "." << std::flush;
    }
    out << "\n\ntf32x3 (--gemm tf32x3): FP32 operands split into TF32 big + small parts (one pass per operand),\n"
           "C = A_big B_small + A_small B_big + A_big B_big in cuBLAS TF32 (the small terms as one product of twice\n"
           "the depth, the big one in depth chunks of at most 512), against cuBLAS SGEMM of the same inputs in the\n"
           "same repetitions (median of 5). rel.err = max |C - C_ref| / (|A| |B|) on sampled rows against an FP64\n"
           "host product; TF32: cuBLAS TF32 on the same inputs\n\n";
    t.print(out);
}

void tf32x3AbftRows(const std::vector<std::int64_t>& sizes, int reps, std::ostream& out, nlohmann::json& rows)
{
    bench::Table t({"N", "errors", "plain SGEMM ms", "protected tf32x3 ms", "vs SGEMM", "target", "verdict",
                    "fault / max thr.", "tf32x3 rel.err", "SGEMM rel.err", "target"});
    for (std::int64_t n : sizes)
        for (int errors : {0, 1}) {
            const cuda::Tf32x3Timing r = cuda::timeTf32x3(n, errors, reps);
            const double time = r.protectedMs / r.sgemmMs, error = r.tf32x3Error / r.sgemmError;
            t.add({std::to_string(n), std::to_string(errors), fixed(r.sgemmMs, 3), fixed(r.protectedMs, 3),
                   fixed(time, 2) + "x", timeTarget(n, time), r.verdict, errors ? fixed(r.delta / r.threshold, 1) : "-",
                   fixed(r.tf32x3Error, 9), fixed(r.sgemmError, 9), errorTarget(error)});
            rows.push_back({{"n", n}, {"precision", "tf32x3 vs FP32"}, {"errors", errors}, {"plain_ms", r.sgemmMs},
                            {"protected_ms", r.protectedMs}, {"overhead", time - 1.0}, {"vs_sgemm_time", time},
                            {"verdict", r.verdict},
                            {"corrections", r.corrections}, {"max_threshold", r.threshold}, {"fault_delta", r.delta},
                            {"rel_error", r.tf32x3Error}, {"sgemm_rel_error", r.sgemmError}});
            out << "." << std::flush;
        }
    out << "\n\ntf32x3 protected (checksum of B, the split and the TF32 products with the checksum products\n"
           "beside them, [1 injected fault], verify + correct; FP32 thresholds, gigacheck/tf32x3.hpp) against\n"
           "plain cuBLAS SGEMM of the same inputs, in-core, median of CUDA-event times, interleaved repetitions\n\n";
    t.print(out);
}

}  // namespace gigacheck::blocked_gemm

#endif
