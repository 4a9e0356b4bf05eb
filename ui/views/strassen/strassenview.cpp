#include "views/strassen/strassenview.hpp"

#include "engine/backgroundjobs.hpp"

#include "views/plotstyle.hpp"
#include "views/strassen/strassenblockswidget.hpp"
#include "views/strassen/strassenplots.hpp"
#include "views/strassen/strassenverdict.hpp"

#include <gigacheck/backend.hpp>

#include <utility>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui::strassenlab {

namespace {

// The short name of a product step ("M1", "P5") from its formula.
QString productName(const StepView& s)
{
    const int end = int(s.formula.indexOf(QLatin1Char(' ')));
    return end > 0 ? s.formula.left(end) : QStringLiteral("product %1").arg(s.productIndex + 1);
}

// The step list's form of a formula: its first statement, its first two sides, no spaces
// ("M1 = A2 x B0; C2 += M1; ..." -> "M1=A2·B0", "P5 = S1 x T1 = A2 x B1" -> "P5=S1·T1"), so
// that a projector's large font shows it whole; the step's title and tool tip give all of it.
QString compactFormula(const QString& formula)
{
    QString first = formula.section(QLatin1Char(';'), 0, 0).section(QStringLiteral("  ("), 0, 0);
    const QStringList sides = first.split(QStringLiteral(" = "));
    if (sides.size() > 2)
        first = sides[0] + QStringLiteral(" = ") + sides[1];
    first.replace(QStringLiteral(" x "), QStringLiteral("·"));
    first.remove(QLatin1Char(' '));
    return first;
}

}  // namespace

StrassenView::StrassenView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("strassenView"));
    // A run or sweep that waited in the queue says what it does when its turn comes.
    connect(BackgroundJobs::instance(), &BackgroundJobs::jobStarted, this, [this](quint64 job) {
        if (job != 0 && (job == runJob_ || job == sweepJob_))
            setStatus(std::exchange(whenStarted_, QString()));
    });
    buildControls();
    rebuildSteps();
    replotAll();
}

// Never waits: a run or sweep going on is told to stop and ends alone (its results find no view).
StrassenView::~StrassenView()
{
    for (quint64 job : {runJob_, sweepJob_})
        if (job)
            BackgroundJobs::instance()->cancel(job);
}

QStringList StrassenView::faultSpecs() const
{
    QStringList out;
    // A comma before a digit belongs to a cell (c:3,4); the others separate faults.
    for (const QString& part : faultsEdit_->text().split(QRegularExpression(QStringLiteral("[;\\s]+|,(?!\\d)")), Qt::SkipEmptyParts))
        out << part.trimmed();
    return out;
}

void StrassenView::toggleFault(const QString& spec)
{
    QStringList faults = faultSpecs();
    if (faults.contains(spec)) {
        faults.removeAll(spec);
        setStatus(QStringLiteral("fault %1 removed").arg(spec));
    } else {
        faults << spec;
        setStatus(QStringLiteral("fault placed: --inject-at %1 (the next run injects it)").arg(spec));
    }
    faultsEdit_->setText(faults.join(QStringLiteral(", ")));
}

void StrassenView::onBlockClicked(const BlockCell& cell)
{
    toggleFault(faultForBlock(cell, blocks_->grid()));
    if (blocks_->grid() == 4)
        setStatus(status_->text() + QStringLiteral(" — a block fault lands in the whole quadrant's middle cell (the family's "
                                                   "c:Q / a:Q / b:Q)"));
}

void StrassenView::onStepItemClicked(QTreeWidgetItem* item, int column)
{
    const int index = stepList_->indexOfTopLevelItem(item);
    if (index < 0 || index >= int(steps_.size()))
        return;
    const StepView& s = steps_[std::size_t(index)];
    if (column == kFaultColumn && s.product) {
        // The leaf product the click means: the first leaf of this product's subtree in the
        // schedule the controls describe (fringe products come first, so it is not simply k).
        StrassenConfig c;
        QString error;
        if (!currentConfig(&c, &error)) {
            setStatus(error, true);
            return;
        }
        try {
            c.faults.clear();
            const Schedule schedule = buildStrassenSchedule(c);
            const StepAttribution a = attributeOps(schedule, effectiveLevels(c.shape, c.levels), c.exactRestore, c.variant, node_);
            if (!a.matched || s.productIndex >= int(a.firstLeafOfProduct.size()) ||
                a.firstLeafOfProduct[std::size_t(s.productIndex)] < 0) {
                setStatus(QStringLiteral("cannot place a product fault here: %1").arg(a.why.isEmpty() ? QStringLiteral("no leaf") : a.why), true);
                return;
            }
            toggleFault(faultForProduct(a.firstLeafOfProduct[std::size_t(s.productIndex)]));
        } catch (const std::exception& e) {
            setStatus(QString::fromStdString(e.what()), true);
        }
        return;
    }
    goToStep(index);
}

