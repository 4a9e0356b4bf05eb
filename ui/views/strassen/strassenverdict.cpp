#include "views/strassen/strassenverdict.hpp"

#include <QLocale>
#include <QStringList>

namespace gigacheck::ui::strassenlab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString whereWords(const std::string& where)
{
    if (where == "c")
        return QStringLiteral("C's row and column checksums");
    if (where == "a")
        return QStringLiteral("A's checksums after recovery");
    if (where == "b")
        return QStringLiteral("B's checksums after recovery");
    if (where.rfind("product ", 0) == 0)
        return QStringLiteral("leaf %1's checksums").arg(qs(where));
    return qs(where);
}

}  // namespace

Verdict verdictOf(const StrassenResult& r)
{
    if (r.status == "cancelled")
        return Verdict::Cancelled;
    if (r.status == "failed")
        return Verdict::Failed;
    if (r.verdict == StrassenVerdict::Uncorrectable)
        return Verdict::Uncorrectable;
    if (r.verdict == StrassenVerdict::NotVerified)
        return Verdict::NotVerified;
    // The run's verdict is the verdict (a passing reference overrules a checksum alarm); the
    // checks only say whether something was repaired on the way.
    for (const StrassenCheck& k : r.checks)
        if (k.verdict == "corrected" || k.verdict == "recomputed")
            return Verdict::Corrected;
    return Verdict::Verified;
}

QString verdictHeadline(const StrassenResult& r)
{
    switch (verdictOf(r)) {
    case Verdict::Verified:
        return r.verifiedBy == "reference" ? QStringLiteral("VERIFIED by the FP64 reference — C = A·B")
                                           : QStringLiteral("VERIFIED — C = A·B, no fault found");
    case Verdict::Corrected: {
        // Who caught it: a leaf that detected it (its repair recomputes columns of C before C's
        // checks run), and C's or the operands' checks where they corrected something themselves.
        QStringList where;
        for (const StrassenCheck& k : r.checks) {
            const bool leafRepair = k.detail.rfind("leaf product ", 0) == 0;
            if (k.verdict == "detected" || ((k.verdict == "corrected" || k.verdict == "recomputed") && !leafRepair))
                where << whereWords(k.where);
        }
        where.removeDuplicates();
        return QStringLiteral("CORRECTED — caught by %1").arg(where.join(QStringLiteral(" and ")));
    }
    case Verdict::Uncorrectable:
        if (r.referenceMismatches > 0)
            return QStringLiteral("WRONG — C differs from the FP64 reference");
        for (const StrassenCheck& k : r.checks)
            if (k.verdict == "missed")
                return QStringLiteral("WRONG — injected faults that C's checksums did not see");
        return QStringLiteral("UNCORRECTABLE — C is wrong and could not be repaired");
    case Verdict::NotVerified:
        return QStringLiteral("NOT VERIFIED — %1; C may be wrong").arg(qs(strassenNotVerifiedReason(r)));
    case Verdict::Failed:
        return QStringLiteral("FAILED — %1").arg(qs(r.error));
    case Verdict::Cancelled:
        return QStringLiteral("CANCELLED");
    }
    return {};
}

QString verdictDetails(const StrassenResult& r)
{
    QStringList lines;
    // The place, then the delta in four digits: the full token (c:1:7373.6139382...) would not wrap
    // in the box beside the plots; the record and the run log keep it whole.
    for (std::size_t i = 0; i < r.config.faults.size(); ++i) {
        const StrassenFault& f = r.config.faults[i];
        QString line = QStringLiteral("fault injected at %1").arg(qs(faultPlace(f)));
        if (f.deltaGiven || f.delta != 0)
            line += QStringLiteral(", adding %1").arg(f.delta, 0, 'g', 4);
        for (const InjectEvent& e : r.injections)  // the cell as it was and became (C and leaf products)
            if (e.injection.block.k == int(i))
                line += QStringLiteral(": %1 → %2").arg(e.injection.before, 0, 'g', 4).arg(e.injection.after, 0, 'g', 4);
        lines << line;
    }
    for (const StrassenCheck& k : r.checks) {
        // A repair from a leaf's report (run/verify.cpp repairFromLeaves) is filed under C, but C's
        // checksums did not find it: the leaf did, and its columns of C were computed again.
        const bool leafRepair = k.where == "c" && k.detail.rfind("leaf product ", 0) == 0;
        QString line = QStringLiteral("%1: %2").arg(leafRepair ? QStringLiteral("C's columns named by the leaf") : whereWords(k.where),
                                                    qs(k.verdict));
        // Only what is known: a leaf or a column recompute names a column, an operand row a row.
        if (k.row >= 0 && k.col >= 0)
            line += QStringLiteral(" at row %1, col %2").arg(k.row).arg(k.col);
        else if (k.row >= 0)
            line += QStringLiteral(" at row %1").arg(k.row);
        else if (k.col >= 0)
            line += QStringLiteral(" at col %1").arg(k.col);
        if (!k.detail.empty())
            line += QStringLiteral(" — ") + qs(k.detail);
        lines << line;
    }
    if (lines.isEmpty())
        lines << QStringLiteral("no fault injected; every check clean");
    return lines.join(QLatin1Char('\n'));
}

QString measuredFigures(const StrassenResult& r)
{
    QStringList lines;
    lines << QStringLiteral("recovery of A: %1 element(s) changed, max %2 ulps")
                 .arg(r.recovery.changedA)
                 .arg(r.recovery.maxUlpsA, 0, 'g', 3);
    lines << QStringLiteral("recovery of B: %1 element(s) changed, max %2 ulps")
                 .arg(r.recovery.changedB)
                 .arg(r.recovery.maxUlpsB, 0, 'g', 3);
    if (r.config.exactRestore)
        lines << QStringLiteral("exact restore: A and B copied back from the host (%1 ms)").arg(r.restoreSeconds * 1e3, 0, 'f', 3);
    if (r.relErrorC >= 0)
        lines << QStringLiteral("error of C: %1 of max |C_ref| (FP64 reference: %2 cells beyond its tolerance)")
                     .arg(r.relErrorC, 0, 'e', 2)
                     .arg(r.referenceMismatches);
    if (r.cWorstCleanRatio >= 0)
        lines << QStringLiteral("C's checksums: largest clean residual %1× their round-off threshold")
                     .arg(r.cWorstCleanRatio, 0, 'g', 3);
    lines << QStringLiteral("time: %1 ms (compute ops), %2 products, %3 GEMM calls, %4 in-place sums")
                 .arg(r.seconds * 1e3, 0, 'f', 3)
                 .arg(r.products)
                 .arg(r.gemmCalls)
                 .arg(r.additions);
    if (r.config.checkLeaves)
        lines << QStringLiteral("leaf checks: %1 products checked right after they ran, largest residual %2× its threshold")
                     .arg(r.leavesChecked)
                     .arg(r.leafWorstRatio, 0, 'g', 3);
    lines << QStringLiteral("memory beyond A, B, C: %1 bytes").arg(QLocale::c().toString(qulonglong(r.extraBytes)));
    lines << QStringLiteral("levels run: %1%2; device: %3")
                 .arg(r.levels)
                 .arg(r.levels != r.config.levels ? QStringLiteral(" (of %1 asked)").arg(r.config.levels) : QString())
                 .arg(qs(r.devices.front().name));
    if (!(r.core == r.config.shape))
        lines << QStringLiteral("core %1×%2×%3 by Strassen, the fringe peeled (plain GEMM updates)")
                     .arg(r.core.m)
                     .arg(r.core.n)
                     .arg(r.core.q);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace gigacheck::ui::strassenlab
