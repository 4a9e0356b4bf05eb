// The CUDA backend: a Schedule on CUDA streams (seed 000 section 2.3).
//
// Each schedule stream gets three CUDA streams, one per queue (H2D, compute, D2H), so copies and
// compute overlap. Operations are issued in schedule order (depth-first); a dependency on another
// CUDA stream becomes cudaStreamWaitEvent on the op's "done" event. Every op is bracketed by two
// events; a poller thread waits for them in issue order and hands spans, injections and verdicts
// to the observer while the run goes on. All device memory is the plan's buffers (the ABFT
// scratch lives in the Aux buffers), counted against the cap and checked with cudaMemGetInfo.
#include "gigacheck/backend.hpp"
#include "gigacheck/bench.hpp"

#include "cuda/abft_device.hpp"
#include "cuda/check.hpp"
#include "cuda/gemm.hpp"
#include "cuda/lab.hpp"
#include "cuda/resources.hpp"
#include "cuda/testing_hooks.hpp"
#include "cuda/warm_up.hpp"

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

std::size_t elemSize(Precision p) { return p == Precision::F64 ? 8 : 4; }

class CudaRun {
public:
    CudaRun(const ExecutionRequest& req, int device)
        : req_(req), plan_(req.schedule->plan), ops_(req.schedule->ops), device_(device)
    {
    }

    ExecutionResult run()
    {
        CUDA_CHECK(cudaSetDevice(device_));
        failAt_ = cuda::testing::gFailAt.exchange(-1);
        memoryLimit_ = cuda::testing::gMemoryLimit.exchange(0);
        allocateBuffers();
        makeStreams();
        makeEvents();
        makeHostSlots();

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
        if (req_.faults)  // the caller's fault plan gets before/after filled in
            for (const InjectEvent& e : result_.injections)
                for (Injection& inj : req_.faults->injections)
                    if (inj.block == e.injection.block && inj.localRow == e.injection.localRow &&
                        inj.localCol == e.injection.localCol && !inj.applied) {
                        inj = e.injection;
                        break;
                    }
        return std::move(result_);
    }

    ~CudaRun() { stopPoller(); }

private:
    // ---- setup ------------------------------------------------------------------------------
    void allocateBuffers()
    {
        std::size_t needed = 0;
        for (const BufferSpec& b : plan_.buffers)
            needed += b.bytes;
        if (needed > plan_.capBytes)
            throw BackendError("CUDA backend: the plan needs " + formatBytes(double(needed)) + ", more than its cap of " +
                               formatBytes(double(plan_.capBytes)));
        std::size_t freeBytes = 0, totalBytes = 0;
        CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
        if (needed > freeBytes)
            throw BackendError("out of device memory: the plan's buffers need " + formatBytes(double(needed)) +
                               " and the device has " + formatBytes(double(freeBytes)) + " free of " +
                               formatBytes(double(totalBytes)));
        buffers_.reserve(plan_.buffers.size());
        for (const BufferSpec& b : plan_.buffers) {
            if (memoryLimit_ && peakBytes_ + b.bytes > memoryLimit_)
                throwCudaError(cudaErrorMemoryAllocation, "cudaMalloc (test memory limit)", __FILE__, __LINE__);
            buffers_.emplace_back(b.bytes);
            peakBytes_ += b.bytes;
        }
    }

