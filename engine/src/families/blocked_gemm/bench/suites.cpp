// `gigacheck bench SUITE`: each suite prints a table of ratios against references measured in
// the same process (cuBLAS, in-core cuBLAS, cublasXt, the roofline bound), with the device name,
// the date and the commit (GIGACHECK_COMMIT) in the header; --json writes the full numbers.
#include "core/bench_stamp.hpp"
#include "gigacheck/bench.hpp"
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/schedule.hpp"
#include "gigacheck/version.hpp"

#include "core/bench_filter.hpp"
#include "core/interval_union.hpp"
#include "core/table.hpp"
#include "families/blocked_gemm/plan/device_probe.hpp"
#include "families/blocked_gemm/record/time_breakdown.hpp"
#include "families/blocked_gemm/bench/bench_device.hpp"
#ifdef GIGACHECK_HAVE_CUDA
#include "families/blocked_gemm/cuda/measure.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"
#include "families/blocked_gemm/bench/tf32x3_rows.hpp"
#endif
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <tuple>

namespace gigacheck {

namespace {

using bench::fixed;
using bench::percent;
using bench::Table;
using nlohmann::json;

const char* const kSuites[] = {"abft-overhead", "kernels", "out-of-core", "paper", "link"};

#ifdef GIGACHECK_HAVE_CUDA

// ---- abft-overhead --------------------------------------------------------------------------
json abftOverhead(const BenchOptions& o, std::ostream& out)
{
    std::vector<std::int64_t> sizes = o.quick ? std::vector<std::int64_t>{1024, 2048}
                                              : std::vector<std::int64_t>{4096, 8192, 16384};
    if (const auto items = bench::envList("GIGACHECK_BENCH_SIZES"); !items.empty()) {  // e.g. 4096,8192
        sizes.clear();
        for (const std::string& item : items)
            sizes.push_back(std::stoll(item));
    }
    struct Mode {
        const char* name;
        Precision p;
        GemmVariant variant;
        bool tf32() const { return variant == GemmVariant::CublasTf32; }
        bool tensorCores() const { return roundsOperands(variant); }
    };
    const Mode modes[] = {{"FP32", Precision::F32, GemmVariant::Cublas},     {"TF32", Precision::F32, GemmVariant::CublasTf32},
                          {"BF16", Precision::F32, GemmVariant::CublasBf16}, {"FP16", Precision::F32, GemmVariant::CublasF16},
                          {"FP64", Precision::F64, GemmVariant::Cublas}};
    Table t({"N", "precision", "errors", "plain cuBLAS ms", "protected ms", "overhead", "verdict", "fault / max thr.",
             "fixed rel.err", "target"});
    Table stages({"N", "precision", "ABFT stage alone", "GB read", "ms", "GB/s"});
    // The fused product (--gemm cutlass-tf32) against the same plain cuBLAS TF32 GEMM.
    Table fused({"N", "errors", "plain cuBLAS TF32 ms", "CUTLASS kernel ms", "kernel vs cuBLAS",
                 "kernel, rounded operands ms", "protected ms", "overhead", "verdict", "fault / max thr.",
                 "fixed rel.err", "target"});
    // The same product on operands prepared at entry (checksums and B^T made once, then two reads per product).
    Table prepared({"N", "errors", "plain cuBLAS TF32 ms", "entry ms (once)", "kernel + sums ms", "protected ms", "overhead",
                    "one product + entry", "verdict", "fault / max thr.", "fixed rel.err", "target",
                    "sums by a pass: ms", "overhead", "verdict", "pass first: ms", "overhead",
                    "column the other way: ms", "overhead", "verdict"});
    // The CUTLASS 16-bit kernel alone (no sums) against cuBLAS of the same precision, same operands.
    Table kernels16({"N", "precision", "plain cuBLAS ms", "CUTLASS kernel ms", "kernel vs cuBLAS", "tuner's pick",
                     "entry ms (prepared rows, once)", "target"});
    std::string fusedWhy, sumsFromEpilogueWhy, preparedPicks;
    int fusedRows = 0;
    json rows = json::array();
    for (std::int64_t n : sizes)
        for (const Mode& m : modes)
            for (int errors : {0, 1}) {
                if (!bench::selected("GIGACHECK_BENCH_TYPES", m.name))  // FP32, TF32, BF16, FP16, FP64
                    continue;
                const cuda::AbftTiming r =
                    cuda::timeAbftOverhead(m.p, m.variant, n, errors, o.quick ? 3 : m.tensorCores() ? 21 : 7);
                if (!m.tensorCores())
                    for (const cuda::StageTiming& st : r.stages)
                        stages.add({std::to_string(n), m.name, st.name, fixed(st.bytes / 1e9, 2), fixed(st.ms, 3),
                                    fixed(st.bytes / (st.ms * 1e-3) / 1e9, 0)});
                for (const cuda::StageTiming& st : r.fused.stages)  // the fused path's passes (TF32)
                    stages.add({std::to_string(n), "TF32 fused", st.name, fixed(st.bytes / 1e9, 2), fixed(st.ms, 3),
                                fixed(st.bytes / (st.ms * 1e-3) / 1e9, 0)});
                const double overhead = r.protectedMs / r.plainMs - 1.0;
                // Issue 13's targets: FP32 stays <= 1 % (N >= 8192, where it was <= 0.4 %); TF32 <= 12 %
                // at 4096, <= 5 % at 8192, <= 3 % at 16384.
                double limit = -1;
                if (std::string(m.name) == "FP32" && n >= 8192)
                    limit = 0.01;
                if (m.tensorCores())  // TF32, BF16 and FP16 alike
                    limit = n <= 4096 ? 0.12 : n <= 8192 ? 0.05 : 0.03;
                std::string target = "-";
                if (limit > 0)
                    target = "<=" + fixed(limit * 100, 0) + "%: " + (overhead <= limit ? "met" : "MISSED");
                t.add({std::to_string(n), m.name, std::to_string(errors), fixed(r.plainMs, 3), fixed(r.protectedMs, 3),
                       percent(overhead, 2), r.verdict, errors ? fixed(r.delta / r.threshold, 1) : "-",
                       errors ? fixed(r.correctedRelError, 9) : "-", target});
                rows.push_back({{"n", n}, {"precision", m.name}, {"errors", errors}, {"plain_ms", r.plainMs},
                                {"protected_ms", r.protectedMs}, {"overhead", overhead}, {"verdict", r.verdict},
                                {"corrections", r.corrections}, {"corrected_rel_error", r.correctedRelError},
                                {"max_threshold", r.threshold}, {"fault_delta", r.delta}});
                for (const auto& [x, suffix] :
                     {std::pair{r.operands16, ", 16-bit operands"},
                      std::pair{r.operands16SumsFromEpilogue, ", 16-bit operands, sums in epilogue"},
                      std::pair{r.operands16Prepared, ", 16-bit operands prepared at entry, sums in epilogue"},
                      std::pair{r.operands16PreparedPassFirst, ", 16-bit operands prepared at entry, pass first"},
                      std::pair{r.operands16PreparedColumnByPass, ", 16-bit operands prepared at entry, the other way"}}) {
                    if (!x.ran) {  // BF16 / FP16: protected, 16-bit operands (also with C's sums from CUTLASS)
                        if (!x.why.empty())
                            sumsFromEpilogueWhy = x.why;
                        continue;
                    }
                    const double overhead16 = x.protectedMs / r.plainMs - 1.0;
                    const std::string name =
                        std::string(m.name) + suffix + (x.checksumsBy.empty() ? "" : " (" + x.checksumsBy + ")");
                    t.add({std::to_string(n), name, std::to_string(errors), fixed(r.plainMs, 3), fixed(x.protectedMs, 3),
                           percent(overhead16, 2), x.verdict, errors ? fixed(r.delta / x.threshold, 1) : "-",
                           errors ? fixed(x.correctedRelError, 9) : "-",
                           "<=" + fixed(limit * 100, 0) + "%: " + (overhead16 <= limit ? "met" : "MISSED")});
                    rows.push_back({{"n", n}, {"precision", name}, {"errors", errors}, {"plain_ms", r.plainMs},
                                    {"protected_ms", x.protectedMs}, {"overhead", overhead16}, {"verdict", x.verdict},
                                    {"corrections", x.corrections}, {"corrected_rel_error", x.correctedRelError},
                                    {"max_threshold", x.threshold}, {"fault_delta", r.delta}});
                }
                if (const auto& k = r.operands16SumsFromEpilogue; k.ran && errors == 0) {
                    const double ratio = r.plainMs / k.kernelMs;
                    kernels16.add({std::to_string(n), m.name, fixed(r.plainMs, 3), fixed(k.kernelMs, 3), percent(ratio),
                                   k.picked, fixed(r.operands16Prepared.entryMs, 3),
                                   n >= 8192 ? (ratio >= 0.95 ? ">=95%: met" : ">=95%: MISSED") : "-"});
                    rows.push_back({{"n", n}, {"precision", std::string(m.name) + " CUTLASS kernel"}, {"plain_ms", r.plainMs},
                                    {"kernel_ms", k.kernelMs}, {"kernel_vs_cublas", ratio}, {"picked", k.picked}});
                }
                if (m.tf32() && r.fused.ran) {
                    const cuda::AbftTiming::Fused& f = r.fused;
                    const double fusedOverhead = f.protectedMs / r.plainMs - 1.0;
                    ++fusedRows;
                    fused.add({std::to_string(n), std::to_string(errors), fixed(r.plainMs, 3), fixed(f.kernelMs, 3),
                               percent(r.plainMs / f.kernelMs), fixed(f.kernelRoundedMs, 3), fixed(f.protectedMs, 3),
                               percent(fusedOverhead, 2),
                               f.verdict, errors ? fixed(r.delta / f.threshold, 1) : "-",
                               errors ? fixed(f.correctedRelError, 9) : "-",
                               "<=" + fixed(limit * 100, 0) + "%: " + (fusedOverhead <= limit ? "met" : "MISSED")});
                    rows.push_back({{"n", n}, {"precision", "TF32 fused (cutlass-tf32)"}, {"errors", errors},
                                    {"plain_ms", r.plainMs}, {"kernel_ms", f.kernelMs},
                                    {"kernel_rounded_operands_ms", f.kernelRoundedMs}, {"protected_ms", f.protectedMs},
                                    {"overhead", fusedOverhead}, {"verdict", f.verdict}, {"corrections", f.corrections},
                                    {"corrected_rel_error", f.correctedRelError}, {"max_threshold", f.threshold},
                                    {"fault_delta", r.delta}});
                    const double preparedOverhead = f.preparedMs / r.plainMs - 1.0;
                    const double withEntry = (f.preparedMs + f.prepareMs) / r.plainMs - 1.0;
                    prepared.add({std::to_string(n), std::to_string(errors), fixed(r.plainMs, 3), fixed(f.prepareMs, 3),
                                  fixed(f.kernelWithSumsMs, 3), fixed(f.preparedMs, 3), percent(preparedOverhead, 2), percent(withEntry, 2),
                                  f.preparedVerdict, errors ? fixed(r.delta / f.preparedThreshold, 1) : "-",
                                  errors ? fixed(f.preparedCorrectedRelError, 9) : "-",
                                  "<=" + fixed(limit * 100, 0) + "%: " + (preparedOverhead <= limit ? "met" : "MISSED"),
                                  fixed(f.preparedByPassMs, 3), percent(f.preparedByPassMs / r.plainMs - 1.0, 2),
                                  f.preparedByPassVerdict, fixed(f.preparedPassFirstMs, 3),
                                  percent(f.preparedPassFirstMs / r.plainMs - 1.0, 2),
                                  f.preparedOtherWayMs > 0 ? fixed(f.preparedOtherWayMs, 3) : "-",
                                  f.preparedOtherWayMs > 0 ? percent(f.preparedOtherWayMs / r.plainMs - 1.0, 2) : "-",
                                  f.preparedOtherWayMs > 0 ? f.preparedOtherWayVerdict : "-"});
                    if (errors == 0)
                        preparedPicks += "  N = " + std::to_string(n) + ": the kernel runs " + f.picked +
                                         "; C's checksum column by the " + f.preparedColumn + "\n";
                    rows.push_back({{"n", n}, {"precision", "TF32 fused, operands prepared at entry"}, {"errors", errors},
                                    {"plain_ms", r.plainMs}, {"entry_ms", f.prepareMs}, {"kernel_with_sums_ms", f.kernelWithSumsMs},
                                    {"protected_ms", f.preparedMs},
                                    {"overhead", preparedOverhead}, {"overhead_with_entry", withEntry},
                                    {"verdict", f.preparedVerdict}, {"corrections", f.preparedCorrections},
                                    {"corrected_rel_error", f.preparedCorrectedRelError},
                                    {"max_threshold", f.preparedThreshold}, {"fault_delta", r.delta},
                                    {"sums_by_pass_protected_ms", f.preparedByPassMs},
                                    {"sums_by_pass_verdict", f.preparedByPassVerdict},
                                    {"pass_first_protected_ms", f.preparedPassFirstMs},
                                    {"checksum_column_by", f.preparedColumn},
                                    {"other_way_protected_ms", f.preparedOtherWayMs},
                                    {"other_way_verdict", f.preparedOtherWayVerdict}});
                } else if (m.tf32()) {
                    fusedWhy = r.fused.why;
                }
                out << "." << std::flush;
            }
    out << "\nABFT overhead: protected (checksum of B, checksum products beside the GEMM, [1 injected fault],\n"
           "verify + correct) vs plain cuBLAS GEMM of the same n x n x n product, in-core, median of CUDA-event\n"
           "times (7 repetitions; 21 for TF32 / BF16 / FP16, whose short GEMMs vary more). BF16 / FP16: FP32\n"
           "values, 16-bit inputs, FP32 accumulation and C; the plain side reads operands already in 16 bits, the\n"
           "protected side rounds its FP32 operands in registers in its checksum passes, which write the 16-bit\n"
           "copies its GEMM reads. \"16-bit operands\": the protected product on the plain side's own 16-bit\n"
           "operands (its passes read 2 bytes per element; fixed rel.err: the checksum's correction itself);\n"
           "\"sums in epilogue\": the same with a CUTLASS sm_90a kernel writing C's sums, the check reading no C;\n"
           "\"prepared at entry\": that, with A's and B's checksum vectors taken once when they entered (each product\n"
           "then reads A and B once for its checksums, launched after the kernel so that they run in its last\n"
           "round of tiles; the entry's time is in the kernel table below); \"pass first\": those reads before the kernel.\n"
           "BF16 / FP16 prepared at entry, where the kernel leaves SMs idle without a round of tiles more: C's\n"
           "checksum row and column are two cuBLASLt products on those SMs during the kernel (c_A and r_B in four\n"
           "16-bit parts each, FP16's scaled by powers of two); elsewhere BF16 takes C's checksum column from the\n"
           "kernel where the TF32 product does (B's checksum columns multiplied as eight more columns of C; the pass\n"
           "reads B alone). The row's parentheses say which ran; \"the other way\": the same product without the\n"
           "side products (or without the kernel's checksum column)\n\n";
    t.print(out);
    if (!sumsFromEpilogueWhy.empty())
        out << "  16-bit sums in the epilogue not measured: " << sumsFromEpilogueWhy << "\n";
    if (!kernels16.empty()) {
        out << "\nThe CUTLASS 16-bit kernel alone (C = A B, no sums) against cuBLAS of the same precision, same operands\n\n";
        kernels16.print(out);
    }
    out << "\nThe ABFT stages alone (4 passes per product: B, then A and B in the checksum products, then C; the\n"
           "fused TF32 path: B read once for its checksum and B^T written, A and B in the checksum products, no C):\n\n";
    stages.print(out);
    out << "\nTF32 fused (--gemm cutlass-tf32): the CUTLASS kernel's epilogue writes C's row and column sums, so the\n"
           "check reads no C; its kernel reads B^T (both operands K-major), which B's checksum pass lays out\n"
           "rounded to nearest TF32 in the same read of B. The checksum passes round A and B in registers, as the\n"
           "kernel does, and write neither; the fused rows run on their own copies of the unrounded inputs.\n"
           "\"kernel, rounded operands\": the kernel alone on the operands the protected product hands it (A as\n"
           "stored, the rounded B^T; the plain kernel column gets the plain B^T laid out beforehand). Overhead\n"
           "against the same plain cuBLAS TF32 GEMM, in the same repetitions\n\n";
    if (fusedRows == 0)
        out << "  not measured: " << (fusedWhy.empty() ? std::string("no TF32 row ran") : fusedWhy) << "\n";
    else
        fused.print(out);
    if (fusedRows > 0) {
        out << "\nTF32 fused on operands prepared at entry: A's and B's checksums (over the rounded values, with the\n"
               "weights of their round-off bounds) and B^T are made once when the operands enter (\"entry\", one read\n"
               "of A and of B, one write of B^T); each product then reads A and B^T once for the checksum column\n"
               "A r_B and row c_A B, and no C. A fault in A or B^T after entry shows in the check. The pass is launched\n"
               "after the kernel on a stream of lower priority, so that it runs on the multiprocessors the kernel's\n"
               "last round of tiles leaves idle (\"pass first\": the same product with the pass before the kernel).\n"
               "\"kernel + sums\": the kernel alone writing C's sums (no passes, no check); \"one product + entry\": the\n"
               "overhead of a single product that pays the entry itself; \"sums by a pass\": the same product with the\n"
               "kernel writing only C and the check summing C in one pass. Where C's width is a multiple of 128 and the\n"
               "kernel walks its tiles in a few rounds (4096 on an H100 or H200), the kernel takes the checksum column\n"
               "itself: B^T's checksum rows (r_B in three TF32 parts) are multiplied as four more columns of C, every\n"
               "multiprocessor runs the kernel, and the pass reads B^T alone; \"column the other way\": the same product with the checksum\n"
               "column taken by the pass where the kernel took it, and by the kernel where it fits and the pass took it\n\n";
        prepared.print(out);
        out << preparedPicks;
    }
    if (bench::selected("GIGACHECK_BENCH_TYPES", "tf32x3"))
        blocked_gemm::tf32x3AbftRows(sizes, o.quick ? 3 : 21, out, rows);
    return rows;
}

// ---- kernels --------------------------------------------------------------------------------
// TF32 on the tensor cores: cuBLAS against each CUTLASS configuration this build has (the kernel of
// --gemm cutlass-tf32, timed without its sums), on FP32 inputs: every configuration that reads B^T
// (K-major), the tuner's pick among them, then every one that reads B as it lies.
void tensorCoreKernels(const BenchOptions& o, std::ostream& out, json& rows)
{
    std::vector<std::int64_t> sizes = o.quick ? std::vector<std::int64_t>{1024, 2048}
                                              : std::vector<std::int64_t>{4096, 8192, 16384};
    if (const auto items = bench::envList("GIGACHECK_BENCH_SIZES"); !items.empty()) {  // e.g. 8192,16384
        sizes.clear();
        for (const std::string& item : items)
            sizes.push_back(std::stoll(item));
    }
    Table t({"N", "variant", "ms", "GFLOP/s", "vs cuBLAS TF32", "max rel.err", "target"});
    std::string why;
    std::vector<std::string> picks;
    for (std::int64_t n : sizes) {
        const cuda::GemmTiming ref = cuda::timeGemm(GemmVariant::CublasTf32, 0, 16, Precision::F32, n, 5);
        t.add({std::to_string(n), "cublas-tf32", fixed(ref.medianMs, 3), fixed(ref.gflops, 0), "100.0%",
               fixed(ref.relError, 9), "-"});
        rows.push_back({{"n", n}, {"variant", "cublas-tf32"}, {"ms", ref.medianMs}, {"gflops", ref.gflops},
                        {"vs_cublas_tf32", 1.0}, {"rel_error", ref.relError}});
        auto add = [&](int config, bool kMajorB) {
            const cuda::GemmTiming r = cuda::timeGemm(GemmVariant::CutlassTf32, config, 16, Precision::F32, n, 5, kMajorB);
            const double ratio = r.gflops / ref.gflops;
            const std::string name = "cutlass-tf32 " + r.kernel;
            std::string target = "-";
            if (n >= 8192)
                target = ratio >= 0.95 ? ">=95%: met" : ">=95%: MISSED";
            t.add({std::to_string(n), name, fixed(r.medianMs, 3), fixed(r.gflops, 0), percent(ratio),
                   fixed(r.relError, 9), target});
            json row = {{"n", n}, {"variant", name}, {"ms", r.medianMs}, {"gflops", r.gflops},
                        {"vs_cublas_tf32", ratio}, {"rel_error", r.relError}};
            if (!r.picked.empty()) {
                row["picked"] = r.picked;
                picks.push_back("  N = " + std::to_string(n) + ": the tuner runs " + r.picked + "\n");
            }
            rows.push_back(row);
            return r;
        };
        try {
            // The default first (its lists say what else this build has), then the other K-major
            // configurations, the tuned call (config -1: the pick of every K-major one, timed once
            // in its untimed first run), then every configuration with B as it lies.
            const cuda::GemmTiming first = add(0, true);
            for (int config : first.kernelsKMajor)
                if (config != 0)
                    add(config, true);
            add(-1, true);
            for (int config : first.kernelsBAsItLies)
                add(config, false);
        } catch (const BackendError& e) {
            why = e.what();
        }
        out << "." << std::flush;
    }
    out << "\n\nGEMM kernels, TF32 on the tensor cores (FP32 inputs and C), the same measure. \"B K-major\": the\n"
           "kernel reads B^T, laid out beforehand (untimed), as the fused protected product of bench abft-overhead\n"
           "lays out its rounded B; \"tuned\": the configuration --gemm cutlass-tf32 runs on B^T, the fastest\n"
           "K-major one for the shape (timed once per process, the default kept within 1 %); the rows without\n"
           "\"B K-major\" read B as it lies (N-major, through registers), as --gemm cutlass-tf32 does in a blocked run\n\n";
    t.print(out);
    for (const std::string& pick : picks)
        out << pick;
    if (!why.empty())
        out << "  CUTLASS kernels not timed: " << why << "\n";
}

json kernels(const BenchOptions& o, std::ostream& out)
{
    const std::vector<std::int64_t> sizes = o.quick ? std::vector<std::int64_t>{512, 1024}
                                                    : std::vector<std::int64_t>{1024, 2048, 4096, 8192};
    struct Variant {
        std::string name;
        GemmVariant v;
        int tile, bk;
    };
    const std::vector<Variant> variants = {{"cublas", GemmVariant::Cublas, 32, 16},
                                           {"naive", GemmVariant::Naive, 32, 16},
                                           {"tiled 8", GemmVariant::Tiled, 8, 16},
                                           {"tiled 16", GemmVariant::Tiled, 16, 16},
                                           {"tiled 32", GemmVariant::Tiled, 32, 16},
                                           {"optimized (BK 8)", GemmVariant::Optimized, 32, 8},
                                           {"optimized", GemmVariant::Optimized, 32, 16}};
    Table t({"N", "variant", "ms", "GFLOP/s", "vs cuBLAS", "max rel.err", "target"});
    json rows = json::array();
    // GIGACHECK_BENCH_TYPES=TF32: the tensor-core table alone (FP32: the FP32 table alone).
    const bool fp32Table = bench::selected("GIGACHECK_BENCH_TYPES", "FP32");
    for (std::int64_t n : fp32Table ? sizes : std::vector<std::int64_t>{}) {
        double cublasGflops = 0;
        for (const Variant& v : variants) {
            if (v.v != GemmVariant::Cublas && !bench::selected("GIGACHECK_BENCH_VARIANTS", v.name))
                continue;  // cuBLAS stays: the reference of the ratios
            const bool slow = v.v == GemmVariant::Naive || v.v == GemmVariant::Tiled;
            const cuda::GemmTiming r = cuda::timeGemm(v.v, v.tile, v.bk, Precision::F32, n, slow && n >= 4096 ? 2 : 5);
            if (v.v == GemmVariant::Cublas)
                cublasGflops = r.gflops;
            const double ratio = r.gflops / cublasGflops;
            std::string target = "-";
            if (v.name == "optimized" && n == 8192)
                target = ratio >= 0.70 ? ">=70%: met" : ">=70%: MISSED";
            t.add({std::to_string(n), v.name, fixed(r.medianMs, 3), fixed(r.gflops, 0), percent(ratio),
                   fixed(r.relError, 9), target});
            rows.push_back({{"n", n}, {"variant", v.name}, {"ms", r.medianMs}, {"gflops", r.gflops},
                            {"vs_cublas", ratio}, {"rel_error", r.relError}});
            out << "." << std::flush;
        }
    }
    if (fp32Table) {
        out << "\nGEMM kernels, FP32, C = A B with n x n random inputs, median of CUDA-event times;\n"
               "max rel.err = max |C - C_ref| / (|A| |B|) on sampled rows against an FP64 host product\n\n";
        t.print(out);
    }
    if (bench::selected("GIGACHECK_BENCH_TYPES", "TF32"))
        tensorCoreKernels(o, out, rows);
    if (bench::selected("GIGACHECK_BENCH_TYPES", "tf32x3"))
        blocked_gemm::tf32x3KernelRows(blocked_gemm::tf32x3Sizes(o.quick), out, rows);
    return rows;
}

// ---- out-of-core ----------------------------------------------------------------------------
struct StrategyRun {
    double seconds = 0, h2dBytes = 0, d2hBytes = 0;
    int products = 0, notClean = 0;
    std::size_t peak = 0;
    std::string splits;
    double predictedSeconds = 0;  // the cost model's total for the same schedule
    double blockGemmSeconds = 0;  // the plan's products as device-resident cuBLAS GEMMs of their shapes
    FillDrain measuredEnds, predictedEnds;  // no product running: the first loads, the last store
    blocked_gemm::TimeBreakdown breakdown;  // where the time goes beyond the products alone
    double h2dBusy = 0, predictedH2dBusy = 0;  // the H2D queue's busy time, measured and predicted
    H2dStaging staging = H2dStaging::Direct;     // how its block loads left the host
    // The prediction with the device's table alone (no calibration on the bench's host matrices)
    // and the calibrations' factors (cost_model.hpp calibrateH2d, calibratePacking).
    double tablePredictedSeconds = 0, h2dFactor = 1, packFactor = 1;
};

// The time a queue was busy (the union of its spans): where a prediction that misses is wrong.
double busySeconds(const std::vector<Span>& spans, Queue queue)
{
    std::vector<std::pair<double, double>> intervals;
    for (const Span& s : spans)
        if (s.queue == queue && s.kind != OpKind::Recompute)
            intervals.emplace_back(s.start, s.end);
    return unionSeconds(std::move(intervals));
}

// Issue 13's GEMM roof "at those block shapes": every product of the plan timed as one cuBLAS GEMM
// of its extents, operands already on the device, in this process. Small blocks run below the
// in-core rate (fewer waves, more tail), which no out-of-core strategy can win back. Each distinct
// shape is timed once per bench process (a plan has at most 8: full and edge extents of each
// dimension; the strategies and `auto` of one cap share most of them).
double blockGemmSeconds(const Plan& plan)
{
    static std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, Precision>, double> secondsOf;
    double total = 0;
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j)
            for (int k = 0; k < plan.splitN; ++k) {
                const std::int64_t m = plan.rowsOf(i), n = plan.depthOf(k), q = plan.colsOf(j);
                const auto key = std::make_tuple(m, n, q, plan.precision);
                auto it = secondsOf.find(key);
                if (it == secondsOf.end()) {
                    const double gflops = cuda::inCoreGemmGflops(m, n, q, plan.precision, 5);
                    it = secondsOf.emplace(key, 2.0 * double(m) * double(n) * double(q) / (gflops * 1e9)).first;
                }
                total += it->second;
            }
    return total;
}

// "35.1 / 33.0": the measured and the predicted time without a product running, in ms.
std::string fillDrainText(const StrategyRun& r)
{
    const auto ms = [](const FillDrain& f) { return fixed(1e3 * (f.fillSeconds + f.drainSeconds), 1); };
    return ms(r.measuredEnds) + " / " + ms(r.predictedEnds);
}
std::string h2dBusyText(const StrategyRun& r) { return fixed(1e3 * r.h2dBusy, 1) + " / " + fixed(1e3 * r.predictedH2dBusy, 1); }
// The table-only prediction's error and the calibration's factor: what the calibration changed.
std::string tableOnlyText(const StrategyRun& r)
{
    return percent(r.tablePredictedSeconds / r.seconds - 1) + " (x" + fixed(r.h2dFactor, 2) +
           (r.staging == H2dStaging::Pack ? ", pack x" + fixed(r.packFactor, 2) : std::string()) + ")";
}

// Issue 13's bound of a run: the GEMM roof at its blocks' shapes or the host link for its blocks'
// bytes, whichever is slower. The stricter in-core bound puts 2n^3 / in-core rate as the GEMM term.
struct Bound {
    double gemmSeconds = 0, inCoreGemmSeconds = 0, linkSeconds = 0, seconds = 0, inCoreSeconds = 0;
    std::string by;
    std::string verdict(double measured) const
    {
        return seconds / measured >= 0.9 ? "<=10% off bound: met" : "<=10% off bound: MISSED";
    }
};

Bound boundOf(const StrategyRun& r, double flops, double inCoreGflops, double h2dGBs, double d2hGBs)
{
    Bound b;
    b.inCoreGemmSeconds = flops / (inCoreGflops * 1e9);
    b.gemmSeconds = std::max(b.inCoreGemmSeconds, r.blockGemmSeconds);
    b.linkSeconds = std::max(r.h2dBytes / (h2dGBs * 1e9), r.d2hBytes / (d2hGBs * 1e9));
    b.seconds = std::max(b.gemmSeconds, b.linkSeconds);
    b.inCoreSeconds = std::max(b.inCoreGemmSeconds, b.linkSeconds);
    b.by = b.gemmSeconds >= b.linkSeconds ? "GEMM" : "link";
    return b;
}

// Whether --h2d-staging pack would pack any block load of the plan (not every one is contiguous).
bool packsAny(const Plan& plan, const HostMatrix& a, const HostMatrix& b)
{
    const std::int64_t es = std::int64_t(elementSize(plan.precision));
    for (const Operation& op : buildSchedule(plan).ops)
        if (op.kind == OpKind::CopyH2D && packsOnHost(H2dStaging::Pack, op.host.rows, op.host.cols * es,
                                                      (op.host.matrix == Operand::A ? a : b).cols() * es))
            return true;
    return false;
}

StrategyRun runPlan(Backend& backend, const Plan& plan, CostModel model, HostMatrix& a, HostMatrix& b,
                    HostMatrix& c, H2dStaging staging = H2dStaging::Auto)
{
    const GemmSchedule schedule = buildSchedule(plan);
    if (staging == H2dStaging::Auto)  // as runGemm resolves it
        staging = chooseH2dStaging(schedule, model, "f32", elementSize(Precision::F32)).staging;
    blocked_gemm::Inputs inputs;
    inputs.plan = plan;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    inputs.gemm = GemmVariant::Cublas;
    inputs.h2dStaging = staging;
    ExecutionRequest req;
    req.schedule = &schedule;
    req.inputs = &inputs;
    // The model on these host matrices, as runGemm calibrates a run (before it, the link idle).
    StrategyRun out;
    model.h2dStaging = staging;
    out.tablePredictedSeconds = predictSchedule(schedule, model, "f32", elementSize(Precision::F32)).totalSeconds;
    const RunCalibration calibration =
        calibrateOnRunsMatrices(model, schedule, elementSize(Precision::F32), a, b, backend.device().index);
    out.h2dFactor = calibration.h2d.factor;
    out.packFactor = calibration.pack.factor;
    const ExecutionResult r = backend.execute(req);
    out.seconds = r.wallSeconds;
    out.staging = staging;
    const Prediction predicted = predictSchedule(schedule, model, "f32", elementSize(Precision::F32));
    out.predictedSeconds = predicted.totalSeconds;
    out.predictedEnds = fillDrainOf(predicted.spans);
    out.measuredEnds = fillDrainOf(r.spans);
    out.peak = r.peakBufferBytes;
    out.products = plan.productCount();
    out.splits = std::to_string(plan.splitM) + "x" + std::to_string(plan.splitN) + "x" + std::to_string(plan.splitQ);
    out.blockGemmSeconds = blockGemmSeconds(plan);
    out.breakdown = blocked_gemm::breakdownOf(r.spans);
    out.h2dBusy = busySeconds(r.spans, Queue::H2D);
    out.predictedH2dBusy = busySeconds(predicted.spans, Queue::H2D);
    for (const Span& sp : r.spans) {
        if (sp.queue == Queue::H2D)
            out.h2dBytes += sp.bytes;
        if (sp.queue == Queue::D2H)
            out.d2hBytes += sp.bytes;
    }
    for (const VerifyEvent& v : r.verifications)
        out.notClean += v.result.verdict == Verdict::Clean ? 0 : 1;
    return out;
}

StrategyRun runStrategy(Backend& backend, StrategyKind s, std::uint64_t cap, const CostModel& model, HostMatrix& a,
                        HostMatrix& b, HostMatrix& c, bool abft = true, H2dStaging staging = H2dStaging::Auto)
{
    const Shape shape{a.rows(), a.cols(), b.cols()};
    return runPlan(backend, makePlan(shape, Precision::F32, s, cap, abft), model, a, b, c, staging);
}

// The cost model of the bench's device: the stored rate tables, measured now when missing.
CostModel benchModel(const Backend& backend, bool quick, std::ostream& out)
{
    DeviceInfo info = backend.device();
    try {
        loadCeilings(defaultCeilingsPath(), info);
    } catch (const std::exception&) {
    }
    if (!hasMeasuredRates(info.ceilings)) {
        out << "(no stored rate tables for this device: measuring them now; gigacheck devices --measure stores them)\n"
            << std::flush;
        cuda::measureRateTables(info.ceilings, quick);
        cuda::linkBandwidth(info.ceilings.h2dGBs, info.ceilings.d2hGBs);
        info.ceilings.source = "measured by the bench";
    }
    return costModelOf(info);
}

json outOfCore(const BenchOptions& o, std::ostream& out)
{
    std::string why;
    std::unique_ptr<Backend> backend = makeCudaBackend(&why, o.device);
    if (!backend)
        throw BackendError("no CUDA device: " + why);
    // GIGACHECK_BENCH_SIZES (e.g. 32768), _CAPS ("4 GiB" written 4GiB), _STRATEGIES (s1..s4),
    // _XT_BLOCKS (cublasXt block sides): one row of the table inside a device call's time.
    std::vector<std::int64_t> sizes = o.quick ? std::vector<std::int64_t>{2048, 4096} : std::vector<std::int64_t>{16384, 32768};
    if (const auto items = bench::envList("GIGACHECK_BENCH_SIZES"); !items.empty()) {
        sizes.clear();
        for (const std::string& item : items)
            sizes.push_back(std::stoll(item));
    }
    std::vector<std::pair<std::string, std::uint64_t>> caps =
        o.quick ? std::vector<std::pair<std::string, std::uint64_t>>{{"8 MiB", 8ull << 20}, {"32 MiB", 32ull << 20}}
                : std::vector<std::pair<std::string, std::uint64_t>>{
                      {"256 MiB", 256ull << 20}, {"1 GiB", 1ull << 30}, {"4 GiB", 4ull << 30}};
    std::erase_if(caps, [](const auto& cap) {
        std::string compact = cap.first;
        std::erase(compact, ' ');
        return !bench::selected("GIGACHECK_BENCH_CAPS", compact);
    });
    std::vector<int> xtBlocks = o.quick ? std::vector<int>{512, 1024} : std::vector<int>{2048, 4096, 8192};
    if (const auto items = bench::envList("GIGACHECK_BENCH_XT_BLOCKS"); !items.empty()) {
        xtBlocks.clear();
        for (const std::string& item : items)
            xtBlocks.push_back(std::stoi(item));
    }
    double h2d = 0, d2h = 0;
    cuda::linkBandwidth(h2d, d2h);
    const CostModel model = benchModel(*backend, o.quick, out);
    // Predicted vs measured per strategy and cap, and the planner's choice beside the best measured.
    Table p({"N", "cap", "strategy", "splits m/n/q", "measured s", "predicted s", "error", "fill+drain ms (meas / pred)",
             "H2D busy ms (meas / pred)", "table only (H2D x, pack x)",
             "target"});

    // Where each run's time goes beyond its products alone (time_breakdown.hpp): the measurement
    // behind a run that stays more than 10 % off its bound.
    Table w({"N", "cap", "strategy", "splits m/n/q", "span ms", "GEMMs alone", "stretch", "ABFT alone", "stalls",
             "fill + drain"});
    const auto addBreakdown = [&](std::int64_t n, const std::string& capName, const std::string& name,
                                  const StrategyRun& r, json& row) {
        const blocked_gemm::TimeBreakdown& b = r.breakdown;
        const auto part = [&](double seconds) {
            return fixed(seconds * 1e3, 1) + " (" + percent(b.spanSeconds > 0 ? seconds / b.spanSeconds : 0) + ")";
        };
        // Products busy = the products timed alone (the bound's GEMM term) + their stretch in the run.
        const double stretch = b.productBusySeconds - r.blockGemmSeconds;
        w.add({std::to_string(n), capName, name, r.splits, fixed(b.spanSeconds * 1e3, 1), part(r.blockGemmSeconds),
               part(stretch), part(b.abftAloneSeconds), part(b.stallSeconds), part(b.fillSeconds + b.drainSeconds)});
        row["breakdown"] = {{"span_seconds", b.spanSeconds},       {"gemm_alone_seconds", r.blockGemmSeconds},
                            {"stretch_seconds", stretch},          {"abft_alone_seconds", b.abftAloneSeconds},
                            {"stall_seconds", b.stallSeconds},     {"fill_seconds", b.fillSeconds},
                            {"drain_seconds", b.drainSeconds}};
    };
    Table t({"N", "cap", "strategy", "splits m/n/q", "seconds", "GFLOP/s", "vs in-core", "vs cublasXt best",
             "vs in-core bound", "vs bound", "bound by", "verdicts", "target"});
    json rows = json::array();
    for (std::int64_t n : sizes) {
        const HostAllocator pinned = backend->hostAllocator();
        HostMatrix a(Precision::F32, n, n, pinned), b(Precision::F32, n, n, pinned), c(Precision::F32, n, n, pinned);
        fillRandom(a, Distribution::Uniform, 1, 0);
        fillRandom(b, Distribution::Uniform, 1, 1);
        const double flops = 2.0 * double(n) * double(n) * double(n);
        const double inCore = cuda::inCoreGemmGflops(n, n, n, Precision::F32, 3);
        double xtBest = 0;
        int xtBlock = 0;
        for (int bd : xtBlocks) {
            const double sec = cuda::timeCublasXt(a, b, c, bd, 1);
            rows.push_back({{"n", n}, {"baseline", "cublasXt"}, {"block_dim", bd}, {"seconds", sec}});
            if (xtBest == 0 || flops / sec / 1e9 > xtBest) {
                xtBest = flops / sec / 1e9;
                xtBlock = bd;
            }
            out << "." << std::flush;
        }
        t.add({std::to_string(n), "-", "in-core cuBLAS", "-", fixed(flops / inCore / 1e9, 3), fixed(inCore, 0), "100.0%",
               percent(inCore / xtBest), "-", "-", "-", "-", "-"});
        t.add({std::to_string(n), "-", "cublasXt (block " + std::to_string(xtBlock) + ")", "-",
               fixed(flops / xtBest / 1e9, 3), fixed(xtBest, 0), percent(xtBest / inCore), "100.0%", "-", "-", "-", "-", "-"});
        rows.push_back({{"n", n}, {"baseline", "in-core cublas"}, {"gflops", inCore}});
        for (const auto& [capName, cap] : caps) {
            double best = 0;
            double bestMeasured = std::numeric_limits<double>::infinity();
            std::string bestName = "-";
            // One run of a strategy at this size and cap: the main table, the JSON, where its time goes,
            // predicted vs measured, and the best of the cap.
            const auto addStrategyRow = [&](const std::string& name, const StrategyRun& r) {
                const double gflops = flops / r.seconds / 1e9;
                best = std::max(best, gflops);
                const Bound bound = boundOf(r, flops, inCore, h2d, d2h);
                t.add({std::to_string(n), capName, name, r.splits, fixed(r.seconds, 3),
                       fixed(gflops, 0), percent(gflops / inCore), percent(gflops / xtBest),
                       percent(bound.inCoreSeconds / r.seconds), percent(bound.seconds / r.seconds), bound.by,
                       r.notClean ? std::to_string(r.notClean) + " NOT clean" : "clean", bound.verdict(r.seconds)});
                rows.push_back({{"n", n}, {"cap", capName}, {"strategy", name}, {"splits", r.splits},
                                {"h2d_staging", toString(r.staging)},
                                {"seconds", r.seconds}, {"gflops", gflops}, {"h2d_bytes", r.h2dBytes},
                                {"d2h_bytes", r.d2hBytes}, {"bound_seconds", bound.seconds},
                                {"gemm_seconds", bound.gemmSeconds}, {"in_core_gemm_seconds", bound.inCoreGemmSeconds},
                                {"block_gemm_seconds", r.blockGemmSeconds}, {"link_seconds", bound.linkSeconds}, {"peak_bytes", r.peak}, {"cap_bytes", cap},
                                {"not_clean", r.notClean}, {"in_core_gflops", inCore}, {"cublasxt_gflops", xtBest},
                                {"predicted_seconds", r.predictedSeconds},
                                {"fill_drain_seconds", r.measuredEnds.fillSeconds + r.measuredEnds.drainSeconds},
                                {"predicted_fill_drain_seconds", r.predictedEnds.fillSeconds + r.predictedEnds.drainSeconds},
                                {"h2d_busy_seconds", r.h2dBusy}, {"predicted_h2d_busy_seconds", r.predictedH2dBusy},
                                {"table_predicted_seconds", r.tablePredictedSeconds}, {"h2d_in_situ_factor", r.h2dFactor},
                                {"pack_in_situ_factor", r.packFactor}});
                addBreakdown(n, capName, name, r, rows.back());
                const double error = r.predictedSeconds / r.seconds - 1;
                p.add({std::to_string(n), capName, name, r.splits, fixed(r.seconds, 3),
                       fixed(r.predictedSeconds, 3), percent(error), fillDrainText(r), h2dBusyText(r),
                       tableOnlyText(r), std::abs(error) <= 0.1 ? "<=10%: met" : "<=10%: MISSED"});
                bestMeasured = std::min(bestMeasured, r.seconds);
                if (bestMeasured == r.seconds)
                    bestName = name + " " + r.splits;
            };
            for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
                if (!bench::selected("GIGACHECK_BENCH_STRATEGIES", toString(s)))
                    continue;
                StrategyRun r;
                try {
                    r = runStrategy(*backend, s, cap, model, a, b, c, true, H2dStaging::Direct);
                } catch (const InputError& e) {
                    t.add({std::to_string(n), capName, std::string(toString(s)), "does not fit: " + std::string(e.what())});
                    continue;
                }
                // Where some load is not contiguous: packed on the host and direct, both (what auto
                // chooses between; GIGACHECK_BENCH_STAGING=pack or direct keeps one).
                if (!packsAny(makePlan({n, n, n}, Precision::F32, s, cap, true), a, b)) {
                    addStrategyRow(std::string(toString(s)), r);
                } else {
                    if (bench::selected("GIGACHECK_BENCH_STAGING", "direct"))
                        addStrategyRow(std::string(toString(s)) + " direct", r);
                    if (bench::selected("GIGACHECK_BENCH_STAGING", "pack")) {
                        out << "." << std::flush;
                        addStrategyRow(std::string(toString(s)) + " pack",
                                       runStrategy(*backend, s, cap, model, a, b, c, true, H2dStaging::Pack));
                    }
                }
                out << "." << std::flush;
            }
            // The planner's choice (strategy and blocking) run beside them, and the other side of its
            // choice of tapered ends ("auto equal" / "auto tapered"), in the same process.
            const auto runAuto = [&](const PlannerChoice& choice, const std::string& label) {
                const StrategyRun r = runPlan(*backend, choice.plan, choice.model, a, b, c);
                const double error = r.predictedSeconds / r.seconds - 1;
                const std::string chosen = std::string(toString(choice.plan.strategy)) + " " + r.splits +
                                           (r.staging == H2dStaging::Pack ? " pack" : "");
                // In the main table too, and in the best of the cap: auto is a strategy a user runs.
                const double gflops = flops / r.seconds / 1e9;
                best = std::max(best, gflops);
                const Bound bound = boundOf(r, flops, inCore, h2d, d2h);
                t.add({std::to_string(n), capName, label + ": " + std::string(toString(choice.plan.strategy)), r.splits,
                       fixed(r.seconds, 3), fixed(gflops, 0), percent(gflops / inCore), percent(gflops / xtBest),
                       percent(bound.inCoreSeconds / r.seconds), percent(bound.seconds / r.seconds), bound.by,
                       r.notClean ? std::to_string(r.notClean) + " NOT clean" : "clean", bound.verdict(r.seconds)});
                p.add({std::to_string(n), capName, label + ": " + chosen, r.splits, fixed(r.seconds, 3),
                       fixed(r.predictedSeconds, 3), percent(error), fillDrainText(r), h2dBusyText(r),
                       tableOnlyText(r), std::string(std::abs(error) <= 0.1 ? "<=10%: met" : "<=10%: MISSED") + "; best measured " +
                           bestName + " " + fixed(std::min(bestMeasured, r.seconds), 3) + " s" +
                           (r.seconds <= bestMeasured ? " (auto is best)" : " (auto " + percent(r.seconds / bestMeasured - 1) + " slower)")});
                rows.push_back({{"n", n}, {"cap", capName}, {"strategy", label}, {"chosen", chosen},
                                {"h2d_staging", toString(r.staging)},
                                {"splits", r.splits}, {"seconds", r.seconds}, {"predicted_seconds", r.predictedSeconds},
                                {"table_predicted_seconds", r.tablePredictedSeconds}, {"h2d_in_situ_factor", r.h2dFactor},
                                {"pack_in_situ_factor", r.packFactor},
                                {"fill_drain_seconds", r.measuredEnds.fillSeconds + r.measuredEnds.drainSeconds},
                                {"bound_seconds", bound.seconds}, {"block_gemm_seconds", r.blockGemmSeconds},
                                {"best_measured", bestName}, {"best_measured_seconds", bestMeasured},
                                {"explanation", choice.plan.explanation}});
                addBreakdown(n, capName, label + ": " + std::string(toString(choice.plan.strategy)), r, rows.back());
            };
            try {
                const PlannerChoice choice = planWithCostModel(
                    {n, n, n}, Precision::F32, {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4},
                    cap, true, model, "f32", gemmRateProbeOn(backend->device().index));
                runAuto(choice, "auto");
                // The other side of the planner's tapering verdict, measured: its equal blocks where it
                // tapered the ends, else its best tapered plan.
                const PlannerChoice other = planWithCostModel(
                    {n, n, n}, Precision::F32, {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4},
                    cap, true, model, "f32", gemmRateProbeOn(backend->device().index),
                    choice.plan.tapered() ? EndTaper::Off : EndTaper::Forced);
                if (other.plan.tapered() != choice.plan.tapered())
                    runAuto(other, choice.plan.tapered() ? "auto equal" : "auto tapered");
            } catch (const InputError& e) {
                p.add({std::to_string(n), capName, "auto", "no plan: " + std::string(e.what())});
            }
            if (n == sizes.back() && cap == caps.back().second) {
                // What ABFT costs out of core: the same strategies without checksums.
                for (StrategyKind s : {StrategyKind::S2, StrategyKind::S3}) {
                    const StrategyRun r = runStrategy(*backend, s, cap, model, a, b, c, false);
                    const double gflops = flops / r.seconds / 1e9;
                    t.add({std::to_string(n), capName, std::string(toString(s)) + " no ABFT", r.splits, fixed(r.seconds, 3),
                           fixed(gflops, 0), percent(gflops / inCore), percent(gflops / xtBest), "-", "-", "-", "-", "-"});
                    rows.push_back({{"n", n}, {"cap", capName}, {"strategy", std::string(toString(s)) + " no abft"},
                                    {"splits", r.splits}, {"seconds", r.seconds}, {"gflops", gflops}});
                }
            }
            if (n == sizes.back() && cap == caps.back().second)
                t.add({std::to_string(n), capName, "best (s1-s4, auto)", "-", "-", fixed(best, 0), percent(best / inCore),
                       percent(best / xtBest), "-", "-", "-", "-",
                       std::string(best >= 0.9 * inCore ? ">=90% in-core: met" : ">=90% in-core: MISSED") +
                           (best >= 0.95 * inCore ? ", >=95%: met" : ", >=95%: MISSED") +
                           (best > xtBest ? ", > cublasXt: met" : ", > cublasXt: MISSED")});
        }
    }
    out << "\nOut-of-core FP32 with ABFT, A B C in pinned host memory, cuBLAS products; seconds = first op start\n"
           "to last op end (CUDA events). Link: H2D " << fixed(h2d, 1) << " GB/s, D2H " << fixed(d2h, 1)
        << " GB/s (pinned, measured now). bound = max(the plan's products timed as device-resident cuBLAS GEMMs of\n"
           "their block shapes (at least 2n^3 / in-core rate), link bytes of the chosen blocks / link rate); in-core bound:\n"
           "the same with 2n^3 / in-core rate as the GEMM term\n\n";
    t.print(out);
    out << "\nWhere the time goes (from each run's spans): span = GEMMs alone (the plan's products timed one by\n"
           "one, device-resident: the bound's GEMM term) + stretch (the products' busy time in the run beyond that;\n"
           "negative where products of two streams overlap) + ABFT alone (compute busy, no product running) + stalls\n"
           "(compute idle between the first and the last product: waiting for copies) + fill + drain\n\n";
    w.print(out);
    out << "\nPredicted (cost model: " << model.source << ") vs measured; auto = the planner's choice of strategy and\n"
           "blocking, run and compared with the best measured strategy of the same cap. Each prediction uses the H2D\n"
           "rate its run's own loads reached before it (calibrateH2d) and, packed, the pack rate of its own loads\n"
           "(calibratePacking); table only: the prediction without them, and the factors (x) they applied\n\n";
    p.print(out);
    return rows;
}

