#include "strategypanel.hpp"

#include "memorybar.hpp"
#include "onlineschemebox.hpp"

#include "models/sizetext.hpp"

#include <QButtonGroup>
#include <QEvent>
#include <QRegularExpression>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QRadioButton>
#include <QTableWidget>
#include <QTimer>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui {

namespace {

constexpr int kAutoId = 100;  // beside the StrategyKind ids of the other buttons
constexpr int kOneRowWidth = 340;  // the Algorithm dock is ~327 px wide on a 1366-pixel screen

QString strategyName(StrategyKind s)
{
    const std::string_view name = toString(s);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

}  // namespace

StrategyPanel::StrategyPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    group_ = new QButtonGroup(this);
    // The choices side by side and only the chosen one explained: the plan and its memory bar stay
    // in view on a 768-pixel screen (each explanation is also the button's tooltip).
    auto* choices = new QHBoxLayout;
    explanation_ = new QLabel(this);
    explanation_->setObjectName(QStringLiteral("strategyExplanation"));
    explanation_->setWordWrap(true);
    for (const auto& row : enumTable<StrategyKind>().rows) {
        const StrategyKind s = row.value;
        const auto name = row.name;
        const auto text = row.description;
        auto* button = new QRadioButton(QString::fromUtf8(name.data(), qsizetype(name.size())), this);
        button->setObjectName(QStringLiteral("strategy_") + QString::fromUtf8(name.data(), qsizetype(name.size())));
        button->setToolTip(QString::fromUtf8(text.data(), qsizetype(text.size())));
        group_->addButton(button, int(s));
        choices->addWidget(button);
    }
    auto* autoButton = new QRadioButton(QStringLiteral("auto"), this);
    autoButton->setObjectName(QStringLiteral("strategy_auto"));
    autoButton->setToolTip(QStringLiteral("The cost-model planner chooses the strategy and the blocking with the smallest "
                                          "predicted time under the cap, and explains why"));
    group_->addButton(autoButton, kAutoId);
    choices->addWidget(autoButton);
    choices->addStretch(1);
    layout->addLayout(choices);
    choices_ = choices;
    autoRow_ = new QHBoxLayout;
    autoRow_->addStretch(1);
    layout->addLayout(autoRow_);
    autoChoiceLabel_ = new QLabel(this);
    autoChoiceLabel_->setObjectName(QStringLiteral("autoChoice"));
    autoChoiceLabel_->setTextFormat(Qt::RichText);
    autoChoiceLabel_->setWordWrap(true);
    autoChoiceLabel_->hide();
    layout->addWidget(autoChoiceLabel_);
    layout->addWidget(explanation_);
    group_->button(int(StrategyKind::S1))->setChecked(true);
    explanation_->setText(group_->button(int(StrategyKind::S1))->toolTip());
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("planSummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    bar_ = new MemoryBar(this);
    buffers_ = new QTableWidget(0, 3, this);
    buffers_->setHorizontalHeaderLabels({QStringLiteral("buffer"), QStringLiteral("elements"), QStringLiteral("bytes")});
    buffers_->horizontalHeader()->setStretchLastSection(true);
    buffers_->verticalHeader()->setVisible(false);
    buffers_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(summary_);
    layout->addWidget(bar_);
    // The scheme; the window shows it at the top of the Run dock, where the log gives
    // way to it (the plan keeps its place in view on a 768-pixel screen).
    scheme_ = new OnlineSchemeBox(this);
    scheme_->hide();
    connect(scheme_, &OnlineSchemeBox::changed, this, &StrategyPanel::changed);
    layout->addWidget(buffers_, 1);
    layout->addStretch(1);
    fitBufferTable();
    connect(group_, &QButtonGroup::idToggled, this, [this](int id, bool on) {
        if (!on)
            return;
        explanation_->setText(group_->button(id)->toolTip());
        autoChoiceLabel_->setVisible(id == kAutoId);
        explanation_->setVisible(id != kAutoId);  // auto's line says what the chosen strategy does
        if (id != kAutoId) {
            autoChoice_.reset();
            for (QAbstractButton* b : group_->buttons()) {
                QFont f = b->font();
                f.setBold(false);
                b->setFont(f);
            }
        }
        emit changed();
    });
}

void StrategyPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        placeAutoButton();
        // The table's own font changes after the panel's: measure the columns once it has.
        QTimer::singleShot(0, buffers_, [this] {
            fitBufferTable();
        });
    }
}

