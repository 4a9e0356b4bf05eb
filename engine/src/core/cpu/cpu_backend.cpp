// The CPU backend: G emulated devices (one by default), each with one thread per queue (H2D,
// compute, D2H). Each thread takes its device's ops of its queue in issue order and starts one only
// when its deps are done — on any device — which is the queue semantics of the Gigacheck report's section 2.3 (a
// blocked op blocks the ops behind it in the same queue). Each device has its own buffer pool: the
// buffers placed on it are charged to its cap (Schedule::capBytes), as device memory would be.
// What each op does comes from its family's CPU op table (core/op_table.hpp): this file never
// looks at an op's kind.
#include "gigacheck/backend.hpp"

#include "core/cpu/buffer_pool.hpp"
#include "core/cpu/device_info.hpp"
#include "core/op_reporting.hpp"
#include "core/op_table.hpp"
#include "core/span_metrics.hpp"

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
    CpuRun(const ExecutionRequest& req)
        : req_(req), schedule_(*req.schedule), ops_(req.schedule->ops), table_(familyTable(req)),
          reporter_(req.observer, req.schedule->ops.size())
    {
    }

    ExecutionResult run()
    {
        const int devices = schedule_.devices;
        std::vector<std::unique_ptr<BufferPool>> pools;
        for (int d = 0; d < devices; ++d)
            pools.push_back(std::make_unique<BufferPool>(schedule_.capBytes));
        buffers_.reserve(schedule_.buffers.size());
        for (const BufferSpec& spec : schedule_.buffers) {
            try {
                buffers_.push_back(pools[std::size_t(spec.device)]->allocate(spec.bytes));
            } catch (const BackendError& e) {
                if (devices == 1)
                    throw;
                throw BackendError("device " + std::to_string(spec.device) + ": " + e.what());
            }
        }
        functions_.reserve(ops_.size());
        for (const Operation& op : ops_) {
            const cpu::OpFunction f = table_.find(op.kind);
            if (!f)
                throw BackendError("CPU backend: family '" + std::string(familyOf(req_).name) +
                                   "' has no CPU implementation of op kind " + std::string(toString(op.kind)));
            functions_.push_back(f);
        }
        cpu::OpContext setup{req_, *req_.schedule, buffers_, nullptr};
        if (table_.makeState)
            state_ = table_.makeState(setup);
        done_.assign(ops_.size(), 0);

        // One queue of ops per device and queue kind, each in issue order.
        std::vector<std::vector<int>> byQueue(std::size_t(3 * devices));
        for (const Operation& op : ops_)
            byQueue[std::size_t(3 * op.device + int(op.queue))].push_back(op.id);

        start_ = Clock::now();
        std::vector<std::thread> threads;
        for (std::vector<int>& ids : byQueue)
            if (!ids.empty())
                threads.emplace_back([this, &ids] { queueLoop(ids); });
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
        for (const std::unique_ptr<BufferPool>& pool : pools) {
            result_.devicePeakBytes.push_back(pool->peak());
            result_.peakBufferBytes = std::max(result_.peakBufferBytes, pool->peak());
        }
        result_.wallSeconds = spanExtentSeconds(result_.spans);
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
        OpOutcome outcome;
        cpu::OpContext context{req_, *req_.schedule, buffers_, state_.get()};
        span.start = now();
        functions_[std::size_t(op.id)](context, op, outcome);
        span.end = now();

        std::size_t doneOps = 0;
        {
            std::lock_guard lock(mutex_);
            done_[std::size_t(op.id)] = 1;
            doneOps = ++doneCount_;
            recordOutcome(result_, span, outcome);
        }
        cv_.notify_all();
        // Reported as soon as the op is done, while the run goes on.
        reporter_.report(span, outcome, doneOps);
    }

    static const cpu::OpTable& familyTable(const ExecutionRequest& req)
    {
        const FamilyOps& family = familyOf(req);
        if (!family.cpu)
            throw BackendError("CPU backend: family '" + std::string(family.name) + "' has no CPU implementation");
        return *family.cpu;
    }

    const ExecutionRequest& req_;
    const Schedule& schedule_;
    const std::vector<Operation>& ops_;
    const cpu::OpTable& table_;
    std::vector<cpu::OpFunction> functions_;  // per op, looked up once before the run
    std::vector<void*> buffers_;
    std::unique_ptr<cpu::RunState> state_;
    Clock::time_point start_;

    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<char> done_;
    std::size_t doneCount_ = 0;  // guarded by mutex_
    OpReporter reporter_;
    bool stop_ = false, cancelled_ = false;
    std::exception_ptr error_;
    ExecutionResult result_;
};


class CpuBackend final : public Backend {
public:
    explicit CpuBackend(int devices)
    {
        for (int d = 0; d < devices; ++d)
            infos_.push_back(cpuDeviceInfo(d, devices));
    }
    DeviceInfo device() const override { return infos_.front(); }
    std::vector<DeviceInfo> devices() const override { return infos_; }
    ExecutionResult execute(const ExecutionRequest& request) override
    {
        // The cap itself is enforced by the buffer pools, as it would be by device memory.
        checkExecutionRequest(request, "CPU backend");
        if (request.schedule->devices > int(infos_.size()))
            throw BackendError("CPU backend: the schedule uses " + std::to_string(request.schedule->devices) +
                               " devices; this backend emulates " + std::to_string(infos_.size()));
        CpuRun run(request);
        return run.run();
    }

private:
    std::vector<DeviceInfo> infos_;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend(int devices)
{
    if (devices < 1)
        throw InputError("the CPU backend emulates at least one device (got " + std::to_string(devices) + ")");
    return std::make_unique<CpuBackend>(devices);
}

}  // namespace gigacheck
