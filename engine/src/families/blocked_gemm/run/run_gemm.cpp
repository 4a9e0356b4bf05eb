// runGemm: one run end to end (config -> plan -> schedule -> execute -> reference -> record).
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/blocked_gemm/plan_faults.hpp"

#include "gigacheck/blocked_gemm/cost_model.hpp"
#include "gigacheck/fault_models.hpp"
#include "core/timestamp.hpp"

#include "gigacheck/defaults.hpp"
#include "gigacheck/operands.hpp"
#include "gigacheck/version.hpp"
#include "core/result_block_observer.hpp"
#include "families/blocked_gemm/plan/device_probe.hpp"
#include "gemm/reference.hpp"
#include "gemm/input_range.hpp"
#include "families/blocked_gemm/run/repair.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <new>
#include <optional>

namespace gigacheck {

namespace {

void validate(const RunConfig& c)
{
    const Shape& s = c.shape;
    if (s.m <= 0 || s.n <= 0 || s.q <= 0)
        throw InputError("shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.q) +
                         " is empty: m, n and q must all be at least 1");
    // cblas takes int extents; a block never exceeds the matrix.
    constexpr std::int64_t kMaxExtent = 2147483647;
    if (s.m > kMaxExtent || s.n > kMaxExtent || s.q > kMaxExtent)
        throw InputError("a dimension of the shape exceeds 2^31 - 1");
    if (!(c.thresholdLambda > 0) || !std::isfinite(c.thresholdLambda))
        throw InputError("the threshold factor lambda must be a positive number");
    if (c.tile != 8 && c.tile != 16 && c.tile != 32)
        throw InputError("tile must be 8, 16 or 32 (got " + std::to_string(c.tile) + ")");
    if (c.faults.count < 0)
        throw InputError("the number of errors cannot be negative");
    if (c.device < -1)
        throw InputError("a CUDA device number is 0 or more (got " + std::to_string(c.device) + ")");
    if (c.devices < 1 || c.devices > kMaxRunDevices)
        throw InputError("--devices must be 1 to " + std::to_string(kMaxRunDevices) + " (got " +
                         std::to_string(c.devices) + ")");
}

// Bytes of host memory a new allocation can still get without swapping or waking the OOM killer
// (MemAvailable), 0 when unknown. Linux only; elsewhere the allocation itself has to tell.
double hostMemoryAvailable()
{
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        if (line.rfind("MemAvailable:", 0) == 0)
            return std::strtod(line.c_str() + 13, nullptr) * 1024.0;  // the file says kB
    }
    return 0;
}

// With overcommit, each of A, B and C can be granted on its own and only touching them fails,
// and then the kernel kills the whole process (the GUI with it): check the sum first. On the CPU
// backend the "device" buffers are host memory too, and a full reference holds a second C.
void checkHostMemory(const RunConfig& c, const Plan* plan, bool buffersOnHost)
{
    const Shape& s = c.shape;
    const double elem = double(elementSize(c.precision));
    const double matrices = (double(s.m) * double(s.n) + double(s.n) * double(s.q) + double(s.m) * double(s.q)) * elem;
    const double reference =
        resolveReferenceMode(c.reference, s) == ReferenceMode::Full ? double(s.m) * double(s.q) * elem : 0.0;
    const double buffers = buffersOnHost && plan ? double(plan->bytesNeeded) * double(c.devices) : 0.0;
    const double need = matrices + reference + buffers;
    const double available = hostMemoryAvailable();
    if (available > 0 && need > available)
        throw InputError("not enough host memory: " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                         std::to_string(s.q) + " " + std::string(toString(c.precision)) + " needs " +
                         formatBytes(need) + " (A, B and C " + formatBytes(matrices) +
                         (reference > 0 ? ", reference " + formatBytes(reference) : std::string()) +
                         (buffers > 0 ? ", CPU buffers " + formatBytes(buffers) : std::string()) + ") but only " +
                         formatBytes(available) + " is available on this machine; choose a smaller shape");
}

double elapsed(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The user's A and B must be whole, of the run's shape and finite, before anything runs.
void checkGivenOperands(const RunConfig& config, const RunHooks& hooks)
{
    if (!hooks.givenA && !hooks.givenB)
        return;
    if (!hooks.givenA || !hooks.givenB)
        throw InputError("given operands: both A and B are needed (one of them is missing)");
    const Shape s = shapeOfOperands(*hooks.givenA, *hooks.givenB);
    if (!(s == config.shape))
        throw InputError("A and B make a " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                         std::to_string(s.q) + " product, but the run's shape is " + std::to_string(config.shape.m) +
                         "x" + std::to_string(config.shape.n) + "x" + std::to_string(config.shape.q));
    requireFinite(*hooks.givenA, "A");
    requireFinite(*hooks.givenB, "B");
}

}  // namespace

RunRecord runGemm(const RunConfig& config, const RunHooks& hooks)
{
    validate(config);
    checkGivenOperands(config, hooks);
    checkHostMemory(config, nullptr, false);  // A, B and C alone; the plan of a huge shape takes a while
    std::unique_ptr<Backend> own;
    Backend* backend = hooks.backend;
    if (!backend) {
        own = config.devices > 1 ? makeGemmBackend(config) : makeBackend(config.backend, config.device);
        backend = own.get();
    }
    if (backend->devices().size() < std::size_t(config.devices))
        throw InputError("--devices " + std::to_string(config.devices) + ": the backend has " +
                         std::to_string(backend->devices().size()) + " device(s)");

    RunRecord record;
    record.toolVersion = kVersion;
    record.createdAt = nowIso8601();
    record.config = config;
    record.devices = backend->devices();
    record.devices.resize(std::size_t(config.devices));  // the ones the schedule uses
    if (record.devices.front().whyChosen.empty())
        record.devices.front().whyChosen = "backend supplied by the caller";

    // Everything that can refuse the input runs before the (possibly large) matrices exist.
    std::uint64_t cap = config.memCapBytes;
    if (cap == 0)
        cap = record.devices.front().backend == BackendKind::Cpu || record.devices.front().memoryBytes == 0 ? kDefaultCpuMemCapBytes
                                                                                          : record.devices.front().memoryBytes;
    CostModel model = costModelOf(record.devices.front());
    const std::string rateKind = gemmRateKind(config.precision, config.gemm);
    if (config.planByCostModel) {
        const std::vector<StrategyKind> all = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2,
                                               StrategyKind::S3, StrategyKind::S4};
        // On one GPU the planner measures its best candidates' block shapes there (GemmRateProbe).
        GemmRateProbe probe;
        if (record.devices.front().backend == BackendKind::Cuda && config.devices == 1)
            probe = gemmRateProbeOn(record.devices.front().index);
        PlannerChoice choice = planWithCostModel(config.shape, config.precision, all, cap, config.abft, model, rateKind,
                                                 probe, EndTaper::Auto, config.gemm);
        record.plan = std::move(choice.plan);
        model = std::move(choice.model);
        record.config.strategy = record.plan.strategy;
        // The planner models one device; over several, its strategy is spread as makePlan spreads any.
        if (config.devices > 1)
            record.plan = makePlan(config.shape, config.precision, record.plan.strategy, cap, config.abft, config.devices,
                                   config.gemm);
    } else {
        record.plan = makePlan(config.shape, config.precision, config.strategy, cap, config.abft, config.devices,
                               config.gemm);
    }
    // Before the schedule: for a huge shape building it alone can take a while.
    checkHostMemory(config, &record.plan, record.devices.front().backend == BackendKind::Cpu);
    const GemmSchedule schedule = buildSchedule(record.plan, config.faults.any(), config.devices);
    // How the block loads leave the host (the CPU backend copies with memcpy): auto asks the model.
    H2dStaging staging = H2dStaging::Direct;
    if (record.devices.front().backend == BackendKind::Cuda) {
        staging = config.h2dStaging;
        if (staging == H2dStaging::Auto) {
            const StagingChoice choice = chooseH2dStaging(schedule, model, rateKind, elementSize(config.precision));
            staging = choice.staging;
            record.plan.explanation += (record.plan.explanation.empty() ? "" : " ") + choice.explanation;
        }
        model.h2dStaging = staging;
    }
    // The model's timeline of this schedule, drawn and reported beside the measured one.
    Prediction prediction = predictSchedule(schedule, model, rateKind, elementSize(config.precision));
    record.predictedSpans = std::move(prediction.spans);
    record.predictedSeconds = prediction.totalSeconds;
    record.predictionSource = model.source;
    const bool given = hooks.givenA && hooks.givenB;
    FaultPlan faults = planFaults(placementOf(config.faults), record.plan,
                                  given ? typicalMagnitudeOf(*hooks.givenA, *hooks.givenB)
                                        : typicalMagnitude(config.shape, config.distribution));
    // Segments, tiles, two-bit flips and the checker's own faults (gigacheck/fault_models.hpp).
    shapeFaults(faults, config.faults, record.plan);
    if (const std::string why = faultsUnsupportedOn(config.faults, record.devices.front().backend); !why.empty())
        throw InputError(why);

