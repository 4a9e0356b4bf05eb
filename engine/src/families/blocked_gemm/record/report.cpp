// The text report of a run: the Gigacheck report's section 6's GIGACHECK block (figure 18), then what the
// lab adds: backend choice, plan, time per queue, the fault report and the reference check.
#include "gigacheck/blocked_gemm/record.hpp"
#include "families/blocked_gemm/run/missed_faults.hpp"

#include "families/blocked_gemm/record/time_breakdown.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace gigacheck {
namespace {

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string general(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string seconds(double s)
{
    if (s < 1e-3)
        return fixed(s * 1e6, 1) + " us";
    if (s < 1)
        return fixed(s * 1e3, 3) + " ms";
    return fixed(s, 3) + " s";
}

// The seed's report counts host memory in binary megabytes (320.43 MB for its 336e6 bytes).
std::string mebibytes(double bytes) { return fixed(bytes / (1024.0 * 1024.0), 2) + " MiB"; }

std::string shapeText(std::int64_t rows, std::int64_t cols)
{
    return std::to_string(rows) + " x " + std::to_string(cols);
}

// The seed names its values after C types.
// "2752, 3 x 9088, 2752": runs of equal extents folded, at most 12 runs.
template <class ExtentOf>
std::string extentsText(int count, ExtentOf extentOf)
{
    std::ostringstream o;
    int runs = 0;
    for (int i = 0; i < count;) {
        int same = 1;
        while (i + same < count && extentOf(i + same) == extentOf(i))
            ++same;
        if (++runs > 12) {
            o << ", ...";
            break;
        }
        o << (i ? ", " : "") << (same > 1 ? std::to_string(same) + " x " : "") << extentOf(i);
        i += same;
    }
    return o.str();
}

std::string_view valuesType(Precision p) { return p == Precision::F32 ? "float" : "double"; }

bool onCuda(const RunRecord& r) { return r.devices.front().backend == BackendKind::Cuda; }

std::string listIndices(const std::vector<std::int64_t>& v, std::int64_t offset, std::int64_t checksumIndex)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(v.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i)
            out += ", ";
        out += v[i] == checksumIndex ? std::string("checksum") : std::to_string(v[i] + offset);
    }
    if (v.size() > shown)
        out += ", ... (" + std::to_string(v.size()) + " in all)";
    return out;
}

std::string faultWords(const FaultSpec& f)
{
    std::string words;
    if (f.count > 0) {
        words += f.collinear == Collinearity::Row   ? "on one row, "
                 : f.collinear == Collinearity::Col ? "on one column, "
                                                    : "scattered, ";
    }
    if (!f.at.empty())
        words += std::to_string(f.at.size()) + " at given positions, ";
    words += f.model == FaultModel::Delta ? std::string("delta")
                                          : "bit flip " + (f.bit < 0 ? std::string("of the top exponent bit")
                                                                     : std::to_string(f.bit));
    words += ", into " + std::string(toString(f.target));
    if (f.count > 0)
        words += f.scope == FaultScope::OneProduct ? ", one block product" : ", every block product";
    return words;
}

