// Device listing, roof measurement and the benchmark suites behind `gigacheck devices` and
// `gigacheck bench`. Every figure is a ratio against a reference run in the same process.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/measure_progress.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace gigacheck {

// CUDA devices (empty with *why set when there are none) followed by the CPU.
std::vector<DeviceInfo> listDevices(std::string* whyNoCuda);

// Measures the roofs of a device: GEMM rate per precision (cuBLAS FP32, TF32, FP64 / OpenBLAS on
// the CPU), device copy bandwidth, pinned H2D and D2H, and the cost model's rate tables. Throws
// BackendError on failure and MeasureCancelled when options.progress cancelled it (checked before
// every point, so within a stage); options.progress hears of every point (measure_progress.hpp).
Ceilings measureCeilings(const DeviceInfo& device, const MeasureOptions& options = {});

// Stored ceilings (JSON) for the roofline; default path: $XDG_CONFIG_HOME/gigacheck/ceilings.json.
std::string defaultCeilingsPath();
void saveCeilings(const DeviceInfo& device, const std::string& path);
// Returns false when the file has no entry for this device name.
bool loadCeilings(const std::string& path, DeviceInfo& device);

struct BenchOptions {
    std::string suite;     // abft-overhead | kernels | out-of-core | paper | link
    std::string jsonPath;  // optional: full numbers as JSON
    bool quick = false;    // smaller sizes (smoke runs)
    int device = -1;       // CUDA device ordinal; -1: the first
};
// Runs one suite, printing its table of ratios to out. Returns the process exit code
// (0 ok, 2 bad suite name or no device, with the reason on err).
int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err);
// gigacheck bench multi-gpu-gemm (families/blocked_gemm/bench/multi_gpu_gemm.cpp): the blocked
// ABFT GEMM spread over every visible GPU (two logical devices on one GPU when there is only
// one) against G = 1, cublasXt on the same GPUs and in-core cuBLAS on one GPU. Same exit codes.
int runMultiGpuGemmBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gigacheck
