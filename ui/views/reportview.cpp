#include "reportview.hpp"

#include "models/labwords.hpp"
#include "models/runverdict.hpp"

#include "session/labsession.hpp"

#include <gigacheck/blocked_gemm/record.hpp>

namespace gigacheck::ui {

ReportView::ReportView(QWidget* parent) : QPlainTextEdit(parent)
{
    setObjectName(QStringLiteral("report"));
    setReadOnly(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
}

void ReportView::subscribe(LabSession* session)
{
    connect(session, &LabSession::recordChanged, this, [this](const RecordPtr& r) { setRecord(r); });
}

void ReportView::setRecord(RecordPtr record)
{
    record_ = std::move(record);
    stale_ = true;
    if (isVisible())
        refresh();
}

QString ReportView::text()
{
    refresh();
    return toPlainText();
}

void ReportView::showEvent(QShowEvent* event)
{
    refresh();
    QPlainTextEdit::showEvent(event);
}

void ReportView::refresh()
{
    if (!stale_)
        return;
    stale_ = false;
    if (!record_) {
        setPlainText(QString());
        return;
    }
    // The verdict first, in the words of the status bar, the Run log and the timeline.
    // Then the family's own report.
    const QString verdict = QStringLiteral("Verdict: %1\n\n").arg(runVerdictOf(*record_).summary());
    if (const OnlineRecord* online = onlineRecordOf(*record_))
        setPlainText(verdict + QString::fromStdString(formatOnlineReport(*online)));
    else if (const RunRecord* blocked = blockedRecordOf(*record_))
        // Sizes in the units the cap was given in (a cap of 1 MiB reads "1 MiB", not "1.05 MB"), the lab's words.
        setPlainText(verdict + labReportText(*blocked));
    else
        setPlainText(verdict);
}

}  // namespace gigacheck::ui
