#include "runverdict.hpp"

#include "models/familyrecord.hpp"

#include <gigacheck/family.hpp>
#include <gigacheck/online_abft/catchers.hpp>

#include <QStringList>

#include <algorithm>
#include <set>

namespace gigacheck::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The status shared by every family: a run that did not end is neither right nor wrong.
bool endedEarly(const RecordEnvelope& r, RunVerdict& v)
{
    if (r.status == "cancelled") {
        v.kind = RunVerdict::Kind::Cancelled;
        v.words = QStringLiteral("cancelled");
        return true;
    }
    if (r.status == "failed") {
        v.kind = RunVerdict::Kind::Failed;
        v.words = QStringLiteral("failed");
        return true;
    }
    return false;
}

void setVerified(RunVerdict& v, const RecordEnvelope& record, bool verified)
{
    v.kind = verified ? RunVerdict::Kind::Verified : RunVerdict::Kind::NotCorrect;
    v.words = verified ? QStringLiteral("verified correct") : QStringLiteral("could not be verified correct");
    // Faults the run injected that no check saw (they cancel in every sum): C is known wrong, in
    // the words of the family's verdict (the CLI's closing line), shortened for one line.
    if (!verified && !verdictOf(record).wrongWhy.empty())
        v.words = QStringLiteral("wrong: injected faults that no check saw (see the report)");
}

double usefulGflops(const Shape& s, double seconds)
{
    return seconds > 0 ? 2.0 * double(s.m) * double(s.n) * double(s.q) / seconds / 1e9 : 0.0;
}

// Each fault in C or its checksums counted once: caught by the first check at or after its step
// that saw its line; corrected there, or by the recompute when that check could not correct it.
void countOnlineFaults(const OnlineRecord& r, RunVerdict& v)
{
    const bool recomputeRepaired = r.recomputed && r.recomputeClean;
    if (r.config.scheme == Scheme::Tmr) {
        std::set<std::pair<std::int64_t, std::int64_t>> disputed;
        if (r.vote) {
            disputed.insert(r.vote->disputed.begin(), r.vote->disputed.end());
            disputed.insert(r.vote->noMajority.begin(), r.vote->noMajority.end());
        }
        for (const InjectEvent& e : r.injections) {
            ++v.injected;
            if (!disputed.count({e.injection.localRow, e.injection.localCol}))
                continue;
            ++v.detected;
            ++(r.vote && r.vote->settled() ? v.corrected : v.uncorrectable);
        }
    } else {
        OnlineCatchers catchers(r);
        for (const InjectEvent& e : r.injections) {
            ++v.injected;
            const VerifyEvent* check = catchers.find(e.injection.block.k, e.injection.localRow, e.injection.localCol);
            if (!check)
                continue;
            ++v.detected;
            if (check->result.verdict == Verdict::Corrected)
                ++v.corrected;
            else
                ++(recomputeRepaired ? v.correctedByRecompute : v.uncorrectable);
        }
    }
    // Faults in A or B: found by a check (or at encoding) and corrected there, or not at all (a
    // recompute reads the same wrong input).
    v.injected += int(r.appliedInputFaults.size());
    int found = 0;
    for (const InputFaultReport& f : r.inputFaults) {
        if (found++ >= int(r.appliedInputFaults.size()))
            break;
        if (f.belowRoundoff)
            continue;  // below what the operand's sums resolve: seen, left to C's checks (masked)
        ++v.detected;
        ++(f.corrected ? v.corrected : v.uncorrectable);
    }
}

}  // namespace

QString RunVerdict::counts() const
{
    return QStringLiteral("%1 injected, %2 detected, %3 corrected, %4 corrected by recompute, %5 uncorrectable")
        .arg(injected)
        .arg(detected)
        .arg(corrected)
        .arg(correctedByRecompute)
        .arg(uncorrectable);
}

// The status bar's one line: the same counts, those that are zero left out, so that it fits a
// 1366-pixel screen in presentation mode ("3 injected, 3 detected, 3 corrected").
QString RunVerdict::shortCounts() const
{
    if (injected == 0)
        return QStringLiteral("no fault injected");
    QStringList parts{QStringLiteral("%1 injected").arg(injected)};
    const std::pair<int, const char*> rest[] = {{detected, "detected"},
                                                {corrected, "corrected"},
                                                {correctedByRecompute, "corrected by recompute"},
                                                {uncorrectable, "uncorrectable"}};
    for (const auto& [n, what] : rest)
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(QLatin1String(what));
    return parts.join(QStringLiteral(", "));
}

