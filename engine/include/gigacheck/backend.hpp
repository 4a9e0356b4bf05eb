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

// Measured or datasheet ceilings for the roofline (GFLOP/s and GB/s; 0 = unknown).
struct Ceilings {
    double gflopsF32 = 0, gflopsTf32 = 0, gflopsF64 = 0;
    double deviceBandwidthGBs = 0, h2dGBs = 0, d2hGBs = 0;
    std::string source;  // "measured <date>", "datasheet", ""
};

struct DeviceInfo {
    BackendKind backend = BackendKind::Cpu;
    std::string name;             // "NVIDIA H100 80GB HBM3", "CPU: AMD EPYC ... (2 threads)"
    std::uint64_t memoryBytes = 0;  // device memory (CPU: physical RAM)
    std::string computeCapability;  // "9.0"; empty on the CPU
    int index = 0;                  // CUDA device ordinal (as nvidia-smi counts); 0 on the CPU
    std::string whyChosen;          // "--backend auto: no CUDA device found (...)"
    Ceilings ceilings;
};

// What a backend runs: a schedule and what its family's ops work on. The matrices, fault plan and
// GEMM settings are the blocked GEMM family's; the executors only pass them to its op tables.
struct ExecutionRequest {
    const Schedule* schedule = nullptr;
    // The op tables to run with; null: those of the family schedule->family names (tests give
    // their own to run a family of their own).
    const FamilyOps* family = nullptr;
    HostMatrix* a = nullptr;  // m x n
    HostMatrix* b = nullptr;  // n x q
    HostMatrix* c = nullptr;  // m x q, written block by block
    FaultPlan* faults = nullptr;  // injections get before/after filled in
    GemmVariant gemm = GemmVariant::Cublas;
    int tile = 32;
    double thresholdLambda = 4.0;
    RunObserver* observer = nullptr;
    const std::atomic<bool>* cancel = nullptr;  // checked between operations
};

struct ExecutionResult {
    bool cancelled = false;
    std::size_t peakBufferBytes = 0;  // high-water mark of the buffer pool (never above the cap)
    double wallSeconds = 0;           // first op start to last op end
    std::vector<Span> spans;
    std::vector<InjectEvent> injections;
    std::vector<VerifyEvent> verifications;
};

// Throws BackendError when the request lacks a schedule or a matrix, or when the host matrices do
// not match the plan's shape and precision. Every backend checks this before touching memory.
void checkExecutionRequest(const ExecutionRequest& request, const std::string& backendName);

class Backend {
public:
    virtual ~Backend() = default;
    virtual DeviceInfo device() const = 0;
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

std::unique_ptr<Backend> makeCpuBackend();
// device: a CUDA device ordinal, or -1 for the first device. nullptr with a reason in *why when
// CUDA was not compiled in, no device exists, or there is no device with that ordinal.
std::unique_ptr<Backend> makeCudaBackend(std::string* why, int device = -1);
bool cudaCompiledIn();

// auto: CUDA when a device exists, else the CPU; info.whyChosen says which and why. A device
// ordinal >= 0 asks for that CUDA device (auto then means cuda). Throws InputError when CUDA is
// requested and unavailable, when the ordinal does not exist, or for a device with --backend cpu.
std::unique_ptr<Backend> makeBackend(BackendKind kind, int device = -1);

}  // namespace gigacheck
