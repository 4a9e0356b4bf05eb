// `gigacheck bench reduced`: every reduced matmul over the seed's sizes (128 ... 16384), time,
// GFLOP/s and the ratio to the library GEMM of the reduced shape measured in the same process;
// the seed's Table 4.2 (GTX 1050 Mobile, nvprof) beside.
#include "gigacheck/reduced_matmul.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/gallery/bench_frame.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"

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
                    "paper (" + std::string(gpu ? kSeedGpu : kSeedCpu) + ")"});
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
        out << "Target on the H200: reduce-blas <= 1.1x cuBLAS. The paper's times are kernel times from nvprof on its "
            << kSeedGpu << ": compare ratios between rows, not seconds.\n\n";
    else
        out << "The paper's CPU times are wall-clock times of its single-threaded, unoptimised naive 4p loop on an "
            << kSeedCpu << " (naive4p rows only): compare them with naive4p here, also one core."
            << (longSizes() ? "" : " GIGACHECK_GALLERY_LONG=1: naive to 2048, reduce-blas to 8192.") << "\n\n";
    t.print(out);
    return rows;
}

}  // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    const gallery::BenchSection sections[] = {
        {"cpu", "cpu", false, [](const BenchOptions& o, std::ostream& os) { return section(o, os, false); }},
        {"gpu", "gpu", true, [](const BenchOptions& o, std::ostream& os) { return section(o, os, true); }},
    };
    return gallery::runGalleryBench("reduced", &device::available, sections, options, out, err);
}

}  // namespace gigacheck::reduced_matmul
