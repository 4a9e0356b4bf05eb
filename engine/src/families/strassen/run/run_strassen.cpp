// runStrassen: inputs, schedule (validated), execution on the chosen backend, recovery error of A
// and B, ABFT verification of the operands and of C (with correction), the FP64 reference.
#include "gigacheck/strassen.hpp"

#include "gigacheck/bench.hpp"
#include "gigacheck/cuda_status.hpp"

#include "core/interval_union.hpp"
#include "core/memory_check.hpp"
#include "core/printf_number.hpp"
#include "families/strassen/inputs.hpp"
#include "families/strassen/ops.hpp"
#include "families/strassen/plan/schedule_builder.hpp"
#include "families/strassen/run/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

namespace gigacheck {

namespace {

// A leaf's residual / threshold for the check's text.
std::string formatRatio(double ratio)
{
    char text[32];
    std::snprintf(text, sizeof text, ratio < 1e6 ? "%.3g" : "%.2e", ratio);
    return text;
}


void fillIntegers(HostMatrix& m, std::uint64_t seed)
{
    // Small integers: every sum and product of a 4-level Strassen stays exact in FP32.
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (std::int64_t i = 0; i < m.rows(); ++i)
        for (std::int64_t j = 0; j < m.cols(); ++j) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            m.set(i, j, double(std::int64_t(x % 7) - 3));
        }
}

double rms(const HostMatrix& m)
{
    double s = 0;
    const std::int64_t step = std::max<std::int64_t>(1, m.rows() * m.cols() / 4096);
    std::int64_t count = 0;
    for (std::int64_t k = 0; k < m.rows() * m.cols(); k += step, ++count) {
        const double v = m.at(k / m.cols(), k % m.cols());
        s += v * v;
    }
    return count ? std::sqrt(s / double(count)) : 0;
}

// Recovery error of one operand: max ulps and count of elements not bit-equal.
void recoveryError(const HostMatrix& now, const HostMatrix& original, double& maxUlps, std::int64_t& changed)
{
    maxUlps = 0;
    changed = 0;
    const std::int64_t count = now.rows() * now.cols();
    auto scan = [&]<class T>(const T* x, const T* x0) {
        for (std::int64_t k = 0; k < count; ++k) {
            if (std::memcmp(&x[k], &x0[k], sizeof(T)) == 0)
                continue;
            ++changed;
            // In ulps of the larger of the two values: an element near zero that recovery left at
            // the round-off of its neighbours' sums (|x0| << |x - x0|) counts at most ~2^mantissa
            // ulps, not |x - x0| over a denormal's ulp (1e38 in the bench's table).
            const T mag = std::max(std::abs(x0[k]), std::abs(x[k]));
            const T ulp = std::nextafter(mag, std::numeric_limits<T>::infinity()) - mag;
            maxUlps = std::max(maxUlps, double(std::abs(x[k] - x0[k])) / double(std::max(ulp, std::numeric_limits<T>::denorm_min())));
        }
    };
    if (now.precision() == Precision::F32)
        scan(now.as<float>(), original.as<float>());
    else
        scan(now.as<double>(), original.as<double>());
}

// Faults the run injected that left C wrong where C's checks saw nothing (they cancel in C's row
// and column sums). A fault into a cell of C is judged by that cell itself: its value now against
// the cell computed from the original A and B, beyond what C's checks are sure to see
// (cDetectionFloor) -- faults that cancel on one cell, and cells a check repaired, are right. A
// fault into a workspace block (its place in C unknown here) counts only where no check saw
// anything at all (sawNothing) and it changed its cell beyond the floor. The words of the check
// that says so; empty when there are none.
std::string missedFaultsWords(const StrassenResult& result, const HostMatrix& c, const HostMatrix& a, const HostMatrix& b,
                              bool sawNothing)
{
    if (result.cDetectionFloor < 0)
        return {};
    std::set<std::pair<std::int64_t, std::int64_t>> wrongCells;
    int workspace = 0;
    for (const InjectEvent& e : result.injections) {
        const Injection& inj = e.injection;
        if (!inj.applied)
            continue;
        if (inj.globalRow < 0 || inj.globalCol < 0) {
            const double change = std::abs(inj.after - inj.before);
            workspace += sawNothing && !(change <= result.cDetectionFloor);
            continue;
        }
        long double exact = 0;
        for (std::int64_t k = 0; k < a.cols(); ++k)
            exact += static_cast<long double>(a.at(inj.globalRow, k)) * static_cast<long double>(b.at(k, inj.globalCol));
        const double off = std::abs(c.at(inj.globalRow, inj.globalCol) - double(exact));
        if (!(off <= result.cDetectionFloor))  // NaN / Inf included
            wrongCells.insert({inj.globalRow, inj.globalCol});
    }
    const std::size_t wrong = wrongCells.size() + std::size_t(workspace);
    if (wrong == 0)
        return {};
    return std::to_string(wrong) + " cell(s) of C struck by injected faults are off by more than C's checksums are sure "
           "to see (" + printfNumber("%.3g", result.cDetectionFloor) +
           ") and the checks let them pass: the faults cancel in C's row and column sums, so C is wrong (--reference "
           "full finds the cells)";
}

// The verdict from every check that ran: C's checksums (cOk) and, when it ran, the FP64
// reference, which always takes part -- a reference mismatch is a wrong C whatever the checksums
// said, and a passing reference is a right C whatever alarm they raised. No check: not verified.
// missedWords: faults C's checks did not see (missedFaultsWords), a wrong C where no reference ran.
void settleVerdict(StrassenResult& result, bool cOk, const strassen::StrassenReference& ref, const std::string& missedWords)
{
    const bool checked = result.config.verify;
    if (!ref.skipped.empty())  // the verdict below is then the checksums' alone
        result.checks.push_back({"reference", "skipped", -1, -1, ref.skipped});
    if (ref.ran) {
        result.maxErrorC = ref.maxError;
        result.relErrorC = ref.maxRef > 0 ? ref.maxError / ref.maxRef : ref.maxError;
        result.nonFiniteC = ref.nonFinite;
        result.referenceMismatches = ref.mismatches;
        result.referenceWorstRatio = ref.worstRatio;
        result.referenceFloor = ref.maxTolerance;
    }
    if (ref.ran && ref.repaired > 0 && ref.passed) {
        // C's checks let cells pass that the reference finds off: repaired from the reference.
        result.verdict = StrassenVerdict::Verified;
        result.verifiedBy = "reference";
        result.referenceMismatches = ref.repaired;
        result.checks.push_back({"reference", "corrected", -1, -1,
                                 std::to_string(ref.repaired) + " cells of C beyond the FP64 reference's tolerance" +
                                     (checked && cOk ? " that C's checksums did not see" : std::string()) +
                                     " took the reference's value (computed from A and B)"});
        return;
    }
    if (ref.ran && !ref.passed) {
        result.verdict = StrassenVerdict::Uncorrectable;
        result.verifiedBy = checked ? "checksums+reference" : "reference";
        result.checks.push_back({"reference", "mismatch", -1, -1,
                                 std::to_string(ref.mismatches) + " cells of C differ from the FP64 reference beyond its tolerance" +
                                     (ref.nonFinite ? " (" + std::to_string(ref.nonFinite) + " NaN / Inf)" : std::string()) +
                                     (checked && cOk ? "; C's checksums did not see it" : std::string())});
        return;
    }
    if (ref.ran && !cOk && checked) {
        result.verdict = StrassenVerdict::Verified;
        result.verifiedBy = "reference";
        result.checks.push_back({"reference", "clean", -1, -1,
                                 "C matches the FP64 reference: the checksums' alarm above was round-off, not a wrong C"});
        return;
    }
    if (!checked && !ref.ran) {
        result.verdict = StrassenVerdict::NotVerified;
        result.verifiedBy = "none";
        return;
    }
    if (cOk && !ref.ran && !missedWords.empty()) {
        result.verdict = StrassenVerdict::Uncorrectable;
        result.verifiedBy = "checksums";
        result.checks.push_back({"c", "missed", -1, -1, missedWords});
        return;
    }
    if (cOk && !ref.ran && strassen::checksTooWeak(result.cDetectionFloor, result.cMaxAbs)) {
        // C's checks cannot see a cell off by 1 % of max |C| and no reference looked at the cells
        // (--reference none): they cannot vouch for C.
        result.verdict = StrassenVerdict::NotVerified;
        result.verifiedBy = "checksums";
        return;
    }
    result.verifiedBy = checked && ref.ran ? "checksums+reference" : checked ? "checksums" : "reference";
    if (!cOk)
        result.verdict = StrassenVerdict::Uncorrectable;
}

}  // namespace

