// `gigacheck bench multi-gpu-gemm`: the blocked ABFT GEMM with its C blocks spread over G GPUs
// (each with its own buffers under the cap, queues and panel loads from the host) against G = 1,
// against cublasXt over the same GPUs (block size sweep) and against in-core cuBLAS on one GPU
// (the roof), all in one process. With one GPU, G = 2 runs two logical devices on it (emulated:
// the ratios then say what the schedule costs, not what a second GPU gains).
#include "core/bench_stamp.hpp"
#include "gigacheck/bench.hpp"
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/version.hpp"

#include "core/table.hpp"
#include "families/blocked_gemm/bench/bench_device.hpp"
#ifdef GIGACHECK_HAVE_CUDA
#include "families/blocked_gemm/cuda/measure.hpp"
#endif

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace gigacheck {

#ifdef GIGACHECK_HAVE_CUDA
namespace {

using bench::fixed;
using bench::percent;
using bench::Table;
using nlohmann::json;

std::vector<std::int64_t> benchSizes(bool quick)
{
    std::vector<std::int64_t> out;
    if (const char* env = std::getenv("GIGACHECK_BENCH_SIZES")) {
        std::stringstream in(env);
        for (std::string item; std::getline(in, item, ',');)
            if (!item.empty())
                out.push_back(std::stoll(item));
        if (!out.empty())
            return out;
    }
    return quick ? std::vector<std::int64_t>{2048, 4096} : std::vector<std::int64_t>{16384, 32768};
}

// A multi-device backend over G devices: the chosen GPU first, then the others, ordinals repeated
// when there are fewer GPUs (makeGemmBackend).
struct Devices {
    std::unique_ptr<Backend> backend;
    std::vector<int> ordinals;
    std::vector<int> gpus;  // distinct
    bool emulated = false;  // some GPU holds two logical devices
};

Devices devicesFor(int g, int device)
{
    RunConfig config;
    config.backend = BackendKind::Cuda;
    config.device = device;
    config.devices = g;
    Devices d;
    d.backend = makeGemmBackend(config);
    for (const DeviceInfo& info : d.backend->devices()) {
        d.ordinals.push_back(info.index);
        if (std::find(d.gpus.begin(), d.gpus.end(), info.index) == d.gpus.end())
            d.gpus.push_back(info.index);
    }
    d.ordinals.resize(std::size_t(g));
    d.emulated = d.gpus.size() < d.ordinals.size();
    return d;
}

struct SpreadRun {
    double seconds = 0;      // first op start to last op end (CUDA events of each device)
    double hostSeconds = 0;  // execute() on the host, allocation and set-up included
    int notClean = 0;
    std::string splits;
    std::vector<double> deviceSeconds;  // each device's first op start to last op end
    std::vector<std::size_t> devicePeak;
};

SpreadRun runSpread(Backend& backend, int g, StrategyKind s, std::uint64_t cap, HostMatrix& a, HostMatrix& b,
                    HostMatrix& c)
{
    const Shape shape{a.rows(), a.cols(), b.cols()};
    const Plan plan = makePlan(shape, Precision::F32, s, cap, true, g);
    const GemmSchedule schedule = buildSchedule(plan, false, g);
    blocked_gemm::Inputs inputs;
    inputs.plan = plan;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    inputs.gemm = GemmVariant::Cublas;
    ExecutionRequest req;
    req.schedule = &schedule;
    req.inputs = &inputs;
    const auto start = std::chrono::steady_clock::now();
    const ExecutionResult r = backend.execute(req);
    SpreadRun out;
    out.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.seconds = r.wallSeconds;
    out.devicePeak = r.devicePeakBytes;
    out.splits = std::to_string(plan.splitM) + "x" + std::to_string(plan.splitN) + "x" + std::to_string(plan.splitQ);
    std::vector<double> first(std::size_t(g), 1e300), last(std::size_t(g), 0);
    for (const Span& sp : r.spans) {
        first[std::size_t(sp.device)] = std::min(first[std::size_t(sp.device)], sp.start);
        last[std::size_t(sp.device)] = std::max(last[std::size_t(sp.device)], sp.end);
    }
    for (int d = 0; d < g; ++d)
        out.deviceSeconds.push_back(last[std::size_t(d)] > 0 ? last[std::size_t(d)] - first[std::size_t(d)] : 0);
    for (const VerifyEvent& v : r.verifications)
        out.notClean += v.result.verdict == Verdict::Clean ? 0 : 1;
    return out;
}

// A few rows of C, to see that every G computes the same product.
std::vector<float> sampleRows(const HostMatrix& c)
{
    std::vector<float> rows;
    const std::int64_t step = std::max<std::int64_t>(1, c.rows() / 7);
    for (std::int64_t i = 0; i < c.rows(); i += step)
        rows.insert(rows.end(), c.as<float>() + i * c.cols(), c.as<float>() + (i + 1) * c.cols());
    return rows;
}

double maxRelDiff(const std::vector<float>& x, const std::vector<float>& ref)
{
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        scale = std::max(scale, double(std::fabs(ref[i])));
        diff = std::max(diff, double(std::fabs(x[i] - ref[i])));
    }
    return scale > 0 ? diff / scale : diff;
}

std::string listOf(const std::vector<int>& v)
{
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(v[i]);
    }
    return out;
}

