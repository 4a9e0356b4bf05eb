// `gigacheck bench transpose`: every transpose over the seed's sizes (2^6 ... 2^15), effective
// bandwidth, on the GPU as % of a device copy of the same bytes measured in the same process and
// as % of the datasheet peak; the seed's own figures beside, labelled with their hardware.
#include "gigacheck/transpose.hpp"
#include "gigacheck/version.hpp"

#include "core/table.hpp"
#include "core/timestamp.hpp"
#include "families/transpose/bench/cache_misses.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/ratio_decomposition.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace gigacheck::transpose {

namespace {

using bench::fixed;
using nlohmann::json;

std::string seedCpuColumn(Variant v, int log2n)
{
    if (v != Variant::Naive && v != Variant::Blocked)
        return "";
    for (const SeedCacheMisses& row : seedCacheMisses())
        if (row.log2n == log2n)
            return fixed(v == Variant::Naive ? row.naiveL1 : row.blockedL1, 0) + " / " +
                   fixed(v == Variant::Naive ? row.naiveL2 : row.blockedL2, 0);
    return "";
}

std::string seedGpuColumn(Variant v, std::int64_t m, std::int64_t n)
{
    for (const SeedFigure& f : seedFigures())
        if (f.variant == v && f.n == m && m == n)
            return fixed(f.percentOfPeak, 2) + "% (" + fixed(f.gbps, 0) + " GB/s)";
    return "";
}

json cpuSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    bench::Table t({"variant", "type", "n", "ms", "GB/s", "seed L1 / L2 read misses (" + std::string(kSeedCpu) + ", Cachegrind, -O0)"});
    const int last = o.quick ? 10 : 12;
    for (Variant v : {Variant::Naive, Variant::Blocked, Variant::OutOfPlace, Variant::InPlace})
        for (ElementType type : {ElementType::F32, ElementType::I32})
            for (int e = 6; e <= last; e += 2) {
                Config c;
                c.m = c.n = std::int64_t(1) << e;
                c.variant = v;
                c.type = type;
                c.backend = BackendKind::Cpu;
                const Record r = runTranspose(c);
                t.add({std::string(toString(v)), std::string(toString(type)), "2^" + std::to_string(e), fixed(r.kernelMs, 3),
                       fixed(r.gbps, 2) + (r.verified ? "" : " WRONG"), seedCpuColumn(v, e)});
                rows.push_back(json::parse(toJson(r)));
                out << "." << std::flush;
            }
    out << "\nCPU (one core), square, in place except outofplace; effective bandwidth = 2 n^2 x 4 B / time.\n"
           "The seed's CPU figures are plots and a Cachegrind table (its Table 1), quoted beside.\n\n";
    t.print(out);
    return rows;
}

// Callgrind's simulation of one cold call of naive and blocked, beside the seed's Table 1.
json cacheSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    char self[4096] = {};
    const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
    const std::string cli = len > 0 ? std::string(self, std::size_t(len)) : std::string();
    bench::Table t({"variant", "n", "reads", "L1 read misses", "LL read misses", "seed L1 / L2 read misses (" + std::string(kSeedCpu) + ")"});
    std::string why;
    for (Variant v : {Variant::Naive, Variant::Blocked})
        for (int e = 6; e <= (o.quick ? 8 : 10); ++e) {
            const CacheMisses c = simulateCacheMisses(cli, v, std::int64_t(1) << e, ElementType::F32);
            if (!c.measured) {
                why = c.why;
                break;
            }
            t.add({std::string(toString(v)), "2^" + std::to_string(e), fixed(c.reads, 0), fixed(c.l1ReadMisses, 0),
                   fixed(c.llReadMisses, 0), seedCpuColumn(v, e)});
            rows.push_back({{"variant", toString(v)}, {"n", std::int64_t(1) << e}, {"reads", c.reads},
                            {"l1_read_misses", c.l1ReadMisses}, {"ll_read_misses", c.llReadMisses}});
            out << "." << std::flush;
        }
    if (rows.empty()) {
        out << "\nCache misses: not measured (" << why << ").\n";
        return rows;
    }
    out << "\nCache misses of one cold call, float32, simulated by Callgrind (valgrind --tool=callgrind --cache-sim=yes) "
           "with this machine's cache sizes,\ncounted inside the kernel's function only; hardware counters are not used. "
           "The seed ran Cachegrind over its whole -O0 program (L2 there, last level here).\n\n";
    t.print(out);
    return rows;
}

json gpuSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    bench::Table t({"variant", "shape", "ms", "GB/s", "% of copy", "% of peak", "seed % of peak (" + std::string(kSeedGpu) + ")"});
    std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
    for (int e = 10; e <= (o.quick ? 12 : 15); ++e)
        shapes.push_back({std::int64_t(1) << e, std::int64_t(1) << e});
    const std::vector<std::pair<std::int64_t, std::int64_t>> rectangles =
        o.quick ? std::vector<std::pair<std::int64_t, std::int64_t>>{{4096, 2048}}
                : std::vector<std::pair<std::int64_t, std::int64_t>>{{16384, 8192}, {8192, 16384}, {16384, 4096}, {12288, 4096}, {10000, 7000}};
    shapes.insert(shapes.end(), rectangles.begin(), rectangles.end());
    for (const auto& shape : shapes)
        for (Variant v : {Variant::Naive, Variant::Coalesced, Variant::InPlace, Variant::Padded, Variant::Library}) {
            const std::int64_t m = shape.first, n = shape.second;  // not a structured binding: the lambda below captures them
            if (squareOnly(v) && m != n)
                continue;
            Config c;
            c.m = m;
            c.n = n;
            c.variant = v;
            c.backend = BackendKind::Cuda;
            c.device = o.device;
            c.reps = 5;
            auto measure = [&](const std::string& label) {
                const Record r = runTranspose(c);
                t.add({label, std::to_string(m) + "x" + std::to_string(n), fixed(r.kernelMs, 3),
                       fixed(r.gbps, 1) + (r.verified ? "" : " WRONG"), bench::percent(r.gbps / r.copyGbps),
                       r.peakGbps > 0 ? bench::percent(r.gbps / r.peakGbps) : "?", seedGpuColumn(v, m, n)});
                json row = json::parse(toJson(r));
                row["label"] = label;
                rows.push_back(row);
                out << "." << std::flush;
            };
            measure(std::string(toString(v)));
            // The ratio decomposition's two passes also as two kernels: what the pipelined kernel gains.
            if (v == Variant::InPlace && ratio::shapeOf(m, n).applies()) {
                ::setenv("GIGACHECK_TRANSPOSE_RATIO_PIPELINE", "0", 1);
                measure("inplace/2 kernels");
                ::unsetenv("GIGACHECK_TRANSPOSE_RATIO_PIPELINE");
            }
        }
    out << "\nGPU, float32. % of copy: of a cudaMemcpy device-to-device of the same bytes in this process (read + "
           "written);\n% of peak: of 2 x memory clock x bus width. The seed's Table 2 (NVIDIA A30, 933 GB/s): "
           "block-based naive 44.53%, coalesced 60.61% of peak at 2^15.\nTargets on the H200: padded 16384^2 >= 95% of copy, "
           "inplace 16384^2 >= 85%, inplace 16384x8192 >= 50%.\n\n";
    t.print(out);
    return rows;
}

}  // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    std::string why;
    const bool gpu = device::available(&why);
    out << "gigacheck " << kVersion << " bench transpose" << (options.quick ? " (quick)" : "") << "\ndate: " << nowIso8601()
        << "\n" << (gpu ? "" : "no CUDA device (" + why + "): the CPU part only\n") << std::flush;
    json doc = {{"suite", "transpose"}, {"quick", options.quick}, {"date", nowIso8601()}};
    try {
        doc["cpu"] = cpuSection(options, out);
        doc["cpu_cache_misses"] = cacheSection(options, out);
        if (gpu)
            doc["gpu"] = gpuSection(options, out);
    } catch (const std::exception& e) {
        err << "bench transpose failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty()) {
        std::ofstream f(options.jsonPath);
        if (!(f << doc.dump(1) << "\n")) {
            err << "cannot write " << options.jsonPath << "\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace gigacheck::transpose