// ---- link -------------------------------------------------------------------------------------
// Issue 13 item 3: the pinned H2D rate alone and under load, to find why the bench saw 31-48 GB/s
// during GEMMs against 44-55 GB/s alone.
json linkUnderLoad(const BenchOptions& o, std::ostream& out)
{
    const std::vector<cuda::LinkUnderLoad> results = cuda::measureLinkUnderLoad(o.quick);
    Table t({"row width", "condition", "H2D GB/s", "vs alone", "GEMM slowdown"});
    json rows = json::array();
    double alone = 0;
    for (const cuda::LinkUnderLoad& r : results) {
        if (r.condition == "alone")
            alone = r.h2dGBs;
        t.add({formatBytes(double(r.rowBytes)), r.condition, fixed(r.h2dGBs, 1), alone > 0 ? percent(r.h2dGBs / alone) : "-",
               r.condition.find("GEMM") != std::string::npos ? percent(r.gemmSlowdown) : "-"});
        rows.push_back({{"row_bytes", r.rowBytes}, {"condition", r.condition}, {"h2d_gbs", r.h2dGBs},
                        {"gemm_slowdown", r.gemmSlowdown}});
    }
    out << "\nPinned H2D (cudaMemcpy2DAsync, host rows of a matrix twice as wide, " << (o.quick ? 32 : 256)
        << " MiB per copy) alone and while another stream runs an FP32 cuBLAS GEMM (default priorities, copy\n"
           "stream high, copy stream low) or the ABFT checksum pass (checksumB, memory-bound); vs alone: of the same\n"
           "row width; GEMM slowdown: the GEMM's time with the copy beside it over its time alone\n\n";
    t.print(out);
    return rows;
}

