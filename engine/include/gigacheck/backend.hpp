// Where a schedule runs. The CPU backend emulates the three queues with threads; the CUDA
// backend maps them onto streams and events. Both report through the same observer.
#pragma once

#include "gigacheck/events.hpp"
#include "gigacheck/matrix.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace gigacheck {

struct FamilyOps;  // engine/src/core/op_table.hpp

// The cost model's tables (blocked GEMM planner, gigacheck/blocked_gemm/cost_model.hpp), measured by
// `gigacheck devices --measure`: the GEMM rate of one block shape and the pinned 2D copy rate
// of one row width (the contiguous bytes per row of a host region).
struct GemmRatePoint {
    std::string kind;  // "f32", "tf32", "f64"
    std::int64_t m = 0, n = 0, k = 0;  // C is m x n, the common dimension k
    double gflops = 0;
};
struct CopyRatePoint {
    std::int64_t rowBytes = 0;
    double h2dGBs = 0, d2hGBs = 0;
    // The same copies while an FP32 GEMM runs on another stream (0: not measured): on an H200 rows
    // of 4-16 KB out of a host matrix 64 KB or more wide lose 35-45 % of their rate then.
    double h2dLoadedGBs = 0, d2hLoadedGBs = 0;
    // The host matrix's row pitch the rows were copied out of (0: twice the row, older tables).
    std::int64_t hostPitchBytes = 0;
};

// Measured or datasheet ceilings for the roofline (GFLOP/s and GB/s; 0 = unknown).
struct Ceilings {
    double gflopsF32 = 0, gflopsTf32 = 0, gflopsF64 = 0;
    double deviceBandwidthGBs = 0, h2dGBs = 0, d2hGBs = 0;
    std::string source;  // "measured <date>", "datasheet", ""
    std::vector<GemmRatePoint> gemmRates;  // empty: not measured (older ceilings files)
    std::vector<CopyRatePoint> copyRates;
    // GPU hosts: how fast the host's threads pack a block of narrow rows into contiguous memory
    // while the link copies into the device, as in a run (gigacheck/blocked_gemm/h2d_staging.hpp; 0: not measured).
    double hostPackGBs = 0;
    // BF16 / FP16 inputs with FP32 accumulation (tensor cores; 0 = unknown). Last, so that brace
    // initialisers written before them still fill the fields above.
    double gflopsBf16 = 0, gflopsF16 = 0;
};

struct DeviceInfo {
    BackendKind backend = BackendKind::Cpu;
    std::string name;             // "NVIDIA H100 80GB HBM3", "CPU: AMD EPYC ... (2 threads)"
    std::uint64_t memoryBytes = 0;  // device memory (CPU: physical RAM)
    std::string computeCapability;  // "9.0"; empty on the CPU
    int index = 0;                  // CUDA device ordinal (as nvidia-smi counts); on the CPU the emulated device's number
    std::string whyChosen;          // "--backend auto: no CUDA device found (...)"
    Ceilings ceilings;
};

// What a family's ops work on besides the device buffers: host matrices, fault plan, settings,
// its plan. Each family derives its own (blocked GEMM: blocked_gemm::Inputs in
// gigacheck/blocked_gemm.hpp); its op implementations cast ExecutionRequest::inputs back to it.
// The executors never look inside.
struct FamilyInputs {
    virtual ~FamilyInputs() = default;
};

// What a backend runs: a schedule, the op tables that implement its kinds and what they work on.
struct ExecutionRequest {
    const Schedule* schedule = nullptr;
    // The op tables to run with; null: those of the family schedule->family names (tests give
    // their own to run a family of their own).
    const FamilyOps* family = nullptr;
    // The family's own data, passed through to its ops and its checkInputs (may be null for a
    // family that needs none).
    FamilyInputs* inputs = nullptr;
    RunObserver* observer = nullptr;
    const std::atomic<bool>* cancel = nullptr;  // checked between operations
};

struct ExecutionResult {
    bool cancelled = false;
    std::size_t peakBufferBytes = 0;  // the highest per-device high-water mark (never above the cap)
    std::vector<std::size_t> devicePeakBytes;  // high-water mark of each schedule device's buffers
    double wallSeconds = 0;           // first op start to last op end
    std::vector<Span> spans;
    std::vector<InjectEvent> injections;
    std::vector<VerifyEvent> verifications;
};

// Throws BackendError when the request lacks a schedule, its family is unknown, or the schedule
// is malformed for an executor (no devices, streams, a buffer or op on a device the schedule does
// not have); then runs the family's checkInputs (FamilyOps, core/op_table.hpp), which refuses
// inputs that do not fit the schedule. Every backend checks this before touching memory.
void checkExecutionRequest(const ExecutionRequest& request, const std::string& backendName);

class Backend {
public:
    virtual ~Backend() = default;
    // The first device (the one `gigacheck devices` lists for it).
    virtual DeviceInfo device() const = 0;
    // Every device a schedule can place ops on (Schedule::devices at most this many), in order.
    virtual std::vector<DeviceInfo> devices() const { return {device()}; }
    // Memory for host matrices (pinned on CUDA so copies overlap with compute).
    virtual HostAllocator hostAllocator() const { return HostAllocator::heap(); }
    // One-time setup that must stay out of every timing (module loading, library handles, a first
    // launch of each kernel). runGemm calls it before its clock starts; execute does it too when
    // nobody did. Throws BackendError on failure.
    virtual void prepare() {}
    // Runs the schedule. Throws BackendError on a failure; frees everything it allocated either
    // way so the next run works.
    virtual ExecutionResult execute(const ExecutionRequest& request) = 0;
};

// devices: how many devices the CPU backend emulates (each with its own H2D, compute and D2H
// queue threads and its own buffer pool under the cap); DeviceInfo::index numbers them.
// Throws InputError below 1.
std::unique_ptr<Backend> makeCpuBackend(int devices = 1);
// device: a CUDA device ordinal, or -1 for the first device. nullptr with a reason in *why when
// CUDA was not compiled in, no device exists, or there is no device with that ordinal.
std::unique_ptr<Backend> makeCudaBackend(std::string* why, int device = -1);
// A CUDA backend over several devices: schedule device d runs on ordinals[d]. An ordinal may be
// listed twice (two logical devices sharing one GPU: own streams, buffers and cap). nullptr with a
// reason in *why as above, or for an empty list.
std::unique_ptr<Backend> makeCudaBackend(std::string* why, const std::vector<int>& ordinals);
bool cudaCompiledIn();

// auto: CUDA when a device exists, else the CPU; info.whyChosen says which and why. A device
// ordinal >= 0 asks for that CUDA device (auto then means cuda). Throws InputError when CUDA is
// requested and unavailable, when the ordinal does not exist, or for a device with --backend cpu.
std::unique_ptr<Backend> makeBackend(BackendKind kind, int device = -1);

}  // namespace gigacheck
