#include "repairpass.hpp"

namespace gigacheck::ui {

QString repairOutcomeWord(RepairOutcome outcome)
{
    switch (outcome) {
    case RepairOutcome::Confirmed: return QStringLiteral("confirm");
    case RepairOutcome::CorrectedByRecompute: return QStringLiteral("recompute");
    case RepairOutcome::Uncorrectable: return QStringLiteral("uncorrectable");
    }
    return QStringLiteral("confirm");
}

const RepairEvent* repairOfSpan(const RunRecord& record, const Span& span)
{
    if (span.kind != OpKind::Recompute)
        return nullptr;
    for (const RepairEvent& e : record.repairs)
        if (e.blockI == span.block.i && e.blockJ == span.block.j)
            return &e;
    return nullptr;
}

QString repairPassText(const RunRecord* record, const Span& span)
{
    const RepairEvent* e = record ? repairOfSpan(*record, span) : nullptr;
    if (!e)
        return QStringLiteral("<b>repair pass</b>: block (%1, %2) re-checked on the host against A and B")
            .arg(span.block.i).arg(span.block.j);
    QString what;
    switch (e->outcome) {
    case RepairOutcome::Confirmed:
        what = QStringLiteral("re-checked on the host against A and B: clean, nothing recomputed");
        if (e->cellsRecomputed > 0)
            what += QStringLiteral(" (its %1 cell(s) corrected from checksums computed once more as dot products)")
                        .arg(e->cellsRecomputed);
        break;
    case RepairOutcome::CorrectedByRecompute:
        what = e->wholeBlock ? QStringLiteral("not confirmed: the whole block recomputed from A and B")
                             : QStringLiteral("not confirmed: %1 row(s) and %2 column(s) recomputed from A and B")
                                   .arg(e->recomputedRows.size()).arg(e->recomputedCols.size());
        break;
    case RepairOutcome::Uncorrectable:
        what = QStringLiteral("not confirmed, and recomputing did not make it clean");
        break;
    }
    return QStringLiteral("<b>repair pass: %1</b><br>block (%2, %3) %4")
        .arg(repairOutcomeWord(e->outcome)).arg(e->blockI).arg(e->blockJ).arg(what);
}

}  // namespace gigacheck::ui