void StrassenView::setStatus(const QString& text, bool error)
{
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #dc2626; font-weight: bold") : QString());
}

// The run itself is started, cancelled and followed in the Run dock; meanwhile no sweep of this
// view (a sweep asked for while another family's job goes on waits in the queue).
void StrassenView::setRunning(bool on)
{
    sweepButton_->setEnabled(!on && !sweeping());
}

QString StrassenView::statusText() const
{
    return status_->text();
}

void StrassenView::showResult()
{
    if (!result_)
        return;
    setConfig(result_->config);  // the steps follow the run's recipe
    verdict_->setText(verdictHeadline(*result_));
    const Verdict v = verdictOf(*result_);
    const QString colour = v == Verdict::Verified ? QStringLiteral("#16a34a") : v == Verdict::Corrected ? QStringLiteral("#d97706")
                                                                                                       : QStringLiteral("#dc2626");
    verdict_->setStyleSheet(QStringLiteral("color: %1").arg(colour));
    details_->setText(verdictDetails(*result_) + QStringLiteral("\n\n") + measuredFigures(*result_));
    rebuildSteps();
    replotAll();
}

QString StrassenView::verdictText() const
{
    return verdict_->text();
}

void StrassenView::rebuildSteps()
{
    StrassenConfig c;
    const bool haveConfig = currentConfig(&c, nullptr);
    // A global decomposition runs Strassen-Winograd's one level (whatever the variant box says) or
    // the 2D scheme's 8 block products, which has no sums to step through.
    const bool decomposed = haveConfig && (c.devices > 1 || c.distribute);
    twoD_ = decomposed && c.decomposition == StrassenDecomposition::TwoD;
    const StrassenVariant variant = decomposed ? StrassenVariant::Winograd
                                    : haveConfig ? c.variant
                                                 : strassenVariantFromString(variantBox_->currentText().toStdString());
    const bool exact = exactBox_->isChecked();
    const int grid = zoomBox_->isChecked() ? 4 : 2;

    // The zoom's nodes: the top level and each top-level product.
    {
        const QSignalBlocker block(nodeBox_);
        nodeBox_->clear();
        nodeBox_->addItem(QStringLiteral("top level"));
        for (const StepView& s : recipeSteps(variant, exact, 2, -1))
            if (s.product)
                nodeBox_->addItem(QStringLiteral("inside %1 (level 2)").arg(productName(s)));
        if (grid == 2)
            node_ = -1;
        nodeBox_->setCurrentIndex(std::clamp(node_ + 1, 0, nodeBox_->count() - 1));
        nodeBox_->setEnabled(grid == 4);
    }
    steps_ = twoD_ ? std::vector<StepView>{} : recipeSteps(variant, exact, grid, node_);

    // Times from the run shown, when it ran this recipe.
    attribution_ = {};
    stageOfOp_.clear();
    if (result_ && schedule_ && result_->config.variant == variant && result_->config.exactRestore == exact) {
        attribution_ = attributeOps(*schedule_, result_->levels, exact, variant, node_);
        if (attribution_.matched)
            addMeasuredTimes(steps_, attribution_, result_->spans);
        // The lanes' colours: the top-level stage of every op.
        const StepAttribution top = node_ < 0 ? attribution_ : attributeOps(*schedule_, result_->levels, exact, variant, -1);
        const auto& recipeTop = recipeSteps(variant, exact, 2, -1);
        std::vector<int> stageOfRecipeIndex(64, -1);
        for (const StepView& s : recipeTop)
            if (s.recipeIndex < int(stageOfRecipeIndex.size()))
                stageOfRecipeIndex[std::size_t(s.recipeIndex)] = s.stage;
        stageOfOp_.assign(schedule_->ops.size(), -1);
        for (std::size_t i = 0; i < schedule_->ops.size(); ++i) {
            const int step = top.matched ? top.stepOfOp[i] : -1;
            stageOfOp_[i] = step >= 0 && step < int(stageOfRecipeIndex.size()) ? stageOfRecipeIndex[std::size_t(step)] : -1;
        }
    }

    const QSignalBlocker block(stepList_);
    stepList_->clear();
    for (const StepView& s : steps_) {
        auto* item = new QTreeWidgetItem(stepList_);
        item->setText(kStepColumn, QString::number(s.stage));
        item->setText(kFormulaColumn, compactFormula(s.formula));
        item->setToolTip(kFormulaColumn, s.formula + QStringLiteral("\n") + s.stageName + QStringLiteral(": ") + s.words);
        item->setText(kTimeColumn, s.seconds >= 0 ? QString::number(s.seconds * 1e3, 'f', 3) : QStringLiteral("—"));
        item->setTextAlignment(kTimeColumn, Qt::AlignRight | Qt::AlignVCenter);
        if (s.product) {
            item->setText(kFaultColumn, QStringLiteral("⚡"));
            item->setToolTip(kFaultColumn, QStringLiteral("Place a fault in the result of %1 (product:K)").arg(productName(s)));
        }
    }
    // As wide as its columns need, so that the splitter beside the picture cannot squeeze the
    // formulas to "A…" (presentation mode's font at 1366 x 768).
    const QFontMetrics metrics(stepList_->font());
    const int padding = metrics.horizontalAdvance(QLatin1Char('M'));  // the cells' margins
    int listWidth = 2 * stepList_->frameWidth() + stepList_->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < stepList_->columnCount(); ++column) {
        int widest = stepList_->header()->sectionSizeHint(column);
        for (int row = 0; row < stepList_->topLevelItemCount(); ++row)
            widest = std::max(widest, metrics.horizontalAdvance(stepList_->topLevelItem(row)->text(column)) + padding);
        listWidth += widest;
    }
    stepList_->setMinimumWidth(listWidth);
    blocks_->setGrid(grid);
    step_ = std::clamp(step_, 0, std::max(0, int(steps_.size()) - 1));
    showStep();
}