    // The plan is shown before the (possibly slow) generation of the inputs.
    if (hooks.observer)
        hooks.observer->onPlan(schedule);

    // Cancelled before it began (the GUI's Cancel right after Start): stop before the inputs,
    // which for a large shape take a while to allocate and fill.
    if (hooks.cancel && hooks.cancel->load()) {
        record.status = "cancelled";
        record.metrics = computeMetrics(record);
        record.faults = computeFaultReport(record);
        return record;
    }

    const Shape& s = config.shape;
    const HostAllocator alloc = backend->hostAllocator();
    HostMatrix a, b, c;
    try {
        a = given ? convertedTo(*hooks.givenA, config.precision, alloc) : HostMatrix(config.precision, s.m, s.n, alloc);
        b = given ? convertedTo(*hooks.givenB, config.precision, alloc) : HostMatrix(config.precision, s.n, s.q, alloc);
        c = HostMatrix(config.precision, s.m, s.q, alloc);
    } catch (const std::exception& e) {
        // The problem is too large for this host: a limit of the input, reported before anything runs.
        const double need = (double(s.m) * double(s.n) + double(s.n) * double(s.q) + double(s.m) * double(s.q)) *
                            double(elementSize(config.precision));
        throw InputError("not enough host memory for A, B and C (" + formatBytes(need) + "): " + e.what());
    }
    if (given) {  // float64 values beyond float32's range become infinities when converted
        requireFinite(a, "A in " + std::string(toString(config.precision)));
        requireFinite(b, "B in " + std::string(toString(config.precision)));
    } else {
        fillRandom(a, config.distribution, config.seed, 1);
        fillRandom(b, config.distribution, config.seed, 2);
    }
    requireInputFormatRange(a, inputFormatOf(config.gemm), "A");  // --type f16: nothing past 65504
    requireInputFormatRange(b, inputFormatOf(config.gemm), "B");
    // The checksums of A and B where they entered the program (gigacheck/blocked_gemm/operand_checks.hpp),
    // before anything else touches them: every block copy is compared with them as it is encoded
    // (the CPU backend on the host, the CUDA backend by a sums pass over its device copy).
    std::optional<EntryChecksums> entry;
    OperandCheckLog operandLog;
    // GIGACHECK_NO_OPERAND_CHECKS=1 leaves them out (to measure what they cost).
    if (config.abft && !std::getenv("GIGACHECK_NO_OPERAND_CHECKS"))
        entry = takeEntryChecksums(a, b, record.plan);
    if (hooks.onInputs)
        hooks.onInputs(a, b);
    // The model on this run's own host matrices (cost_model.hpp calibrateH2d, calibratePacking): a
    // sample of its direct loads copied alone and of its packed loads packed alone, the prediction
    // drawn beside the measured timeline made again with their rates.
    // GIGACHECK_NO_LINK_CALIBRATION=1 keeps the table's rates.
    if (record.devices.front().backend == BackendKind::Cuda && config.devices == 1 &&
        !std::getenv("GIGACHECK_NO_LINK_CALIBRATION")) {
        const RunCalibration calibration = calibrateOnRunsMatrices(model, schedule, elementSize(config.precision), a, b,
                                                                   record.devices.front().index);
        record.predictionSource = model.source + "; " + calibration.text;
        prediction = predictSchedule(schedule, model, rateKind, elementSize(config.precision));
        record.predictedSpans = std::move(prediction.spans);
        record.predictedSeconds = prediction.totalSeconds;
    }

