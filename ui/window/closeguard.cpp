#include "closeguard.hpp"

#include "filedialogs.hpp"
#include "session/labsession.hpp"

#include "models/familyrecord.hpp"

#include <QMainWindow>
#include <QMessageBox>

namespace gigacheck::ui {

CloseGuard::CloseGuard(QMainWindow* window, LabSession* session, std::function<bool(const QString&)> saveTo)
    : QObject(window), window_(window), session_(session), saveTo_(std::move(saveTo))
{
}

bool CloseGuard::allowClose()
{
    if (closing_ || !session_->isRunning())
        return true;
    if (question_ && question_->isVisible()) {
        question_->raise();
        return false;
    }
    question_ = new QMessageBox(QMessageBox::Question, QStringLiteral("Gigacheck Lab"),
                                QStringLiteral("A run is still going. Close the lab anyway?"),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
    question_->setObjectName(QStringLiteral("closeDuringRun"));
    question_->setInformativeText(QStringLiteral("Save stops the run and saves what it did so far as a run record; "
                                                 "Discard stops it and closes; Cancel keeps the lab open and running."));
    question_->setDefaultButton(QMessageBox::Cancel);
    question_->setAttribute(Qt::WA_DeleteOnClose);
    connect(question_, &QMessageBox::finished, this, &CloseGuard::answer);
    question_->open();
    return false;
}

void CloseGuard::answer(int button)
{
    if (button == QMessageBox::Discard) {
        session_->cancel();
        closeNow();
    } else if (button == QMessageBox::Save) {
        saveThenClose();
    }
}

void CloseGuard::saveThenClose()
{
    auto askWhere = [this] {
        if (!session_->record()) {
            closeNow();
            return;
        }
        // Named from the record there is now: the run may have finished while the question was open.
        const RecordEnvelope& record = *session_->record();
        askPath(window_, QStringLiteral("saveRecordDialog"),
                record.status == "ok" ? QStringLiteral("Save the finished run") : QStringLiteral("Save the stopped run"),
                QStringLiteral("records"), suggestedName(record), QStringLiteral("Run records (*.json)"), true,
                [this](const QString& path) {
                    if (saveTo_(path))
                        closeNow();
                });
    };
    if (!session_->isRunning()) {
        askWhere();
        return;
    }
    // The cancelled run's partial record arrives as the current record; then ask where to put it.
    connect(session_, &LabSession::recordChanged, this, askWhere, Qt::SingleShotConnection);
    connect(session_, &LabSession::runFailed, this, [this] { closeNow(); }, Qt::SingleShotConnection);
    session_->cancel();
}

QString CloseGuard::suggestedName(const RecordEnvelope& record)
{
    return QStringLiteral("%1-%2.json").arg(record.status == "ok" ? QStringLiteral("run") : QStringLiteral("partial-run"),
                                            runFileStem(record));
}

void CloseGuard::closeNow()
{
    closing_ = true;
    window_->close();
}

}  // namespace gigacheck::ui
