#include "families/online_abft/bench/tf32_rows.hpp"

#include "core/median.hpp"
#include "core/table.hpp"
#include "families/online_abft/ops.hpp"
#include "families/online_abft/run/run_online.hpp"
#include "families/online_abft/sweep/fq_sweep.hpp"
#include "gigacheck/online_abft.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/gemm_rates.hpp"
#endif

#include <cstdlib>
#include <string>
#include <vector>

namespace gigacheck::online_abft {

namespace {

// GIGACHECK_NO_STEP_SUMS=1 (inputs.hpp stepSumsProduct) while it lives, where asked.
class ScopedProductPerStep {
public:
    explicit ScopedProductPerStep(bool on) : on_(on)
    {
        if (on_)
            setenv("GIGACHECK_NO_STEP_SUMS", "1", 1);
    }
    ~ScopedProductPerStep()
    {
        if (on_)
            unsetenv("GIGACHECK_NO_STEP_SUMS");
    }
    ScopedProductPerStep(const ScopedProductPerStep&) = delete;
    ScopedProductPerStep& operator=(const ScopedProductPerStep&) = delete;

private:
    bool on_;
};

using bench::fixed;
using bench::percent;

// The plain n^3 cuBLAS TF32 product on device data, one timed run (after its own warm-up).
double plainTf32Seconds(std::int64_t n)
{
#ifdef GIGACHECK_HAVE_CUDA
    return 2.0 * double(n) * double(n) * double(n) / (cuda::inCoreTf32GemmGflops(n, n, n, 1) * 1e9);
#else
    (void)n;
    return 0.0;
#endif
}

// The plain n^3 cuBLAS product of operands already in 16 bits (what a BF16 / FP16 user multiplies),
// FP32 accumulation and C, one timed run (after its own warm-up).
template <InputFormat Format> double plain16BitSeconds(std::int64_t n)
{
#ifdef GIGACHECK_HAVE_CUDA
    return 2.0 * double(n) * double(n) * double(n) / (cuda::inCore16BitGemmGflops(n, n, n, Format, 1) * 1e9);
#else
    (void)n;
    return 0.0;
#endif
}

// The plain n^3 cuBLAS SGEMM on device data (FP32 arithmetic), one timed run (after its own warm-up):
// what tf32x3's FP32-accurate products are set against.
double plainSgemmSeconds(std::int64_t n)
{
#ifdef GIGACHECK_HAVE_CUDA
    return 2.0 * double(n) * double(n) * double(n) / (cuda::inCoreGemmGflops(n, n, n, Precision::F32, 1) * 1e9);
#else
    (void)n;
    return 0.0;
#endif
}

// One table of tensor-core rows: its variants, the plain product each run is paired with, and
// the panel GEMM text that says the fused-sums kernel ran.
struct RowsKind {
    std::string title;            // "TF32", "BF16", "FP16", "tf32x3"
    std::string plain;            // the plain product's name: "TF32", "SGEMM", ...
    std::vector<GemmVariant> gemms;
    double (*plainSeconds)(std::int64_t n);
    std::string jsonPlainKey;     // plain_tf32_seconds, plain_bf16_seconds, plain_f16_seconds
    GemmVariant fusedOnly;        // a variant whose row exists only where the fused kernel runs (none: Cublas)
    std::string fusedMarker;      // the panel GEMM text of the fused kernel
    std::string note;
};

double checkSeconds(const OnlineRecord& r)
{
    double t = 0;
    for (const Span& s : r.spans)
        if (s.kind == kCheck)
            t += s.end - s.start;
    return t;
}

std::string outcome(const OnlineRecord& r)
{
    if (r.status != "ok")
        return r.status + ": " + r.error;
    int corrected = 0, uncorrectable = 0;
    for (const VerifyEvent& e : r.verifications) {
        corrected += e.result.verdict == Verdict::Corrected;
        uncorrectable += e.result.verdict == Verdict::Uncorrectable;
    }
    return std::to_string(r.verifications.size()) + " checks, " + std::to_string(corrected) + " corrected" +
           (uncorrectable ? ", " + std::to_string(uncorrectable) + " uncorrectable" : std::string());
}

nlohmann::json roundedInputRows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                                std::int64_t panel, int reps, std::ostream& out, const RowsKind& kind)
{
    nlohmann::json rows = nlohmann::json::array();
    if (backend.device().backend != BackendKind::Cuda)
        return rows;
    RunHooks hooks;
    hooks.backend = &backend;
    const auto once = [&](const OnlineConfig& config) { return runOnlineOn(config, hooks, a, b, c); };
    const auto configFor = [&](GemmVariant gemm, int faults) {
        OnlineConfig config;
        config.shape = {n, n, n};
        config.backend = BackendKind::Cuda;
        config.panel = panel;
        config.checkEvery = 1;
        config.gemm = gemm;
        config.reference = ReferenceMode::None;  // correctness: the tests and `gigacheck run`; here: time
        if (faults)  // after the middle step, away from the matrix's edges
            config.faults = {OnlineFault{OnlineTarget::Result, n / 7, n / 5, std::nullopt, config.steps() / 2}};
        return config;
    };

    out << "\n" << kind.title << ", N = " << n << ", panel width b = " << panel << ", fq = 1: against a plain cuBLAS "
        << kind.plain << " product of " << n << "^3 timed before each run (medians of " << reps
        << "; vs plain: the median of each run's time over its plain product's)\n";
    std::string notes;
    const std::string plainName = "plain " + kind.plain;
    bench::Table t({"gemm", "faults", "time ms", plainName + " ms", "vs " + plainName, "overhead", "checks ms", "outcome"});
    for (GemmVariant gemm : kind.gemms)
      // cutlass-tf32 twice: the step-sums kernel where it runs, then a product per step (README "C kept
      // across the steps").
      for (const bool perStep : gemm == GemmVariant::CutlassTf32 ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        const ScopedProductPerStep scope(perStep);
        std::string name(toString(gemm));
        // Warm-up (kernels loaded, shapes tuned); a fused-only variant only where its kernel runs the panels.
        const OnlineRecord warm = once(configFor(gemm, 0));
        if (gemm == GemmVariant::CutlassTf32)
            name += warm.panelGemm.find("step-sums kernel") != std::string::npos ? " (step sums)" : " (per step)";
        if (perStep && name.find("(per step)") == std::string::npos)
            continue;
        if (warm.status != "ok") {
            notes += name + ": not run (" + warm.error + ")\n";
            continue;
        }
        const bool fused = warm.panelGemm.find(kind.fusedMarker) != std::string::npos;
        if (gemm == kind.fusedOnly && !fused) {
            notes += name + ": the CUTLASS kernel does not run these panels (" + warm.panelGemm + "): no row\n";
            continue;
        }
        if (kind.fusedOnly == GemmVariant::Cublas)  // one variant, either kernel: the row says which ran
            name += fused ? " (CUTLASS sums)" : " (cuBLAS)";
        for (int faults : {0, 1}) {
            // Each run against the plain product timed just before it: the card's clock drifts by a
            // few percent between rows (its power limit), and a pair shares its state.
            std::vector<double> times, plains, checks, ratios;
            OnlineRecord last;
            for (int r = 0; r < reps; ++r) {
                plains.push_back(kind.plainSeconds(n));
                last = once(configFor(gemm, faults));
                times.push_back(computeSeconds(last));
                checks.push_back(checkSeconds(last));
                ratios.push_back(plains.back() > 0 ? times.back() / plains.back() : 0.0);
            }
            const double time = median(times), plain = median(plains), ratio = median(ratios);
            t.add({name, std::to_string(faults), fixed(time * 1e3, 2), fixed(plain * 1e3, 2), fixed(ratio, 3) + "x",
                   percent(ratio - 1.0), fixed(median(checks) * 1e3, 2), outcome(last)});
            rows.push_back({{"n", n}, {"panel", panel}, {"scheme", "online"}, {"gemm", std::string(toString(gemm))},
                            {"fq", 1}, {"faults", faults}, {"seconds", time}, {kind.jsonPlainKey, plain},
                            {"ratio", ratio}, {"pair_ratios", ratios}, {"check_seconds", median(checks)},
                            {"panel_gemm", last.panelGemm}, {"fused_sums", fused}, {"verified", last.status == "ok"}});
        }
        notes += name + " panel GEMMs: " + warm.panelGemm + "\n";
      }
    t.print(out);
    out << notes << kind.note;
    return rows;
}

}  // namespace