// Refused before anything is allocated: with overcommit a run too large for the machine is not
// refused by its allocations but killed when it touches them (memory_check.hpp).
void requireStrassenHostMemory(const StrassenConfig& config, BackendKind backend)
{
    const Shape s = config.shape;
    const double elem = double(elementSize(config.precision));
    const double mn_nq = double(s.m) * double(s.n) + double(s.n) * double(s.q), mq = double(s.m) * double(s.q);
    const double ab = mn_nq * elem, c = mq * elem;
    const double buffers = backend == BackendKind::Cpu ? ab + c : 0.0;  // the CPU backend's "device" copies
    const double checksums = config.verify ? mn_nq * 8.0 : 0.0;        // A and B in FP64 for their sums
    // The FP64 reference where it surely runs (full, or auto up to 2^34 multiply-adds; auto past them
    // runs it only where C's checks turn out too weak, which is not known yet): A and B in FP64
    // twice, C and each cell's tolerance in FP64.
    const bool referenceRuns = config.reference && (config.referenceAlways || double(s.m) * double(s.n) * double(s.q) <=
                                                                                 double(std::int64_t(1) << 34));
    const double reference = referenceRuns ? strassen::referenceHostBytes(s) : 0.0;
    requireHostMemory(2 * ab + c + buffers + checksums + reference,
                      "Strassen " + shapeText(s) + " " + std::string(toString(config.precision)),
                      "A, B, C and A's and B's originals " + formatBytes(2 * ab + c) +
                          (buffers > 0 ? ", the CPU backend's copies " + formatBytes(buffers) : std::string()) +
                          (checksums > 0 ? ", A and B in FP64 for their checksums " + formatBytes(checksums) : std::string()) +
                          (reference > 0 ? ", the FP64 reference " + formatBytes(reference) : std::string()));
}