void StrategyPanel::fitBufferTable()
{
    // The first two columns to their contents; the last stretches to the dock's edge (sizing it
    // too would undo the stretch until the table next resizes).
    buffers_->resizeColumnToContents(0);
    buffers_->resizeColumnToContents(1);
    const int frame = 2 * buffers_->frameWidth();
    const int header = buffers_->horizontalHeader()->sizeHint().height();
    const int row = buffers_->verticalHeader()->defaultSectionSize();
    int rows = 0;
    for (int r = 0; r < buffers_->rowCount(); ++r)
        rows += buffers_->rowHeight(r);
    const int full = frame + header + std::max(rows, 2 * row);
    buffers_->setMinimumHeight(std::min(full, frame + header + 6 * row));  // a plan's six buffers, unscrolled
    buffers_->setMaximumHeight(full);
}

// Six buttons side by side in presentation mode would widen the dock past a 1366-pixel screen:
// auto then gets a row of its own (normal sizes keep one row, and the plan in view on 768 pixels).
void StrategyPanel::placeAutoButton()
{
    QAbstractButton* autoButton = group_->button(kAutoId);
    int width = 0;
    for (QAbstractButton* b : group_->buttons())
        width += b->sizeHint().width() + choices_->spacing();
    const bool ownRow = width > kOneRowWidth;
    QBoxLayout* target = ownRow ? autoRow_ : choices_;
    if (target->indexOf(autoButton) >= 0)
        return;
    (ownRow ? choices_ : autoRow_)->removeWidget(autoButton);
    target->insertWidget(ownRow ? 0 : target->count() - 1, autoButton);  // before the stretch
}

StrategyKind StrategyPanel::strategy() const
{
    if (group_->checkedId() == kAutoId)
        return autoChoice_.value_or(StrategyKind::S1);
    return StrategyKind(group_->checkedId());
}

void StrategyPanel::setStrategy(StrategyKind s)
{
    if (auto* b = group_->button(int(s)))
        b->setChecked(true);
}

bool StrategyPanel::isAuto() const
{
    return group_->checkedId() == kAutoId;
}

void StrategyPanel::setAuto(bool on)
{
    if (on)
        group_->button(kAutoId)->setChecked(true);
    else if (isAuto())
        setStrategy(autoChoice_.value_or(StrategyKind::S1));
}

void StrategyPanel::setBinaryUnits(bool binary)
{
    binary_ = binary;
    bar_->setBinaryUnits(binary);
}

void StrategyPanel::setWholeDevice(bool whole)
{
    bar_->setWholeDevice(whole);
}

void StrategyPanel::showAutoPlanning()
{
    autoChoiceLabel_->setText(autoChoice_ ? QStringLiteral("<b>auto → %1</b> <i>(planning again…)</i>").arg(strategyName(*autoChoice_))
                                          : QStringLiteral("<b>auto</b> <i>(the planner is choosing…)</i>"));
}

void StrategyPanel::showAutoPlan(const Plan& plan, double predictedSeconds, bool calibrated)
{
    autoChoice_ = plan.strategy;
    for (QAbstractButton* b : group_->buttons()) {
        QFont f = b->font();
        f.setBold(group_->id(b) == int(plan.strategy));
        b->setFont(f);
    }
    const QString what = QString::fromUtf8(describe(plan.strategy).data(), qsizetype(describe(plan.strategy).size()));
    const QString time = predictedSeconds >= 1 ? QStringLiteral("%1 s").arg(predictedSeconds, 0, 'g', 3)
                                               : QStringLiteral("%1 ms").arg(predictedSeconds * 1e3, 0, 'g', 3);
    autoChoiceLabel_->setText(QStringLiteral("<b>auto → %1</b> (%2): %3")
                                  .arg(strategyName(plan.strategy),
                                       calibrated ? QStringLiteral("predicted ") + time
                                                  : QStringLiteral("uncalibrated guess %1; <i>gigacheck devices --measure</i> "
                                                                   "measures this device's rates")
                                                        .arg(time),
                                       what.toHtmlEscaped()));
    showPlanText(plan, briefPlannerText(QString::fromStdString(plan.explanation)));
    summary_->setToolTip(planSizesIn(QString::fromStdString(plan.explanation), plan));
}

