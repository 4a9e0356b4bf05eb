// The reduced matrix multiplication family of the kernel gallery (the reduced-matmul chapter): C is N/2 x N/2 with
// C_ij = (row 2i + row 2i+1 of A) . (column 2j + column 2j+1 of B), from the seed's naive 4p kernel
// to the library way (reduce, then one GEMM). Implementation: engine/src/families/reduced_matmul/.
#pragma once

#include "gigacheck/bench.hpp"
#include "gigacheck/names.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/types.hpp"

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gigacheck::reduced_matmul {

// Its records' "family".
inline constexpr std::string_view kFamilyName = "reduced_matmul";

enum class Variant {
    Naive4p,     // one thread (CPU: one loop iteration) per C element, 4 multiplications per k (seed 4.3.1)
    NaiveP,      // the same, pairs summed first: 1 multiplication per k (seed 4.3.2)
    Tiled8,      // GPU: shared tiles that pre-sum the pairs (seed 4.3.3), TILE = 8
    Tiled16,
    Tiled32,
    ReduceBlas,  // reduce A's row pairs and B's column pairs once, then one GEMM (OpenBLAS / cuBLAS)
};

std::string_view toString(Variant);
Variant variantFromString(std::string_view);  // throws InputError
bool onCpu(Variant);
bool onCuda(Variant);
int tileOf(Variant);  // 8, 16, 32; 0 for the others

// What a kernel does, counted from its loop nest (counts.cpp).
struct Counts {
    double multiplications = 0;   // in the whole product (4p: N^3; p: N^3 / 4)
    double loadsPerThread = 0;    // global loads of one C element's thread (naive 4N, tiled 4N / TILE)
    std::int64_t threads = 0;     // one per C element (N/2)^2; reduce-blas: the reduction's
    double loadBytesRequested = 0;  // threads x loads x element size: what the kernel asks of L1/L2
    double footprintBytes = 0;    // A, B read once and C written once: the least device-memory traffic
    double flops = 0;             // 2 (N/2)^2 N: the reduced product's, the same for every variant
};
Counts countsOf(Variant, std::int64_t n, Precision);
// The loop nest of one thread replayed, counting its global loads (tests compare it with the
// seed's formulas).
std::int64_t replayLoadsOfOneThread(Variant, std::int64_t n);

struct Config {
    std::int64_t n = 0;  // A and B are n x n, n even
    Variant variant = Variant::ReduceBlas;
    Precision precision = Precision::F32;
    BackendKind backend = BackendKind::Auto;
    int device = -1;
    int reps = 3;
    std::uint64_t seed = 42;
    // Set from another thread to stop the run: checked between ops and, in the CPU naive loops,
    // between rows of C. A cancelled run returns status "cancelled", unverified.
    const std::atomic<bool>* cancel = nullptr;
};

// InputError for an odd or non-positive n, a variant the backend lacks, or an N whose matrices
// do not fit the host memory (A, B, C, and on the CPU the backend's buffers; the bytes needed and
// available in the message) or the BLAS's int extents.
void checkConfig(const Config&, BackendKind resolved);
BackendKind resolveBackend(const Config&);

// A reduced matmul run's record: the envelope (status, devices, spans of every op, metrics) and
// the family's section.
struct Record : RecordEnvelope {
    Config config;
    std::string backend;   // "cpu" / "cuda"
    double kernelMs = 0;   // median of the timed calls; reduce-blas: its reduce and GEMM ops together
    double libraryMs = 0;  // the library GEMM alone on the reduced shape (N/2 x N x N/2), same schedule
    double h2dMs = 0, d2hMs = 0;
    double gflops = 0;     // counts.flops / kernel time
    Counts counts;
    bool verified = false;
    std::int64_t checked = 0;   // C elements compared with an FP64 reference (all up to N = 512, else a sample)
    std::int64_t wrong = 0;
    double maxRelError = 0;     // |C - C_ref| / sum_k (|a0| + |a1|)(|b0| + |b1|), worst checked element
    double tolerance = 0;
    std::string deviceName() const { return devices.empty() ? std::string() : devices.front().name; }
};

// Seed 003 Table 4.2: kernel times (nvprof) on a GTX 1050 Mobile, and its single-threaded
// unoptimised CPU code on an i5-9300H (variant Naive4p, gpu false). Its row "16394" read as 16384.
struct SeedFigure {
    Variant variant;
    std::int64_t n;
    double ms;
    bool gpu;
};
std::span<const SeedFigure> seedFigures();  // seed_figures.cpp
inline constexpr std::string_view kSeedGpu = "GTX 1050 Mobile";
inline constexpr std::string_view kSeedCpu = "i5-9300H, 1 thread";

// Random A and B, the family's schedule (copy in, reduce, the library GEMM and the variant's calls,
// each a warm-up and `reps` timed, copy out) through the chosen backend's executor, C checked
// against FP64. Throws InputError for a bad request.
Record runReduced(const Config&);
std::string toJson(const Record&);
// Reads a record written by toJson (`gigacheck show`); throws InputError naming the bad field.
Record recordFromJson(const std::string& text);
Record loadRecord(const std::string& path);
std::string report(const Record&);

// `gigacheck bench reduced`: every kernel over the seed's sizes on the CPU, and on the GPU when one
// exists, with the seed's own figures beside (bench/bench_reduced_matmul.cpp). Returns the exit code.
int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gigacheck::reduced_matmul

namespace gigacheck {
template <> const EnumTable<reduced_matmul::Variant>& enumTable<reduced_matmul::Variant>();
}