void writeSeedBlock(std::ostream& out, const RunRecord& r)
{
    const RunConfig& c = r.config;
    const Shape& s = c.shape;
    const int errors = c.faults.count + int(c.faults.at.size());
    out << "GIGACHECK =====\n";
    out << "Params:\n";
    out << "  A: " << shapeText(s.m, s.n) << "  B: " << shapeText(s.n, s.q) << " -> C: " << shapeText(s.m, s.q)
        << "\n";
    out << "  Values type: " << valuesType(c.precision) << "\n";
    out << "  " << (onCuda(r) ? "GPU" : "CPU") << " mul alg: " << (c.abft ? "error corrected" : "plain") << " ("
        << (onCuda(r) ? toString(c.gemm)
            : c.precision != Precision::F32                       ? std::string_view("OpenBLAS")
            : c.gemm == GemmVariant::Tf32x3                       ? std::string_view("OpenBLAS, tf32x3 emulated")
            : inputFormatOf(c.gemm) == InputFormat::Tf32          ? std::string_view("OpenBLAS, TF32 emulated")
            : inputFormatOf(c.gemm) == InputFormat::Bf16          ? std::string_view("OpenBLAS, BF16 inputs emulated")
            : inputFormatOf(c.gemm) == InputFormat::F16           ? std::string_view("OpenBLAS, FP16 inputs emulated")
                                                                  : std::string_view("OpenBLAS"))
        << ")\n";
    out << "  Host memory required: " << formatBytes(double(r.metrics.hostBytesRequired)) << " ("
        << mebibytes(double(r.metrics.hostBytesRequired)) << ")\n";
    out << "  # errors: " << errors;
    if (errors > 0)
        out << " (" << faultWords(c.faults) << ")";
    out << "\n";
    out << "  Tile side: " << c.tile << "\n";
    out << "  Strategy: " << (c.planByCostModel ? "auto -> " : "") << toString(c.strategy) << " ("
        << describe(c.strategy) << ")" << (c.planByCostModel ? " (chosen by the cost-model planner)" : "") << "\n";
    out << "Device info:\n";
    out << "  Name: " << r.devices.front().name;
    if (onCuda(r))
        out << " (CUDA device " << r.devices.front().index << ")";
    out << "\n";
    out << "  Max Global Mem: " << formatBytes(double(r.plan.capBytes)) << " (cap; the device has "
        << formatBytes(double(r.devices.front().memoryBytes)) << ")\n";
    if (r.faults.blocksCorrected > 0)
        out << "Corrected detected error(s)\n";
    if (r.faults.blocksUncorrectable > 0)
        out << "UNCORRECTABLE error(s) detected\n";
    if (std::any_of(r.repairs.begin(), r.repairs.end(),
                    [](const RepairEvent& e) { return e.outcome == RepairOutcome::CorrectedByRecompute; }))
        out << "Corrected by recompute (host repair pass)\n";
    out << (onCuda(r) ? "GPU" : "CPU") << " mul: " << seconds(r.metrics.totalSeconds) << "\n";
    // The repair pass runs on the host after the device work: its spans follow the run's on the
    // compute queue, so the span range counts it, but it is not CUDA time and is named apart (a
    // 16384^2 block's re-check takes seconds). totalSeconds (GPU mul) never included it.
    double repairSeconds = 0;
    for (const RepairEvent& e : r.repairs)
        repairSeconds += e.seconds;
    out << (onCuda(r) ? "Total CUDA time (CUDA events): " : "Total execute time (CPU steady clock): ")
        << seconds(std::max(0.0, r.metrics.executeSeconds - repairSeconds));
    if (repairSeconds > 0)
        out << " (then the host repair pass: " << seconds(repairSeconds) << ")";
    out << "\n";
    out << "Average program performance: " << general(r.metrics.gflops) << " GFLOP/s\n";
    out << "Total kernel intensity: " << general(r.metrics.intensityDevice) << " FLOP/B\n";
}

void writeBackendAndPlan(std::ostream& out, const RunRecord& r)
{
    const Plan& p = r.plan;
    out << "\nBackend: " << toString(r.devices.front().backend);
    if (!r.devices.front().computeCapability.empty())
        out << " (compute capability " << r.devices.front().computeCapability << ")";
    out << "\n";
    if (!r.devices.front().whyChosen.empty())
        out << "  why: " << r.devices.front().whyChosen << "\n";
    out << "Plan: " << p.splitM << " x " << p.splitQ << " blocks of C, " << p.splitN
        << " split(s) of the common dimension (" << p.productCount() << " block products)\n";
    out << "  block extents: " << p.blockM << " x " << p.blockN << " times " << p.blockN << " x " << p.blockQ
        << (p.abft ? " (plus checksum row/column)" : "") << "\n";
    if (p.tapered())
        out << "  unequal blocks (tapered ends): rows " << extentsText(p.splitM, [&](int i) { return p.rowsOf(i); })
            << "; columns " << extentsText(p.splitQ, [&](int j) { return p.colsOf(j); }) << "\n";
    out << "  buffers:";
    for (const BufferSpec& b : p.buffers)
        out << " " << b.name << " " << formatBytes(double(b.bytes)) << ";";
    out << "\n";
    out << "  needed " << formatBytes(double(p.bytesNeeded)) << " of cap " << formatBytes(double(p.capBytes))
        << ", peak in use " << formatBytes(double(r.metrics.peakBufferBytes)) << "\n";
    if (!p.explanation.empty())
        out << "  " << p.explanation << "\n";
}

