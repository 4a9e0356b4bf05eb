// `gigacheck bench transpose`: every transpose over the seed's sizes (2^6 ... 2^15), effective
// bandwidth and the ratio to the library reference (OpenBLAS somatcopy on the CPU, cuBLAS geam on
// the GPU), on the GPU as % of a device copy of the same bytes measured in the same process and as
// % of the datasheet peak; the seed's own figures beside, labelled with their hardware.
#include "gigacheck/transpose.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/gallery/bench_frame.hpp"
#include "families/transpose/bench/cache_misses.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/ratio_decomposition.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string_view>
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

// GIGACHECK_GALLERY_LONG=1: the seed's full range (CPU 2^6 ... 2^15 at every power, cache
// simulation to 2^13); minutes to tens of minutes, so not the default.
bool longSizes() { return bench::switchedOn("GIGACHECK_GALLERY_LONG"); }

std::string ratio(double ms, double libraryMs) { return ms > 0 && libraryMs > 0 ? fixed(ms / libraryMs, 2) : ""; }

json cpuSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    bench::Table t({"variant", "type", "n", "ms", "GB/s", "x library", "paper L1 / L2 read misses (" + std::string(kSeedCpu) + ", Cachegrind, -O0)"});
    std::vector<int> exponents;
    if (longSizes())
        for (int e = 6; e <= 15; ++e)
            exponents.push_back(e);
    else
        for (int e = 6; e <= (o.quick ? 10 : 12); e += 2)
            exponents.push_back(e);
    std::map<int, double> libraryMs;  // the CPU library reference (OpenBLAS somatcopy, float32) at each n
    for (Variant v : {Variant::Library, Variant::Naive, Variant::Blocked, Variant::OutOfPlace, Variant::InPlace})
        for (ElementType type : {ElementType::F32, ElementType::I32})
            for (int e : exponents) {
                if (v == Variant::Library && type != ElementType::F32)
                    continue;  // somatcopy is float32; the int32 rows compare with it (the same bytes)
                Config c;
                c.m = c.n = std::int64_t(1) << e;
                c.variant = v;
                c.type = type;
                c.backend = BackendKind::Cpu;
                c.reps = e >= 14 ? 1 : 3;  // 2^14 and 2^15: a naive call takes seconds to a minute
                const Record r = runTranspose(c);
                if (v == Variant::Library)
                    libraryMs[e] = r.kernelMs;
                t.add({std::string(toString(v)), std::string(toString(type)), "2^" + std::to_string(e), fixed(r.kernelMs, 3),
                       fixed(r.gbps, 2) + (r.verified ? "" : " WRONG"), ratio(r.kernelMs, libraryMs[e]), seedCpuColumn(v, e)});
                rows.push_back(json::parse(toJson(r)));
                out << "." << std::flush;
            }
    out << "\nCPU (one core), square, in place except outofplace and library; effective bandwidth = 2 n^2 x 4 B / time.\n"
           "x library: this time over OpenBLAS's out-of-place transposing copy (cblas_somatcopy, float32) at the same n, "
           "this process\n(int32 rows against the float32 one: the same bytes). Median of 3 timed calls after a warm-up "
           "(1 from 2^14)."
        << (longSizes() ? "" : " GIGACHECK_GALLERY_LONG=1: every power 2^6 ... 2^15.")
        << "\nThe transpose paper's CPU figures are plots and a Cachegrind table (its Table 1), quoted beside.\n\n";
    t.print(out);
    return rows;
}

