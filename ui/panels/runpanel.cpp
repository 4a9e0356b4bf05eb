#include "runpanel.hpp"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace gigacheck::ui {

RunPanel::RunPanel(QWidget* parent) : QWidget(parent)
{
    start_ = new QPushButton(QStringLiteral("▶ Start run"), this);
    start_->setObjectName(QStringLiteral("startRun"));
    cancel_ = new QPushButton(QStringLiteral("■ Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelRun"));
    cancel_->setEnabled(false);
    compare_ = new QCheckBox(QStringLiteral("compare with previous run (keep its lanes)"), this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));
    eta_ = new QLabel(QStringLiteral("idle"), this);
    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("runLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(log_->font().pointSizeF() * 0.9);
    log_->setFont(mono);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(compare_);
    layout->addWidget(progress_);
    layout->addWidget(eta_);
    layout->addWidget(log_, 1);
    connect(start_, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(cancel_, &QPushButton::clicked, this, &RunPanel::cancelRequested);
}

void RunPanel::setRunning(bool running)
{
    start_->setEnabled(!running);
    cancel_->setEnabled(running);
    if (running) {
        progress_->setValue(0);
        eta_->setText(QStringLiteral("starting…"));
    } else {
        eta_->setText(QStringLiteral("idle"));
    }
    progress_->setFormat(QStringLiteral("%p%"));
}

void RunPanel::setProgress(double fraction, double etaSeconds)
{
    progress_->setValue(int(fraction * 1000));
    if (fraction >= 1.0) {
        eta_->setText(QStringLiteral("done"));
        return;
    }
    eta_->setText(etaSeconds < 0 ? QStringLiteral("running…")
                                 : QStringLiteral("about %1 s left").arg(etaSeconds, 0, 'f', etaSeconds < 10 ? 1 : 0));
}

void RunPanel::log(const QString& line)
{
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz ")) + line);
}

bool RunPanel::compareWithPrevious() const
{
    return compare_->isChecked();
}

void RunPanel::setCompareWithPrevious(bool on)
{
    compare_->setChecked(on);
}

QString RunPanel::logText() const
{
    return log_->toPlainText();
}

}  // namespace gigacheck::ui