// A run spread over devices: each device's span of time (its first op's start to its last op's
// end), compute busy time and C blocks stored, so an unbalanced spread shows.
void writePerDevice(std::ostream& out, const RunRecord& r)
{
    const std::size_t devices = r.devices.size();
    std::vector<double> first(devices, 1e300), last(devices, 0), compute(devices, 0);
    std::vector<int> blocks(devices, 0);
    for (const Span& s : r.spans) {
        if (s.device < 0 || std::size_t(s.device) >= devices || s.kind == OpKind::Recompute)
            continue;
        const std::size_t d = std::size_t(s.device);
        first[d] = std::min(first[d], s.start);
        last[d] = std::max(last[d], s.end);
        if (s.queue == Queue::Compute)
            compute[d] += s.end - s.start;
        if (s.kind == OpKind::CopyD2H)
            ++blocks[d];
    }
    out << "Devices (" << devices << "):\n";
    for (std::size_t d = 0; d < devices; ++d) {
        out << "  d" << d << ": " << r.devices[d].name;
        if (r.devices[d].backend == BackendKind::Cuda)
            out << " (CUDA device " << r.devices[d].index << ")";
        out << ": ";
        if (last[d] > 0)
            out << "time " << seconds(last[d] - first[d]) << ", compute busy " << seconds(compute[d]) << ", ";
        out << blocks[d] << " C block(s)\n";
    }
}

void writeMetrics(std::ostream& out, const RunRecord& r)
{
    const Metrics& m = r.metrics;
    out << "Metrics:\n";
    out << "  queues busy: H2D " << seconds(m.queueBusySeconds[0]) << ", compute " << seconds(m.queueBusySeconds[1])
        << ", D2H " << seconds(m.queueBusySeconds[2]) << "\n";
    out << "  flops: " << general(m.flops) << " (useful 2mnq: " << general(m.usefulFlops) << ")\n";
    out << "  bytes: host link " << formatBytes(m.bytesHostLink) << ", device memory "
        << formatBytes(m.bytesDevice) << "\n";
    out << "  intensity: " << general(m.intensityDevice) << " FLOP/B (device memory), "
        << general(m.intensityHostLink) << " FLOP/B (host link)\n";
    // Where the run's time went (time_breakdown.hpp): what a slow strategy lost its time to.
    const blocked_gemm::TimeBreakdown b = blocked_gemm::breakdownOf(r.spans);
    if (b.productBusySeconds > 0 && b.spanSeconds > 0) {
        const auto part = [&](double x) {
            std::ostringstream o;
            o << seconds(x) << " (" << std::fixed << std::setprecision(1) << 100 * x / b.spanSeconds << " %)";
            return o.str();
        };
        out << "  where the time went: products " << part(b.productBusySeconds) << ", ABFT alone "
            << part(b.abftAloneSeconds) << ", compute idle waiting for copies " << part(b.stallSeconds)
            << ", fill + drain " << part(b.fillSeconds + b.drainSeconds) << "\n";
    }
    if (r.devices.size() > 1)
        writePerDevice(out, r);
}

// The cost model beside the measurement: totals and each op kind's busy time.
void writePrediction(std::ostream& out, const RunRecord& r)
{
    const PredictionComparison c = comparePrediction(r);
    if (c.perKind.empty())
        return;
    auto percent = [](double p) {
        std::ostringstream o;
        o << std::showpos << std::fixed << std::setprecision(1) << p << " %";
        return o.str();
    };
    // A model on assumed rates predicts the assumptions: its errors are no measure of the model and
    // are not printed (the times are, for the curious), with the one command that calibrates it.
    const bool calibrated = r.predictionSource.find("assumed") == std::string::npos;
    const auto error = [&](double p) { return calibrated ? ", error " + percent(p) : std::string(); };
    if (calibrated)
        out << "Predicted (cost model: " << r.predictionSource << "):\n";
    else
        out << "Predicted (cost model UNCALIBRATED, no errors shown: " << r.predictionSource << "):\n";
    out << "  total: predicted " << seconds(c.predictedTotal) << ", measured " << seconds(c.measuredTotal)
        << error(c.errorPercent()) << "\n";
    // Fill and drain: what the first loads and the last store cost before and after every product.
    const auto share = [](double part, double whole) {
        std::ostringstream o;
        o << std::fixed << std::setprecision(1) << (whole > 0 ? 100 * part / whole : 0) << " %";
        return o.str();
    };
    const FillDrain& p = c.predictedEnds;
    const FillDrain& m = c.measuredEnds;
    out << "  fill + drain (no product running): predicted " << seconds(p.fillSeconds) << " + " << seconds(p.drainSeconds)
        << " (" << share(p.fillSeconds + p.drainSeconds, c.predictedTotal) << "), measured " << seconds(m.fillSeconds)
        << " + " << seconds(m.drainSeconds) << " (" << share(m.fillSeconds + m.drainSeconds, c.measuredTotal) << ")\n";
    for (const PredictionError& e : c.perKind)
        out << "  " << e.kind << " (" << e.ops << " ops): predicted " << seconds(e.predictedSeconds) << ", measured "
            << seconds(e.measuredSeconds) << error(e.errorPercent()) << "\n";
}

