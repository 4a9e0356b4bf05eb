#include "animationmodel.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck::ui {

QString stageName(AnimationStage s)
{
    switch (s) {
    case AnimationStage::Inject: return QStringLiteral("inject");
    case AnimationStage::Detect: return QStringLiteral("detect");
    case AnimationStage::Locate: return QStringLiteral("locate");
    case AnimationStage::Correct: return QStringLiteral("correct");
    case AnimationStage::Uncorrectable: return QStringLiteral("uncorrectable");
    case AnimationStage::CorrectedByRecompute: return QStringLiteral("corrected by recompute");
    }
    return {};
}

namespace {

const QString kInjectFormula = QStringLiteral(
    "A fault changes one element of the augmented result C<sub>cr</sub> = A<sub>c</sub> B<sub>r</sub>:"
    "<br>&nbsp;&nbsp;C*<sub>ij</sub> = C<sub>ij</sub> + e");
const QString kDetectFormula = QStringLiteral(
    "Each row and each column of the returned block is summed again and compared with the checksum the multiplication carried along:<br>"
    "&nbsp;&nbsp;c<sub>control</sub> = [ Σ<sub>i</sub> C*<sub>i,1</sub>, …, Σ<sub>i</sub> C*<sub>i,q+1</sub> ] "
    "against row m+1: [ c<sub>A</sub>B | c<sub>A</sub>r<sub>B</sub> ]<br>"
    "&nbsp;&nbsp;r<sub>control</sub> = [ Σ<sub>j</sub> C*<sub>1,j</sub>, …, Σ<sub>j</sub> C*<sub>m+1,j</sub> ]<sup>T</sup> "
    "against column q+1: [ A r<sub>B</sub> ; c<sub>A</sub>r<sub>B</sub> ]<br>"
    "A check mismatches when |control − stored| exceeds its round-off threshold t.");
// The two reductions one at a time, as the heatmap lights them: the column sums first, then the row sums.
const QString kDetectColumnsFormula = QStringLiteral(
    "First the columns: each column of the returned block is summed again and compared with the checksum row "
    "the multiplication carried along:<br>"
    "&nbsp;&nbsp;c<sub>control</sub> = [ Σ<sub>i</sub> C*<sub>i,1</sub>, …, Σ<sub>i</sub> C*<sub>i,q+1</sub> ] "
    "against row m+1: [ c<sub>A</sub>B | c<sub>A</sub>r<sub>B</sub> ]<br>"
    "A column mismatches when |control − stored| exceeds its round-off threshold t.");
const QString kDetectRowsFormula = QStringLiteral(
    "Then the rows: each row of the block is summed again and compared with the checksum column:<br>"
    "&nbsp;&nbsp;r<sub>control</sub> = [ Σ<sub>j</sub> C*<sub>1,j</sub>, …, Σ<sub>j</sub> C*<sub>m+1,j</sub> ]<sup>T</sup> "
    "against column q+1: [ A r<sub>B</sub> ; c<sub>A</sub>r<sub>B</sub> ]<br>"
    "A row mismatches when |control − stored| exceeds its round-off threshold t.");
const QString kLocateFormula = QStringLiteral(
    "Each mismatch gives one coordinate. One mismatch in one checksum and k in the other: the k "
    "errors lie on one line and sit where it crosses the others. A mismatch in the shared "
    "last item means the checksum itself was hit. More than one mismatch in both: the "
    "placement is ambiguous.");
const QString kCorrectFormula = QStringLiteral(
    "Each error is undone with the checksum of the other direction:<br>"
    "&nbsp;&nbsp;column-collinear: C<sub>i,j</sub> = C*<sub>i,q+1</sub> − r<sub>control,i</sub> + C*<sub>e</sub><br>"
    "&nbsp;&nbsp;row-collinear: C<sub>i,j</sub> = C*<sub>m+1,j</sub> − c<sub>control,j</sub> + C*<sub>e</sub><br>"
    "Corrupted checksums are recomputed afterwards.");
const QString kUncorrectableFormula = QStringLiteral(
    "At least two non-collinear errors: every intersection of a mismatching row and column is a "
    "candidate, and the checksums cannot tell which ones hold the errors. The "
    "block is reported uncorrectable and left unchanged.");

// The mismatching checks with their numbers: |control − stored| against the round-off threshold
// (the rows', the columns' or both).
enum class Lines { Rows, Columns, Both };
QString residualTable(const VerifyResult& res, std::int64_t rowOffset, std::int64_t colOffset, Lines which = Lines::Both)
{
    constexpr std::size_t kShown = 6;
    const double threshold = res.maxThreshold;
    QString text = QStringLiteral("<br><b>This block</b> (thresholds up to %1):").arg(threshold, 0, 'g', 3);
    auto lines = [&](const std::vector<std::int64_t>& idx, const std::vector<double>& residual, std::int64_t offset, const QString& what) {
        for (std::size_t i = 0; i < std::min(idx.size(), kShown); ++i) {
            const double r = i < residual.size() ? residual[i] : 0.0;
            text += QStringLiteral("<br>&nbsp;&nbsp;%1 %2: |control − stored| = <b>%3</b> &gt; %4 (%5× the threshold)")
                        .arg(what).arg(offset + idx[i]).arg(r, 0, 'g', 4).arg(threshold, 0, 'g', 3)
                        .arg(threshold > 0 ? r / threshold : 0.0, 0, 'g', 3);
        }
        if (idx.size() > kShown)
            text += QStringLiteral("<br>&nbsp;&nbsp;… and %1 more %2s").arg(idx.size() - kShown).arg(what);
    };
    if (which != Lines::Columns)
        lines(res.mismatchRows, res.rowResidual, rowOffset, QStringLiteral("row"));
    if (which != Lines::Rows)
        lines(res.mismatchCols, res.colResidual, colOffset, QStringLiteral("column"));
    return text;
}

// The correction with the values plugged in: the corrupted value minus the error the checksum measured.
QString correctionValues(const VerifyResult& res, std::int64_t rowOffset, std::int64_t colOffset)
{
    constexpr std::size_t kShown = 6;
    QString text = QStringLiteral("<br><b>Here:</b>");
    for (std::size_t i = 0; i < std::min(res.corrections.size(), kShown); ++i) {
        const Correction& c = res.corrections[i];
        const CorrectionNumbers shown = correctionNumbers(c.before, c.after);
        text += QStringLiteral("<br>&nbsp;&nbsp;C[%1, %2] = %3 − (%4) = <b>%5</b>")
                    .arg(rowOffset + c.row).arg(colOffset + c.col).arg(shown.before, shown.error, shown.after);
    }
    if (res.corrections.size() > kShown)
        text += QStringLiteral("<br>&nbsp;&nbsp;… and %1 more").arg(res.corrections.size() - kShown);
    return text;
}

}  // namespace

