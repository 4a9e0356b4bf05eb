// runOnline: one online / offline ABFT or TMR run end to end (config -> faults -> schedule ->
// execute -> recompute when a check could not correct -> reference -> record).
#include "gigacheck/online_abft.hpp"

#include "core/memory_check.hpp"
#include "core/timestamp.hpp"
#include "gemm/reference.hpp"
#include "families/online_abft/host_check.hpp"
#include "families/online_abft/ops.hpp"
#include "families/online_abft/plan/schedule_builder.hpp"
#include "families/online_abft/run/run_online.hpp"
#include "families/online_abft/run/missed_faults.hpp"
#include "gemm/input_range.hpp"

#include "gigacheck/version.hpp"

#include <chrono>
#include <cmath>
#include <random>

namespace gigacheck {

using namespace online_abft;

namespace {

double elapsed(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Each fault resolved: its delta (random deltas stand out of round-off: +-U(10, 100) times the
// typical magnitude of what they hit), its step, and the random result faults spread over steps.
std::vector<PlannedFault> planFaults(const OnlineConfig& c)
{
    std::mt19937_64 rng(c.seed * 0x9E3779B97F4A7C15ull + 17);
    std::uniform_real_distribution<double> magnitude(10.0, 100.0);
    const double typicalC = typicalMagnitude(c.shape, c.distribution);
    const double typicalInput = c.distribution == Distribution::Normal ? 1.0 : 0.5;
    const int steps = c.scheme == Scheme::Tmr ? 1 : c.steps();
    const auto resolve = [&](const OnlineFault& f) {
        PlannedFault p;
        p.at = f;
        p.model = c.model;
        const int bits = c.precision == Precision::F64 ? 64 : 32;
        p.bit = c.bit >= 0 ? c.bit : bits - 2;  // the top exponent bit
        p.bit2 = c.bit2;
        const bool input = f.target == OnlineTarget::A || f.target == OnlineTarget::B;
        const double sign = (rng() & 1) ? 1.0 : -1.0;
        p.delta = f.delta.value_or(sign * magnitude(rng) * (input ? typicalInput : typicalC));
        if (!f.step)
            p.at.step = c.scheme == Scheme::Tmr ? 0 : input ? -1 : steps - 1;
        return p;
    };
    std::vector<PlannedFault> out;
    for (const OnlineFault& f : c.faults)
        out.push_back(resolve(f));
    std::uniform_int_distribution<std::int64_t> row(0, c.shape.m - 1), col(0, c.shape.q - 1);
    std::uniform_int_distribution<int> step(0, std::max(0, steps - 1));
    for (int e = 0; e < c.randomErrors; ++e) {
        OnlineFault f;
        f.row = row(rng);
        f.col = col(rng);
        f.step = c.scheme == Scheme::Tmr ? 0 : step(rng);
        out.push_back(resolve(f));
    }
    return out;
}

// The shared order of host_check.hpp (the encoding compares against these bit for bit).
void hostSums(const HostMatrix& x, std::vector<double>& rows, std::vector<double>& cols)
{
    if (x.precision() == Precision::F32)
        online_abft::plainSums(x.as<float>(), x.rows(), x.cols(), x.cols(), rows, cols);
    else
        online_abft::plainSums(x.as<double>(), x.rows(), x.cols(), x.cols(), rows, cols);
}

OnlineInputs inputsFor(const OnlineConfig& c, BackendKind backend)
{
    OnlineInputs in;
    in.scheme = c.scheme;
    in.checksums = c.checksums;
    in.columnBlocks = c.scheme == Scheme::Tmr ? 1 : resolvedColumnBlocks(c, backend);
    in.panel = c.panelWidth();
    in.steps = c.steps();
    in.checkEvery = c.scheme == Scheme::Offline ? 0 : c.checkEvery;
    in.mergeSteps = resolvedMergeSteps(c, backend);
    in.lambda = c.thresholdLambda;
    in.gemm = c.gemm;
    in.shape = c.shape;
    in.precision = c.precision;
    in.onDevice = backend == BackendKind::Cuda;
    return in;
}

}  // namespace

bool OnlineRecord::verifiedCorrect() const
{
    if (status != "ok" || !reference.passed)
        return false;
    if (reference.mode == ReferenceMode::Full || (vote && vote->cellsWithoutMajority > 0 && !notVerified()))
        return true;  // every cell compared with the reference, within its tolerance
    // Faults the run injected beyond the checks' threshold that no check saw: C is known wrong.
    return verifiedByChecks() && online_abft::missedFaults(*this) == 0;
}

bool OnlineRecord::notVerified() const
{
    // A sampled reference of every row compared every cell, as the full one does.
    const bool everyCell = reference.mode == ReferenceMode::Full ||
                           (reference.mode == ReferenceMode::Sample && reference.rowsChecked >= config.shape.m);
    return status == "ok" && reference.passed && !everyCell && vote && vote->cellsWithoutMajority > 0;
}

bool OnlineRecord::verifiedByChecks() const
{
    if (status != "ok" || (vote && vote->cellsWithoutMajority > 0))
        return false;  // no majority: the recomputed cells were checked by nothing
    if (vote && !vote->settled())
        return false;  // disputes beyond those listed: TMR cannot say which replica was right
    if (uncorrectableChecks() > 0 && !(recomputed && recomputeClean))
        return false;
    for (const InputFaultReport& f : inputFaults)
        if (!f.corrected && !f.belowRoundoff)
            return false;
    return true;
}

int OnlineRecord::uncorrectableChecks() const
{
    int n = 0;
    for (const VerifyEvent& e : verifications)
        n += e.result.verdict == Verdict::Uncorrectable ? 1 : 0;
    return n;
}

OnlineRecord runOnline(const OnlineConfig& config, const RunHooks& hooks)
{
    return runOnline(config, hooks, StepSnapshotSink());
}

OnlineRecord runOnline(const OnlineConfig& config, const RunHooks& hooks, const StepSnapshotSink& onStep)
{
    std::unique_ptr<Backend> own;
    RunHooks withBackend = hooks;
    if (!withBackend.backend) {
        own = makeBackend(config.backend, config.device);
        withBackend.backend = own.get();
    }
    validateOnlineConfig(config, withBackend.backend->device().backend);
    const Shape& s = config.shape;
    {
        // Refused before anything is allocated (memory_check.hpp: overcommit would let the run be
        // killed when it touches its memory): A, B, C; on the CPU backend its buffers (A, B, C with
        // their checksums; TMR two more C); the full reference's C.
        const double elem = double(elementSize(config.precision));
        const double ab = (double(s.m) * double(s.n) + double(s.n) * double(s.q)) * elem, cBytes = double(s.m) * double(s.q) * elem;
        const bool cpu = withBackend.backend->device().backend == BackendKind::Cpu;
        const double buffers = cpu ? ab + cBytes * (config.scheme == Scheme::Tmr ? 3 : 1) : 0.0;
        const double reference = resolveReferenceMode(config.reference, s) == ReferenceMode::Full ? cBytes : 0.0;
        requireHostMemory(ab + cBytes + buffers + reference,
                          std::string(toString(config.scheme)) + " " + shapeText(s) + " " + std::string(toString(config.precision)),
                          "A, B and C " + formatBytes(ab + cBytes) +
                              (buffers > 0 ? ", the CPU backend's buffers " + formatBytes(buffers) : std::string()) +
                              (reference > 0 ? ", the reference " + formatBytes(reference) : std::string()));
    }
    const HostAllocator alloc = withBackend.backend->hostAllocator();
    HostMatrix a, b, result;
    try {
        a = HostMatrix(config.precision, s.m, s.n, alloc);
        b = HostMatrix(config.precision, s.n, s.q, alloc);
        result = HostMatrix(config.precision, s.m, s.q, alloc);
    } catch (const std::exception& e) {
        throw InputError(std::string("not enough host memory for A, B and C: ") + e.what());
    }
    if (!(hooks.cancel && hooks.cancel->load())) {
        fillRandom(a, config.distribution, config.seed, 1);
        fillRandom(b, config.distribution, config.seed, 2);
        if (hooks.onInputs)
            hooks.onInputs(a, b);
    }
    OnlineRecord record = online_abft::runOnlineOn(config, withBackend, a, b, result, onStep ? &onStep : nullptr);
    if (hooks.resultOut)
        *hooks.resultOut = std::move(result);
    return record;
}

namespace online_abft {

namespace {

// TMR's disputed cells computed again from A and B, as dot products in double: the vote alone
// would keep the value of two replicas struck alike. A cell whose recomputed value differs from
// the vote's beyond a few ulps of the products' magnitude overrules the majority.
void settleDisputes(VoteReport& vote, const HostMatrix& a, const HostMatrix& b, HostMatrix& c)
{
    const std::int64_t n = a.cols();
    const double u = unitRoundoff(c.precision());
    for (const auto& [i, j] : vote.disputed) {
        double sum = 0, magnitude = 0;
        for (std::int64_t k = 0; k < n; ++k) {
            const double p = a.at(i, k) * b.at(k, j);
            sum += p;
            magnitude += std::abs(p);
        }
        const double voted = c.at(i, j);
        if (!(std::abs(voted - sum) <= 4.0 * u * double(n + 2) * magnitude))
            ++vote.majorityOverruled;
        c.set(i, j, sum);
        ++vote.cellsRecomputed;
    }
}

}  // namespace

OnlineRecord runOnlineOn(const OnlineConfig& config, const RunHooks& hooks, HostMatrix& a, HostMatrix& b,
                         HostMatrix& result, const StepSnapshotSink* onStep)
{
    Backend* backend = hooks.backend;
    OnlineRecord record;
    record.toolVersion = kVersion;
    record.createdAt = nowIso8601();
    record.config = config;
    record.devices.front() = backend->device();
    validateOnlineConfig(config, record.devices.front().backend);

    OnlineConfig& c = record.config;
    if (c.scheme == Scheme::Offline)
        c.checkEvery = 0;
    const BackendKind backendKind = record.devices.front().backend;
    OnlineInputs in = inputsFor(c, backendKind);
    in.faults = planFaults(c);
    record.columnBlocks = in.columnBlocks;
    in.onStep = onStep;
    record.steps = c.scheme == Scheme::Tmr ? 0 : c.steps();
    for (int j = 0; j < record.steps; ++j)
        if (c.checksAfter(j))
            record.checkSteps.push_back(j);

    const OnlinePlan plan = makeOnlinePlan(c.shape, c.precision, in);
    const Schedule schedule = buildOnlineSchedule(plan, in, c);
    record.mergedSteps = in.mergeSteps;
    for (const Operation& op : schedule.ops)
        record.panelProducts += op.kind == kPanelProduct && op.block.j == 0 ? 1 : 0;
    if (hooks.observer)
        hooks.observer->onPlan(schedule);
    if (hooks.cancel && hooks.cancel->load()) {
        record.status = "cancelled";
        return record;
    }

    const Shape& s = c.shape;
    // --type f16: an operand beyond FP16's range has no 16-bit value (refused as the blocked family does).
    if (c.precision == Precision::F32) {
        requireInputFormatRange(a, inputFormatOf(c.gemm), "A");
        requireInputFormatRange(b, inputFormatOf(c.gemm), "B");
    }
    // The inputs' sums where they were made: the encoding finds an element corrupted on its way
    // (CUDA: on the host-checked path, against the same sums taken on the device in the same order).
    if (c.scheme != Scheme::Tmr && (record.devices.front().backend == BackendKind::Cpu || hostChecked(in))) {
        hostSums(a, in.hostRowSumsA, in.hostColSumsA);
        hostSums(b, in.hostRowSumsB, in.hostColSumsB);
    }

    const auto execute = [&](OnlineInputs& inputs, const Schedule& sched) {
        ExecutionRequest request;
        request.schedule = &sched;
        request.observer = hooks.observer;
        request.cancel = hooks.cancel;
        inputs.a = &a;
        inputs.b = &b;
        inputs.c = &result;
        request.inputs = &inputs;
        return backend->execute(request);
    };

    const auto started = std::chrono::steady_clock::now();
    try {
        backend->prepare();
        const auto run = std::chrono::steady_clock::now();
        ExecutionResult r = execute(in, schedule);
        record.metrics.executeSeconds = r.wallSeconds;
        record.metrics.peakBufferBytes = r.peakBufferBytes;
        record.spans = std::move(r.spans);
        record.injections = std::move(r.injections);
        record.verifications = std::move(r.verifications);
        if (r.cancelled)
            record.status = "cancelled";
        record.metrics.totalSeconds = elapsed(run);
        // Offline ABFT (and online, should a check still fail) has one answer to what it cannot
        // correct: compute the product again (the online-ABFT paper's section VI.D: "about double").
        if (record.status == "ok" && record.uncorrectableChecks() > 0) {
            OnlineInputs again = inputsFor(c, backendKind);
            again.hostRowSumsA = in.hostRowSumsA, again.hostColSumsA = in.hostColSumsA;
            again.hostRowSumsB = in.hostRowSumsB, again.hostColSumsB = in.hostColSumsB;
            const Schedule clean = buildOnlineSchedule(plan, again, c);
            const auto t0 = std::chrono::steady_clock::now();
            ExecutionResult second = execute(again, clean);
            record.recomputeSeconds = elapsed(t0);
            record.recomputed = true;
            record.recomputeClean = !second.cancelled;
            for (const VerifyEvent& e : second.verifications)
                record.recomputeClean = record.recomputeClean && e.result.verdict != Verdict::Uncorrectable;
            const double offset = record.spans.empty() ? 0.0 : record.spans.back().end;
            for (Span sp : second.spans) {
                sp.start += offset, sp.end += offset;
                sp.opId += int(schedule.ops.size());
                record.spans.push_back(sp);
            }
            record.metrics.totalSeconds = elapsed(run);
        }
    } catch (const BackendError& e) {
        record.status = "failed";
        record.error = e.what();
    }
    (void)started;
    record.inputFaults = in.inputFaults;
    record.vote = in.vote;
    if (record.vote && record.status == "ok")
        settleDisputes(*record.vote, a, b, result);
    record.panelGemm = in.panelGemm;
    for (const PlannedFault& f : in.faults)
        if (f.at.target == OnlineTarget::A || f.at.target == OnlineTarget::B) {
            OnlineFault applied = f.at;
            applied.delta = f.applied ? f.after - f.before : f.delta;
            record.appliedInputFaults.push_back(applied);
        }
    if (record.status == "ok")
        record.reference = checkAgainstReference(a, b, result, resolveReferenceMode(c.reference, s), kReferenceLambda,
                                                 c.precision == Precision::F32 ? inputFormatOf(c.gemm) : InputFormat::F32);
    return record;
}

}  // namespace online_abft

}  // namespace gigacheck