json multiGpuGemm(const BenchOptions& o, int visibleGpus, std::uint64_t deviceMemory, std::ostream& out)
{
    const int gMax = std::max(2, visibleGpus);
    const std::vector<int> counts{1, gMax};
    std::map<int, Devices> devices;
    for (int g : counts)
        devices[g] = devicesFor(g, o.device);
    const std::vector<std::int64_t> sizes = benchSizes(o.quick);
    const std::vector<int> xtBlocks = o.quick ? std::vector<int>{512, 1024} : std::vector<int>{2048, 4096, 8192};
    const std::vector<StrategyKind> strategies{StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};

    // In core: each logical device's share of its GPU's memory, with room for cuBLAS's workspace.
    const int perGpu = int((devices[gMax].ordinals.size() + devices[gMax].gpus.size() - 1) / devices[gMax].gpus.size());
    const std::uint64_t inCoreCap = std::uint64_t(0.85 * double(deviceMemory) / double(perGpu));
    Table t({"N", "cap", "G", "GPUs", "strategy", "splits m/n/q", "seconds", "GFLOP/s", "speedup", "efficiency",
             "vs cublasXt", "vs roof", "slowest/fastest dev", "verdicts", "C vs G=1"});
    json rows = json::array();
    for (std::int64_t n : sizes) {
        const HostAllocator pinned = devices[1].backend->hostAllocator();
        HostMatrix a(Precision::F32, n, n, pinned), b(Precision::F32, n, n, pinned), c(Precision::F32, n, n, pinned);
        fillRandom(a, Distribution::Uniform, 1, 0);
        fillRandom(b, Distribution::Uniform, 1, 1);
        const double flops = 2.0 * double(n) * double(n) * double(n);
        const double inCore = cuda::inCoreGemmGflops(n, n, n, Precision::F32, 3);
        rows.push_back({{"n", n}, {"baseline", "in-core cublas, one GPU"}, {"gflops", inCore}});
        t.add({std::to_string(n), "-", "1", "1", "in-core cuBLAS (roof)", "-", fixed(flops / inCore / 1e9, 3),
               fixed(inCore, 0), "-", "-", "-", "100.0%", "-", "-", "-"});
        std::map<int, double> xtBest;  // per G: GFLOP/s of cublasXt's best block size
        for (int g : counts) {
            const Devices& d = devices[g];
            int bestBlock = 0;
            for (int bd : xtBlocks) {
                const double sec = cuda::timeCublasXt(a, b, c, bd, 1, d.gpus);
                rows.push_back({{"n", n}, {"baseline", "cublasXt"}, {"g", g}, {"gpus", d.gpus.size()},
                                {"block_dim", bd}, {"seconds", sec}});
                if (flops / sec / 1e9 > xtBest[g]) {
                    xtBest[g] = flops / sec / 1e9;
                    bestBlock = bd;
                }
                out << "." << std::flush;
            }
            t.add({std::to_string(n), "-", std::to_string(g), std::to_string(d.gpus.size()),
                   "cublasXt (block " + std::to_string(bestBlock) + ")" + (d.emulated ? " on its 1 GPU" : ""), "-",
                   fixed(flops / xtBest[g] / 1e9, 3), fixed(xtBest[g], 0), "-", "-", "100.0%",
                   percent(xtBest[g] / (inCore * double(d.gpus.size()))), "-", "-", "-"});
        }
        const std::vector<std::pair<std::string, std::uint64_t>> caps =
            o.quick ? std::vector<std::pair<std::string, std::uint64_t>>{{"32 MiB", 32ull << 20}, {"in-core", inCoreCap}}
                    : std::vector<std::pair<std::string, std::uint64_t>>{{"4 GiB", 4ull << 30}, {"in-core", inCoreCap}};
        for (const auto& [capName, cap] : caps)
            for (StrategyKind s : strategies) {
                double single = 0;
                std::vector<float> reference;
                for (int g : counts) {
                    const Devices& d = devices[g];
                    SpreadRun r;
                    try {
                        r = runSpread(*d.backend, g, s, cap, a, b, c);
                    } catch (const InputError& e) {
                        t.add({std::to_string(n), capName, std::to_string(g), std::to_string(d.gpus.size()),
                               std::string(toString(s)), "does not fit: " + std::string(e.what())});
                        continue;
                    }
                    const std::vector<float> sample = sampleRows(c);
                    if (g == 1) {
                        single = r.seconds;
                        reference = sample;
                    }
                    const double diff = reference.empty() ? -1 : maxRelDiff(sample, reference);
                    const double gflops = flops / r.seconds / 1e9;
                    const double speedup = single > 0 ? single / r.seconds : 0;
                    const auto [fastest, slowest] = std::minmax_element(r.deviceSeconds.begin(), r.deviceSeconds.end());
                    t.add({std::to_string(n), capName, std::to_string(g) + (d.emulated ? " (emulated)" : ""),
                           std::to_string(d.gpus.size()), std::string(toString(s)), r.splits, fixed(r.seconds, 3),
                           fixed(gflops, 0), speedup > 0 ? fixed(speedup, 2) + "x" : "-",
                           speedup > 0 ? percent(speedup / g) : "-", percent(gflops / xtBest[g]),
                           percent(gflops / (inCore * double(d.gpus.size()))),
                           *fastest > 0 ? fixed(*fastest / *slowest, 2) : "-",
                           r.notClean ? std::to_string(r.notClean) + " NOT clean" : "clean",
                           diff < 0 ? "-" : diff == 0 ? "same" : "rel " + bench::fixed(diff, 9)});
                    rows.push_back({{"n", n}, {"cap", capName}, {"cap_bytes", cap}, {"g", g}, {"gpus", d.gpus.size()},
                                    {"ordinals", d.ordinals}, {"emulated", d.emulated}, {"strategy", toString(s)},
                                    {"splits", r.splits}, {"seconds", r.seconds}, {"host_seconds", r.hostSeconds},
                                    {"device_seconds", r.deviceSeconds}, {"device_peak_bytes", r.devicePeak},
                                    {"gflops", gflops}, {"speedup", speedup}, {"efficiency", speedup / g},
                                    {"cublasxt_gflops", xtBest[g]}, {"in_core_gflops", inCore},
                                    {"not_clean", r.notClean}, {"c_rel_diff_vs_g1", diff}});
                    out << "." << std::flush;
                }
            }
    }
    out << "\nBlocked FP32 GEMM with ABFT spread over G devices (contiguous ranges of C blocks, each device with\n"
           "its own buffers under the cap, its own H2D / compute / D2H streams and panel loads from pinned host\n"
           "memory); seconds = first op start to last op end (CUDA events). speedup = G = 1 seconds / these,\n"
           "efficiency = speedup / G, vs cublasXt = against cublasXt's best block size over the same GPUs,\n"
           "vs roof = against in-core cuBLAS on one GPU times the GPUs used. slowest/fastest dev: each device's\n"
           "busy span, fastest over slowest (1.00 = balanced). C vs G=1: sampled rows against G = 1's result.\n"
           "G = " << gMax << " runs on ordinals " << listOf(devices[gMax].ordinals)
        << (devices[gMax].emulated ? " (emulated: fewer GPUs than devices, logical devices share a GPU)" : "")
        << "; in-core cap " << formatBytes(double(inCoreCap)) << " per device.\n\n";
    t.print(out);
    return rows;
}

}  // namespace
#endif

int runMultiGpuGemmBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
#ifndef GIGACHECK_HAVE_CUDA
    (void)options;
    (void)out;
    err << noCudaBuildLine() << "\n";
    return 2;
#else
    // In-core cuBLAS (the roof) runs on the chosen device.
    const std::optional<BenchDevice> chosen = chooseBenchDevice(options.device, err);
    if (!chosen)
        return 2;
    const DeviceInfo& device = chosen->device;
    const std::size_t visible = chosen->visible;
    out << "gigacheck " << kVersion << " bench multi-gpu-gemm" << (options.quick ? " (quick)" : "") << "\n"
        << benchDeviceLine(device) << "\n"
        << "GPUs visible: " << visible
        << (visible == 1 ? " (G = 2 runs two logical devices on it: emulated)" : "") << "\n"
        << "date: " << benchDate() << "\ncommit: " << benchCommit() << "\n" << std::flush;
    json rows;
    try {
        rows = multiGpuGemm(options, int(visible), device.memoryBytes, out);
    } catch (const std::exception& e) {
        err << "bench multi-gpu-gemm failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty()) {
        const json doc = {{"suite", "multi-gpu-gemm"}, {"device", device.name}, {"device_index", device.index},
                          {"gpu_count", visible}, {"date", benchDate()}, {"commit", benchCommit()},
                          {"quick", options.quick}, {"rows", rows}};
        writeFileAtomically(options.jsonPath, doc.dump(1) + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
#endif
}

}  // namespace gigacheck
