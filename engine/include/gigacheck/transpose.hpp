// The transpose family of the kernel gallery (the transpose paper): CPU and GPU transposes from the seed's
// naive in-place loop to what the hardware can do, each verified, timed and counted.
// Implementation: engine/src/families/transpose/ (README there).
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

namespace gigacheck::transpose {

// Its records' "family".
inline constexpr std::string_view kFamilyName = "transpose";

enum class Variant {
    Naive,       // in place, square: CPU seed Algorithm 1; GPU one thread per swap, no shared memory
    Blocked,     // CPU, in place, square: seed Algorithm 2 (diagonal blocks first, block 16)
    OutOfPlace,  // CPU, any m x n, into a second matrix, 16 x 16 cache blocks
    Coalesced,   // GPU, in place, square: seed Algorithm 3 (8 x 32 threads, 32 x 32 tiles)
    InPlace,     // both, any m x n, no second matrix (square: tile-pair swaps; rectangular: the ratio decomposition for sides 2:1 and 4:1, else C2R)
    Padded,      // GPU, any m x n, out of place through padded shared memory
    Library,     // GPU, cuBLAS geam (float32 only)
};
enum class ElementType { F32, I32 };

std::string_view toString(Variant);
std::string_view toString(ElementType);
Variant variantFromString(std::string_view);          // throws InputError
ElementType elementTypeFromString(std::string_view);  // throws InputError
std::size_t elementBytes(ElementType);

bool onCpu(Variant);
bool onCuda(Variant);
bool inPlace(Variant);
bool squareOnly(Variant);

// What a kernel does, counted from its access pattern (families/transpose/counts.cpp).
struct Counts {
    std::int64_t moves = 0;        // elements written to their transposed place (swaps count 2)
    std::int64_t swaps = 0;        // element pairs exchanged (square in-place kernels)
    double bytesRead = 0;          // from memory, each element once (the seed's effective bandwidth)
    double bytesWritten = 0;
    std::int64_t threads = 0;      // GPU: threads launched (0 on the CPU)
    std::int64_t activeThreads = 0;  // GPU: threads that move data (the seed's kernels idle half)
    double loadsPerThread = 0;     // GPU: global loads per active thread
    double sectorsPerWarpLoad = 0;   // GPU: 32-byte sectors one warp's load instruction touches
    double sectorsPerWarpStore = 0;  // GPU: ... one warp's store instruction
    int sharedConflictWays = 0;      // GPU: worst shared-memory bank conflict (1 = none, 0 = no shared)
    double trafficBytes = 0;         // bytes through memory in all passes (>= bytesRead + bytesWritten)
    std::int64_t passes = 1;       // sweeps over the matrix (rectangular in place: 3, coprime 2)
};
Counts countsOf(Variant, std::int64_t m, std::int64_t n, ElementType);

struct Config {
    std::int64_t m = 0, n = 0;  // the input is m x n, row-major; the result n x m
    Variant variant = Variant::InPlace;
    ElementType type = ElementType::F32;
    BackendKind backend = BackendKind::Auto;
    int device = -1;  // CUDA ordinal; -1 the first
    int reps = 3;     // timed repetitions after one warm-up (the median is reported); 0: one call, no warm-up
    std::uint64_t seed = 42;
    // Set from another thread to stop the run between transposes; a cancelled run returns status
    // "cancelled", unverified.
    const std::atomic<bool>* cancel = nullptr;
};

// Throws InputError with a clear message for a variant the backend lacks, a square-only variant
// on a rectangular shape, library with int32, a non-positive shape, or a shape whose matrices do
// not fit the host memory (the matrix, its copy for the check and on the CPU the backend's
// buffers; the bytes needed and available in the message).
void checkConfig(const Config&, BackendKind resolved);
// Auto: CUDA when the variant has a CUDA kernel and a device exists, else the CPU.
BackendKind resolveBackend(const Config&);

// A transpose run's record: the envelope (status, devices, spans of the copy-in, every transpose
// call and the copy-out, metrics) and the family's section.
struct Record : RecordEnvelope {
    Config config;
    std::string backend;      // "cpu" / "cuda"
    double kernelMs = 0;      // median of the timed m x n transpose calls (the first call, a warm-up, excluded)
    double backMs = 0;        // in place, rectangular: median of the timed n x m calls between them (back)
    double h2dMs = 0, d2hMs = 0;  // the copies of the matrix in and out (spans)
    double gbps = 0;          // (bytesRead + bytesWritten) / kernel time
    double copyGbps = 0;      // CUDA: the best device-to-device copy of the same bytes, same process, before and after the kernels
    double peakGbps = 0;      // CUDA: datasheet peak from the memory clock and bus width
    Counts counts;
    bool verified = false;
    std::int64_t mismatches = 0;  // elements not at their transposed place
    std::string deviceName() const { return devices.empty() ? std::string() : devices.front().name; }
};

// Seed 004 Table 2: % of the theoretical peak at 2^15 x 2^15 float32 on an NVIDIA A30 (933 GB/s).
struct SeedFigure {
    Variant variant;
    std::int64_t n;
    double percentOfPeak;
    double gbps;  // percentOfPeak x 933 GB/s
};
std::span<const SeedFigure> seedFigures();  // seed_figures.cpp
inline constexpr std::string_view kSeedGpu = "NVIDIA A30";
inline constexpr double kSeedGpuPeakGbps = 933;
// Seed 004 Table 1: Cachegrind L1 read misses of the naive and blocked loops (i7-9750H, -O0).
struct SeedCacheMisses {
    int log2n;
    double naiveL1, naiveL2, blockedL1, blockedL2;
};
std::span<const SeedCacheMisses> seedCacheMisses();
inline constexpr std::string_view kSeedCpu = "i7-9750H";

// Fills an m x n matrix with distinct values (run/matrix_values.hpp), runs the family's schedule
// (copy in, a warm-up and `reps` transposes, copy out) through the chosen backend's executor and
// verifies every element. Throws InputError for a bad request.
Record runTranspose(const Config&);
std::string toJson(const Record&);
// Reads a record written by toJson (`gigacheck show`); throws InputError naming the bad field.
Record recordFromJson(const std::string& text);
Record loadRecord(const std::string& path);
std::string report(const Record&);

// `gigacheck bench transpose`: every kernel over the seed's sizes on the CPU, and on the GPU when one
// exists, with the seed's own figures beside (bench/bench_transpose.cpp). Returns the exit code.
int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gigacheck::transpose

namespace gigacheck {
template <> const EnumTable<transpose::Variant>& enumTable<transpose::Variant>();
template <> const EnumTable<transpose::ElementType>& enumTable<transpose::ElementType>();
}  // namespace gigacheck