void makeStrassenInputs(const StrassenConfig& config, Backend& backend, HostMatrix& a, HostMatrix& b)
{
    const Shape s = config.shape;
    requireStrassenHostMemory(config, backend.device().backend);
    const HostAllocator alloc = backend.hostAllocator();
    a = HostMatrix(config.precision, s.m, s.n, alloc);
    b = HostMatrix(config.precision, s.n, s.q, alloc);
    if (config.integerInputs) {
        fillIntegers(a, config.seed);
        fillIntegers(b, config.seed + 1);
    } else {
        fillRandom(a, config.distribution, config.seed, 0);
        fillRandom(b, config.distribution, config.seed, 1);
    }
}

std::vector<int> strassenDeviceOrdinals(int chosen, int available, int devices)
{
    std::vector<int> gpus;
    if (available <= 0 || devices <= 0)
        return gpus;
    chosen = chosen >= 0 && chosen < available ? chosen : 0;
    gpus.push_back(chosen);
    for (int o = 0; o < available; ++o)
        if (o != chosen)
            gpus.push_back(o);
    std::vector<int> ordinals;
    for (int d = 0; d < devices; ++d)
        ordinals.push_back(gpus[std::size_t(d) % gpus.size()]);
    return ordinals;
}

std::string strassenPlacement(const std::vector<DeviceInfo>& devices, int scheduled)
{
    if (scheduled <= 1)
        return "1 device";
    if (devices.empty() || devices.front().backend == BackendKind::Cpu)
        return std::to_string(scheduled) + " devices emulated on the CPU (own queue threads each, one memory)";
    std::vector<int> ordinals, distinct;
    for (int d = 0; d < scheduled && d < int(devices.size()); ++d) {
        ordinals.push_back(devices[std::size_t(d)].index);
        if (std::find(distinct.begin(), distinct.end(), ordinals.back()) == distinct.end())
            distinct.push_back(ordinals.back());
    }
    std::string list;
    for (int o : ordinals) {
        if (!list.empty())
            list += ", ";
        list += std::to_string(o);
    }
    const std::string gpus = std::to_string(distinct.size()) + (distinct.size() == 1 ? " GPU" : " GPUs");
    if (int(distinct.size()) == scheduled)
        return std::to_string(scheduled) + " devices on " + gpus + " (CUDA ordinals " + list + ")";
    return std::to_string(scheduled) + " devices emulated on " + gpus + " (CUDA ordinals " + list +
           "; logical devices of one GPU share it)";
}

