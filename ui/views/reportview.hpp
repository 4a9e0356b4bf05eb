// The Report tab: the text report of the current record (the CLI's `gigacheck show`). Formatted
// when the tab is shown, not when a run ends behind another tab.
#pragma once

#include "engine/metatypes.hpp"

#include <QPlainTextEdit>

namespace gigacheck::ui {

class LabSession;

class ReportView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ReportView(QWidget* parent = nullptr);

    void subscribe(LabSession* session);
    void setRecord(RecordPtr record);
    // The report text, formatted now if it was waiting for the tab to be shown.
    QString text();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();

    RecordPtr record_;
    bool stale_ = false;
};

}  // namespace gigacheck::ui
