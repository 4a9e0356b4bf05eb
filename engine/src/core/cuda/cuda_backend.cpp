// The CUDA backend: a Schedule on CUDA streams (seed 000 section 2.3).
//
// Each schedule stream gets three CUDA streams, one per queue (H2D, compute, D2H), so copies and
// compute overlap. Operations are issued in schedule order (depth-first); a dependency on another
// CUDA stream becomes cudaStreamWaitEvent on the op's "done" event. Every op is bracketed by two
// events; a poller thread waits for them in issue order and hands spans, injections and verdicts
// to the observer while the run goes on. All device memory is the schedule's buffers (the blocked
// GEMM family keeps its ABFT scratch in its Aux buffers), counted against the cap and checked
// with cudaMemGetInfo. What each op does comes from its family's CUDA op table
// (core/cuda/op_table.hpp): this file never looks at an op's kind.
#include "gigacheck/backend.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/devices.hpp"
#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "core/cuda/testing_hooks.hpp"
#include "core/op_reporting.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace gigacheck {

namespace cuda::testing {
namespace {
std::atomic<int> gFailAt{-1};
std::atomic<std::size_t> gMemoryLimit{0};
}  // namespace
void failAtOperation(int opId) { gFailAt = opId; }
void limitDeviceMemory(std::size_t bytes) { gMemoryLimit = bytes; }
}  // namespace cuda::testing

namespace {

using namespace cuda;

const cuda::OpTable& familyTable(const ExecutionRequest& req)
{
    const FamilyOps& family = familyOf(req);
    if (!family.cuda)
        throw BackendError("CUDA backend: family '" + std::string(family.name) + "' has no CUDA implementation");
    return *family.cuda;
}

class CudaRun {
public:
    CudaRun(const ExecutionRequest& req, int device)
        : req_(req), schedule_(*req.schedule), ops_(req.schedule->ops), device_(device), table_(familyTable(req)),
          reporter_(req.observer, req.schedule->ops.size())
    {
    }

    ExecutionResult run()
    {
        CUDA_CHECK(cudaSetDevice(device_));
        failAt_ = cuda::testing::gFailAt.exchange(-1);
        memoryLimit_ = cuda::testing::gMemoryLimit.exchange(0);
        lookUpOps();
        allocateBuffers();
        makeStreams();
        makeEvents();
        if (table_.makeState)
            state_ = table_.makeState(context());

        poller_ = std::thread([this] { pollLoop(); });
        try {
            issueAll();
        } catch (...) {
            stopPoller();
            cudaDeviceSynchronize();  // let queued work end before the buffers go (errors ignored)
            throw;
        }
        // Wait for the poller to report every issued op; it rethrows its own failure below.
        {
            std::unique_lock lock(mutex_);
            issuingDone_ = true;
        }
        cv_.notify_all();
        poller_.join();
        if (pollError_) {
            cudaDeviceSynchronize();
            std::rethrow_exception(pollError_);
        }
        for (const auto& s : streams_)
            CUDA_CHECK(cudaStreamSynchronize(s.get()));

        result_.cancelled = cancelled_;
        result_.peakBufferBytes = peakBytes_;
        if (!result_.spans.empty()) {
            double first = result_.spans.front().start, last = 0;
            for (const Span& s : result_.spans) {
                first = std::min(first, s.start);
                last = std::max(last, s.end);
            }
            result_.wallSeconds = last - first;
        }
        return std::move(result_);
    }

    ~CudaRun() { stopPoller(); }

private:
    // ---- setup ------------------------------------------------------------------------------
    void lookUpOps()
    {
        entries_.reserve(ops_.size());
        for (const Operation& op : ops_) {
            // One device per backend for now: a multi-GPU family needs an executor over several.
            if (op.device != 0)
                throw BackendError("CUDA backend: op " + std::to_string(op.id) + " is placed on device " +
                                   std::to_string(op.device) + "; this backend runs single-device schedules");
            const cuda::OpEntry* entry = table_.find(op.kind);
            if (!entry)
                throw BackendError("CUDA backend: family '" + std::string(familyOf(req_).name) +
                                   "' has no CUDA implementation of op kind " + std::string(toString(op.kind)));
            entries_.push_back(entry);
        }
    }

    cuda::OpContext context() const { return {req_, *req_.schedule, bufferPointers_, lanes(), state_.get()}; }
    int lanes() const { return std::max(1, req_.schedule->streams); }

    void allocateBuffers()
    {
        std::size_t needed = 0;
        for (const BufferSpec& b : schedule_.buffers)
            needed += b.bytes;
        if (needed > schedule_.capBytes)
            throw BackendError("CUDA backend: the plan needs " + formatBytes(double(needed)) + ", more than its cap of " +
                               formatBytes(double(schedule_.capBytes)));
        std::size_t freeBytes = 0, totalBytes = 0;
        CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
        if (needed > freeBytes)
            throw BackendError("out of device memory: the plan's buffers need " + formatBytes(double(needed)) +
                               " and the device has " + formatBytes(double(freeBytes)) + " free of " +
                               formatBytes(double(totalBytes)));
        buffers_.reserve(schedule_.buffers.size());
        for (const BufferSpec& b : schedule_.buffers) {
            if (memoryLimit_ && peakBytes_ + b.bytes > memoryLimit_)
                throwCudaError(cudaErrorMemoryAllocation, "cudaMalloc (test memory limit)", __FILE__, __LINE__);
            buffers_.emplace_back(b.bytes);
            bufferPointers_.push_back(buffers_.back().get());
            peakBytes_ += b.bytes;
        }
    }

