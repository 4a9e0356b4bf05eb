// The cost model's H2D rates calibrated on the run's own host matrices (gigacheck/cost_model.hpp
// calibrateH2d): why a table measured on one buffer misses a run's loads is in the results README
// (fourteenth session: the same copy shape at 30-51 GB/s from different parts of the matrices).
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

}  // namespace

H2dCalibration calibrateH2d(const Schedule& schedule, const CostModel& model, std::size_t elementBytes,
                            const HostMatrix& a, const HostMatrix& b, const HostLoadTimer& timer,
                            std::uint64_t budgetBytes)
{
    H2dCalibration out;
    // The distinct direct loads of A and B in issue order (a block reloaded reads the same memory).
    std::vector<const Operation*> candidates;
    std::set<RegionKey> seen;
    double candidateBytes = 0;
    for (const Operation& op : schedule.ops) {
        if (op.kind != OpKind::CopyH2D || (op.host.matrix != Operand::A && op.host.matrix != Operand::B))
            continue;
        const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
        const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
        if (packsOnHost(model.h2dStaging, op.host.rows, op.host.cols * std::int64_t(elementBytes), pitch))
            continue;
        if (!seen.insert({op.host.matrix, op.host.row, op.host.col, op.host.rows, op.host.cols}).second)
            continue;
        candidates.push_back(&op);
        candidateBytes += double(op.host.rows) * double(op.host.cols) * double(elementBytes);
    }
    out.candidates = int(candidates.size());
    if (candidates.empty() || !timer) {
        out.text = "H2D rates not calibrated (no direct block loads of A or B)";
        return out;
    }

    // At most kH2dCalibrationLoads loads, evenly spaced in issue order, so that the sample spreads
    // over the whole matrices; each cut to its first rows so that the sample stays within the budget.
    const std::size_t stride = (candidates.size() + std::size_t(kH2dCalibrationLoads) - 1) / std::size_t(kH2dCalibrationLoads);
    const std::size_t sampled = (candidates.size() + stride - 1) / stride;
    const double perLoadBytes = double(std::max<std::uint64_t>(budgetBytes, 1)) / double(sampled);
    CostModel table = model;
    table.h2dInSituFactor = 1;
    std::vector<HostLoad> loads;
    double tableSeconds = 0;
    for (std::size_t i = 0; i < candidates.size(); i += stride) {
        const Operation& op = *candidates[i];
        const HostMatrix& m = op.host.matrix == Operand::A ? a : b;
        const std::int64_t rowBytes = op.host.cols * std::int64_t(elementBytes);
        const std::int64_t pitch = m.cols() * std::int64_t(elementBytes);
        const std::int64_t rows =
            std::clamp<std::int64_t>(std::int64_t(perLoadBytes / double(rowBytes)), 1, op.host.rows);
        const char* source = static_cast<const char*>(m.data()) +
                             (std::size_t(op.host.row) * std::size_t(m.cols()) + std::size_t(op.host.col)) * elementBytes;
        loads.push_back({source, rows, rowBytes, pitch});
        const double bytes = double(rows) * double(rowBytes);
        out.bytes += bytes;
        // As the schedule's copy of the whole block would be priced (rows do not change the rate).
        tableSeconds += bytes / (predictedCopyGBs(table, Queue::H2D, double(rowBytes), false, double(pitch)) * 1e9);
    }
    out.loads = int(loads.size());
    const double measured = timer(loads);
    if (!(measured > 0) || !(tableSeconds > 0)) {
        out.text = "H2D rates not calibrated (the sample of this run's loads could not be timed)";
        return out;
    }
    out.measuredGBs = out.bytes / measured / 1e9;
    out.tableGBs = out.bytes / tableSeconds / 1e9;
    out.factor = std::clamp(tableSeconds / measured, 0.25, 1.5);
    out.text = "H2D rates x" + fixed2(out.factor) + " on this run's host matrices (" + std::to_string(out.loads) + " of " +
               std::to_string(out.candidates) + " block loads, " + formatBytes(out.bytes) + ": " +
               fixed1(out.measuredGBs) + " GB/s against the table's " + fixed1(out.tableGBs) + ")";
    return out;
}

}  // namespace gigacheck