// ---- paper ----------------------------------------------------------------------------------
json paper(const BenchOptions& o, std::ostream& out)
{
    // Seed 000 figure 18 (Quadro K620, tile 32): CUDA time per strategy in seconds.
    const std::map<StrategyKind, double> seedSeconds = {
        {StrategyKind::S1, 340.57}, {StrategyKind::S2, 312.42}, {StrategyKind::S3, 320.998}, {StrategyKind::S4, 316.998}};
    Table t({"gemm", "strategy", "splits m/n/q", "CUDA s", "vs S1", "report vs S1", "GFLOP/s", "FLOP/B (link)",
             "faults fixed", "reference"});
    json rows = json::array();
    for (GemmVariant g : {GemmVariant::Tiled, GemmVariant::Cublas}) {
        double s1 = 0;
        for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
            RunConfig cfg;
            cfg.shape = o.quick ? Shape{2000, 200, 200} : Shape{20000, 2000, 2000};
            cfg.precision = Precision::F32;
            cfg.backend = BackendKind::Cuda;
            cfg.device = o.device;
            cfg.strategy = s;
            cfg.memCapBytes = o.quick ? 100000 : 10000000;  // the seed's 10 MB
            cfg.gemm = g;
            cfg.tile = 32;
            cfg.faults.count = 1;
            const RunRecord r = runGemm(cfg);
            if (r.status != "ok")
                throw BackendError("paper run failed: " + r.error);
            if (s == StrategyKind::S1)
                s1 = r.metrics.executeSeconds;
            const std::string splits = std::to_string(r.plan.splitM) + "x" + std::to_string(r.plan.splitN) + "x" +
                                       std::to_string(r.plan.splitQ);
            t.add({std::string(toString(g)), std::string(toString(s)), splits, fixed(r.metrics.executeSeconds, 4),
                   fixed(r.metrics.executeSeconds / s1, 3), fixed(seedSeconds.at(s) / seedSeconds.at(StrategyKind::S1), 3),
                   fixed(r.metrics.gflops, 1), fixed(r.metrics.intensityHostLink, 2),
                   std::to_string(r.faults.corrected) + "/" + std::to_string(r.faults.injected),
                   r.reference.passed ? "passed" : "FAILED"});
            rows.push_back({{"gemm", toString(g)}, {"strategy", toString(s)}, {"splits", splits},
                            {"execute_seconds", r.metrics.executeSeconds}, {"gflops", r.metrics.gflops},
                            {"intensity_link", r.metrics.intensityHostLink}, {"corrected", r.faults.corrected},
                            {"injected", r.faults.injected}, {"reference_passed", r.reference.passed},
                            {"seed_seconds", seedSeconds.at(s)}});
            out << "." << std::flush;
        }
    }
    out << "\nThe Gigacheck report, section 6: A 20000x2000, B 2000x2000, FP32, 10 MB cap, one injected error per run;\n"
           "the report's column is its figure 18 (Quadro K620, tiled 32): compare ratios, not seconds\n\n";
    t.print(out);
    return rows;
}