QString StrategyPanel::briefPlannerText(const QString& explanation)
{
    const qsizetype begin = explanation.indexOf(QStringLiteral("Best predicted per strategy:"));
    const qsizetype end = explanation.indexOf(QStringLiteral(". C is cut into"));  // the plan's own sentence follows
    if (begin < 0 || end < begin)
        return explanation;
    QString brief = explanation.mid(begin, end - begin + 1);
    // "Not possible: none: <why>. s1: <why>." -> "Not possible: none, s1 (the cap is too small for them)."
    const qsizetype notPossible = brief.indexOf(QStringLiteral(" Not possible: "));
    const qsizetype chosen = brief.indexOf(QStringLiteral(" Chosen: "));
    if (notPossible >= 0 && chosen > notPossible) {
        const QString refusals = brief.mid(notPossible + 15, chosen - notPossible - 15);
        static const QRegularExpression names(QStringLiteral("(?:^|\\. )(none|s[1-4]): "));
        QStringList which;
        for (auto it = names.globalMatch(refusals); it.hasNext();)
            which << it.next().captured(1);
        brief.replace(notPossible, chosen - notPossible,
                      QStringLiteral(" Not possible under this cap: %1 (tooltip: why).").arg(which.join(QStringLiteral(", "))));
    }
    // The panel already says what the chosen strategy does, and each strategy's fewest-products
    // blocking is in the tooltip: the panel keeps the prediction per strategy and the reason.
    static const QRegularExpression fewest(QStringLiteral("\\s*\\(fewest products [^)]*\\)"));
    brief.remove(fewest);
    for (const auto& row : enumTable<StrategyKind>().rows) {
        const QString chosen = QStringLiteral("Chosen: strategy ") + strategyName(row.value);
        brief.replace(chosen + QStringLiteral(" (") +
                          QString::fromUtf8(row.description.data(), qsizetype(row.description.size())) + QLatin1Char(')'),
                      chosen);
    }
    return brief;
}

void StrategyPanel::showAutoError(const QString& message)
{
    autoChoice_.reset();
    for (QAbstractButton* b : group_->buttons()) {
        QFont f = b->font();
        f.setBold(false);
        b->setFont(f);
    }
    autoChoiceLabel_->setText(QStringLiteral("<b>auto</b>: no choice"));
    showPlanError(message);
    summary_->setToolTip(message);
}

void StrategyPanel::showPlan(const Plan& plan)
{
    // The panel already says what the strategy does and the Plan line gives the blocking: the
    // explanation keeps the cap and how the buffers use it (two docks must fit a 768-pixel side);
    // the whole of it is the tooltip.
    const QString full = QString::fromStdString(plan.explanation);
    QString brief = full;
    for (const auto& row : enumTable<StrategyKind>().rows)
        brief.replace(QStringLiteral(" (") + QString::fromUtf8(row.description.data(), qsizetype(row.description.size())) +
                          QLatin1Char(')'),
                      QString());
    static const QRegularExpression blocking(QStringLiteral("C is cut into [^.]*block product\\(s\\)\\.\\s*"));
    brief.remove(blocking);
    summary_->setToolTip(brief == full ? QString()
                                       : planSizesIn(full, plan));
    showPlanText(plan, brief);
}

QString StrategyPanel::planSizesIn(QString text, const Plan& plan) const
{
    text = withSizesIn(text, {double(plan.capBytes), double(plan.bytesNeeded)}, binary_);
    for (const BufferSpec& b : plan.buffers)  // the workspaces' size in the plan's sentence
        text = withSizesIn(text, {double(b.bytes)}, binary_);
    return text;
}

