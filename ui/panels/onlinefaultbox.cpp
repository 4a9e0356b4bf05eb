#include "onlinefaultbox.hpp"

#include "onlineschemebox.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>

namespace gigacheck::ui {

OnlineFaultBox::OnlineFaultBox(QWidget* parent) : QWidget(parent)
{
    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("onlineTarget"));
    for (const auto& row : enumTable<OnlineTarget>().rows) {
        const auto label = labelOf(row.value);
        target_->addItem(QString::fromUtf8(label.data(), qsizetype(label.size())), int(row.value));
    }
    target_->setToolTip(QStringLiteral("Online / offline / TMR runs: what the placed faults strike (C, its checksum row "
                                       "or column, or the input A / B: a fault in A(r, k) spreads along row r of C)"));
    step_ = new QSpinBox(this);
    step_->setObjectName(QStringLiteral("onlineStep"));
    step_->setRange(-1, 1 << 20);
    step_->setValue(-1);  // the default step (a spin box starts at 0: every fault "after step 0")
    step_->setSpecialValueText(QStringLiteral("middle step"));
    step_->setPrefix(QStringLiteral("after step "));
    step_->setToolTip(QStringLiteral("The step after which the placed faults strike (0-based panel product; TMR: the "
                                     "replica). Default: a middle step, where the next check can still correct them"));
    // Two rows like the panel's other fields: the dock stays as narrow as it was.
    target_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    target_->setMinimumContentsLength(6);
    targetLabel_ = new QLabel(QStringLiteral("Online target"), this);
    targetLabel_->setToolTip(target_->toolTip());
    hide();  // a holder: its fields live in the panel's form (addRowsTo)
    connect(target_, qOverload<int>(&QComboBox::currentIndexChanged), this, &OnlineFaultBox::changed);
    connect(step_, qOverload<int>(&QSpinBox::valueChanged), this, &OnlineFaultBox::changed);
}

void OnlineFaultBox::addRowsTo(QFormLayout* form)
{
    // The step on a row of its own: beside the target it was cut off in a narrow dock, and it is
    // what decides whether a first try can be corrected.
    form->addRow(targetLabel_, target_);
    stepLabel_ = new QLabel(QStringLiteral("Fault step"), this);
    stepLabel_->setToolTip(step_->toolTip());
    form->addRow(stepLabel_, step_);
    form_ = form;
}

void OnlineFaultBox::setScheme(Scheme scheme, int steps)
{
    // Disabled for blocked ABFT, not hidden: the docks share a small screen's height by what their
    // panels need at the first layout, and choosing an online scheme later must not make the
    // Faults dock scroll.
    if (form_)
        for (QWidget* w : std::initializer_list<QWidget*>{targetLabel_, target_, stepLabel_, step_})
            w->setEnabled(scheme != Scheme::Blocked);
    if (scheme == Scheme::Blocked)
        return;  // its value kept for when the scheme comes back
    const QSignalBlocker block(step_);  // the range, not the user, changed: no "changed" for it
    if (scheme == Scheme::Tmr) {  // TMR has no steps: the number is the replica the faults strike
        stepLabel_->setText(QStringLiteral("Replica"));
        step_->setPrefix(QStringLiteral("replica "));
        step_->setMaximum(2);
        step_->setSpecialValueText(QStringLiteral("replica 0"));
        return;
    }
    stepLabel_->setText(QStringLiteral("Fault step"));
    step_->setPrefix(QStringLiteral("after step "));
    step_->setMaximum(std::max(0, steps - 1));
    step_->setSpecialValueText(QStringLiteral("middle step (%1)").arg(defaultFaultStep(steps)));
}

int defaultFaultStep(int steps)
{
    return std::max(0, steps / 2);
}

int onlineStepCount(const OnlineSchemeSettings& scheme, const Shape& shape)
{
    if (scheme.scheme != Scheme::Online && scheme.scheme != Scheme::Offline)
        return 0;
    OnlineConfig c;
    c.shape = shape;
    c.panel = scheme.panel;
    return c.steps();
}

OnlineFaultSettings OnlineFaultBox::settings() const
{
    return {OnlineTarget(target_->currentData().toInt()), step_->value()};
}

void OnlineFaultBox::setSettings(const OnlineFaultSettings& s)
{
    target_->setCurrentIndex(target_->findData(int(s.target)));
    step_->setValue(s.step);
}

OnlineConfig makeOnlineConfig(const RunConfig& base, const OnlineSchemeSettings& scheme, const OnlineFaultSettings& faults)
{
    OnlineConfig c;
    c.shape = base.shape;
    c.precision = base.precision;
    c.distribution = base.distribution;
    c.seed = base.seed;
    c.backend = base.backend;
    c.device = base.device;
    c.scheme = scheme.scheme;
    c.panel = scheme.panel;
    c.checkEvery = scheme.scheme == Scheme::Offline ? 0 : scheme.checkEvery;
    c.checksums = scheme.checksums;
    c.columnBlocks = scheme.columnBlocks;
    c.gemm = base.gemm;
    c.reference = base.reference;
    c.thresholdLambda = base.thresholdLambda;
    c.model = base.faults.model;
    c.bit = base.faults.bit;
    c.bit2 = base.faults.bit2;
    c.randomErrors = base.faults.count;
    const std::int64_t lastInner = std::max<std::int64_t>(0, base.shape.n - 1);
    for (const FaultAt& at : base.faults.at) {
        OnlineFault f;
        f.target = faults.target;
        f.delta = at.delta;
        f.row = at.row;
        f.col = at.col;
        switch (faults.target) {
        case OnlineTarget::Result: break;
        case OnlineTarget::ChecksumRow: f.row = 0; break;
        case OnlineTarget::ChecksumCol: f.col = 0; break;
        case OnlineTarget::A: f.col = std::min(at.col, lastInner); break;
        case OnlineTarget::B: f.row = std::min(at.row, lastInner); break;
        }
        if (at.step)
            f.step = at.step;
        else if (faults.step >= 0)
            f.step = faults.step;
        else if (scheme.scheme != Scheme::Tmr)
            f.step = defaultFaultStep(c.steps());  // not after step 0 nor the last: a middle step
        c.faults.push_back(f);
    }
    return c;
}

OnlinePanels onlinePanelsOf(const OnlineConfig& config, RunConfig base)
{
    OnlinePanels p;
    base.shape = config.shape;
    base.precision = config.precision;
    base.distribution = config.distribution;
    base.seed = config.seed;
    base.backend = config.backend;
    base.device = config.device;
    base.gemm = config.gemm;
    base.reference = config.reference;
    base.thresholdLambda = config.thresholdLambda;
    base.faults.model = config.model;
    base.faults.bit = config.bit;
    base.faults.bit2 = config.bit2;
    base.faults.count = config.randomErrors;
    base.faults.at.clear();
    for (const OnlineFault& f : config.faults)
        base.faults.at.push_back({f.row, f.col, f.delta, f.step});
    p.base = std::move(base);
    p.scheme = {config.scheme, config.panel, std::max(1, config.checkEvery), config.checksums, config.columnBlocks};
    p.faults = {config.faults.empty() ? OnlineTarget::Result : config.faults.front().target, -1};
    return p;
}

}  // namespace gigacheck::ui
