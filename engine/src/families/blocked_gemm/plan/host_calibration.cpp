// The cost model calibrated on the run's own host matrices (gigacheck/blocked_gemm/cost_model.hpp calibrateH2d,
// calibratePacking): a sample of the run's block loads copied (direct loads) or packed (packed
// loads) before the run, the table's rates scaled by what they reached.
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include "families/blocked_gemm/staging/pack_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace gigacheck {

namespace {

using RegionKey = std::tuple<Operand, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

std::string fixed1(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

std::string fixed2(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", v);
    return text;
}

// The schedule's distinct direct (packed == false) or packed loads of A and B in issue order, and
// the bytes of each operand those loads move, reloads included.
struct Loads {
    std::vector<const Operation*> distinct;
    std::map<Operand, double> issuedBytes;
};

Loads loadsOf(const Schedule& schedule, const CostModel& model, std::size_t elementBytes, const HostMatrix& a,
              const HostMatrix& b, bool packed)
{
    Loads out;
    std::set<RegionKey> seen;  // a block reloaded reads the same memory
    for (const Operation& op : schedule.ops) {
        if (op.kind != OpKind::CopyH2D || (op.host.matrix != Operand::A && op.host.matrix != Operand::B))
            continue;
        const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
        const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
        if (packsOnHost(model.h2dStaging, op.host.rows, op.host.cols * std::int64_t(elementBytes), pitch) != packed)
            continue;
        out.issuedBytes[op.host.matrix] += op.bytes;
        if (seen.insert({op.host.matrix, op.host.row, op.host.col, op.host.rows, op.host.cols}).second)
            out.distinct.push_back(&op);
    }
    return out;
}

// One load of the sample: op's block, cut to its first rows so that it stays within maxBytes.
HostLoad sampledLoad(const Operation& op, std::size_t elementBytes, const HostMatrix& a, const HostMatrix& b,
                     double maxBytes)
{
    const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
    const std::int64_t rowBytes = op.host.cols * std::int64_t(elementBytes);
    const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
    const std::int64_t rows = std::clamp<std::int64_t>(std::int64_t(maxBytes / double(rowBytes)), 1, op.host.rows);
    const char* source = static_cast<const char*>(m.data()) +
                         (std::size_t(op.host.row) * std::size_t(m.cols()) + std::size_t(op.host.col)) * elementBytes;
    return {source, rows, rowBytes, pitch};
}

// The direct loads' sample: up to kH2dCalibrationLoads of them evenly spaced in issue order, each
// cut so that the sample stays within budgetBytes. tableSeconds: the sample at the table's alone
// copy rate.
struct Sample {
    std::vector<HostLoad> loads;
    int candidates = 0;
    double bytes = 0, tableSeconds = 0;
};

Sample sampleDirectLoads(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                         const HostMatrix& a, const HostMatrix& b, std::uint64_t budgetBytes)
{
    Sample out;
    const std::vector<const Operation*> candidates = loadsOf(schedule, model, elementBytes, a, b, false).distinct;
    out.candidates = int(candidates.size());
    if (candidates.empty())
        return out;
    const std::size_t stride = (candidates.size() + std::size_t(kH2dCalibrationLoads) - 1) / std::size_t(kH2dCalibrationLoads);
    const std::size_t sampled = (candidates.size() + stride - 1) / stride;
    const double perLoadBytes = double(std::max<std::uint64_t>(budgetBytes, 1)) / double(sampled);
    CostModel table = model;
    table.h2dInSituFactor = 1;
    for (std::size_t i = 0; i < candidates.size(); i += stride) {
        const HostLoad load = sampledLoad(*candidates[i], elementBytes, a, b, perLoadBytes);
        out.loads.push_back(load);
        const double bytes = double(load.rows) * double(load.rowBytes);
        out.bytes += bytes;
        // As the schedule's copy of the whole block would be priced (rows do not change the rate).
        out.tableSeconds += bytes / (predictedCopyGBs(table, Queue::H2D, double(load.rowBytes), false,
                                                      double(load.pitchBytes)) * 1e9);
    }
    return out;
}

// The packed loads' sample, per operand in proportion to the bytes the run packs of it, reloads
// included (A's and B's rows pack at different rates): evenly spaced distinct loads, whole or cut to
// budgetBytes / their number (at least kStagingSlots: the timer's slots hold the largest), but never
// below kPackBytesForAllThreads, so that each is packed on as many threads as the run gives the
// whole block (an 18 MB cut of a 72 MB block packed at 15-18 GB/s on an H200's host, the block at
// 25: probes/pack_in_situ_probe.cu).
Sample samplePackedLoads(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                         const HostMatrix& a, const HostMatrix& b, std::uint64_t budgetBytes)
{
    Sample out;
    const Loads loads = loadsOf(schedule, model, elementBytes, a, b, true);
    out.candidates = int(loads.distinct.size());
    if (loads.distinct.empty())
        return out;
    std::map<Operand, std::vector<const Operation*>> byOperand;
    double distinctBytes = 0, total = 0;
    for (const Operation* op : loads.distinct) {
        byOperand[op->host.matrix].push_back(op);
        distinctBytes += op->bytes;
    }
    for (const auto& [operand, bytes] : loads.issuedBytes)
        total += bytes;
    const double budget = double(std::max<std::uint64_t>(budgetBytes, 1));
    const int count = std::clamp(int(budget / (distinctBytes / double(loads.distinct.size()))), 1, kH2dCalibrationLoads);
    const double maxBytes = std::max(budget / std::max(count, kStagingSlots), double(kPackBytesForAllThreads));
    for (const auto& [operand, ops] : byOperand) {
        const std::size_t n =
            std::clamp<std::size_t>(std::size_t(std::lround(count * loads.issuedBytes.at(operand) / total)), 1, ops.size());
        for (std::size_t i = 0; i < n; ++i) {
            const HostLoad load = sampledLoad(*ops[i * ops.size() / n], elementBytes, a, b, maxBytes);
            out.loads.push_back(load);
            out.bytes += double(load.rows) * double(load.rowBytes);
        }
    }
    return out;
}

}  // namespace

H2dCalibration calibrateH2d(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                            const HostMatrix& a, const HostMatrix& b, const HostLoadTimer& timer,
                            std::uint64_t budgetBytes)
{
    H2dCalibration out;
    const Sample sample = sampleDirectLoads(schedule, model, elementBytes, a, b, budgetBytes);
    out.candidates = sample.candidates;
    if (sample.loads.empty() || !timer) {
        out.text = "H2D rates not calibrated (no direct block loads of A or B)";
        return out;
    }
    out.loads = int(sample.loads.size());
    out.bytes = sample.bytes;
    const double measured = timer(sample.loads);
    if (!(measured > 0) || !(sample.tableSeconds > 0)) {
        out.text = "H2D rates not calibrated (the sample of this run's loads could not be timed)";
        return out;
    }
    out.measuredGBs = out.bytes / measured / 1e9;
    out.tableGBs = out.bytes / sample.tableSeconds / 1e9;
    out.factor = std::clamp(sample.tableSeconds / measured, 0.25, 1.5);
    out.text = "H2D rates x" + fixed2(out.factor) + " on this run's host matrices (" + std::to_string(out.loads) + " of " +
               std::to_string(out.candidates) + " block loads, " + formatBytes(out.bytes) + ": " +
               fixed1(out.measuredGBs) + " GB/s against the table's " + fixed1(out.tableGBs) + ")";
    return out;
}

PackCalibration calibratePacking(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                                 const HostMatrix& a, const HostMatrix& b, const HostPackTimer& timer,
                                 std::uint64_t budgetBytes)
{
    PackCalibration out;
    const double tableGBs = model.hostPackGBs > 0 ? model.hostPackGBs : kAssumedHostPackGBs;
    out.packGBs = tableGBs;
    const Sample sample = samplePackedLoads(schedule, model, elementBytes, a, b, budgetBytes);
    out.candidates = sample.candidates;
    if (sample.loads.empty() || !timer) {
        out.text = "pack rate not calibrated (no packed block loads)";
        return out;
    }
    out.loads = int(sample.loads.size());
    out.bytes = sample.bytes;
    const double measured = timer(sample.loads);
    if (!(measured > 0)) {
        out.text = "pack rate not calibrated (the sample of this run's loads could not be timed)";
        return out;
    }
    out.measuredGBs = out.bytes / measured / 1e9;
    out.factor = std::clamp(out.measuredGBs / tableGBs, 0.25, 2.0);
    out.packGBs = tableGBs * out.factor;
    out.text = "pack rate " + fixed1(out.packGBs) + " GB/s on this run's loads (" + std::to_string(out.loads) + " of " +
               std::to_string(out.candidates) + " packed loads, " + formatBytes(out.bytes) +
               " packed as the run packs them; the table's " + fixed1(tableGBs) + " x" + fixed2(out.factor) + ")";
    return out;
}

}  // namespace gigacheck