    blocked_gemm::Inputs inputs;
    inputs.plan = record.plan;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    inputs.faults = &faults;
    inputs.gemm = config.gemm;
    inputs.tile = config.tile;
    inputs.thresholdLambda = config.thresholdLambda;
    inputs.h2dStaging = staging;
    if (entry) {
        inputs.entry = &*entry;
        inputs.operandLog = &operandLog;
    }
    ExecutionRequest request;
    request.schedule = &schedule;
    request.inputs = &inputs;
    std::optional<ResultBlockObserver> withResultBlocks;
    if (hooks.observer)
        request.observer = &withResultBlocks.emplace(*hooks.observer, schedule, c);
    request.cancel = hooks.cancel;

    ExecutionResult result;
    auto started = std::chrono::steady_clock::now();
    try {
        backend->prepare();  // warm-up stays out of the run's time, as it stays out of its spans
        started = std::chrono::steady_clock::now();
        result = backend->execute(request);
    } catch (const BackendError& e) {
        record.status = "failed";
        record.error = e.what();
    }
    record.metrics.totalSeconds = elapsed(started);
    record.metrics.peakBufferBytes = result.peakBufferBytes;
    if (record.status == "ok" && result.cancelled)
        record.status = "cancelled";
    record.spans = std::move(result.spans);
    record.injections = std::move(result.injections);
    record.verifications = std::move(result.verifications);