#endif  // GIGACHECK_HAVE_CUDA

}  // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    if (std::find(std::begin(kSuites), std::end(kSuites), options.suite) == std::end(kSuites)) {
        err << "unknown bench suite '" << options.suite << "' (abft-overhead, kernels, out-of-core, paper, link)\n";
        return 2;
    }
#ifndef GIGACHECK_HAVE_CUDA
    (void)out;
    err << noCudaBuildLine() << "\n";
    return 2;
#else
    // The device measurements (cuda/measure.cu) run on the chosen device.
    const std::optional<BenchDevice> chosen = chooseBenchDevice(options.device, err);
    if (!chosen)
        return 2;
    const DeviceInfo& device = chosen->device;
    out << "gigacheck " << kVersion << " bench " << options.suite << (options.quick ? " (quick)" : "") << "\n"
        << benchDeviceLine(device) << "\n"
        << "date: " << benchDate() << "\ncommit: " << benchCommit() << "\n" << std::flush;
    json rows;
    try {
        if (options.suite == "abft-overhead")
            rows = abftOverhead(options, out);
        else if (options.suite == "kernels")
            rows = kernels(options, out);
        else if (options.suite == "out-of-core")
            rows = outOfCore(options, out);
        else if (options.suite == "link")
            rows = linkUnderLoad(options, out);
        else
            rows = paper(options, out);
    } catch (const std::exception& e) {
        err << "bench " << options.suite << " failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty()) {
        const json doc = {{"suite", options.suite}, {"device", device.name}, {"device_index", device.index}, {"date", benchDate()},
                          {"commit", benchCommit()}, {"quick", options.quick}, {"rows", rows}};
        writeFileAtomically(options.jsonPath, doc.dump(1) + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
#endif
}

}  // namespace gigacheck
