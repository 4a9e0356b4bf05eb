// The CPU backend: one thread per queue (H2D, compute, D2H). Each thread takes its queue's ops in
// issue order and starts one only when its deps are done, which is the queue semantics of seed
// 000 section 2.3 (a blocked op blocks the ops behind it in the same queue).
#include "gigacheck/backend.hpp"

#include "cpu/block_ops.hpp"
#include "cpu/buffer_pool.hpp"
#include "cpu/device_info.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace gigacheck {

namespace {

using Clock = std::chrono::steady_clock;

class CpuRun {
public:
    CpuRun(const ExecutionRequest& req) : req_(req), plan_(req.schedule->plan), ops_(req.schedule->ops) {}

    ExecutionResult run()
    {
        BufferPool pool(plan_.capBytes);
        bufs_.data.reserve(plan_.buffers.size());
        for (const BufferSpec& spec : plan_.buffers)
            bufs_.data.push_back(pool.allocate(spec.bytes));
        bufs_.bounds.resize(plan_.buffers.size());
        done_.assign(ops_.size(), 0);

        std::vector<int> byQueue[3];
        for (const Operation& op : ops_)
            byQueue[int(op.queue)].push_back(op.id);

        start_ = Clock::now();
        std::vector<std::thread> threads;
        for (int q = 0; q < 3; ++q)
            threads.emplace_back([this, ids = byQueue[q]] { queueLoop(ids); });
        for (std::thread& t : threads)
            t.join();

        if (error_) {
            try {
                std::rethrow_exception(error_);
            } catch (const BackendError&) {
                throw;
            } catch (const std::exception& e) {
                throw BackendError(std::string("CPU backend: ") + e.what());
            } catch (...) {
                throw BackendError("CPU backend: unknown failure");
            }
        }
        result_.cancelled = cancelled_;
        result_.peakBufferBytes = pool.peak();
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

private:
    double now() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    bool cancelRequested() const { return req_.cancel && req_.cancel->load(); }

    // Waits until op's deps are done; false when the run stops (cancel, failure elsewhere).
    bool waitReady(const Operation& op)
    {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (stop_)
                return false;
            if (cancelRequested()) {
                stop_ = cancelled_ = true;
                cv_.notify_all();
                return false;
            }
            if (std::all_of(op.deps.begin(), op.deps.end(), [this](int d) { return done_[std::size_t(d)] != 0; }))
                return true;
            // The cancel flag is set from outside without a notify, hence the timed wait.
            cv_.wait_for(lock, std::chrono::milliseconds(5));
        }
    }

    void queueLoop(const std::vector<int>& ids)
    {
        for (int id : ids) {
            const Operation& op = ops_[std::size_t(id)];
            if (!waitReady(op))
                return;
            try {
                execute(op);
            } catch (...) {
                std::lock_guard lock(mutex_);
                if (!error_)
                    error_ = std::current_exception();
                stop_ = true;
                cv_.notify_all();
                return;
            }
        }
    }

    void execute(const Operation& op)
    {
        Span span = spanOf(op);
        span.start = now();
        std::vector<InjectEvent> injected;
        VerifyEvent verified;
        if (plan_.precision == Precision::F32)
            dispatch<float>(op, injected, verified);
        else
            dispatch<double>(op, injected, verified);
        span.end = now();

        {
            std::lock_guard lock(mutex_);
            done_[std::size_t(op.id)] = 1;
            ++doneCount_;
            result_.spans.push_back(span);
            for (InjectEvent& e : injected) {
                e.time = span.end;
                result_.injections.push_back(e);
            }
            if (op.kind == OpKind::Verify) {
                verified.time = span.end;
                result_.verifications.push_back(verified);
            }
        }
        cv_.notify_all();
        // Reported as soon as the op is done, while the run goes on.
        if (RunObserver* obs = req_.observer) {
            obs->onSpan(span);
            for (const InjectEvent& e : injected)
                obs->onInject(e);
            if (op.kind == OpKind::Verify)
                obs->onVerify(verified);
            // Three threads finish ops; the fraction reported only ever grows.
            std::lock_guard lock(progressMutex_);
            const double progress = double(doneCount_.load()) / double(ops_.size());
            if (progress > reportedProgress_) {
                reportedProgress_ = progress;
                obs->onProgress(progress);
            }
        }
    }

    template <class T>
    void dispatch(const Operation& op, std::vector<InjectEvent>& injected, VerifyEvent& verified)
    {
        switch (op.kind) {
        case OpKind::CopyH2D: cpu::copyToDevice<T>(op, plan_, bufs_, *req_.a, *req_.b); break;
        case OpKind::Checksum: cpu::checksum<T>(op, plan_, bufs_); break;
        case OpKind::Product: cpu::product<T>(op, plan_, bufs_); break;
        case OpKind::Inject: {
            // The fault plan is shared with the caller; only the compute thread touches it.
            injected = cpu::inject<T>(op, plan_, bufs_, req_.faults);
            break;
        }
        case OpKind::Verify: verified = cpu::verify<T>(op, plan_, bufs_, req_.thresholdLambda); break;
        case OpKind::CopyD2H: cpu::copyToHost<T>(op, plan_, bufs_, *req_.c); break;
        case OpKind::Recompute: break;  // never scheduled
        }
    }

    const ExecutionRequest& req_;
    const Plan& plan_;
    const std::vector<Operation>& ops_;
    cpu::Buffers bufs_;
    Clock::time_point start_;

    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<char> done_;
    std::atomic<std::size_t> doneCount_{0};
    std::mutex progressMutex_;
    double reportedProgress_ = 0;
    bool stop_ = false, cancelled_ = false;
    std::exception_ptr error_;
    ExecutionResult result_;
};


class CpuBackend final : public Backend {
public:
    CpuBackend() : info_(cpuDeviceInfo()) {}
    DeviceInfo device() const override { return info_; }
    ExecutionResult execute(const ExecutionRequest& request) override
    {
        // The cap itself is enforced by the buffer pool, as it would be by device memory.
        checkExecutionRequest(request, "CPU backend");
        CpuRun run(request);
        return run.run();
    }

private:
    DeviceInfo info_;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace gigacheck