std::unique_ptr<Backend> makeStrassenBackend(const StrassenConfig& config)
{
    std::unique_ptr<Backend> backend = makeBackend(config.backend, config.device);
    const int devices = config.distribute ? std::max(1, config.devices) : 1;
    if (devices == 1)
        return backend;
    if (backend->device().backend == BackendKind::Cpu)
        return makeCpuBackend(devices);
    // Distinct GPUs where the machine has them (the chosen one first); repeated only when fewer.
    int available = 0;
    for (const DeviceInfo& d : listDevices(nullptr))
        available += d.backend == BackendKind::Cuda;
    std::string why;
    auto several = makeCudaBackend(&why, strassenDeviceOrdinals(backend->device().index, available, devices));
    if (!several)
        throw InputError("--devices " + std::to_string(devices) + ": " + why);
    return several;
}

StrassenResult runStrassen(const StrassenConfig& config, Backend& backend, RunObserver* observer,
                           const std::atomic<bool>* cancel)
{
    if (config.shape.m <= 0 || config.shape.n <= 0 || config.shape.q <= 0)
        throw InputError("the shape must be positive in every dimension");
    HostMatrix a, b;
    makeStrassenInputs(config, backend, a, b);
    return runStrassenOn(config, backend, a, b, observer, cancel);
}