    // Blocks whose verification was not clean: re-checked and, where needed, recomputed on the
    // host from A and B (abft README "Repair pass"), before the reference judges the result.
    std::vector<BlockToRecompute> recompute;
    if (entry) {
        record.operandChecks = operandLog.report;
        record.operandChecks.ran = true;
        record.operandChecks.entrySeconds = entry->seconds;
        // A copy that failed its check: its host block restored if it is the one that is wrong,
        // and the C blocks it fed recomputed from the (restored) host operands below.
        if (record.status == "ok" && !record.operandChecks.mismatches.empty()) {
            const Plan& p = record.plan;
            for (const auto& [i, j] : repairOperands(*entry, a, b, record.operandChecks, config.thresholdLambda))
                recompute.push_back({i, j, p.rowOffset(i), p.colOffset(j), p.rowsOf(i), p.colsOf(j)});
        }
    }
    if (record.status == "ok" && config.abft) {
        repairRun(record, a, b, c, int(schedule.ops.size()), hooks.observer, recompute);
        // The repair pass is part of the run: its spans count in the execution time, so its
        // time counts in the total too (the total is never below its part).
        record.metrics.totalSeconds = elapsed(started);
    }
    if (record.status == "ok")
        record.reference = checkAgainstReference(a, b, c, resolveReferenceMode(config.reference, s), kReferenceLambda,
                                                 inputFormatOf(config.gemm));
    record.metrics = computeMetrics(record);
    record.faults = computeFaultReport(record);
    if (hooks.resultOut)
        *hooks.resultOut = std::move(c);
    return record;
}

}  // namespace gigacheck