void StrategyPanel::showPlanText(const Plan& plan, const QString& explanation)
{
    // A plan can hold more products than a run can schedule (buildSchedule refuses them): say so
    // before the run, not after it.
    const QLocale english(QLocale::English);
    const QString tooMany = plan.productCount() > kMaxScheduleProducts
                                ? QStringLiteral("<br><span style='color:#d32f2f'><b>A run would refuse this plan:</b> %1 block "
                                                 "products, more than the %2 a run can schedule; raise the memory cap so "
                                                 "that blocks are larger.</span>")
                                      .arg(english.toString(qint64(plan.productCount())), english.toString(qint64(kMaxScheduleProducts)))
                                : QString();
    summary_->setText(QStringLiteral("<b>Plan</b>: C in %1 × %2 blocks of ≤ %3 × %4, n in %5 steps of ≤ %6 → "
                                     "%7 block products.")
                          .arg(plan.splitM)
                          .arg(plan.splitQ)
                          .arg(plan.blockM)
                          .arg(plan.blockQ)
                          .arg(plan.splitN)
                          .arg(plan.blockN)
                          .arg(plan.productCount()) +
                      tooMany + QStringLiteral("<br>") + planSizesIn(explanation, plan).toHtmlEscaped());
    bar_->setPlan(&plan);
    buffers_->setRowCount(int(plan.buffers.size()));
    for (int i = 0; i < int(plan.buffers.size()); ++i) {
        const BufferSpec& b = plan.buffers[std::size_t(i)];
        buffers_->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(b.name)));
        buffers_->setItem(i, 1, new QTableWidgetItem(b.role == BufferRole::Workspace ? QStringLiteral("GEMM workspace")
                                                                                    : QStringLiteral("%1 × %2").arg(b.rows).arg(b.cols)));
        buffers_->setItem(i, 2, new QTableWidgetItem(sizeText(double(b.bytes), binary_)));
    }
    fitBufferTable();  // "385 × 256" whole, not "385 × …"
}

void StrategyPanel::showScheme(const OnlineSchemeSettings& scheme, const Shape& shape)
{
    for (QAbstractButton* b : group_->buttons())
        b->setEnabled(false);
    // Blocked ABFT's strategy text, memory bar and buffer table say nothing about this scheme.
    explanation_->hide();
    bar_->hide();
    buffers_->hide();
    const std::int64_t b = scheme.panel > 0 ? std::min(scheme.panel, shape.n) : std::min<std::int64_t>(shape.n, 1024);
    const std::int64_t steps = b > 0 ? (shape.n + b - 1) / b : 0;
    QString what;
    switch (scheme.scheme) {
    case Scheme::Online:
        what = QStringLiteral("checked every %1 step(s) and after the last").arg(scheme.checkEvery);
        break;
    case Scheme::Offline:
        what = QStringLiteral("checked once, after the last (offline ABFT)");
        break;
    case Scheme::Tmr:
        what = QStringLiteral("computed three times and voted element by element (TMR), no checksums");
        break;
    case Scheme::Blocked:
        break;
    }
    summary_->setToolTip(QString());
    summary_->setText(QStringLiteral("<b>%1</b> (online ABFT family) runs in core: the strategies and the memory cap above are "
                                     "blocked ABFT's. C is built by %2 panel product(s) of width b = %3, %4%5.")
                          .arg(scheme.scheme == Scheme::Tmr       ? QStringLiteral("TMR")
                               : scheme.scheme == Scheme::Offline ? QStringLiteral("Offline ABFT")
                                                                  : QStringLiteral("Online ABFT"))
                          .arg(steps)
                          .arg(b)
                          .arg(what)
                          .arg(scheme.scheme == Scheme::Tmr ? QString()
                                                            : QStringLiteral(", with %1 checksum vector(s) per axis").arg(scheme.checksums)) +
                      // README "Merged steps": no check sees C in between, so the GPU multiplies them at once.
                      (scheme.scheme != Scheme::Tmr && scheme.checksums == 1 &&
                               (scheme.scheme == Scheme::Offline || scheme.checkEvery > 1)
                           ? QStringLiteral(" On the GPU the steps between two checks run as one GEMM (gigacheck run "
                                            "--merge-steps); the step view replays every step.")
                           : QString()));
    bar_->setPlan(nullptr);
    buffers_->setRowCount(0);
}

void StrategyPanel::enableStrategies()
{
    for (QAbstractButton* b : group_->buttons())
        b->setEnabled(true);
    explanation_->setVisible(!isAuto());  // auto's own line says what its choice does
    bar_->show();
    buffers_->show();
}

void StrategyPanel::showPlanError(const QString& message)
{
    summary_->setToolTip(QString());
    summary_->setText(QStringLiteral("<span style='color:#d32f2f'><b>No plan:</b> %1</span>").arg(message.toHtmlEscaped()));
    bar_->setPlan(nullptr);
    buffers_->setRowCount(0);
}

}  // namespace gigacheck::ui
