// `gigacheck bench reduced`: every reduced matmul over the seed's sizes (128 ... 16384), time,
// GFLOP/s and the ratio to the library GEMM of the reduced shape measured in the same process;
// the seed's Table 4.2 (GTX 1050 Mobile, nvprof) beside.
#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/version.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "core/timestamp.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"

#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace gigacheck::reduced_matmul {

namespace {

using bench::fixed;
using nlohmann::json;

std::string seedColumn(std::int64_t n, Variant v, bool gpu)
{
    for (const SeedFigure& f : seedFigures())
        if (f.n == n && f.variant == v && f.gpu == gpu)
            return fixed(f.ms, 3) + " ms";
    return "";
}

// GIGACHECK_GALLERY_LONG=1: the CPU naive loops up to 2048 (the seed's last CPU size, a minute a
// call on one core) and reduce-blas to 8192.
bool longSizes() { return bench::switchedOn("GIGACHECK_GALLERY_LONG"); }

json section(const BenchOptions& o, std::ostream& out, bool gpu)
{
    json rows = json::array();
    bench::Table t({"variant", "N", "ms", "GFLOP/s", gpu ? "x cuBLAS" : "x OpenBLAS", "loads/thread",
                    "seed (" + std::string(gpu ? kSeedGpu : kSeedCpu) + ")"});
    const std::vector<std::int64_t> sizes = gpu ? (o.quick ? std::vector<std::int64_t>{128, 512, 2048}
                                                           : std::vector<std::int64_t>{128, 512, 2048, 8192, 16384})
                                                : longSizes() ? std::vector<std::int64_t>{128, 512, 2048, 8192}
                                                              : std::vector<std::int64_t>{128, 512, 2048};
    const std::vector<Variant> variants = gpu ? std::vector<Variant>{Variant::Naive4p, Variant::NaiveP, Variant::Tiled8, Variant::Tiled16,
                                                                     Variant::Tiled32, Variant::ReduceBlas}
                                              : std::vector<Variant>{Variant::Naive4p, Variant::NaiveP, Variant::ReduceBlas};
    for (std::int64_t n : sizes)
        for (Variant v : variants) {
            if (!gpu && v != Variant::ReduceBlas && n > (longSizes() ? 2048 : 512))
                continue;  // the naive loops: seconds at 1024, minutes beyond
            Config c;
            c.n = n;
            c.variant = v;
            c.backend = gpu ? BackendKind::Cuda : BackendKind::Cpu;
            c.device = o.device;
            // The naive kernels take seconds at N >= 8192: one timed call after the warm-up.
            c.reps = n >= (gpu ? 8192 : 2048) && tileOf(v) == 0 && v != Variant::ReduceBlas ? 1 : 3;
            const Record r = runReduced(c);
            t.add({std::string(toString(v)), std::to_string(n), fixed(r.kernelMs, 3), fixed(r.gflops, 1) + (r.verified ? "" : " WRONG"),
                   r.libraryMs > 0 ? fixed(r.kernelMs / r.libraryMs, 2) : "", fixed(r.counts.loadsPerThread, 0),
                   seedColumn(n, v, gpu)});
            rows.push_back(json::parse(toJson(r)));
            out << "." << std::flush;
        }
    out << "\n" << (gpu ? "GPU" : "CPU (naive loops on one core, OpenBLAS with its threads)")
        << ", float32. x library: this kernel's time over the library GEMM alone on the reduced shape (N/2 x N x N/2), "
           "same process.\n";
    if (gpu)
        out << "Target on the H200: reduce-blas <= 1.1x cuBLAS. The seed's times are kernel times from nvprof on its "
            << kSeedGpu << ": compare ratios between rows, not seconds.\n\n";
    else
        out << "The seed's CPU times are wall-clock times of its single-threaded, unoptimised naive 4p loop on an "
            << kSeedCpu << " (naive4p rows only): compare them with naive4p here, also one core."
            << (longSizes() ? "" : " GIGACHECK_GALLERY_LONG=1: naive to 2048, reduce-blas to 8192.") << "\n\n";
    t.print(out);
    return rows;
}

// GIGACHECK_GALLERY_SECTIONS=cpu,gpu (transpose also cache): only those sections, so that a long
// CPU table and the GPU table can run as separate commands. Unset: every section.
bool sectionWanted(std::string_view name) { return bench::selected("GIGACHECK_GALLERY_SECTIONS", name); }

}  // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    std::string why;
    const bool gpu = device::available(&why);
    out << "gigacheck " << kVersion << " bench reduced" << (options.quick ? " (quick)" : "") << "\ndate: " << nowIso8601() << "\n"
        << (gpu ? "" : "no CUDA device (" + why + "): the CPU part only\n") << std::flush;
    json doc = {{"suite", "reduced"}, {"quick", options.quick}, {"date", nowIso8601()}};
    try {
        if (sectionWanted("cpu"))
            doc["cpu"] = section(options, out, false);
        if (gpu && sectionWanted("gpu"))
            doc["gpu"] = section(options, out, true);
    } catch (const std::exception& e) {
        err << "bench reduced failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty()) {
        writeFileAtomically(options.jsonPath, doc.dump(1) + "\n", "bench JSON");  // InputError: exit 2
    }
    return 0;
}

}  // namespace gigacheck::reduced_matmul