CorrectionNumbers correctionNumbers(double before, double after)
{
    const double largest = std::max({std::abs(before), std::abs(after), std::abs(before - after)});
    if (!std::isfinite(largest) || largest >= 1e12 || (largest > 0 && largest < 1e-6)) {
        // Outside what fixed decimals show well: each in scientific notation, at the same precision.
        return {QString::number(before, 'e', 6), QString::number(before - after, 'e', 6), QString::number(after, 'e', 6)};
    }
    // Six significant digits of the largest of the three; all three at those decimals.
    const int decimals = largest > 0 ? std::clamp(5 - int(std::floor(std::log10(largest))), 0, 11) : 0;
    const double unit = std::pow(10.0, decimals);
    const double shownBefore = std::round(before * unit) / unit + 0.0;  // + 0.0: never "-0.00"
    const double shownAfter = std::round(after * unit) / unit + 0.0;
    return {QString::number(shownBefore, 'f', decimals), QString::number(shownBefore - shownAfter + 0.0, 'f', decimals),
            QString::number(shownAfter, 'f', decimals)};
}

namespace {

QString blockName(const BlockIndex& b)
{
    return QStringLiteral("block (%1, %2, k=%3)").arg(b.i).arg(b.j).arg(b.k);
}

}  // namespace

std::vector<AnimationStep> buildAnimation(const std::vector<InjectEvent>& injections,
                                          const std::vector<VerifyEvent>& verifications,
                                          const std::vector<RepairEvent>& repairs)
{
    // Each injection belongs to the first verification of its C block at or after its k step.
    std::vector<std::vector<const InjectEvent*>> injectedInto(verifications.size());
    for (const InjectEvent& inj : injections) {
        std::size_t best = verifications.size();
        for (std::size_t v = 0; v < verifications.size(); ++v) {
            const BlockIndex& b = verifications[v].block;
            if (b.i != inj.injection.block.i || b.j != inj.injection.block.j || b.k < inj.injection.block.k)
                continue;
            if (best == verifications.size() || verifications[v].time < verifications[best].time)
                best = v;
        }
        if (best < verifications.size())
            injectedInto[best].push_back(&inj);
    }

    std::vector<std::size_t> order(verifications.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return verifications[a].time < verifications[b].time; });

    std::vector<AnimationStep> steps;
    for (std::size_t v : order) {
        const VerifyEvent& ev = verifications[v];
        const VerifyResult& res = ev.result;
        if (res.verdict == Verdict::Clean && injectedInto[v].empty())
            continue;
        AnimationStep base;
        base.verifyIndex = int(v);
        base.block = ev.block;
        base.rowOffset = ev.rowOffset;
        base.colOffset = ev.colOffset;
        base.rows = ev.rows;
        base.cols = ev.cols;
        auto cellAt = [&](std::int64_t localRow, std::int64_t localCol, double before, double after) {
            AnimationCell c;
            c.row = ev.rowOffset + localRow;
            c.col = ev.colOffset + localCol;
            c.before = before;
            c.after = after;
            c.checksum = localRow >= ev.rows || localCol >= ev.cols;
            return c;
        };

        if (!injectedInto[v].empty()) {
            AnimationStep s = base;
            s.stage = AnimationStage::Inject;
            for (const InjectEvent* inj : injectedInto[v])
                s.cells.push_back(cellAt(inj->injection.localRow, inj->injection.localCol, inj->injection.before,
                                         inj->injection.after));
            s.title = QStringLiteral("Inject: %1 fault(s) into %2").arg(s.cells.size()).arg(blockName(ev.block));
            s.explanation = kInjectFormula;
            steps.push_back(std::move(s));
        }

        AnimationStep detect = base;
        detect.stage = AnimationStage::Detect;
        for (std::int64_t r : res.mismatchRows)
            detect.mismatchRows.push_back(ev.rowOffset + r);
        for (std::int64_t c : res.mismatchCols)
            detect.mismatchCols.push_back(ev.colOffset + c);
        detect.rowResidual = res.rowResidual;
        detect.colResidual = res.colResidual;
        if (res.verdict == Verdict::Clean) {
            detect.title = QStringLiteral("Detect: no check of %1 mismatches").arg(blockName(ev.block));
            detect.explanation = kDetectFormula +
                                 QStringLiteral("<br><b>The injected change stayed below the threshold "
                                                "(a round-off-sized flip): nothing to correct.</b>");
            steps.push_back(std::move(detect));
            continue;
        }
        // One reduction at a time: the column sums light the columns, then the row sums the rows.
        AnimationStep columns = detect;
        columns.mismatchRows.clear();
        columns.rowResidual.clear();
        columns.title = QStringLiteral("Detect, column sums: %1 column check(s) mismatch in %2")
                            .arg(res.mismatchCols.size())
                            .arg(blockName(ev.block));
        columns.explanation = kDetectColumnsFormula + residualTable(res, ev.rowOffset, ev.colOffset, Lines::Columns);
        steps.push_back(std::move(columns));
        AnimationStep rows = detect;
        rows.mismatchCols.clear();
        rows.colResidual.clear();
        rows.title = QStringLiteral("Detect, row sums: %1 row check(s) mismatch in %2").arg(res.mismatchRows.size()).arg(blockName(ev.block));
        rows.explanation = kDetectRowsFormula + residualTable(res, ev.rowOffset, ev.colOffset, Lines::Rows);
        steps.push_back(std::move(rows));

        AnimationStep locate = detect;
        locate.stage = AnimationStage::Locate;
        locate.ambiguous = res.mismatchRows.size() > 1 && res.mismatchCols.size() > 1;
        for (std::int64_t r : res.mismatchRows)
            for (std::int64_t c : res.mismatchCols)
                locate.cells.push_back(cellAt(r, c, 0, 0));
        const bool rowCollinear = res.mismatchRows.size() == 1 && res.mismatchCols.size() > 1;
        const bool colCollinear = res.mismatchCols.size() == 1 && res.mismatchRows.size() > 1;
        locate.title = locate.ambiguous
                           ? QStringLiteral("Locate: %1 candidate cells, ambiguous").arg(locate.cells.size())
                           : rowCollinear ? QStringLiteral("Locate: %1 row-collinear errors").arg(locate.cells.size())
                           : colCollinear ? QStringLiteral("Locate: %1 column-collinear errors").arg(locate.cells.size())
                                          : QStringLiteral("Locate: single error at the intersection");
        locate.explanation = kLocateFormula;
        steps.push_back(locate);

        AnimationStep last = locate;
        last.cells.clear();
        if (res.verdict == Verdict::Corrected) {
            last.stage = AnimationStage::Correct;
            for (const Correction& c : res.corrections)
                last.cells.push_back(cellAt(c.row, c.col, c.before, c.after));
            last.title = QStringLiteral("Correct: %1 value(s) restored").arg(last.cells.size());
            last.explanation = kCorrectFormula + correctionValues(res, ev.rowOffset, ev.colOffset);
        } else {
            last.stage = AnimationStage::Uncorrectable;
            last.cells = locate.cells;
            last.title = QStringLiteral("Uncorrectable: %1 candidates, block left unchanged").arg(last.cells.size());
            last.explanation = kUncorrectableFormula;
        }
        steps.push_back(std::move(last));
    }

    for (const RepairEvent& e : repairs) {
        if (e.outcome != RepairOutcome::CorrectedByRecompute)
            continue;
        AnimationStep s;
        s.stage = AnimationStage::CorrectedByRecompute;
        for (std::size_t v = 0; v < verifications.size(); ++v)  // the block's last verification
            if (verifications[v].block.i == e.blockI && verifications[v].block.j == e.blockJ &&
                verifications[v].block.k >= s.block.k) {
                s.verifyIndex = int(v);
                s.block = verifications[v].block;
            }
        s.rowOffset = e.rowOffset;
        s.colOffset = e.colOffset;
        s.rows = e.rows;
        s.cols = e.cols;
        for (std::int64_t r : e.recomputedRows)
            s.mismatchRows.push_back(e.rowOffset + r);
        for (std::int64_t c : e.recomputedCols)
            s.mismatchCols.push_back(e.colOffset + c);
        s.title = e.wholeBlock ? QStringLiteral("Corrected by recompute: %1 recomputed from A and B").arg(blockName(s.block))
                               : QStringLiteral("Corrected by recompute: %1 row(s), %2 column(s) of %3 recomputed")
                                     .arg(e.recomputedRows.size())
                                     .arg(e.recomputedCols.size())
                                     .arg(blockName(s.block));
        s.explanation = QStringLiteral("After the run the host re-checked the block against checksums taken from A "
                                       "and B and recomputed the lines that mismatch: C<sub>i,:</sub> = "
                                       "A<sub>i,:</sub> B, C<sub>:,j</sub> = A B<sub>:,j</sub>; the block then "
                                       "verified clean.");
        steps.push_back(std::move(s));
    }
    return steps;
}

}  // namespace gigacheck::ui