// The repair pass (abft README "Repair pass"): one line per C block it looked at, with its cost.
void writeRepairs(std::ostream& out, const RunRecord& r)
{
    for (const RepairEvent& e : r.repairs) {
        out << "  repair of block (" << e.blockI << ", " << e.blockJ << "): ";
        switch (e.outcome) {
        case RepairOutcome::Confirmed: out << "confirmed by the host re-check"; break;
        case RepairOutcome::CorrectedByRecompute: out << "CORRECTED BY RECOMPUTE"; break;
        case RepairOutcome::Uncorrectable: out << "UNCORRECTABLE (still wrong after recomputing the block)"; break;
        }
        if (e.outcome != RepairOutcome::Confirmed) {
            out << "; re-check rows " << listIndices(e.mismatchRows, e.rowOffset, e.rows) << ", cols "
                << listIndices(e.mismatchCols, e.colOffset, e.cols) << "; recomputed ";
            if (e.wholeBlock)
                out << "the whole block";
            else
                out << "rows " << listIndices(e.recomputedRows, e.rowOffset, e.rows) << ", cols "
                    << listIndices(e.recomputedCols, e.colOffset, e.cols);
        }
        if (e.operandCopy)
            out << "; an operand copy it was multiplied from failed its entry check";
        if (e.cellsRecomputed > 0)
            out << "; " << e.cellsRecomputed << " corrected cell(s) recomputed as dot products";
        out << "; cost " << general(e.flops) << " flop, " << seconds(e.seconds) << "\n";
    }
}

// The end-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp), and what they cannot see.
void writeOperandChecks(std::ostream& out, const RunRecord& r)
{
    const OperandCheckReport& o = r.operandChecks;
    if (!r.config.abft)
        return;
    if (!o.ran) {
        out << "  operand checks: not run (A and B are checked only through C's checksums)\n";
        return;
    }
    out << "  operand checks: " << o.copiesChecked << " copies of A and B blocks compared with the checksums taken "
        << "where A and B entered the program (" << seconds(o.entrySeconds) << "); " << o.mismatches.size()
        << " differed; largest clean residual / threshold " << general(o.maxCleanRatio) << "\n";
    for (const OperandMismatch& m : o.mismatches)
        out << "  copy of " << char(m.operand - 'a' + 'A') << " block (" << m.blockRow << ", " << m.blockCol
            << ") for block product (" << m.product.i << ", " << m.product.j << ", " << m.product.k << "): "
            << m.lines.size() << (m.operand == 'a' ? " column(s)" : " row(s)") << " off, up to "
            << general(m.maxResidualRatio) << " x the threshold\n";
    if (o.hostElementsRestored > 0)
        out << "  host operand elements restored from the entry checksums: " << o.hostElementsRestored << "\n";
    if (o.hostBlocksUnrestorable > 0)
        out << "  HOST OPERAND BLOCKS WRONG AND NOT RESTORABLE: " << o.hostBlocksUnrestorable << "\n";
    out << "  (an operand already wrong when it entered the program cannot be seen: its checksums describe it "
           "as it came)\n";
}

