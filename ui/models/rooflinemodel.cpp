#include "rooflinemodel.hpp"

#include "models/familyrecord.hpp"
#include "models/runverdict.hpp"

#include <cmath>
#include <cstdint>
#include <map>

namespace gigacheck::ui {

std::vector<Roof> roofsFrom(const Ceilings& c)
{
    std::vector<Roof> roofs;
    auto add = [&](const char* label, double v, bool memory) {
        if (v > 0)
            roofs.push_back({QString::fromLatin1(label), v, memory});
    };
    add("FP32 peak", c.gflopsF32, false);
    add("TF32 peak", c.gflopsTf32, false);
    // One roof where BF16 and FP16 run at the same rate (every NVIDIA tensor core so far), else two.
    if (c.gflopsBf16 > 0 && std::abs(c.gflopsBf16 - c.gflopsF16) <= 0.01 * c.gflopsBf16) {
        add("BF16 / FP16 peak", c.gflopsBf16, false);
    } else {
        add("BF16 peak", c.gflopsBf16, false);
        add("FP16 peak", c.gflopsF16, false);
    }
    add("FP64 peak", c.gflopsF64, false);
    // One line where the host link is memory itself (the CPU backend), else two.
    if (c.h2dGBs > 0 && std::abs(c.h2dGBs - c.deviceBandwidthGBs) <= 0.01 * c.h2dGBs) {
        add("memory = host link", c.h2dGBs, true);
        return roofs;
    }
    add("device memory", c.deviceBandwidthGBs, true);
    add("host link H2D", c.h2dGBs, true);
    if (c.d2hGBs > 0 && std::abs(c.d2hGBs - c.h2dGBs) > 0.05 * c.h2dGBs)
        add("host link D2H", c.d2hGBs, true);
    return roofs;
}

QString blockedRunLabel(const RunConfig& c)
{
    return QStringLiteral("%1 %2×%3×%4").arg(strategyLabel(c)).arg(c.shape.m).arg(c.shape.n).arg(c.shape.q);
}

QString runLabel(const RecordEnvelope& r)
{
    if (const RunRecord* blocked = blockedRecordOf(r))
        return blockedRunLabel(blocked->config);
    const Shape s = resultShapeOf(r);
    if (s.m == 0)  // a family whose shape the lab does not read: its name alone
        return runNameOf(r);
    const QString shape = QStringLiteral("%1×%2×%3").arg(s.m).arg(s.n).arg(s.q);
    if (const OnlineRecord* online = onlineRecordOf(r); online && online->config.scheme != Scheme::Tmr)
        return QStringLiteral("%1 b=%2 %3").arg(runNameOf(r)).arg(online->config.panelWidth()).arg(shape);
    return runNameOf(r) + QLatin1Char(' ') + shape;
}

RooflineRun summarizeRun(const RecordEnvelope& record, const QString& label, double linkGBs)
{
    RooflineRun run;
    run.label = label;
    const Metrics& m = record.metrics;
    if (m.intensityHostLink > 0 && m.gflops > 0)
        run.points.push_back({label + QStringLiteral(" measured"), m.intensityHostLink, m.gflops,
                              RooflinePoint::Kind::Measured});
    if (m.intensityHostLink > 0 && linkGBs > 0)
        run.points.push_back({label + QStringLiteral(" naive (I × link)"), m.intensityHostLink,
                              m.intensityHostLink * linkGBs, RooflinePoint::Kind::Naive});
    // Per operation kind: its own flops over its own bytes, at its own busy-time rate.
    struct Sum {
        double flops = 0, bytes = 0, seconds = 0;
    };
    std::map<OpKind, Sum> sums;
    for (const Span& s : record.spans) {
        Sum& sum = sums[s.kind];
        sum.flops += s.flops;
        sum.bytes += s.bytes;
        sum.seconds += s.end - s.start;
    }
    for (const auto& [kind, sum] : sums) {
        if (sum.flops <= 0 || sum.bytes <= 0 || sum.seconds <= 0)
            continue;  // copies have no flops: no point on a log-log plot
        // The host repair pass is named for what it is, as on the timeline (models/repairpass.hpp).
        // (A no-break space: the plot labels a point with the label's last word.)
        const QString kindName = kind == OpKind::Recompute ? QStringLiteral("repair\u00a0pass")
                                                           : QString::fromUtf8(toString(kind).data(), qsizetype(toString(kind).size()));
        run.points.push_back({label + QStringLiteral(" ") + kindName,
                              sum.flops / sum.bytes, sum.flops / sum.seconds / 1e9, RooflinePoint::Kind::Operation});
    }
    return run;
}

QString runColorKey(const RecordEnvelope& record)
{
    return runLabel(record) + QLatin1Char('@') + QString::fromStdString(record.createdAt);
}

std::vector<int> runColorIndices(const std::vector<QString>& keys, int colors)
{
    std::vector<int> indices;
    if (colors <= 0)
        return std::vector<int>(keys.size(), 0);
    std::vector<bool> taken(std::size_t(colors), false);
    int takenCount = 0;
    for (const QString& key : keys) {
        std::uint32_t hash = 2166136261u;
        for (const char byte : key.toUtf8()) {
            hash ^= std::uint8_t(byte);
            hash *= 16777619u;
        }
        int index = int(hash % std::uint32_t(colors));
        if (takenCount < colors)  // more runs than colours: repeats cannot be avoided
            while (taken[std::size_t(index)])
                index = (index + 1) % colors;
        if (!taken[std::size_t(index)]) {
            taken[std::size_t(index)] = true;
            ++takenCount;
        }
        indices.push_back(index);
    }
    return indices;
}

}  // namespace gigacheck::ui
