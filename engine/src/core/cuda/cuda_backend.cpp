// The CUDA backend: a Schedule on CUDA streams (the Gigacheck report's section 2.3), over one or several devices.
//
// The backend holds a list of CUDA ordinals; schedule device d runs on ordinals[d] (the same
// ordinal may be listed twice: two logical devices sharing one GPU, each with its own streams,
// buffers and cap). On each device, each schedule stream gets three CUDA streams, one per queue
// (H2D, compute, D2H), so copies and compute overlap. Operations are issued in schedule order
// (depth-first) with their device current; a dependency on another CUDA stream — of any device —
// becomes cudaStreamWaitEvent on the op's "done" event. Every op is bracketed by two events; a
// poller thread waits for them in issue order and hands spans, injections and verdicts to the
// observer while the run goes on. All device memory is the schedule's buffers, each on its
// device (the blocked GEMM family keeps its ABFT scratch in its Aux buffers and its GEMM's copies
// and partial sums in its workspace buffers), counted against that
// device's cap and checked with cudaMemGetInfo. Peer access is enabled between the GPUs of a run
// where the hardware allows (core/cuda/device_copy.hpp copies either way). What each op does
// comes from its family's CUDA op table (core/cuda/op_table.hpp): this file never looks at an
// op's kind.
#include "gigacheck/backend.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/devices.hpp"
#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "core/cuda/testing_hooks.hpp"
#include "core/op_reporting.hpp"
#include "core/span_metrics.hpp"

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

// The distinct ordinals of a list, in first-listed order.
std::vector<int> distinct(const std::vector<int>& ordinals)
{
    std::vector<int> out;
    for (int o : ordinals)
        if (std::find(out.begin(), out.end(), o) == out.end())
            out.push_back(o);
    return out;
}

// Lets every GPU of the list reach every other's memory directly where the hardware allows; a
// pair without peer access still copies (cudaMemcpyPeerAsync stages through the host).
void enablePeerAccess(const std::vector<int>& ordinals)
{
    const std::vector<int> gpus = distinct(ordinals);
    for (int a : gpus)
        for (int b : gpus) {
            if (a == b)
                continue;
            int can = 0;
            if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can) {
                (void)cudaGetLastError();
                continue;
            }
            CUDA_CHECK(cudaSetDevice(a));
            const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
                CUDA_CHECK(e);
            (void)cudaGetLastError();  // "already enabled" is not an error here
        }
}

class CudaRun {
public:
    CudaRun(const ExecutionRequest& req, std::vector<int> ordinals)
        : req_(req), schedule_(*req.schedule), ops_(req.schedule->ops), ordinals_(std::move(ordinals)),
          table_(familyTable(req)), reporter_(req.observer, req.schedule->ops.size())
    {
        ordinals_.resize(std::size_t(schedule_.devices));  // the backend's first schedule.devices
    }

    ExecutionResult run()
    {
        failAt_ = cuda::testing::gFailAt.exchange(-1);
        memoryLimit_ = cuda::testing::gMemoryLimit.exchange(0);
        lookUpOps();
        if (schedule_.devices > 1)
            enablePeerAccess(ordinals_);
        allocateBuffers();
        makeStreams();
        makeEvents();
        setCurrent(0);
        if (table_.makeState)
            state_ = table_.makeState(context());
        current_ = -1;  // makeState may have made other GPUs of the run current (per-device handles)

        poller_ = std::thread([this] { pollLoop(); });
        try {
            issueAll();
        } catch (...) {
            stopPoller();
            synchronizeAll();  // let queued work end before the buffers go (errors ignored)
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
            synchronizeAll();
            std::rethrow_exception(pollError_);
        }
        for (const auto& s : streams_)
            CUDA_CHECK(cudaStreamSynchronize(s.get()));

        result_.cancelled = cancelled_;
        result_.devicePeakBytes = devicePeak_;
        for (std::size_t bytes : devicePeak_)
            result_.peakBufferBytes = std::max(result_.peakBufferBytes, bytes);
        result_.wallSeconds = spanExtentSeconds(result_.spans);
        return std::move(result_);
    }

    ~CudaRun() { stopPoller(); }

private:
    // ---- setup ------------------------------------------------------------------------------
    void lookUpOps()
    {
        entries_.reserve(ops_.size());
        for (const Operation& op : ops_) {
            const cuda::OpEntry* entry = table_.find(op.kind);
            if (!entry)
                throw BackendError("CUDA backend: family '" + std::string(familyOf(req_).name) +
                                   "' has no CUDA implementation of op kind " + std::string(toString(op.kind)));
            entries_.push_back(entry);
        }
    }

