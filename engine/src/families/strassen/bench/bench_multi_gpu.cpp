// gigacheck bench multi-gpu-strassen: the seed's chapter 4 comparison on the GPUs of this machine.
// The 2D and the Strassen-Winograd decompositions (family README "Multi-device decomposition"),
// FP64 and FP32, N = 7168, 14336, ... (multiples of 7 as the seed), each on one GPU and on every
// visible GPU (two logical devices of one GPU where the machine has one): time, speedup against
// the same decomposition on one GPU and against cuBLAS on one GPU in this process (the seed's
// figure 4.4), the measured peer bandwidth, and both models (the Strassen issue's T(G) with the
// measured link, and this schedule's per-device model) predicted beside measured.
#include "gigacheck/bench.hpp"
#include "gigacheck/strassen.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/strassen/bench/multi_device_model.hpp"
#include "families/strassen/bench/pristine_operands.hpp"
#include "families/strassen/bench/rates.hpp"
#include "families/strassen/ops.hpp"

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace gigacheck {

namespace {

using bench::fixed;

constexpr std::int64_t kUnit = 7 * 1024;  // the seed's sizes are multiples of 7
// 4 x 7168 = 28672 at most by default, and a size only while the projected total stays within
// kBudgetSeconds (each size's time grows about as N^2: host work, filling, pinned copies and the
// recovery scan, dominates); GIGACHECK_BENCH_SIZES goes further, without the budget.
constexpr int kMaxMultiple = 4;
constexpr double kBudgetSeconds = 200;
// Host-side checks per run: the FP64 reference costs 2 N^3 flops on the CPU (seconds at 3584 on 16
// cores, minutes beyond 7168); the checksums O(N^2) passes (seconds at 14336).
constexpr std::int64_t kReferenceUpTo = 3584;
constexpr std::int64_t kVerifyUpTo = 14336;

std::vector<std::int64_t> benchSizes(bool quick, double gpuBytes, double hostBytes, int devices)
{
    std::vector<std::int64_t> out;
    if (const char* env = std::getenv("GIGACHECK_BENCH_SIZES")) {
        std::stringstream in(env);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty())
                out.push_back(std::stoll(item));
        return out;
    }
    if (quick)
        return {kUnit / 4, kUnit / 2};
    for (int k = 1; k <= kMaxMultiple; ++k) {
        const double n2 = double(k * kUnit) * double(k * kUnit) * 8;  // FP64, the larger
        // One GPU: A, B, C and, for logical devices sharing it, every device's three blocks; the
        // host: pinned A, B, C, the run's copies of A and B, the pristine A and B every row starts
        // from (PristineOperands) and the inputs' doubles.
        const bool fitsGpu = gpuBytes == 0 || (3.0 + double(devices)) * n2 < 0.85 * gpuBytes;
        const bool fitsHost = hostBytes == 0 || 8.0 * n2 < 0.6 * hostBytes;
        if (fitsGpu && fitsHost)
            out.push_back(k * kUnit);
    }
    return out;
}

// A run's time from its spans: the first to the last op that is not a host load or store (the
// sums, products, copies between devices and scatters), across every device.
double runSeconds(const StrassenResult& r)
{
    double first = 1e300, last = 0;
    for (const Span& s : r.spans) {
        if (s.kind == strassen::kLoad || s.kind == strassen::kStore || s.kind == strassen::kRestore)
            continue;
        first = std::min(first, s.start);
        last = std::max(last, s.end);
    }
    return last > first ? last - first : 0;
}

std::string percentError(double predicted, double measured)
{
    return measured > 0 ? fixed((predicted - measured) / measured * 100, 0) + "%" : "-";
}

std::string ordinalsText(const std::vector<int>& ordinals)
{
    std::string s;
    for (int o : ordinals) {
        if (!s.empty())
            s += ",";
        s += std::to_string(o);
    }
    return s;
}

struct Leg {
    std::string type;
    Precision precision;
};

}  // namespace