StrassenResult runStrassenOn(const StrassenConfig& config, Backend& backend, HostMatrix& a, HostMatrix& b,
                             RunObserver* observer, const std::atomic<bool>* cancel)
{
    if (config.tf32 && config.precision != Precision::F32)
        throw InputError("tf32 leaves take FP32 matrices");
    if (config.cutlassLeaves && !config.tf32)
        throw InputError("--leaf cutlass multiplies in TF32: it takes --type tf32");
    if (config.cutlassLeaves && config.multiTargetKernel)
        throw InputError("--leaf is either the multi-target kernel or the CUTLASS kernel");
    if (config.cutlassLeaves && backend.device().backend == BackendKind::Cuda &&
        cutlassKernelsStatus().rfind("built", 0) != 0)
        throw InputError("--leaf cutlass: this build has no CUTLASS kernels (CUTLASS kernels " + cutlassKernelsStatus() +
                         "); --leaf cublas runs TF32 leaves on cuBLAS");
    if (config.devices < 1)
        throw InputError("--devices must be at least 1");
    StrassenResult result;
    result.config = config;
    result.devices = {backend.device()};
    result.levels = strassen::scheduleLevels(config);
    result.core = strassen::coreShape(config.shape, result.levels);
    const Shape s = config.shape;
    HostMatrix c(config.precision, s.m, s.q, backend.hostAllocator());
    c.fill(0);
    HostMatrix originalA(config.precision, s.m, s.n), originalB(config.precision, s.n, s.q);
    std::memcpy(originalA.data(), a.data(), a.bytes());
    std::memcpy(originalB.data(), b.data(), b.bytes());
    StrassenConfig planned = config;
    const double typicalC = rms(a) * rms(b) * std::sqrt(double(s.n));
    const bool flips = config.faultModel.model == FaultModel::BitFlip;
    for (StrassenFault& f : planned.faults)
        if (!f.deltaGiven && f.delta == 0 && !flips)
            f.delta = 1000.0 * (f.where == StrassenFault::Where::A   ? std::max(rms(a), 1.0)
                                : f.where == StrassenFault::Where::B ? std::max(rms(b), 1.0)
                                                                     : std::max(typicalC, 1.0));
    result.config.faults = planned.faults;
    const Schedule schedule = buildStrassenSchedule(planned);
    if (schedule.devices > 1) {
        const std::vector<DeviceInfo> all = backend.devices();
        result.devices.assign(all.begin(), all.begin() + std::min<std::ptrdiff_t>(schedule.devices, std::ptrdiff_t(all.size())));
        result.placement = strassenPlacement(all, schedule.devices);
    }
    if (const std::string why = validateStrassenSchedule(schedule, planned); !why.empty())
        throw BackendError("strassen schedule invalid: " + why);
    // Checksums of A and B before stage 1; TF32 leaves' thresholds from the stage sums the
    // schedule's leaves multiply (leaf_rounding.hpp).
    // The cells' scales too where the reference may run (auto: up to 2^34 multiply-adds, or past it
    // when C's checks turn out too weak, as with TF32 leaves they mostly are).
    std::optional<strassen::LeafRoundingScales> leafScales;
    if (config.tf32 && (config.verify || config.reference)) {
        const bool referenceMayRun = config.reference && (config.referenceAlways || config.verify ||
                                                          double(s.m) * double(s.n) * double(s.q) <=
                                                              double(std::int64_t(1) << 34));
        leafScales = strassen::leafRoundingScales(schedule, a, b, result.core, result.levels, referenceMayRun);
    }
    strassen::OperandChecksums sums =
        config.verify ? strassen::takeChecksums(a, b, config, result.levels, leafScales ? &*leafScales : nullptr)
                      : strassen::OperandChecksums{};
    for (const Operation& op : schedule.ops) {
        if (op.kind == strassen::kProduct) {
            ++result.products;
            result.gemmCalls += int(op.operands.size()) - 2;
        }
        result.additions += op.kind == strassen::kAdd;
        // Sums beside the products (placeSumsBeside); a decomposition's streams are its own.
        result.additionsBeside += op.kind == strassen::kAdd && op.stream >= 1 && schedule.devices == 1 && !planned.distribute;
    }
    result.operandBytes = std::size_t(s.m * s.n + s.n * s.q + s.m * s.q) * elementSize(config.precision);
    if (observer)
        observer->onPlan(schedule);

    ExecutionRequest request;
    request.schedule = &schedule;
    strassen::Inputs inputs;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    inputs.precision = config.precision;
    inputs.tf32 = config.tf32;
    inputs.multiTarget = config.multiTargetKernel;
    inputs.cutlassLeaves = config.cutlassLeaves;
    strassen::Inputs::LeafGemmCount leafGemms;
    inputs.leafGemms = &leafGemms;
    std::vector<double> leafResults;
    inputs.leafResults = &leafResults;
    inputs.faults = strassen::faultActions(planned);
    request.inputs = &inputs;
    if (config.multiTargetKernel && config.tf32)
        throw InputError("--leaf kernel multiplies in FP32 or FP64, not TF32");
    request.observer = observer;
    request.cancel = cancel;
    backend.prepare();
    ExecutionResult executed;
    try {
        executed = backend.execute(request);
    } catch (const BackendError& e) {
        result.status = "failed";
        result.error = e.what();
        return result;
    }
    result.cutlassLeafGemms = leafGemms.cutlass;
    result.fallbackLeafGemms = leafGemms.fallback;
    result.leafFallbackReason = leafGemms.fallbackReason;
    result.spans = std::move(executed.spans);
    result.injections = std::move(executed.injections);  // faults into C and leaf products, as applied
    result.peakDeviceBytes = executed.peakBufferBytes;
    result.extraBytes = executed.peakBufferBytes > result.operandBytes ? executed.peakBufferBytes - result.operandBytes : 0;
    // The Strassen part: the time some device computes or copies between devices -- the union of
    // those spans. Waiting for the H2D loads is left out (the first sums start once A is resident
    // and then wait for B and C), as cuBLAS is timed on resident operands.
    std::vector<std::pair<double, double>> busy;
    for (const Span& sp : result.spans) {
        if (sp.kind == strassen::kRestore)
            result.restoreSeconds += sp.end - sp.start;
        if (sp.queue == Queue::Compute || sp.kind == strassen::kRestore || sp.kind == strassen::kCopy)
            busy.emplace_back(sp.start, sp.end);
    }
    result.seconds = unionSeconds(std::move(busy));
    if (executed.cancelled) {
        result.status = "cancelled";
        return result;
    }

    // Leaf checks: each leaf product's checksum relation, checked on the device right after it.
    if (config.checkLeaves) {
        std::int64_t leaves = 0;
        for (const Operation& op : schedule.ops)
            leaves += op.kind == strassen::kLeafVerify;
        result.leavesChecked = int(leaves);
        const std::size_t half = leafResults.size() / 2;  // ratios, then column codes (leaf_check.hpp)
        for (std::int64_t k = 0; k < leaves && k < std::int64_t(half); ++k) {
            const double ratio = leafResults[std::size_t(k)], code = leafResults[half + std::size_t(k)];
            result.leafWorstRatio = std::max(result.leafWorstRatio, ratio);
            if (ratio > 1)
                result.checks.push_back({"product " + std::to_string(k), "detected", -1,
                                         code >= 1 ? std::int64_t(code) - 1 : -1,
                                         "leaf product " + std::to_string(k) + ": its column checksums on its C blocks are off by " +
                                             formatRatio(ratio) + " x their round-off threshold" +
                                             (code >= 1 ? ", in column " + std::to_string(std::int64_t(code) - 1) + " of the block"
                                                        : std::string(", in several columns"))});
        }
    }
    recoveryError(a, originalA, result.recovery.maxUlpsA, result.recovery.changedA);
    recoveryError(b, originalB, result.recovery.maxUlpsB, result.recovery.changedB);
    result.recovery.level = result.levels;
    bool cOk = true;
    if (config.verify) {
        // A caught leaf knows the column of its C blocks that is off: the columns of C its error
        // can have reached are recomputed first (a fault between the leaf's threshold and C's --
        // the leaf's product has depth N / 2^L, C's N -- is otherwise invisible to C's checks).
        const strassen::LeafRepair repair =
            config.checkLeaves ? strassen::repairFromLeaves(c, originalA, originalB, schedule, strassen::kLeafVerify, leafResults,
                                                            s, result.levels, result.checks)
                               : strassen::LeafRepair{};
        const std::size_t before = result.checks.size();
        const strassen::Suspects suspects =
            strassen::verifyOperands(a, b, originalA, originalB, sums, config, result.levels, result.checks);
        cOk = strassen::verifyResult(c, originalA, originalB, sums, config, result.levels, suspects, result.checks,
                                     result.cWorstCleanRatio);
        result.cDetectionFloor = strassen::cDetectionFloor(sums);
        result.cMaxAbs = 0;
        for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.q; ++j)
                if (const double v = std::abs(c.at(i, j)); std::isfinite(v))
                    result.cMaxAbs = std::max(result.cMaxAbs, v);
        // A leaf caught a fault with several columns off (not repaired above) that C's own checks
        // do not see: C is then known wrong and not trusted.
        bool cRepaired = false;
        for (std::size_t i = before; i < result.checks.size(); ++i) {
            const StrassenCheck& k = result.checks[i];
            cRepaired |= k.where == "c" && (k.verdict == "corrected" || k.verdict == "recomputed");
        }
        if (!repair.unrepaired.empty() && !cRepaired && cOk) {
            cOk = false;
            const StrassenCheck verdict{"c", "uncorrectable", -1, -1,
                                        "a leaf product was caught (above) with several columns off, and the error it left "
                                        "in C is within C's own round-off threshold, so C's checksums cannot locate it: C "
                                        "is not trusted"};
            auto clean = std::find_if(result.checks.begin(), result.checks.end(),
                                      [](const StrassenCheck& k) { return k.where == "c" && k.verdict == "clean"; });
            if (clean != result.checks.end())
                *clean = verdict;
            else
                result.checks.push_back(verdict);
        }
    }

    // Where C's checks cannot see an error of 1 % of max |C| in one cell, the reference (auto) runs
    // whatever the size: it is then the only check that sees each cell.
    // Every check clean, leaves and operands included: a workspace fault beyond C's floor went unseen.
    const bool sawNothing = std::all_of(result.checks.begin(), result.checks.end(),
                                        [](const StrassenCheck& k) { return k.verdict == "clean"; });
    settleVerdict(result, cOk,
                  strassen::checkAgainstReference(c, originalA, originalB, config, result.levels,
                                                  strassen::checksTooWeak(result.cDetectionFloor, result.cMaxAbs),
                                                  leafScales ? &*leafScales : nullptr),
                  missedFaultsWords(result, c, originalA, originalB, sawNothing));
    return result;
}

std::string strassenOutcome(const StrassenResult& r)
{
    if (r.status != "ok")
        return r.status;
    switch (r.verdict) {
    case StrassenVerdict::Verified: return "ok";
    case StrassenVerdict::Uncorrectable: return "uncorrectable";
    case StrassenVerdict::NotVerified: return "not_verified";
    }
    return "ok";
}

int strassenExitCode(const StrassenResult& r)
{
    if (r.status != "ok")
        return 2;
    switch (r.verdict) {
    case StrassenVerdict::Verified: return 0;
    case StrassenVerdict::Uncorrectable: return 1;
    case StrassenVerdict::NotVerified: return 3;
    }
    return 2;
}

}  // namespace gigacheck