void StrassenView::showStep()
{
    if (steps_.empty()) {
        blocks_->setStep(nullptr);
        stepTitle_->setText(twoD_ ? QStringLiteral("The 2D decomposition has no sums to step through: 8 block products "
                                                   "C_ij += A_ik·B_kj, task t on device t mod G (see the Timeline plot)")
                                  : QStringLiteral("No steps: the level-2 recipe needs the 4×4 zoom"));
        stepWords_->clear();
        return;
    }
    const StepView& s = steps_[std::size_t(step_)];
    blocks_->setStep(&s);
    QString time;
    if (s.seconds >= 0) {
        double total = 0;
        for (const StepView& v : steps_)
            total += std::max(0.0, v.seconds);
        time = QStringLiteral(" — %1 ms in the run (%2 %)").arg(s.seconds * 1e3, 0, 'f', 3).arg(total > 0 ? 100 * s.seconds / total : 0, 0, 'f', 0);
    }
    const QString where = node_ >= 0 ? QStringLiteral("inside %1 · ").arg(nodeBox_->currentText().section(QLatin1Char(' '), 1, 1)) : QString();
    stepTitle_->setText(QStringLiteral("Step %1 / %2 · %3%4:  %5%6")
                            .arg(step_ + 1)
                            .arg(steps_.size())
                            .arg(where, s.stageName, s.formula, time));
    stepWords_->setText(s.words.left(1).toUpper() + s.words.mid(1) + QLatin1Char('.'));
    {
        const QSignalBlocker block(stepList_);
        stepList_->setCurrentItem(stepList_->topLevelItem(step_));
    }
    // Shade the step's ops on the lanes.
    double from = 1e300, to = -1e300;
    if (result_ && attribution_.matched)
        for (const Span& sp : result_->spans)
            if (sp.opId >= 0 && sp.opId < int(attribution_.stepOfOp.size()) && attribution_.stepOfOp[std::size_t(sp.opId)] == s.recipeIndex) {
                from = std::min(from, sp.start);
                to = std::max(to, sp.end);
            }
    markLanesInterval(lanesPlot_, from, to);
}

void StrassenView::goToStep(int index)
{
    if (steps_.empty())
        return;
    step_ = std::clamp(index, 0, int(steps_.size()) - 1);
    showStep();
}

void StrassenView::stepForward()
{
    goToStep(step_ + 1);
}

void StrassenView::stepBack()
{
    goToStep(step_ - 1);
}