    void makeStreams()
    {
        const int n = std::max(1, req_.schedule->streams);
        for (int i = 0; i < 3 * n; ++i)
            streams_.emplace_back();
        for (int i = 0; i < n; ++i) {
            sides_.emplace_back();
            forks_.emplace_back(cudaEventDisableTiming);
            joins_.emplace_back(cudaEventDisableTiming);
        }
        // One cuBLAS handle per compute stream: handles keep per-stream workspace state.
        for (int i = 0; i < n; ++i)
            handles_.push_back(std::make_unique<CublasHandle>());
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

    void makeHostSlots()
    {
        std::size_t verifies = 0, injections = 0;
        slotOf_.assign(ops_.size(), -1);
        for (const Operation& op : ops_) {
            if (op.kind == OpKind::Verify)
                slotOf_[std::size_t(op.id)] = int(verifies++);
            if (op.kind == OpKind::Inject) {
                slotOf_[std::size_t(op.id)] = int(injections);
                injections += injectionsFor(op).size();
            }
        }
        verifyOut_ = PinnedBuffer(std::max<std::size_t>(1, verifies) * sizeof(VerifyOut));
        injectOut_ = PinnedBuffer(std::max<std::size_t>(1, injections) * 2 * sizeof(double));
    }

    std::vector<std::size_t> injectionsFor(const Operation& op) const
    {
        std::vector<std::size_t> out;
        if (!req_.faults)
            return out;
        const std::int64_t extra = plan_.abft ? 1 : 0;
        for (std::size_t index : req_.faults->forBlock(op.block)) {
            const Injection& inj = req_.faults->injections[index];
            // Outside the stored block (a checksum target without ABFT): nothing there to corrupt.
            if (inj.localRow < 0 || inj.localCol < 0 || inj.localRow >= op.rows + extra || inj.localCol >= op.cols + extra)
                continue;
            out.push_back(index);
        }
        return out;
    }

    // ---- issuing ----------------------------------------------------------------------------
    // Checksum ops run on the schedule stream's side stream: the GEMM of the product does not read
    // the checksum row / column they write, so it need not wait for them; the product's checksum
    // passes (also on the side stream) do.
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
            serializeProducts(op, s);
            CUDA_CHECK(cudaEventRecord(starts_[std::size_t(op.id)].get(), s));
            if (op.id == failAt_)  // test hook: a real CUDA error (invalid copy size) mid-run
                CUDA_CHECK(cudaMemcpyAsync(buffers_.front().get(), buffers_.front().get(), std::size_t(1) << 60,
                                           cudaMemcpyDeviceToDevice, s));
            issue(op, s);
            CUDA_CHECK(cudaEventRecord(dones_[std::size_t(op.id)].get(), s));
            {
                std::lock_guard lock(mutex_);
                ++issued_;
            }
            cv_.notify_all();
        }
    }

    // S1-S3 compute one product at a time (seed figure 10): their two schedule streams only let
    // copies overlap products. Left to itself the GPU interleaves the GEMMs of both streams, both
    // finish late and the copies waiting for the first one start late (s3, N = 32768, 4 GiB cap
    // on an H200: 1.61 s against 1.49 s). S4's two concurrent products are its point.
    void serializeProducts(const Operation& op, cudaStream_t s)
    {
        if (op.kind != OpKind::Product || plan_.strategy == StrategyKind::S4)
            return;
        if (lastProduct_ >= 0 && streamOf(ops_[std::size_t(lastProduct_)]) != s)
            CUDA_CHECK(cudaStreamWaitEvent(s, dones_[std::size_t(lastProduct_)].get(), 0));
        lastProduct_ = op.id;
    }

    void* buf(int slot) const { return buffers_[std::size_t(slot)].get(); }
    std::int64_t ld(int slot) const { return plan_.buffers[std::size_t(slot)].ld; }

    void issue(const Operation& op, cudaStream_t s)
    {
        const Precision p = plan_.precision;
        const std::size_t es = elemSize(p);
        switch (op.kind) {
        case OpKind::CopyH2D: {
            const HostMatrix& src = op.host.matrix == Operand::A ? *req_.a : *req_.b;
            const char* base = static_cast<const char*>(src.data()) +
                               (std::size_t(op.host.row) * std::size_t(src.cols()) + std::size_t(op.host.col)) * es;
            CUDA_CHECK(cudaMemcpy2DAsync(buf(op.dst), std::size_t(ld(op.dst)) * es, base, std::size_t(src.cols()) * es,
                                         std::size_t(op.host.cols) * es, std::size_t(op.host.rows),
                                         cudaMemcpyHostToDevice, s));
            break;
        }
        case OpKind::CopyD2H: {
            HostMatrix& dst = *req_.c;
            char* base = static_cast<char*>(dst.data()) +
                         (std::size_t(op.host.row) * std::size_t(dst.cols()) + std::size_t(op.host.col)) * es;
            CUDA_CHECK(cudaMemcpy2DAsync(base, std::size_t(dst.cols()) * es, buf(op.dst), std::size_t(ld(op.dst)) * es,
                                         std::size_t(op.host.cols) * es, std::size_t(op.host.rows),
                                         cudaMemcpyDeviceToHost, s));
            break;
        }
        case OpKind::Checksum:
            // A's column checksum is computed (into Aux) by each product's pass over A, which that
            // pass needs anyway: on the device the Checksum op of an A block has no work.
            if (plan_.buffers[std::size_t(op.dst)].role == BufferRole::B)
                checksumB(p, buf(op.dst), op.depth, op.cols, ld(op.dst), s);
            break;
        case OpKind::Product: {
            GemmCall g;
            g.variant = req_.gemm;
            g.tile = req_.tile;
            g.precision = p;
            g.m = op.rows;
            g.n = op.depth;
            g.q = op.cols;
            g.a = buf(op.srcA);
            g.lda = ld(op.srcA);
            g.b = buf(op.srcB);
            g.ldb = ld(op.srcB);
            g.c = buf(op.dst);
            g.ldc = ld(op.dst);
            g.accumulate = op.accumulate;
            // The checksum row / column and the bound are memory-bound passes that touch only C's
            // augmentation and Aux: they run on a side stream while the GEMM computes the main part
            // (running them before the GEMM instead was measured no faster for TF32 and slower for
            // the others: resources/results/README.md).
            const bool abft = plan_.abft && op.aux >= 0;
            const std::size_t lane = std::size_t(op.stream);
            if (abft) {
                CUDA_CHECK(cudaEventRecord(forks_[lane].get(), s));
                CUDA_CHECK(cudaStreamWaitEvent(sides_[lane].get(), forks_[lane].get(), 0));
                checksumProducts(p, g.a, g.lda, g.b, g.ldb, g.c, g.ldc, op.rows, op.depth, op.cols, auxOf(op.aux),
                                 op.accumulate, sides_[lane].get(), roundoff().uInput > 0);
                CUDA_CHECK(cudaEventRecord(joins_[lane].get(), sides_[lane].get()));
            }
            gemm(g, handles_[lane]->get(), s);
            if (abft)
                CUDA_CHECK(cudaStreamWaitEvent(s, joins_[lane].get(), 0));
            break;
        }
        case OpKind::Inject: {
            const std::vector<std::size_t> list = injectionsFor(op);
            std::vector<DeviceInjection> items;
            for (std::size_t index : list) {
                const Injection& inj = req_.faults->injections[index];
                DeviceInjection d;
                d.row = inj.localRow;
                d.col = inj.localCol;
                d.bitFlip = inj.model == FaultModel::BitFlip ? 1 : 0;
                d.bit = inj.bit;
                d.delta = inj.delta;
                if (d.bitFlip && (d.bit < 0 || d.bit >= int(8 * es)))
                    throw BackendError("CUDA backend: bit " + std::to_string(d.bit) + " is outside an element");
                items.push_back(d);
            }
            if (!items.empty())
                inject(p, buf(op.dst), ld(op.dst), items.data(), int(items.size()), injectSlot(op.id), s);
            break;
        }
        case OpKind::Verify: {
            VerifyCall v;
            v.precision = p;
            v.c = buf(op.dst);
            v.rows = op.rows;
            v.cols = op.cols;
            v.ldc = ld(op.dst);
            v.depth = plan_.depthOffset(op.block.k) + op.depth;
            v.aux = auxOf(op.aux);
            v.u = roundoff().uAccumulate;
            v.uInput = roundoff().uInput;
            v.lambda = req_.thresholdLambda;
            verify(v, verifySlot(op.id), s);
            break;
        }
        case OpKind::Recompute: break;  // never scheduled (the repair pass runs after the schedule)
        }
    }

    RoundoffModel roundoff() const { return roundoffModel(plan_.precision, req_.gemm == GemmVariant::CublasTf32); }

    AuxView auxOf(int slot) const
    {
        return AuxView{static_cast<double*>(buf(slot)), ld(slot)};
    }
    VerifyOut* verifySlot(int opId) const { return verifyOut_.as<VerifyOut>() + slotOf_[std::size_t(opId)]; }
    double* injectSlot(int opId) const { return injectOut_.as<double>() + 2 * slotOf_[std::size_t(opId)]; }

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
        // A's column checksum is made by every product's pass over A on the device (the A block's
        // Checksum op has no work): count it there, so the roofline's per-kind rates stay true.
        if (op.kind == OpKind::Checksum && plan_.buffers[std::size_t(op.dst)].role == BufferRole::A)
            span.flops = span.bytes = 0;
        if (op.kind == OpKind::Product && plan_.abft && op.aux >= 0)
            span.flops += double(op.rows) * double(op.depth);
        span.start = elapsedMs(runStart_->get(), starts_[std::size_t(op.id)].get()) * 1e-3;
        span.end = elapsedMs(runStart_->get(), dones_[std::size_t(op.id)].get()) * 1e-3;

        std::vector<InjectEvent> injected;
        if (op.kind == OpKind::Inject) {
            const double* values = injectSlot(op.id);
            std::size_t n = 0;
            for (std::size_t index : injectionsFor(op)) {
                Injection inj = req_.faults->injections[index];
                inj.before = values[2 * n];
                inj.after = values[2 * n + 1];
                inj.applied = true;
                ++n;
                injected.push_back({op.id, inj, span.end});
            }
        }
        VerifyEvent verified;
        if (op.kind == OpKind::Verify)
            verified = toEvent(op, *verifySlot(op.id), span.end);

        result_.spans.push_back(span);
        result_.injections.insert(result_.injections.end(), injected.begin(), injected.end());
        if (op.kind == OpKind::Verify)
            result_.verifications.push_back(verified);
        {
            std::lock_guard lock(mutex_);
            ++reported_;
        }
        cv_.notify_all();
        if (RunObserver* obs = req_.observer) {
            obs->onSpan(span);
            for (const InjectEvent& e : injected)
                obs->onInject(e);
            if (op.kind == OpKind::Verify)
                obs->onVerify(verified);
            obs->onProgress(double(reported_) / double(ops_.size()));
        }
    }

    VerifyEvent toEvent(const Operation& op, const VerifyOut& out, double time) const
    {
        VerifyEvent ev;
        ev.opId = op.id;
        ev.block = op.block;
        ev.rowOffset = plan_.rowOffset(op.block.i);
        ev.colOffset = plan_.colOffset(op.block.j);
        ev.rows = op.rows;
        ev.cols = op.cols;
        ev.time = time;
        VerifyResult& r = ev.result;
        r.verdict = out.verdict == kClean ? Verdict::Clean : out.verdict == kCorrected ? Verdict::Corrected : Verdict::Uncorrectable;
        for (int x = 0; x < std::min(out.rowCount, kMaxListed); ++x) {
            r.mismatchRows.push_back(out.rows[x]);
            r.rowResidual.push_back(out.rowResidual[x]);
        }
        for (int x = 0; x < std::min(out.colCount, kMaxListed); ++x) {
            r.mismatchCols.push_back(out.cols[x]);
            r.colResidual.push_back(out.colResidual[x]);
        }
        for (int x = 0; x < out.correctionCount; ++x)
            r.corrections.push_back({out.corrRow[x], out.corrCol[x], out.before[x], out.after[x]});
        r.checksumsRecomputed = out.recomputed != 0;
        r.locatedByLargestResidual = out.locatedByLargestResidual != 0;
        r.maxCleanResidualRatio = out.maxCleanRatio;
        r.minThreshold = out.minThreshold;
        r.maxThreshold = out.maxThreshold;
        return ev;
    }

    const ExecutionRequest& req_;
    const Plan& plan_;
    const std::vector<Operation>& ops_;
    int device_ = 0;
    int failAt_ = -1;
    std::size_t memoryLimit_ = 0;

    // Destroyed in reverse order: the poller is stopped (destructor) before the events and buffers go.
    std::vector<DeviceBuffer> buffers_;
    std::size_t peakBytes_ = 0;
    std::vector<Stream> streams_;
    int lastProduct_ = -1;               // the product issued last (serializeProducts)
    std::vector<Stream> sides_;          // per schedule stream: ABFT passes beside the GEMM
    std::vector<Event> forks_, joins_;   // reused: ops of one schedule stream run in order
    std::vector<std::unique_ptr<CublasHandle>> handles_;
    std::unique_ptr<Event> runStart_;
    std::vector<Event> starts_, dones_;
    std::vector<int> slotOf_;
    PinnedBuffer verifyOut_, injectOut_;

    std::mutex mutex_;
    std::condition_variable cv_;
    std::size_t issued_ = 0, reported_ = 0;
    static constexpr std::size_t kIssueWindow = 256;
    bool issuingDone_ = false, stop_ = false, cancelled_ = false, pollFailed_ = false;
    std::exception_ptr pollError_;
    std::thread poller_;
    ExecutionResult result_;
};

void checkRequest(const ExecutionRequest& req)
{
    checkExecutionRequest(req, "CUDA backend");
    if (req.gemm == GemmVariant::Tiled && req.tile != 8 && req.tile != 16 && req.tile != 32)
        throw InputError("--tile must be 8, 16 or 32 (got " + std::to_string(req.tile) + ")");
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
    cuda::forgetWarmUp();
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
            warmUpDevice(device_);
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
            warmUpDevice(device_);
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
            DeviceInfo info = listed;
            try {  // roofs stored by `gigacheck devices --measure`, when there are any
                loadCeilings(defaultCeilingsPath(), info);
            } catch (const std::exception&) {
            }
            return std::make_unique<CudaBackend>(info.index, info);
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
