#include "confighistory.hpp"

#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

namespace gigacheck::ui {

// One step: the panels before and after. The first redo() is the change itself, already made.
class SetupStep : public QUndoCommand {
public:
    SetupStep(ConfigHistory* history, LabSetup before, LabSetup after, const QString& text)
        : QUndoCommand(text), history_(history), before_(std::move(before)), after_(std::move(after))
    {
    }
    void undo() override { apply(before_); }
    void redo() override
    {
        if (std::exchange(first_, false))
            return;
        apply(after_);
    }

private:
    void apply(const LabSetup& setup)
    {
        history_->restoring_ = true;
        history_->restore_(setup);
        history_->restoring_ = false;
        history_->last_ = setup;
        history_->pending_->stop();  // the restore's own change signals are not a new step
        history_->pendingWhat_.clear();
    }

    ConfigHistory* history_;
    LabSetup before_, after_;
    bool first_ = true;
};

ConfigHistory::ConfigHistory(QObject* parent, std::function<std::optional<LabSetup>()> capture,
                             std::function<void(const LabSetup&)> restore)
    : QObject(parent), capture_(std::move(capture)), restore_(std::move(restore))
{
    stack_ = new QUndoStack(this);
    stack_->setUndoLimit(200);
    pending_ = new QTimer(this);
    pending_->setSingleShot(true);
    pending_->setInterval(0);
    connect(pending_, &QTimer::timeout, this, &ConfigHistory::flush);
}

void ConfigHistory::noteChange(const QString& what)
{
    if (restoring_)
        return;
    if (!what.isEmpty())
        pendingWhat_ = what;  // an explicit name (open a record) wins over the panels' edits
    pending_->start();
}

void ConfigHistory::flush()
{
    pending_->stop();
    const QString what = std::exchange(pendingWhat_, {});
    const std::optional<LabSetup> now = capture_();
    if (!now || *now == last_)
        return;
    pushStep(last_, *now, what);
}

void ConfigHistory::resetBaseline()
{
    pending_->stop();
    pendingWhat_.clear();
    if (const std::optional<LabSetup> now = capture_())
        last_ = *now;
}

void ConfigHistory::pushStep(const LabSetup& before, const LabSetup& after, const QString& what)
{
    QString text = what;
    if (text.isEmpty() && before.strassen != after.strassen) {
        if (after.strassenFaults == 0 && before.strassenFaults > 0)
            text = QStringLiteral("Clear Strassen faults");
        else if (after.strassenFaults != before.strassenFaults)
            text = QStringLiteral("Strassen fault placement (%1 → %2)").arg(before.strassenFaults).arg(after.strassenFaults);
        else
            text = QStringLiteral("Strassen set-up change");
    }
    if (text.isEmpty()) {
        const bool onlyFaults = before.config == after.config && before.scheme == after.scheme;
        if (onlyFaults && after.placedFaults == 0)
            text = QStringLiteral("Clear placed faults");
        else if (onlyFaults && after.placedFaults == before.placedFaults)
            text = QStringLiteral("Move a placed fault");
        else if (onlyFaults)
            text = QStringLiteral("Fault placement (%1 → %2)").arg(before.placedFaults).arg(after.placedFaults);
        else
            text = QStringLiteral("Configuration change");
    }
    auto* step = new SetupStep(this, before, after, text);  // before may be last_ itself: copied first
    last_ = after;
    stack_->push(step);
}

}  // namespace gigacheck::ui
