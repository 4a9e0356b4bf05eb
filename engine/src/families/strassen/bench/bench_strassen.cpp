// gigacheck bench strassen: every variant, level (1-3) and precision against cuBLAS in the same
// process, N = 1024 ... 32768 (bounded by the device's memory): time, speedup, extra device memory,
// error of C (FP64 reference where the host can afford it), recovery error of A and B; the
// crossover N; the seed's performance model (section 3.5.2) from measured rates beside the
// measured time, per stage for the largest run; the multi-device model (seed figure 4.4); and
// atomics against ordering for the products of a stage that share C blocks (shared_target_table).
// TF32 rows also run with the CUTLASS TF32 kernel as the leaf GEMM (`+cutlass`) beside cuBLAS TF32's.
#include "gigacheck/bench.hpp"
#include "gigacheck/cuda_status.hpp"
#include "gigacheck/strassen.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/strassen/bench/multi_device_model.hpp"
#include "families/strassen/bench/pristine_operands.hpp"
#include "families/strassen/bench/rates.hpp"
#include "families/strassen/bench/shared_target_table.hpp"
#include "families/strassen/ops.hpp"

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace gigacheck {

namespace {

using bench::envList;
using bench::fixed;
using bench::selected;

struct Leg {
    std::string type;
    Precision precision;
    bool tf32;
};

std::vector<std::int64_t> sizes(bool quick, std::uint64_t deviceBytes)
{
    std::vector<std::int64_t> out;
    if (std::getenv("GIGACHECK_BENCH_SIZES")) {
        for (const std::string& item : envList("GIGACHECK_BENCH_SIZES"))
            out.push_back(std::stoll(item));
        return out;
    }
    // Up to 16384: one run there is ~1-3 s of host work (inputs, copies, recovery scans), the
    // variants x levels x types make ~40 of them; 32768 through GIGACHECK_BENCH_SIZES.
    for (std::int64_t n = 1024; n <= (quick ? 4096 : 16384); n *= 2)
        // A, B, C in FP64 plus the reference run's own three: 6 N^2 * 8 bytes within 90% of memory.
        if (deviceBytes == 0 || double(6 * n * n * 8) < 0.9 * double(deviceBytes))
            out.push_back(n);
    return out;
}

// GIGACHECK_BENCH_TYPES / GIGACHECK_BENCH_VARIANTS (comma lists, e.g. "f32,f64", "accumulate"):
// only those, for one long size such as 32768 inside a session's time (core/bench_filter.hpp).

// The seed's model (section 3.5.2) with measured rates: each product op costs its GEMM calls at
// the cuBLAS rate of its leaf shape, each sum / scatter its bytes at the device copy bandwidth.
struct Model {
    int device;
    Precision precision;
    bool tf32;
    double bandwidthGBs;
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, double> gemmSeconds;
    bool multiTarget = false;  // the kernel computes a product once, whatever its targets

    double gemm(std::int64_t m, std::int64_t n, std::int64_t q)
    {
        auto key = std::make_tuple(m, n, q);
        auto it = gemmSeconds.find(key);
        if (it == gemmSeconds.end())
            it = gemmSeconds.emplace(key, strassen::cublasGemmSeconds({m, n, q}, precision, tf32, device, 3)).first;
        return it->second;
    }
    double predict(const Span& s, const Operation& op)
    {
        if (op.kind == strassen::kProduct) {
            const int calls = multiTarget ? 1 : std::max(1, int(op.operands.size()) - 2);
            return calls * gemm(op.rows, op.depth, op.cols);
        }
        if (op.kind == strassen::kAdd || op.kind == strassen::kScatter)
            return s.bytes / (bandwidthGBs * 1e9);
        return 0;
    }
};

// The leaves a row runs on: cuBLAS (one GEMM per target), the seed's multi-target kernel, or the
// CUTLASS TF32 kernel (TF32 rows; one GEMM per target like cuBLAS).
enum class LeafGemm { Cublas, Kernel, Cutlass };

std::string leafGemmsText(const StrassenResult& r)
{
    return std::to_string(r.cutlassLeafGemms) + " leaf GEMMs on CUTLASS, " + std::to_string(r.fallbackLeafGemms) +
           " on cuBLAS TF32" + (r.leafFallbackReason.empty() ? std::string() : " (" + r.leafFallbackReason + ")");
}

}  // namespace

int runStrassenBench(bool quick, int device, const std::string& jsonPath, std::ostream& out, std::ostream& err)
{
    std::unique_ptr<Backend> backend;
    try {
        backend = makeBackend(BackendKind::Cuda, device);
    } catch (const std::exception& e) {
        err << "gigacheck: error: bench strassen compares with cuBLAS and needs a CUDA device: " << e.what() << "\n";
        return 2;
    }
    const DeviceInfo info = backend->device();
    const int ordinal = info.index;
    backend->prepare();
    const double bandwidth = strassen::deviceCopyGBs(ordinal);
    out << "bench strassen on " << info.name << " (device copy " << fixed(bandwidth, 0)
        << " GB/s); speedup = cuBLAS time / Strassen time, both in this process, compute only (no host copies)\n\n";

    const bool cutlassBuilt = cutlassKernelsStatus().rfind("built", 0) == 0;
    const std::vector<Leg> legs = {{"f32", Precision::F32, false}, {"tf32", Precision::F32, true}, {"f64", Precision::F64, false}};
    const StrassenVariant variants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                        StrassenVariant::Accumulate};
    bench::Table table({"N", "type", "variant", "L", "ms", "cuBLAS ms", "speedup", "model ms", "extra bytes",
                        "err C (rel)", "recov A ulps", "changed A"});
    nlohmann::json rows = nlohmann::json::array();
    std::map<std::string, std::int64_t> crossover;  // type -> smallest N with a speedup > 1
    struct Best {
        double speedup = 0;
        std::string what;
        StrassenResult result;
        Schedule schedule;
    };
    std::map<std::pair<std::string, std::int64_t>, Best> best;
    std::map<std::pair<std::string, std::int64_t>, double> cublasAt;

    for (std::int64_t n : sizes(quick, info.memoryBytes)) {
        for (const Leg& leg : legs) {
            if (!selected("GIGACHECK_BENCH_TYPES", leg.type))
                continue;
            Model model{ordinal, leg.precision, leg.tf32, bandwidth, {}};
            const double reference = model.gemm(n, n, n);
            cublasAt[{leg.type, n}] = reference;
            StrassenConfig base;
            base.shape = {n, n, n};
            base.precision = leg.precision;
            base.tf32 = leg.tf32;
            base.backend = BackendKind::Cuda;
            base.device = ordinal;
            base.verify = false;
            // The FP64 host reference costs 2 N^3 flops on the CPU: only up to N = 2048.
            base.reference = n <= 2048;
            // Every row on the inputs as made (the rows before it left them recovered, rounded).
            strassen::PristineOperands operands(base, *backend);
            bool cutlassWarm = false;  // the CUTLASS kernel's first launch loads its module: once, untimed
            for (StrassenVariant v : variants)
                for (int levels = 1; levels <= 3; ++levels)
                    for (LeafGemm leaf : {LeafGemm::Cublas, LeafGemm::Kernel, LeafGemm::Cutlass})
                    for (bool beside : {true, false}) {
                    const bool kernel = leaf == LeafGemm::Kernel, cutlass = leaf == LeafGemm::Cutlass;
                    // GIGACHECK_BENCH_LEAVES=cublas,cutlass keeps only those leaves.
                    if (!selected("GIGACHECK_BENCH_LEAVES", kernel ? "kernel" : cutlass ? "cutlass" : "cublas"))
                        continue;
                    // The CUTLASS TF32 kernel: TF32 leaves only, where this build has it.
                    if (cutlass && (!leg.tf32 || !cutlassBuilt))
                        continue;
                    // Sums in line (one stream, issue order) as well, for the fast variants: what
                    // running the sums beside the products gains (GIGACHECK_BENCH_SUMS filters).
                    if (!selected("GIGACHECK_BENCH_SUMS", beside ? "beside" : "inline"))
                        continue;
                    if (!beside && v != StrassenVariant::Accumulate && v != StrassenVariant::Workspace)
                        continue;
                    // The multi-target kernel: for the variants whose products have several targets.
                    if (kernel && (leg.tf32 || v == StrassenVariant::Workspace || v == StrassenVariant::Accumulate))
                        continue;
                    // msmes and winograd with cuBLAS (or CUTLASS) pay a GEMM per target (12^L / 14^L
                    // calls): level 3 only up to 8192.
                    if (!kernel && n > 8192 && levels == 3 && (v == StrassenVariant::Msmes || v == StrassenVariant::Winograd))
                        continue;
                    // Above 8192 the slow variants (msmes, winograd: a GEMM or a kernel per target,
                    // 2-3x cuBLAS at 8192) stop at level 1; the fast ones keep levels 1-3.
                    if (n > 8192 && levels > 1 && (v == StrassenVariant::Msmes || v == StrassenVariant::Winograd))
                        continue;
                    if (!selected("GIGACHECK_BENCH_VARIANTS", toString(v)))
                        continue;
                    StrassenConfig c = base;
                    c.variant = v;
                    c.levels = levels;
                    c.multiTargetKernel = kernel;
                    c.cutlassLeaves = cutlass;
                    c.sumsBeside = beside;
                    const std::string name = std::string(toString(v)) + (kernel ? "+kernel" : cutlass ? "+cutlass" : "") +
                                             (beside ? "" : "/inline");
                    StrassenResult r;
                    try {
                        if (cutlass && !cutlassWarm) {
                            operands.refresh();
                            runStrassenOn(c, *backend, operands.a(), operands.b());
                            cutlassWarm = true;
                        }
                        operands.refresh();
                        r = runStrassenOn(c, *backend, operands.a(), operands.b());
                    } catch (const std::exception& e) {
                        table.add({std::to_string(n), leg.type, name, std::to_string(levels), "failed", e.what()});
                        continue;
                    }
                    // A speed row: the bench turns C's checks off, and the reference above 2048, so
                    // such a run is "not verified" by design; its time still counts.
                    const bool timedOnly = strassenOutcome(r) == "not_verified" && !c.verify && !c.reference;
                    if (strassenOutcome(r) != "ok" && !timedOnly) {
                        table.add({std::to_string(n), leg.type, name, std::to_string(levels), strassenOutcome(r), r.error});
                        continue;
                    }
                    const Schedule schedule = buildStrassenSchedule(c);
                    model.multiTarget = kernel;
                    // Ops of compute stream 0 in sequence; the sums on side streams taken as hidden
                    // beside the products (their cost shows as the model's error).
                    double predicted = 0;
                    for (const Span& s : r.spans)
                        if (s.queue == Queue::Compute && s.stream == 0)
                            predicted += model.predict(s, schedule.ops[std::size_t(s.opId)]);
                    const double speedup = reference / r.seconds;
                    // Progress on stderr: a long size (32768) shows its rows as they come.
                    err << "bench strassen: " << n << " " << leg.type << " " << name << " L" << levels << ": "
                        << fixed(r.seconds * 1e3, 2) << " ms, cuBLAS " << fixed(reference * 1e3, 2) << " ms, "
                        << fixed(speedup, 3) << "x" << (cutlass ? ", " + leafGemmsText(r) : std::string()) << "\n"
                        << std::flush;
                    // A CUTLASS row some of whose leaf GEMMs fell back to cuBLAS TF32 says so in its name.
                    const std::string shown = cutlass && r.fallbackLeafGemms > 0
                                                  ? name + " (" + std::to_string(r.fallbackLeafGemms) + " on cuBLAS)"
                                                  : name;
                    table.add({std::to_string(n), leg.type, shown, std::to_string(levels),
                               fixed(r.seconds * 1e3, 2), fixed(reference * 1e3, 2), fixed(speedup, 3),
                               fixed(predicted * 1e3, 2), std::to_string(r.extraBytes),
                               r.relErrorC >= 0 ? fixed(r.relErrorC * 1e9, 2) + "e-9" : "-",
                               fixed(r.recovery.maxUlpsA, 0), std::to_string(r.recovery.changedA)});
                    rows.push_back({{"n", n},
                                    {"type", leg.type},
                                    {"variant", name},
                                    {"levels", levels},
                                    {"sums", beside ? "beside" : "inline"},
                                    {"leaf", kernel ? "kernel" : cutlass ? "cutlass" : "cublas"},
                                    {"leaf_gemms_cutlass", r.cutlassLeafGemms},
                                    {"leaf_gemms_fallback", r.fallbackLeafGemms},
                                    {"leaf_fallback_reason", r.leafFallbackReason},
                                    {"seconds", r.seconds},
                                    {"cublas_seconds", reference},
                                    {"speedup", speedup},
                                    {"model_seconds", predicted},
                                    {"extra_bytes", r.extraBytes},
                                    {"rel_error_c", r.relErrorC},
                                    {"recovery_max_ulps_a", r.recovery.maxUlpsA},
                                    {"recovery_changed_a", r.recovery.changedA},
                                    {"recovery_max_ulps_b", r.recovery.maxUlpsB},
                                    {"recovery_changed_b", r.recovery.changedB}});
                    if (speedup > 1 && !crossover.count(leg.type))
                        crossover[leg.type] = n;
                    Best& b = best[{leg.type, n}];
                    if (speedup > b.speedup)
                        b = {speedup, name + " L" + std::to_string(levels), r, schedule};
                }
        }
    }
    table.print(out);

    out << "\nbest per size\n";
    bench::Table bestTable({"type", "N", "best", "speedup"});
    for (const auto& [key, b] : best)
        bestTable.add({key.first, std::to_string(key.second), b.what, fixed(b.speedup, 3)});
    bestTable.print(out);
    out << "\ncrossover (smallest N measured with a speedup > 1):";
    for (const Leg& leg : legs)
        out << "  " << leg.type << " " << (crossover.count(leg.type) ? std::to_string(crossover[leg.type]) : "none");
    out << "\n";

    // Stage times of the best FP32 run at the largest N, measured and modelled (seed table 3.2).
    nlohmann::json stagesJson = nlohmann::json::array();
    std::int64_t largest = 0;
    for (const auto& [key, b] : best)
        if (key.first == "f32")
            largest = std::max(largest, key.second);
    if (largest > 0) {
        const Best& b = best[{"f32", largest}];
        Model model{ordinal, Precision::F32, false, bandwidth, {}};
        model.multiTarget = b.result.config.multiTargetKernel;
        std::map<std::pair<int, int>, std::pair<double, double>> stages;
        double total = 0;
        for (const Span& s : b.result.spans)
            if (s.queue == Queue::Compute) {
                auto& st = stages[{s.block.i, s.block.j}];
                st.first += s.end - s.start;
                st.second += model.predict(s, b.schedule.ops[std::size_t(s.opId)]);
                total += s.end - s.start;
            }
        out << "\nstages of " << b.what << " at N = " << largest << " (f32): level.stage, measured ms, share, model ms\n";
        bench::Table st({"level.stage", "measured ms", "share", "model ms"});
        for (const auto& [key, t] : stages) {
            st.add({std::to_string(key.first) + "." + std::to_string(key.second), fixed(t.first * 1e3, 3),
                    bench::percent(t.first / total, 2), fixed(t.second * 1e3, 3)});
            stagesJson.push_back({{"level", key.first}, {"stage", key.second}, {"seconds", t.first}, {"model_seconds", t.second}});
        }
        st.print(out);
    }

    // Multi-device model (seed chapter 4, figure 4.4) from the single-GPU rates measured above and a
    // link bandwidth: G devices, 7 Strassen-Winograd tasks or 8 2D tasks of size N/2, sums spread
    // over the devices, three N/2 blocks over the link per task (multi_device_model.hpp). The link
    // is measured where this machine has a second GPU; otherwise the datasheet's (`gigacheck bench
    // multi-gpu-strassen` measures it and checks the model against runs).
    double linkGBs = 450;  // NVLink 4 per direction (H200 datasheet: 900 GB/s both ways)
    std::string linkSource = "datasheet, one GPU here";
    {
        std::string none;
        int other = -1;
        for (const DeviceInfo& d : listDevices(&none))
            if (d.backend == BackendKind::Cuda && d.index != ordinal && other < 0)
                other = d.index;
        if (other >= 0) {
            try {
                linkGBs = std::min(strassen::peerCopyGBs(ordinal, other), strassen::peerCopyGBs(other, ordinal));
                linkSource = "measured between CUDA devices " + std::to_string(ordinal) + " and " + std::to_string(other);
            } catch (const std::exception&) {
            }
        }
    }
    nlohmann::json multiJson = nlohmann::json::array();
    if (largest >= 2048) {
        const std::int64_t n = largest;
        const double single = cublasAt[{"f32", n}] / std::max(1.0, best[{"f32", n}].speedup);
        const double half = cublasAt.count({"f32", n / 2}) ? cublasAt[{"f32", n / 2}] / std::max(1.0, best[{"f32", n / 2}].speedup)
                                                           : single / 7.0;
        const double block = double(n / 2) * double(n / 2) * 4;
        out << "\nmulti-device model, f32 N = " << n << " (link " << fixed(linkGBs, 0) << " GB/s per direction, "
            << linkSource << "; task = the best single-GPU time at N/2 = " << fixed(half * 1e3, 2)
            << " ms; speedup against the best single-GPU run, " << fixed(single * 1e3, 2) << " ms)\n";
        bench::Table mt({"G", "2d ms", "2d speedup", "winograd ms", "winograd speedup"});
        for (int g = 1; g <= 8; ++g) {
            auto modelled = [&](int tasks, int sums) {
                return g == 1 ? single : strassen::issueModelSeconds(g, tasks, sums, half, block, bandwidth, linkGBs);
            };
            const double t2d = modelled(8, 4), tw = modelled(7, 15);
            mt.add({std::to_string(g), fixed(t2d * 1e3, 2), fixed(single / t2d, 2), fixed(tw * 1e3, 2), fixed(single / tw, 2)});
            multiJson.push_back({{"g", g}, {"seconds_2d", t2d}, {"seconds_winograd", tw}});
        }
        mt.print(out);
    }

    const nlohmann::json atomicsJson = strassen::printSharedTargetTable(ordinal, quick, info.memoryBytes, out, err);

    if (!jsonPath.empty()) {
        const std::string text = nlohmann::json{{"suite", "strassen"},
                                                {"device", info.name},
                                                {"copy_gbs", bandwidth},
                                                {"link_gbs", linkGBs},
                                                {"rows", rows},
                                                {"stages", stagesJson},
                                                {"multi_device_model", multiJson},
                                                {"atomics_vs_ordering", atomicsJson}}
                                     .dump(1);
        writeFileAtomically(jsonPath, text + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
}

}  // namespace gigacheck