// Callgrind's simulation of one cold call of naive and blocked with the seed's caches, beside the
// seed's Table 1.
json cacheSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    char self[4096] = {};
    const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
    const std::string cli = len > 0 ? std::string(self, std::size_t(len)) : std::string();
    bench::Table t({"variant", "n", "reads", "L1 read misses", "LL read misses", "paper L1 / L2 read misses (" + std::string(kSeedCpu) + ")"});
    std::string why;
    const int last = o.quick ? 8 : longSizes() ? 13 : 11;
    for (Variant v : {Variant::Naive, Variant::Blocked})
        for (int e = 6; e <= last; ++e) {
            const CacheMisses c = simulateCacheMisses(cli, v, std::int64_t(1) << e, ElementType::F32);
            if (!c.measured) {
                why = c.why;
                break;
            }
            t.add({std::string(toString(v)), "2^" + std::to_string(e), fixed(c.reads, 0), fixed(c.l1ReadMisses, 0),
                   fixed(c.llReadMisses, 0), seedCpuColumn(v, e)});
            rows.push_back({{"variant", toString(v)}, {"n", std::int64_t(1) << e}, {"reads", c.reads},
                            {"l1_read_misses", c.l1ReadMisses}, {"ll_read_misses", c.llReadMisses},
                            {"caches", std::string(kSimulatedCaches)}});
            out << "." << std::flush;
        }
    if (rows.empty()) {
        out << "\nCache misses: not measured (" << why << ").\n";
        return rows;
    }
    out << "\nCache misses of one cold call, float32, simulated by Callgrind (valgrind --tool=callgrind --cache-sim=yes) "
           "with the transpose paper's caches,\n"
        << kSimulatedCaches
        << ", counted inside the kernel's function only; hardware counters are not used.\nThe paper ran Cachegrind over "
           "its whole -O0 program: its \"L2\" is Cachegrind's last level, the 12 MiB L3, which a float32 matrix outgrows "
           "at 2^11 (16 MiB)."
        << (longSizes() ? "" : " GIGACHECK_GALLERY_LONG=1: to 2^13.") << "\n\n";
    t.print(out);
    return rows;
}

json gpuSection(const BenchOptions& o, std::ostream& out)
{
    json rows = json::array();
    bench::Table t({"variant", "shape", "ms", "GB/s", "% of copy", "% of peak", "x geam", "paper % of peak (" + std::string(kSeedGpu) + ")"});
    std::vector<std::pair<std::int64_t, std::int64_t>> shapes;
    for (int e = 10; e <= (o.quick ? 12 : 15); ++e)
        shapes.push_back({std::int64_t(1) << e, std::int64_t(1) << e});
    const std::vector<std::pair<std::int64_t, std::int64_t>> rectangles =
        o.quick ? std::vector<std::pair<std::int64_t, std::int64_t>>{{4096, 2048}}
                : std::vector<std::pair<std::int64_t, std::int64_t>>{{16384, 8192}, {8192, 16384}, {16384, 4096}, {12288, 4096}, {10000, 7000}};
    shapes.insert(shapes.end(), rectangles.begin(), rectangles.end());
    double libraryMs = 0;  // cuBLAS geam at this shape: run first, every row's ratio to it
    for (const auto& shape : shapes)
        for (Variant v : {Variant::Library, Variant::Naive, Variant::Coalesced, Variant::InPlace, Variant::Padded}) {
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
                if (v == Variant::Library)
                    libraryMs = r.kernelMs;
                t.add({label, std::to_string(m) + "x" + std::to_string(n), fixed(r.kernelMs, 3),
                       fixed(r.gbps, 1) + (r.verified ? "" : " WRONG"), bench::percent(r.gbps / r.copyGbps),
                       r.peakGbps > 0 ? bench::percent(r.gbps / r.peakGbps) : "?", ratio(r.kernelMs, libraryMs),
                       seedGpuColumn(v, m, n)});
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
    out << "\nGPU, float32, median of 5 timed calls after a warm-up. % of copy: of a cudaMemcpy device-to-device of "
           "the same bytes (read + written),\nthe best of 10 after 2 warm-ups, timed before and after the kernels in the "
           "same process; x geam: this time over cuBLAS geam's at the same shape;\n% of peak: of 2 x memory clock x bus width. The paper's Table 2 (NVIDIA A30, 933 GB/s): "
           "block-based naive 44.53%, coalesced 60.61% of peak at 2^15.\nTargets on the H200: padded 16384^2 >= 95% of copy, "
           "inplace 16384^2 >= 85%, inplace 16384x8192 >= 50%.\n\n";
    t.print(out);
    return rows;
}

}  // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    const gallery::BenchSection sections[] = {
        {"cpu", "cpu", false, &cpuSection},
        {"cache", "cpu_cache_misses", false, &cacheSection},
        {"gpu", "gpu", true, &gpuSection},
    };
    return gallery::runGalleryBench("transpose", &device::available, sections, options, out, err);
}

}  // namespace gigacheck::transpose