int StrassenView::playInterval() const
{
    const double base = 1200.0 * 4.0 / speed_->value();
    if (!pacedBox_->isChecked() || steps_.empty() || steps_[std::size_t(step_)].seconds < 0)
        return int(base);
    double total = 0;
    for (const StepView& v : steps_)
        total += std::max(0.0, v.seconds);
    if (total <= 0)
        return int(base);
    // The whole recipe takes as long as at fixed pace; each step its share of it.
    const double share = steps_[std::size_t(step_)].seconds / total;
    return int(std::clamp(base * double(steps_.size()) * share, 120.0, 6000.0));
}

void StrassenView::togglePlay()
{
    if (timer_->isActive()) {
        timer_->stop();
        playButton_->setText(QStringLiteral("Play"));
        return;
    }
    if (step_ + 1 >= int(steps_.size()))
        goToStep(0);
    playButton_->setText(QStringLiteral("Pause"));
    timer_->start(playInterval());
}

void StrassenView::setZoom(bool fourByFour)
{
    if (zoomBox_->isChecked() != fourByFour) {
        zoomBox_->setChecked(fourByFour);  // toggled() comes back here
        return;
    }
    if (!fourByFour)
        node_ = -1;
    rebuildSteps();
}

void StrassenView::setNode(int node)
{
    node_ = zoomBox_->isChecked() ? node : -1;
    step_ = 0;
    rebuildSteps();
    if (node_ >= 0 && result_ && !attribution_.matched && !attribution_.why.isEmpty())
        setStatus(QStringLiteral("no per-step times inside a product: %1").arg(attribution_.why));
}

void StrassenView::replotAll()
{
    plotStageTimes(stagePlot_, result_ ? stageTimes(result_->spans) : std::vector<StageTime>{});
    std::vector<int> stages = stageOfOp_;
    if (result_ && stages.empty()) {
        // No step attribution (a multi-device run, a record of another build): colour by block.j.
        int maxOp = 0;
        for (const Span& s : result_->spans)
            maxOp = std::max(maxOp, s.opId);
        stages.assign(std::size_t(maxOp) + 1, -1);
        for (const Span& s : result_->spans)
            if (s.opId >= 0 && s.queue == Queue::Compute && s.block.j > 0)
                stages[std::size_t(s.opId)] = s.block.j;
    }
    laneCount_ = int(plotLanes(lanesPlot_, result_ ? result_->spans : std::vector<Span>{}, stages).size());
    fitLanes();
    plotSpeedup(speedupPlot_, sweep_);
    plotErrorVsLevels(errorPlot_, sweep_);
    plotRecoveryVsLevels(recoveryPlot_, sweep_);
    showStep();
}

void StrassenView::fitLanes()
{
    if (plotTabs_->currentWidget() != lanesPlot_ || laneCount_ == 0)
        return;
    const int lineHeight = QFontMetrics(lanesPlot_->yAxis->tickLabelFont()).height();
    // Lanes at a label's height, plus the time axis and the stages' legend (two rows).
    const int wanted = laneCount_ * (lineHeight + 2) + 5 * lineHeight + plotTabs_->tabBar()->height();
    QList<int> sizes = split_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    const int bottom = std::min(wanted, total - split_->widget(0)->minimumSizeHint().height());
    if (sizes.size() == 2 && sizes[1] < bottom) {
        sizes[0] = total - bottom;
        sizes[1] = bottom;
        split_->setSizes(sizes);
    }
}

QCustomPlot* StrassenView::currentPlot() const
{
    return qobject_cast<QCustomPlot*>(plotTabs_->currentWidget());
}

void StrassenView::applyLabelFonts()
{
    // Relative to the view's font, so presentation mode and the text size scale them too.
    QFont title = font();
    title.setBold(true);
    title.setPointSizeF(font().pointSizeF() * 1.15);
    stepTitle_->setFont(title);
    QFont verdict = font();
    verdict.setBold(true);
    verdict.setPointSizeF(font().pointSizeF() * 1.3);
    verdict_->setFont(verdict);
}

void StrassenView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange && stepTitle_)
        applyLabelFonts();
    if (event->type() == QEvent::PaletteChange)
        for (QCustomPlot* p : {stagePlot_, lanesPlot_, speedupPlot_, errorPlot_, recoveryPlot_})
            if (p)
                applyPalette(p, palette());
    // Presentation mode and the text size change the font: pens and markers follow the plot scale.
    if (event->type() == QEvent::FontChange && stagePlot_)
        replotAll();
}

}  // namespace gigacheck::ui::strassenlab