    void makeStreams()
    {
        for (int i = 0; i < 3 * lanes(); ++i)
            streams_.emplace_back();
    }

    void makeEvents()
    {
        runStart_ = std::make_unique<Event>();
        starts_.reserve(ops_.size());
        dones_.reserve(ops_.size());
        for (std::size_t i = 0; i < ops_.size(); ++i) {
            starts_.emplace_back(cudaEventDefault);
            dones_.emplace_back(cudaEventBlockingSync);
        }
    }

    // ---- issuing ----------------------------------------------------------------------------
    cudaStream_t streamOf(const Operation& op) const
    {
        return streams_[std::size_t(3 * op.stream + int(op.queue))].get();
    }

    void issueAll()
    {
        CUDA_CHECK(cudaEventRecord(runStart_->get(), streamOf(ops_.front())));
        for (const Operation& op : ops_) {
            if (req_.cancel && req_.cancel->load()) {
                cancelled_ = true;
                break;
            }
            {
                // Stay at most kIssueWindow ops ahead of what has finished, so that a cancel
                // stops the run soon instead of after everything already queued.
                std::unique_lock lock(mutex_);
                cv_.wait(lock, [&] { return stop_ || pollFailed_ || issued_ - reported_ < kIssueWindow; });
                if (stop_ || pollFailed_)
                    break;
            }
            const cudaStream_t s = streamOf(op);
            for (int d : op.deps)
                if (streamOf(ops_[std::size_t(d)]) != s)
                    CUDA_CHECK(cudaStreamWaitEvent(s, dones_[std::size_t(d)].get(), 0));
            waitForExclusive(op, s);
            CUDA_CHECK(cudaEventRecord(starts_[std::size_t(op.id)].get(), s));
            if (op.id == failAt_)  // test hook: a real CUDA error (invalid copy size) mid-run
                CUDA_CHECK(cudaMemcpyAsync(buffers_.front().get(), buffers_.front().get(), std::size_t(1) << 60,
                                           cudaMemcpyDeviceToDevice, s));
            entries_[std::size_t(op.id)]->issue(context(), op, s);
            CUDA_CHECK(cudaEventRecord(dones_[std::size_t(op.id)].get(), s));
            {
                std::lock_guard lock(mutex_);
                ++issued_;
            }
            cv_.notify_all();
        }
    }

    // Exclusive ops run one at a time across streams. Blocked GEMM marks the products of S1-S3
    // so (seed figure 10): their two schedule streams only let copies overlap products. Left to
    // itself the GPU interleaves the GEMMs of both streams, both finish late and the copies
    // waiting for the first one start late (s3, N = 32768, 4 GiB cap on an H200: 1.61 s against
    // 1.49 s). S4's two concurrent products are its point.
    void waitForExclusive(const Operation& op, cudaStream_t s)
    {
        if (!op.exclusive)
            return;
        if (lastExclusive_ >= 0 && streamOf(ops_[std::size_t(lastExclusive_)]) != s)
            CUDA_CHECK(cudaStreamWaitEvent(s, dones_[std::size_t(lastExclusive_)].get(), 0));
        lastExclusive_ = op.id;
    }

    // ---- reporting --------------------------------------------------------------------------
    void stopPoller()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        cv_.notify_all();
        if (poller_.joinable())
            poller_.join();
    }

    void pollLoop()
    {
        try {
            for (std::size_t next = 0;; ++next) {
                {
                    std::unique_lock lock(mutex_);
                    cv_.wait(lock, [&] { return stop_ || issued_ > next || issuingDone_; });
                    if (stop_ || issued_ <= next)
                        return;  // stopped, or everything issued has been reported
                }
                report(ops_[next]);
            }
        } catch (...) {
            pollError_ = std::current_exception();
            std::lock_guard lock(mutex_);
            pollFailed_ = true;
        }
        cv_.notify_all();
    }

    void report(const Operation& op)
    {
        CUDA_CHECK(cudaEventSynchronize(dones_[std::size_t(op.id)].get()));
        Span span = spanOf(op);
        span.start = elapsedMs(runStart_->get(), starts_[std::size_t(op.id)].get()) * 1e-3;
        span.end = elapsedMs(runStart_->get(), dones_[std::size_t(op.id)].get()) * 1e-3;
        OpOutcome outcome;
        if (const cuda::ReportFunction read = entries_[std::size_t(op.id)]->report)
            read(context(), op, span, outcome);

        recordOutcome(result_, span, outcome);
        std::size_t doneOps = 0;
        {
            std::lock_guard lock(mutex_);
            doneOps = ++reported_;
        }
        cv_.notify_all();
        reporter_.report(span, outcome, doneOps);
    }