nlohmann::json tf32Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                        std::int64_t panel, int reps, std::ostream& out)
{
    const RowsKind kind{"TF32", "TF32", {GemmVariant::CublasTf32, GemmVariant::CutlassTf32}, plainTf32Seconds,
                        "plain_tf32_seconds", GemmVariant::CutlassTf32, "CUTLASS sm_90a TF32",
                        "cutlass-tf32: the kernel that writes C writes its row and column sums too, so each check reads "
                        "C's checksum row and column only (cublas-tf32: one read of C per check)\n"};
    return roundedInputRows(backend, a, b, c, n, panel, reps, out, kind);
}

nlohmann::json bf16Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                        std::int64_t panel, int reps, std::ostream& out)
{
    const RowsKind kind{"BF16", "BF16", {GemmVariant::CublasBf16}, plain16BitSeconds<InputFormat::Bf16>, "plain_bf16_seconds",
                        GemmVariant::Cublas,
                        "CUTLASS sm_90a BF16",
                        "cublas-bf16 (--type bf16): FP32 values, each panel's checksum passes write its BF16 copies; "
                        "where the CUTLASS BF16 kernel takes the panels its epilogue writes C's sums and each check "
                        "reads C's checksum row and column only (cuBLAS BF16: one read of C per check). The plain "
                        "product multiplies operands already in BF16 (no conversion)\n"};
    return roundedInputRows(backend, a, b, c, n, panel, reps, out, kind);
}