QString RunVerdict::headline() const
{
    switch (kind) {
    case Kind::Cancelled: return QStringLiteral("run cancelled: C is partial, not verified");
    case Kind::Failed: return QStringLiteral("run failed: no C to verify");
    case Kind::NotVerified: return QStringLiteral("C is not verified (nothing that could see a fault ran)");
    default: break;
    }
    return QStringLiteral("C is %1 (checked by %2)").arg(words, by);
}

QString RunVerdict::summary() const
{
    return QStringLiteral("%1: %2; faults: %3").arg(scheme, headline(), counts());
}

QString RunVerdict::statusLine() const
{
    switch (kind) {
    case Kind::Cancelled: return QStringLiteral("Run cancelled: the partial record is kept — ") + shortCounts();
    case Kind::Failed: return QStringLiteral("Run failed — ") + shortCounts();
    case Kind::Verified: return QStringLiteral("Run finished: %1 — %2, %3").arg(headline(), scheme, shortCounts());
    default:
        return QStringLiteral("Run finished, but %1 (see the report) — %2, %3").arg(headline(), scheme, shortCounts());
    }
}

QString schemeLabel(const OnlineConfig& c)
{
    switch (c.scheme) {
    case Scheme::Online:
        return c.checkEvery > 0 ? QStringLiteral("online fq %1").arg(c.checkEvery) : QStringLiteral("online, last step");
    case Scheme::Offline: return QStringLiteral("offline");
    case Scheme::Tmr: return QStringLiteral("TMR");
    case Scheme::Blocked: break;
    }
    return QStringLiteral("blocked");
}

QString onlineRunLabel(const OnlineConfig& c)
{
    const QString shape = QStringLiteral("%1×%2×%3").arg(c.shape.m).arg(c.shape.n).arg(c.shape.q);
    if (c.scheme == Scheme::Tmr)
        return QStringLiteral("%1, %2").arg(schemeLabel(c), shape);
    return QStringLiteral("%1, b = %2, %3").arg(schemeLabel(c)).arg(c.panelWidth()).arg(shape);
}

QString strategyLabel(const RunConfig& c)
{
    const QString strategy = qs(toString(c.strategy));
    return c.planByCostModel ? QStringLiteral("auto→") + strategy : strategy;
}

RunVerdict runVerdictOf(const RunRecord& r)
{
    RunVerdict v;
    v.scheme = strategyLabel(r.config);
    const FaultReport& f = r.faults;
    v.injected = f.injected;
    v.detected = f.detected;
    v.corrected = f.corrected;
    v.correctedByRecompute = f.correctedByRecompute;
    v.uncorrectable = f.uncorrectable;
    v.recomputed = f.correctedByRecompute > 0;
    v.gflops = r.metrics.gflops;
    v.by = QString::fromStdString(r.verifiedBy());
    if (endedEarly(r, v))
        return v;
    if (r.notVerified()) {
        v.kind = RunVerdict::Kind::NotVerified;
        v.words = QStringLiteral("not verified");
        return v;
    }
    setVerified(v, r, r.verifiedCorrect());
    return v;
}

RunVerdict runVerdictOf(const OnlineRecord& r)
{
    RunVerdict v;
    v.scheme = schemeLabel(r.config);
    countOnlineFaults(r, v);
    v.recomputed = r.recomputed;
    v.recomputeSeconds = r.recomputeSeconds;
    v.gflops = r.metrics.gflops > 0 ? r.metrics.gflops : usefulGflops(r.config.shape, r.metrics.executeSeconds);
    // The engine report's words (formatOnlineReport: "checked by ...").
    v.by = r.config.scheme == Scheme::Tmr ? QStringLiteral("the TMR vote") : QStringLiteral("the ABFT checks");
    if (r.recomputed)
        v.by += r.recomputeClean ? QStringLiteral(" and a recompute") : QStringLiteral(" and a recompute that was not clean");
    if (r.reference.mode == ReferenceMode::Full)
        v.by += QStringLiteral(" and the full reference");
    else if (r.reference.mode == ReferenceMode::Sample)
        v.by += QStringLiteral(" and a sampled reference");
    if (endedEarly(r, v))
        return v;
    if (r.notVerified()) {  // TMR cells without a majority, no reference of every cell
        v.kind = RunVerdict::Kind::NotVerified;
        v.words = QStringLiteral("not verified");
        return v;
    }
    setVerified(v, r, r.verifiedCorrect());
    return v;
}

RunVerdict runVerdictOf(const RecordEnvelope& record)
{
    if (const RunRecord* blocked = blockedRecordOf(record))
        return runVerdictOf(*blocked);
    if (const OnlineRecord* online = onlineRecordOf(record))
        return runVerdictOf(*online);
    RunVerdict v;
    v.scheme = qs(record.family);
    v.gflops = record.metrics.gflops;
    if (!endedEarly(record, v))
        v.words = QStringLiteral("not verified");
    return v;
}

}  // namespace gigacheck::ui
