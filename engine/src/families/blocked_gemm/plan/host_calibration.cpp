// The cost model calibrated on the run's own host matrices (gigacheck/cost_model.hpp calibrateH2d,
// calibratePacking): a sample of the run's block loads copied (direct loads) or packed (packed
// loads) before the run, the table's rates scaled by what they reached.
#include "gigacheck/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// The schedule's distinct direct (packed == false) or packed loads of A and B, up to
// kH2dCalibrationLoads evenly spaced in issue order, each cut to its first rows so that the sample
// stays within budgetBytes. tableSeconds: the sample at the table's alone copy rate.
struct Sample {
    std::vector<HostLoad> loads;
    int candidates = 0;
    double bytes = 0, tableSeconds = 0;
};

Sample sampleLoads(const Schedule& schedule, const CostModel& model, std::size_t elementBytes, const HostMatrix& a,
                   const HostMatrix& b, std::uint64_t budgetBytes, bool packed)
{
    Sample out;
    std::vector<const Operation*> candidates;
    std::set<RegionKey> seen;  // a block reloaded reads the same memory
    for (const Operation& op : schedule.ops) {
        if (op.kind != OpKind::CopyH2D || (op.host.matrix != Operand::A && op.host.matrix != Operand::B))
            continue;
        const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
        const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
        if (packsOnHost(model.h2dStaging, op.host.rows, op.host.cols * std::int64_t(elementBytes), pitch) != packed)
            continue;
        if (seen.insert({op.host.matrix, op.host.row, op.host.col, op.host.rows, op.host.cols}).second)
            candidates.push_back(&op);
    }
    out.candidates = int(candidates.size());
    if (candidates.empty())
        return out;
    const std::size_t stride = (candidates.size() + std::size_t(kH2dCalibrationLoads) - 1) / std::size_t(kH2dCalibrationLoads);
    const std::size_t sampled = (candidates.size() + stride - 1) / stride;
    const double perLoadBytes = double(std::max<std::uint64_t>(budgetBytes, 1)) / double(sampled);
    CostModel table = model;
    table.h2dInSituFactor = 1;
    for (std::size_t i = 0; i < candidates.size(); i += stride) {
        const Operation& op = *candidates[i];
        const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
        const std::int64_t rowBytes = op.host.cols * std::int64_t(elementBytes);
        const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
        const std::int64_t rows = std::clamp<std::int64_t>(std::int64_t(perLoadBytes / double(rowBytes)), 1, op.host.rows);
        const char* source = static_cast<const char*>(m.data()) +
                             (std::size_t(op.host.row) * std::size_t(m.cols()) + std::size_t(op.host.col)) * elementBytes;
        out.loads.push_back({source, rows, rowBytes, pitch});
        const double bytes = double(rows) * double(rowBytes);
        out.bytes += bytes;
        // As the schedule's copy of the whole block would be priced (rows do not change the rate).
        out.tableSeconds += bytes / (predictedCopyGBs(table, Queue::H2D, double(rowBytes), false, double(pitch)) * 1e9);
    }
    return out;
}

}  // namespace

H2dCalibration calibrateH2d(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                            const HostMatrix& a, const HostMatrix& b, const HostLoadTimer& timer,
                            std::uint64_t budgetBytes)
{
    H2dCalibration out;
    const Sample sample = sampleLoads(schedule, model, elementBytes, a, b, budgetBytes, false);
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
                                 double referenceGBs, std::uint64_t budgetBytes)
{
    PackCalibration out;
    const double tableGBs = model.hostPackGBs > 0 ? model.hostPackGBs : kAssumedHostPackGBs;
    out.packGBs = tableGBs;
    const Sample sample = sampleLoads(schedule, model, elementBytes, a, b, budgetBytes, true);
    out.candidates = sample.candidates;
    if (sample.loads.empty() || !timer) {
        out.text = "pack rate not calibrated (no packed block loads)";
        return out;
    }
    out.loads = int(sample.loads.size());
    out.bytes = sample.bytes;
    const double measured = timer(sample.loads);
    if (!(measured > 0) || !(referenceGBs > 0)) {
        out.text = "pack rate not calibrated (the sample of this run's loads could not be timed)";
        return out;
    }
    out.measuredGBs = out.bytes / measured / 1e9;
    out.referenceGBs = referenceGBs;
    out.factor = std::clamp(out.measuredGBs / referenceGBs, 0.25, 2.0);
    out.packGBs = tableGBs * out.factor;
    out.text = "pack rate " + fixed1(out.packGBs) + " GB/s on this run's loads (the table's " + fixed1(tableGBs) + " x" +
               fixed2(out.factor) + ": " + std::to_string(out.loads) + " of " + std::to_string(out.candidates) +
               " packed loads, " + formatBytes(out.bytes) + " packed alone at " + fixed1(out.measuredGBs) +
               " GB/s against " + fixed1(referenceGBs) + " for the table's pattern)";
    return out;
}

}  // namespace gigacheck