nlohmann::json f16Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                       std::int64_t panel, int reps, std::ostream& out)
{
    const RowsKind kind{"FP16", "FP16", {GemmVariant::CublasF16}, plain16BitSeconds<InputFormat::F16>, "plain_f16_seconds",
                        GemmVariant::Cublas, "CUTLASS sm_90a FP16",
                        "cublas-f16 (--type f16): FP32 values, each panel's checksum passes write its FP16 copies; "
                        "where the CUTLASS FP16 kernel takes the panels its epilogue writes C's sums and each check "
                        "reads C's checksum row and column only (cuBLAS FP16: one read of C per check). The plain "
                        "product multiplies operands already in FP16 (no conversion)\n"};
    return roundedInputRows(backend, a, b, c, n, panel, reps, out, kind);
}

nlohmann::json tf32x3Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                          std::int64_t panel, int reps, std::ostream& out)
{
    // No fused-sums kernel here: the marker never matches, fusedOnly (Naive) names no variant.
    const RowsKind kind{"tf32x3 (FP32-accurate)", "SGEMM", {GemmVariant::Tf32x3}, plainSgemmSeconds,
                        "plain_sgemm_seconds", GemmVariant::Naive, "C's sums from its epilogue",
                        "tf32x3: each panel split into TF32 big and small parts, the two small terms multiplied as one "
                        "cuBLAS TF32 product of twice the depth, then the big parts (FP32 accuracy, FP32's threshold "
                        "with the tensor cores' accumulation), each check reading C; set against plain FP32 SGEMM, "
                        "the product it replaces\n"};
    return roundedInputRows(backend, a, b, c, n, panel, reps, out, kind);
}

}  // namespace gigacheck::online_abft