    cuda::OpContext context() const
    {
        return {req_, *req_.schedule, bufferPointers_, lanes(), state_.get(), ordinals_};
    }
    int lanes() const { return std::max(1, req_.schedule->streams); }
    bool isUrgent(int lane) const
    {
        const std::vector<int>& u = req_.schedule->urgentStreams;
        return std::find(u.begin(), u.end(), lane) != u.end();
    }
    int devices() const { return int(ordinals_.size()); }

    // Makes schedule device d's GPU current on the calling thread (the issuing thread only).
    void setCurrent(int d)
    {
        if (current_ != ordinals_[std::size_t(d)]) {
            CUDA_CHECK(cudaSetDevice(ordinals_[std::size_t(d)]));
            current_ = ordinals_[std::size_t(d)];
        }
    }

    void synchronizeAll()
    {
        for (int gpu : distinct(ordinals_))
            if (cudaSetDevice(gpu) == cudaSuccess)
                cudaDeviceSynchronize();
        (void)cudaGetLastError();
        current_ = -1;
    }

    void allocateBuffers()
    {
        // Each device's buffers against its cap, then each GPU's against what it has free (two
        // logical devices on one GPU share it).
        std::vector<std::size_t> needed(std::size_t(devices()), 0);
        for (const BufferSpec& b : schedule_.buffers)
            needed[std::size_t(b.device)] += b.bytes;
        for (int d = 0; d < devices(); ++d)
            if (needed[std::size_t(d)] > schedule_.capBytes)
                throw BackendError("CUDA backend: the plan needs " + formatBytes(double(needed[std::size_t(d)])) +
                                   (devices() > 1 ? " on device " + std::to_string(d) : std::string()) +
                                   ", more than its cap of " + formatBytes(double(schedule_.capBytes)));
        for (int gpu : distinct(ordinals_)) {
            std::size_t onGpu = 0;
            for (int d = 0; d < devices(); ++d)
                if (ordinals_[std::size_t(d)] == gpu)
                    onGpu += needed[std::size_t(d)];
            std::size_t freeBytes = 0, totalBytes = 0;
            CUDA_CHECK(cudaSetDevice(gpu));
            current_ = gpu;
            CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
            if (onGpu > freeBytes)
                throw BackendError("out of device memory: the plan's buffers need " + formatBytes(double(onGpu)) +
                                   " and the device has " + formatBytes(double(freeBytes)) + " free of " +
                                   formatBytes(double(totalBytes)));
        }
        devicePeak_.assign(std::size_t(devices()), 0);
        std::size_t allocated = 0;
        buffers_.reserve(schedule_.buffers.size());
        for (const BufferSpec& b : schedule_.buffers) {
            if (memoryLimit_ && allocated + b.bytes > memoryLimit_)
                throwCudaError(cudaErrorMemoryAllocation, "cudaMalloc (test memory limit)", __FILE__, __LINE__);
            setCurrent(b.device);
            buffers_.emplace_back(b.bytes);
            bufferPointers_.push_back(buffers_.back().get());
            allocated += b.bytes;
            devicePeak_[std::size_t(b.device)] += b.bytes;
        }
    }

    void makeStreams()
    {
        for (int d = 0; d < devices(); ++d) {
            setCurrent(d);
            for (int lane = 0; lane < lanes(); ++lane)
                for (int queue = 0; queue < 3; ++queue)
                    streams_.push_back(queue == int(Queue::Compute) && isUrgent(lane) ? Stream::highestPriority() : Stream());
        }
    }

    // Each op's events on its own device (an event is recorded on a stream of its device); one
    // start event per device, since elapsed times are measured between events of one device.
    void makeEvents()
    {
        for (int d = 0; d < devices(); ++d) {
            setCurrent(d);
            runStarts_.emplace_back(cudaEventDefault);
        }
        starts_.reserve(ops_.size());
        dones_.reserve(ops_.size());
        for (const Operation& op : ops_) {
            setCurrent(op.device);
            starts_.emplace_back(cudaEventDefault);
            dones_.emplace_back(cudaEventBlockingSync);
        }
    }

    // ---- issuing ----------------------------------------------------------------------------
    cudaStream_t streamOf(const Operation& op) const
    {
        return streams_[std::size_t(3 * (op.device * lanes() + op.stream) + int(op.queue))].get();
    }