int runMultiGpuStrassenBench(bool quick, int device, const std::string& jsonPath, std::ostream& out, std::ostream& err)
{
    std::string why;
    std::vector<DeviceInfo> gpus;
    double hostBytes = 0;
    for (const DeviceInfo& d : listDevices(&why)) {
        if (d.backend == BackendKind::Cuda)
            gpus.push_back(d);
        else
            hostBytes = double(d.memoryBytes);
    }
    if (gpus.empty()) {
        err << "gigacheck: error: bench multi-gpu-strassen needs a CUDA device: " << why << "\n";
        return 2;
    }
    const int count = int(gpus.size());
    const int chosen = device >= 0 ? device : 0;
    if (chosen >= count) {
        err << "gigacheck: error: there is no CUDA device " << chosen << " (" << count << " found)\n";
        return 2;
    }
    // G = every visible GPU; with one GPU, two logical devices sharing it (labelled emulated).
    const bool emulated = count < 2;
    const int g = emulated ? 2 : count;
    const std::vector<int> ordinals = strassenDeviceOrdinals(chosen, count, g);
    std::unique_ptr<Backend> one = makeCudaBackend(&why, chosen);
    std::unique_ptr<Backend> several = one ? makeCudaBackend(&why, ordinals) : nullptr;
    if (!one || !several) {
        err << "gigacheck: error: bench multi-gpu-strassen: " << why << "\n";
        return 2;
    }
    const std::string name = gpus[std::size_t(chosen)].name;
    double deviceGBs = 0, outGBs = 0, backGBs = 0, localGBs = 0;
    try {
        one->prepare();
        several->prepare();
        deviceGBs = strassen::deviceCopyGBs(chosen);
        outGBs = strassen::peerCopyGBs(ordinals[0], ordinals[1]);
        backGBs = strassen::peerCopyGBs(ordinals[1], ordinals[0]);
        localGBs = emulated ? outGBs : strassen::peerCopyGBs(chosen, chosen);
    } catch (const std::exception& e) {
        err << "gigacheck: error: bench multi-gpu-strassen: " << e.what() << "\n";
        return 2;
    }
    const double linkGBs = std::min(outGBs, backGBs);
    const std::string gLabel = std::to_string(g) + (emulated ? " (emulated: 2 logical devices on 1 GPU)" : "");
    out << "bench multi-gpu-strassen on " << count << " x " << name << " (CUDA ordinals " << ordinalsText(ordinals)
        << "); G = 1 and G = " << gLabel << "\n"
        << (emulated ? "device-to-device copy" : "peer copy") << " " << ordinals[0] << "->" << ordinals[1] << " "
        << fixed(outGBs, 0) << " GB/s, " << ordinals[1] << "->" << ordinals[0] << " " << fixed(backGBs, 0)
        << " GB/s (one direction, measured); device copy " << fixed(deviceGBs, 0) << " GB/s (read + write)\n"
        << "time: first to last op other than host loads and stores (sums, products, copies between devices, "
           "scatters); each task one cuBLAS GEMM, but in winograd+local a level of the accumulate variant (the thesis's table 4.3)\n"
        << "host checks: checksums up to N = " << kVerifyUpTo << ", FP64 reference up to N = " << kReferenceUpTo
        << " (skipped beyond: host time)\n\n";

    // GIGACHECK_BENCH_TYPES ("f64,f32") and GIGACHECK_BENCH_VARIANTS (the decomp. column: "2d,winograd,
    // winograd+local") narrow the table to what one device call has time for (core/bench_filter.hpp).
    std::vector<Leg> legs;
    for (const Leg& leg : {Leg{"f64", Precision::F64}, Leg{"f32", Precision::F32}})
        if (bench::selected("GIGACHECK_BENCH_TYPES", leg.type))
            legs.push_back(leg);
    // The rows: the two decompositions with one GEMM per task, and the seed's best configuration
    // (table 4.3: Strassen-Winograd decomposition, a local Strassen in each task; here the
    // single-GPU family's fastest variant, accumulate, one level below the decomposition's).
    struct Scheme {
        std::string label;
        StrassenDecomposition decomposition;
        int levels;
        StrassenVariant variant;
    };
    std::vector<Scheme> schemes;
    for (const Scheme& scheme : {Scheme{"2d", StrassenDecomposition::TwoD, 1, StrassenVariant::Msmes},
                                 Scheme{"winograd", StrassenDecomposition::Winograd, 1, StrassenVariant::Msmes},
                                 Scheme{"winograd+local", StrassenDecomposition::Winograd, 2, StrassenVariant::Accumulate}})
        if (bench::selected("GIGACHECK_BENCH_VARIANTS", scheme.label))
            schemes.push_back(scheme);
    auto configFor = [&](std::int64_t n, const Leg& leg, StrassenDecomposition d, int devices) {
        StrassenConfig c;
        c.shape = {n, n, n};
        c.precision = leg.precision;
        c.backend = BackendKind::Cuda;
        c.device = chosen;
        c.levels = 1;
        c.devices = devices;
        c.distribute = true;
        c.decomposition = d;
        c.verify = n <= kVerifyUpTo;
        c.reference = n <= kReferenceUpTo;
        return c;
    };

    // Untimed: cuBLAS and the family's kernels loaded on every GPU, the peer mappings made.
    try {
        for (const Leg& leg : legs)
            for (const Scheme& scheme : schemes)
                for (int devices : {1, g}) {
                    StrassenConfig c = configFor(kUnit / 4, leg, scheme.decomposition, devices);
                    c.levels = scheme.levels;
                    c.variant = scheme.variant;
                    c.verify = c.reference = false;
                    const StrassenResult r = runStrassen(c, devices == 1 ? *one : *several);
                    if (strassenOutcome(r) != "ok")
                        out << "warm-up " << leg.type << " " << scheme.label << " G = " << devices << ": " << strassenOutcome(r)
                            << " " << r.error << "\n";
                }
    } catch (const std::exception& e) {
        err << "gigacheck: error: bench multi-gpu-strassen (warm-up): " << e.what() << "\n";
        return 2;
    }

    bench::Table table({"N", "type", "decomp.", "G", "ms", "vs 1 GPU", "vs cuBLAS", "cuBLAS ms", "issue model ms",
                        "err", "schedule model ms", "err", "check"});
    nlohmann::json rows = nlohmann::json::array();
    const std::vector<std::int64_t> sizes =
        benchSizes(quick, double(gpus[std::size_t(chosen)].memoryBytes), hostBytes, emulated ? g : 1);
    const bool budgeted = !std::getenv("GIGACHECK_BENCH_SIZES");
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
    std::vector<std::int64_t> skipped;
    double previousSeconds = 0;
    std::int64_t previousN = 0;
    for (std::int64_t n : sizes) {
        if (budgeted && previousN > 0) {
            const double ratio = double(n) / double(previousN);
            if (elapsed() + previousSeconds * ratio * ratio > kBudgetSeconds) {
                skipped.push_back(n);
                continue;
            }
        }
        const double sizeStart = elapsed();
        for (const Leg& leg : legs) {
            const double es = double(elementSize(leg.precision));
            double cublas = 0, half = 0;
            std::optional<strassen::PristineOperands> operands;  // every row on the inputs as made
            try {
                cublas = strassen::cublasGemmSeconds({n, n, n}, leg.precision, false, chosen, 3);
                half = strassen::cublasGemmSeconds({n / 2, n / 2, n / 2}, leg.precision, false, chosen, 3);
                operands.emplace(configFor(n, leg, StrassenDecomposition::TwoD, 1), *one);
            } catch (const std::exception& e) {
                table.add({std::to_string(n), leg.type, "-", "-", "failed", e.what()});
                continue;
            }
            for (const Scheme& scheme : schemes) {
                const StrassenDecomposition d = scheme.decomposition;
                double oneGpu = 0;
                for (int devices : {1, g}) {
                    StrassenConfig c = configFor(n, leg, d, devices);
                    c.levels = scheme.levels;
                    c.variant = scheme.variant;
                    const std::string gText = std::to_string(devices) + (devices > 1 && emulated ? " emul." : "");
                    StrassenResult r;
                    try {
                        operands->refresh();
                        r = runStrassenOn(c, devices == 1 ? *one : *several, operands->a(), operands->b());
                    } catch (const std::exception& e) {
                        r.status = "failed";
                        r.error = e.what();
                    }
                    if (strassenOutcome(r) != "ok") {
                        table.add({std::to_string(n), leg.type, scheme.label, gText, strassenOutcome(r), r.error});
                        rows.push_back({{"n", n}, {"type", leg.type}, {"decomposition", scheme.label}, {"g", devices},
                                        {"status", strassenOutcome(r)}, {"error", r.error}});
                        continue;
                    }
                    const double t = runSeconds(r);
                    if (devices == 1)
                        oneGpu = t;
                    const Schedule schedule = buildStrassenSchedule(c);
                    const std::vector<int> gpuOf = devices == 1 ? std::vector<int>{chosen} : ordinals;
                    const strassen::ScheduleRates rates{half, deviceGBs, linkGBs, localGBs};
                    const double scheduleModel = strassen::scheduleModelSeconds(schedule, es, gpuOf, rates);
                    const int tasks = d == StrassenDecomposition::TwoD ? 8 : 7, sums = d == StrassenDecomposition::TwoD ? 4 : 15;
                    const double block = double(n / 2) * double(n / 2) * es;
                    const double issueModel = strassen::issueModelSeconds(devices, tasks, sums, half, block, deviceGBs,
                                                                          emulated ? localGBs : linkGBs);
                    std::string check = c.verify ? "verified" : "not checked";
                    if (r.relErrorC >= 0)
                        check += ", rel err " + fixed(r.relErrorC * 1e9, 2) + "e-9";
                    table.add({std::to_string(n), leg.type, scheme.label, gText, fixed(t * 1e3, 2),
                               oneGpu > 0 ? fixed(oneGpu / t, 2) : "-", fixed(cublas / t, 2), fixed(cublas * 1e3, 2),
                               fixed(issueModel * 1e3, 2), percentError(issueModel, t), fixed(scheduleModel * 1e3, 2),
                               percentError(scheduleModel, t), check});
                    rows.push_back({{"n", n},
                                    {"type", leg.type},
                                    {"decomposition", scheme.label},
                                    {"levels", scheme.levels},
                                    {"g", devices},
                                    {"emulated", devices > 1 && emulated},
                                    {"placement", r.placement},
                                    {"status", strassenOutcome(r)},
                                    {"seconds", t},
                                    {"compute_seconds", r.seconds},
                                    {"speedup_vs_one_gpu", oneGpu > 0 ? oneGpu / t : 0.0},
                                    {"cublas_seconds", cublas},
                                    {"cublas_half_seconds", half},
                                    {"speedup_vs_cublas", cublas / t},
                                    {"issue_model_seconds", issueModel},
                                    {"schedule_model_seconds", scheduleModel},
                                    {"verified", c.verify},
                                    {"rel_error_c", r.relErrorC}});
                }
            }
        }
        previousSeconds = elapsed() - sizeStart;
        previousN = n;
    }
    table.print(out);
    if (!skipped.empty()) {
        out << "skipped (the projected time would pass " << fixed(kBudgetSeconds, 0)
            << " s; GIGACHECK_BENCH_SIZES runs them):";
        for (std::int64_t n : skipped)
            out << " " << n;
        out << "\n";
    }
    out << "\nvs 1 GPU: the same decomposition on one GPU / this run; vs cuBLAS: one cuBLAS GEMM of N on one GPU / "
           "this run (the Strassen thesis's figure 4.4 measures against MSMES on one GPU)\n"
           "issue model: ceil(tasks/G) x cuBLAS(N/2) + sums/G at the device copy rate + 3 blocks per task and sum "
           "over the measured link (family README \"Bench and model\")"
        << (emulated ? "; it assumes G separate GPUs, so it cannot match an emulated G" : "")
        << "\nschedule model: this schedule's ops from the same rates, played in issue order along its dependencies "
           "(an op after what it depends on and the op before it on its stream; a GPU's products one at a time)\n";

    // The issue's model for G = 2..8 at the largest size from this machine's rates.
    nlohmann::json modelJson = nlohmann::json::array();
    if (previousN > 0) {
        const std::int64_t n = previousN;
        const double es = 8, block = double(n / 2) * double(n / 2) * es;
        double half = 0;
        try {
            half = strassen::cublasGemmSeconds({n / 2, n / 2, n / 2}, Precision::F64, false, chosen, 3);
        } catch (const std::exception&) {
        }
        if (half > 0) {
            out << "\nmodels for G = 1..8 distinct GPUs (f64, N = " << n << ", link " << fixed(linkGBs, 0)
                << " GB/s measured here): the issue's, and this lab's schedule played along its dependencies\n";
            bench::Table mt({"G", "issue 2d ms", "issue winograd ms", "schedule 2d ms", "schedule winograd ms"});
            const strassen::ScheduleRates rates{half, deviceGBs, linkGBs, localGBs};
            const auto scheduled = [&](StrassenDecomposition d, int devices) {
                std::vector<int> gpuOf;
                for (int i = 0; i < devices; ++i)
                    gpuOf.push_back(i);
                return strassen::scheduleModelSeconds(buildStrassenSchedule(configFor(n, legs[0], d, devices)), es, gpuOf, rates);
            };
            for (int devices = 1; devices <= 8; ++devices) {
                const double t2d = strassen::issueModelSeconds(devices, 8, 4, half, block, deviceGBs, linkGBs);
                const double tw = strassen::issueModelSeconds(devices, 7, 15, half, block, deviceGBs, linkGBs);
                const double s2d = scheduled(StrassenDecomposition::TwoD, devices);
                const double sw = scheduled(StrassenDecomposition::Winograd, devices);
                mt.add({std::to_string(devices), fixed(t2d * 1e3, 2), fixed(tw * 1e3, 2), fixed(s2d * 1e3, 2), fixed(sw * 1e3, 2)});
                modelJson.push_back({{"g", devices},
                                     {"seconds_2d", t2d},
                                     {"seconds_winograd", tw},
                                     {"schedule_seconds_2d", s2d},
                                     {"schedule_seconds_winograd", sw}});
            }
            mt.print(out);
        }
    }

    if (!jsonPath.empty()) {
        const std::string text = nlohmann::json{{"suite", "multi-gpu-strassen"},
                                                {"device", name},
                                                {"gpu_count", count},
                                                {"devices", g},
                                                {"emulated", emulated},
                                                {"ordinals", ordinals},
                                                {"peer_gbs", {{"out", outGBs}, {"back", backGBs}}},
                                                {"link_gbs", linkGBs},
                                                {"device_copy_gbs", deviceGBs},
                                                {"verify_up_to", kVerifyUpTo},
                                                {"reference_up_to", kReferenceUpTo},
                                                {"rows", rows},
                                                {"skipped_sizes", skipped},
                                                {"seconds", elapsed()},
                                                {"issue_model", modelJson}}
                                     .dump(1);
        writeFileAtomically(jsonPath, text + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
}

}  // namespace gigacheck