    const ExecutionRequest& req_;
    const Schedule& schedule_;
    const std::vector<Operation>& ops_;
    int device_ = 0;
    const cuda::OpTable& table_;
    std::vector<const cuda::OpEntry*> entries_;  // per op, looked up once before the run
    int failAt_ = -1;
    std::size_t memoryLimit_ = 0;

    // Destroyed in reverse order: the poller is stopped (destructor) before the events and buffers go.
    std::vector<DeviceBuffer> buffers_;
    std::vector<void*> bufferPointers_;
    std::size_t peakBytes_ = 0;
    std::vector<Stream> streams_;
    int lastExclusive_ = -1;  // the exclusive op issued last (waitForExclusive)
    std::unique_ptr<Event> runStart_;
    std::vector<Event> starts_, dones_;
    std::unique_ptr<cuda::RunState> state_;  // the family's: destroyed before streams and buffers

    std::mutex mutex_;
    std::condition_variable cv_;
    std::size_t issued_ = 0, reported_ = 0;
    static constexpr std::size_t kIssueWindow = 256;
    bool issuingDone_ = false, stop_ = false, cancelled_ = false, pollFailed_ = false;
    std::exception_ptr pollError_;
    std::thread poller_;
    OpReporter reporter_;
    ExecutionResult result_;
};

void checkRequest(const ExecutionRequest& req)
{
    checkExecutionRequest(req, "CUDA backend");
    if (const cuda::OpTable& table = familyTable(req); table.checkInputs)
        table.checkInputs(req);
}

// Every family's one-time kernel loading (prepare), and forgetting it after a device reset.
void warmUpFamilies(int device)
{
    for (const FamilyOps* family : allFamilies())
        if (family->cuda && family->cuda->warmUp)
            family->cuda->warmUp(device);
}
void forgetFamilyWarmUps()
{
    for (const FamilyOps* family : allFamilies())
        if (family->cuda && family->cuda->forgetWarmUp)
            family->cuda->forgetWarmUp();
}

// After a sticky error (illegal address, ...) the context is unusable: reset it so that the next
// run starts on a fresh one. Non-sticky errors were cleared where they were thrown.
std::string recoverDevice(int device)
{
    if (cudaSetDevice(device) != cudaSuccess)
        (void)cudaGetLastError();
    const cudaError_t pending = cudaDeviceSynchronize();
    if (pending == cudaSuccess || !isStickyError(pending)) {
        (void)cudaGetLastError();
        return {};
    }
    cudaDeviceReset();
    forgetFamilyWarmUps();
    return " (the CUDA context was reset; pinned host memory from before is no longer valid)";
}

class CudaBackend final : public Backend {
public:
    CudaBackend(int device, DeviceInfo info) : device_(device), info_(std::move(info)) {}
    DeviceInfo device() const override { return info_; }
    HostAllocator hostAllocator() const override
    {
        HostAllocator a;
        // Portable: pinned for every device's DMA, not only for the context that allocated it.
        a.allocate = [device = device_](std::size_t bytes) -> void* {
            void* p = nullptr;
            if (cudaSetDevice(device) != cudaSuccess || cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
                (void)cudaGetLastError();
                throw BackendError("cannot allocate " + formatBytes(double(bytes)) + " of pinned host memory");
            }
            return p;
        };
        a.release = [](void* p) {
            if (p)
                cudaFreeHost(p);
        };
        return a;
    }
    void prepare() override
    {
        try {
            warmUpFamilies(device_);
        } catch (const BackendError& e) {
            throw BackendError(std::string(e.what()) + recoverDevice(device_));
        }
    }
    ExecutionResult execute(const ExecutionRequest& request) override
    {
        checkRequest(request);
        if (request.schedule->ops.empty())
            return {};
        try {
            // Before anything is timed: module loading and cuBLAS setup stay out of the spans.
            warmUpFamilies(device_);
            CudaRun run(request, device_);
            return run.run();
        } catch (const BackendError& e) {
            const std::string extra = recoverDevice(device_);
            throw BackendError(std::string(e.what()) + extra);
        }
    }

private:
    int device_ = 0;
    DeviceInfo info_;
};

}  // namespace

bool cudaCompiledIn() { return true; }

std::unique_ptr<Backend> makeCudaBackend(std::string* why, int device)
{
    std::string reason;
    const std::vector<DeviceInfo> devices = cuda::cudaDevices(&reason);
    const int wanted = device < 0 ? 0 : device;
    for (const DeviceInfo& listed : devices)
        if (listed.index == wanted) {
            return std::make_unique<CudaBackend>(listed.index, listed);
        }
    if (why) {
        if (devices.empty())
            *why = reason.empty() ? "no CUDA device found" : reason;
        else
            *why = "there is no CUDA device " + std::to_string(device) + " (" + std::to_string(devices.size()) +
                   " found, numbered 0.." + std::to_string(devices.size() - 1) + ")";
    }
    return nullptr;
}

}  // namespace gigacheck