    void issueAll()
    {
        // The devices' clocks start together (as near as the host issues them); spans of device
        // d are timed from its own start event.
        for (int d = 0; d < devices(); ++d) {
            setCurrent(d);
            CUDA_CHECK(cudaEventRecord(runStarts_[std::size_t(d)].get(),
                                       streams_[std::size_t(3 * d * lanes())].get()));
        }
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
            setCurrent(op.device);
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
    // One at a time per device: the devices of a run compute side by side.
    void waitForExclusive(const Operation& op, cudaStream_t s)
    {
        if (!op.exclusive)
            return;
        lastExclusive_.resize(std::size_t(devices()), -1);
        int& last = lastExclusive_[std::size_t(op.device)];
        if (last >= 0 && streamOf(ops_[std::size_t(last)]) != s)
            CUDA_CHECK(cudaStreamWaitEvent(s, dones_[std::size_t(last)].get(), 0));
        last = op.id;
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
        const cudaEvent_t runStart = runStarts_[std::size_t(op.device)].get();
        span.start = elapsedMs(runStart, starts_[std::size_t(op.id)].get()) * 1e-3;
        span.end = elapsedMs(runStart, dones_[std::size_t(op.id)].get()) * 1e-3;
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
    std::vector<int> ordinals_;  // CUDA ordinal of each schedule device
    int current_ = -1;           // the ordinal current on the issuing thread
    const cuda::OpTable& table_;
    std::vector<const cuda::OpEntry*> entries_;  // per op, looked up once before the run
    int failAt_ = -1;
    std::size_t memoryLimit_ = 0;

    // Destroyed in reverse order: the poller is stopped (destructor) before the events and buffers go.
    std::vector<DeviceBuffer> buffers_;
    std::vector<void*> bufferPointers_;
    std::vector<std::size_t> devicePeak_;  // bytes allocated on each schedule device
    std::vector<Stream> streams_;          // device-major: device, schedule stream, queue
    std::vector<int> lastExclusive_;  // per device: the exclusive op issued last (waitForExclusive)
    std::vector<Event> runStarts_;  // per device
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

void checkRequest(const ExecutionRequest& req, std::size_t devices)
{
    checkExecutionRequest(req, "CUDA backend");
    if (req.schedule->devices > int(devices))
        throw BackendError("CUDA backend: the schedule uses " + std::to_string(req.schedule->devices) +
                           " devices; this backend has " + std::to_string(devices));
    if (const cuda::OpTable& table = familyTable(req); table.checkInputs)
        table.checkInputs(req);
}

// Every family's one-time kernel loading (prepare), and forgetting it after a device reset.
void warmUpFamilies(const std::vector<int>& ordinals)
{
    for (int device : distinct(ordinals))
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
std::string recoverDevices(const std::vector<int>& ordinals)
{
    std::string said;
    for (int device : distinct(ordinals)) {
        const std::string extra = recoverDevice(device);
        if (said.empty())
            said = extra;
    }
    return said;
}

class CudaBackend final : public Backend {
public:
    CudaBackend(std::vector<int> ordinals, std::vector<DeviceInfo> infos)
        : ordinals_(std::move(ordinals)), infos_(std::move(infos))
    {
    }
    DeviceInfo device() const override { return infos_.front(); }
    std::vector<DeviceInfo> devices() const override { return infos_; }
    HostAllocator hostAllocator() const override
    {
        HostAllocator a;
        // Portable: pinned for every device's DMA, not only for the context that allocated it.
        a.allocate = [device = ordinals_.front()](std::size_t bytes) -> void* {
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
            warmUpFamilies(ordinals_);
        } catch (const BackendError& e) {
            throw BackendError(std::string(e.what()) + recoverDevices(ordinals_));
        }
    }
    ExecutionResult execute(const ExecutionRequest& request) override
    {
        checkRequest(request, ordinals_.size());
        if (request.schedule->ops.empty())
            return {};
        try {
            // Before anything is timed: module loading and cuBLAS setup stay out of the spans.
            warmUpFamilies(ordinals_);
            CudaRun run(request, ordinals_);
            return run.run();
        } catch (const BackendError& e) {
            const std::string extra = recoverDevices(ordinals_);
            throw BackendError(std::string(e.what()) + extra);
        }
    }

private:
    std::vector<int> ordinals_;
    std::vector<DeviceInfo> infos_;
};

}  // namespace

bool cudaCompiledIn() { return true; }

std::unique_ptr<Backend> makeCudaBackend(std::string* why, const std::vector<int>& ordinals)
{
    std::string reason;
    const std::vector<DeviceInfo> listed = cuda::cudaDevices(&reason);
    if (ordinals.empty()) {
        if (why)
            *why = "no CUDA device asked for";
        return nullptr;
    }
    std::vector<DeviceInfo> infos;
    for (int wanted : ordinals) {
        const auto it = std::find_if(listed.begin(), listed.end(), [wanted](const DeviceInfo& d) { return d.index == wanted; });
        if (it == listed.end()) {
            if (why) {
                if (listed.empty())
                    *why = reason.empty() ? "no CUDA device found" : reason;
                else
                    *why = "there is no CUDA device " + std::to_string(wanted) + " (" + std::to_string(listed.size()) +
                           " found, numbered 0.." + std::to_string(listed.size() - 1) + ")";
            }
            return nullptr;
        }
        infos.push_back(*it);
    }
    return std::make_unique<CudaBackend>(ordinals, std::move(infos));
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, int device)
{
    return makeCudaBackend(why, std::vector<int>{device < 0 ? 0 : device});
}

}  // namespace gigacheck
