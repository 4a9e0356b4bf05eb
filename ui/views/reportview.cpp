#include "reportview.hpp"

#include "models/sizetext.hpp"

#include "session/labsession.hpp"

#include <gigacheck/record.hpp>

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
    connect(session, &LabSession::recordChanged, this, [this, session](const RecordPtr& r) {
        online_ = session->online();
        setRecord(r);
    });
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
    if (online_ && record_ && record_->family == OnlineRecord::kFamily)
        setPlainText(QString::fromStdString(formatOnlineReport(online_->record)));
    else
        // Sizes of the cap in the units it was given in (a cap of 1 MiB reads "1 MiB", not "1.05 MB").
        setPlainText(record_ ? withSizesIn(QString::fromStdString(formatReport(*record_)),
                                           {double(record_->plan.capBytes), double(record_->config.memCapBytes)},
                                           looksBinary(record_->plan.capBytes))
                             : QString());
}

}  // namespace gigacheck::ui