void writeFaultReport(std::ostream& out, const RunRecord& r)
{
    const FaultReport& f = r.faults;
    out << "Fault report:\n";
    if (!r.config.abft) {
        out << "  ABFT off (--no-abft): nothing was checked\n";
        return;
    }
    out << "  injected " << f.injected << ", detected " << f.detected << ", corrected " << f.corrected
        << ", uncorrectable " << f.uncorrectable << ", below threshold " << f.belowThreshold
        << ", missed " << f.missed << ", false positives " << f.falsePositives << ", corrected by recompute "
        << f.correctedByRecompute << "\n";
    out << "  block products: " << f.blocksClean << " clean, " << f.blocksCorrected << " corrected, "
        << f.blocksUncorrectable << " uncorrectable\n";
    out << "  threshold (largest): " << general(f.maxThreshold) << "; largest clean residual / threshold: "
        << general(f.maxCleanResidualRatio);
    if (f.maxCleanResidualRatio > 0)
        out << " (threshold / largest clean residual: " << general(1.0 / f.maxCleanResidualRatio) << ")";
    out << "\n";
    for (const VerifyEvent& v : r.verifications) {
        if (v.result.verdict != Verdict::Uncorrectable)
            continue;
        out << "  block (" << v.block.i << ", " << v.block.j << ", " << v.block.k
            << ") uncorrectable: candidate rows " << listIndices(v.result.mismatchRows, v.rowOffset, v.rows)
            << "; candidate cols " << listIndices(v.result.mismatchCols, v.colOffset, v.cols) << "\n";
    }
    writeOperandChecks(out, r);
    writeRepairs(out, r);
}

void writeReference(std::ostream& out, const RunRecord& r)
{
    const ReferenceCheck& ref = r.reference;
    out << "Reference check: ";
    if (ref.mode == ReferenceMode::None) {
        // Only name --reference none when it was asked; otherwise the run ended before its check.
        if (r.config.reference == ReferenceMode::None)
            out << "not run (--reference none)\n";
        else
            out << "not run (the run was " << (r.status == "ok" ? std::string("not checked") : r.status) << ")\n";
        return;
    }
    out << toString(ref.mode) << ", " << ref.rowsChecked << " row(s) against OpenBLAS: " << ref.mismatches
        << " mismatch(es), max abs error " << general(ref.maxAbsError) << ", max error / tolerance "
        << general(ref.maxRelError) << " -> " << (ref.passed ? "PASSED" : "FAILED") << "\n";
}

}  // namespace

std::string formatInputsLine(const RunRecord& r)
{
    if (r.inputs.empty())
        return {};
    std::string line = "Your matrices:";
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
        const InputMatrix& m = r.inputs[i];
        line += std::string(i ? ", " : " ") + m.operand + " from " + m.file + " (" + shapeText(m.rows, m.cols) + ", " +
                m.dtype + ", " + (m.fortranOrder ? "Fortran order" : "C order") + ")";
    }
    return line + "; the run computes in " + std::string(toString(r.config.precision));
}

std::string formatReport(const RunRecord& r)
{
    std::ostringstream out;
    if (!r.inputs.empty())
        out << formatInputsLine(r) << "\n";
    writeSeedBlock(out, r);
    writeBackendAndPlan(out, r);
    writeMetrics(out, r);
    writePrediction(out, r);
    writeFaultReport(out, r);
    writeReference(out, r);
    if (r.status != "ok")
        out << "Run " << r.status << (r.error.empty() ? "" : ": " + r.error)
            << " (the record holds what ran before)\n";
    out << "Verdict: ";
    if (r.status != "ok")
        out << "INCOMPLETE (" << r.status << ")\n";
    else if (r.verifiedCorrect())
        out << "VERIFIED CORRECT (checked by " << r.verifiedBy() << ")\n";
    else if (r.notVerified())
        out << "NOT VERIFIED: no check that could see a fault ran (" << (r.config.abft ? "" : "--no-abft")
            << (r.reference.mode == ReferenceMode::Sample ? " with a sampled reference" : " with --reference none")
            << "); C may be wrong\n";
    else if (r.faults.uncorrectable > 0 || (r.faults.blocksUncorrectable > 0 && r.repairs.empty()) ||
             r.operandChecks.hostBlocksUnrestorable > 0 ||
             std::any_of(r.repairs.begin(), r.repairs.end(),
                         [](const RepairEvent& e) { return e.outcome == RepairOutcome::Uncorrectable; }))
        out << "UNCORRECTABLE ERRORS REMAIN\n";
    else if (!r.reference.passed)
        out << "REFERENCE MISMATCH\n";
    else if (const std::string missed = missedFaultsWords(r); !missed.empty())
        out << "C IS WRONG: " << missed << "\n";
    else
        out << "NOT VERIFIED\n";
    return out.str();
}

}  // namespace gigacheck
