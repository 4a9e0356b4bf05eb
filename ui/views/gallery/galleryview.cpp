#include "views/gallery/galleryview.hpp"
#include "engine/backgroundjobs.hpp"
#include "views/legendfit.hpp"

#include "views/gallery/accesspatternwidget.hpp"
#include "views/plotstyle.hpp"

#include <gigacheck/backend.hpp>

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QSignalBlocker>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace gigacheck::ui::gallery {

GalleryView::GalleryView(QWidget* parent) : QWidget(parent)
{
    // A sweep that waited in the queue says so when its turn comes.
    connect(BackgroundJobs::instance(), &BackgroundJobs::jobStarted, this, [this](quint64 job) {
        if (job == job_)
            status_->setText(QStringLiteral("sweeping..."));
    });
    familyBox_ = new QComboBox(this);
    familyBox_->setObjectName(QStringLiteral("galleryFamily"));
    familyBox_->addItems({QStringLiteral("Reduced matmul"), QStringLiteral("Transpose")});
    backendBox_ = new QComboBox(this);
    backendBox_->setObjectName(QStringLiteral("galleryBackend"));
    backendBox_->addItem(QStringLiteral("CPU"));
    if (cudaCompiledIn())
        backendBox_->addItem(QStringLiteral("GPU"));
    variantList_ = new QListWidget(this);
    variantList_->setObjectName(QStringLiteral("galleryVariants"));
    variantList_->setMaximumHeight(110);
    fromBox_ = new QSpinBox(this);
    toBox_ = new QSpinBox(this);
    fromBox_->setRange(2, 15);
    toBox_->setRange(2, 15);
    fromBox_->setPrefix(QStringLiteral("2^"));
    toBox_->setPrefix(QStringLiteral("2^"));
    fromBox_->setValue(6);
    toBox_->setValue(9);
    axisBox_ = new QComboBox(this);
    axisBox_->addItems({QStringLiteral("rate"), QStringLiteral("time")});
    status_ = new QLabel(this);
    status_->setWordWrap(true);

    fromBox_->setObjectName(QStringLiteral("galleryFrom"));
    toBox_->setObjectName(QStringLiteral("galleryTo"));

    // The set-up in the panels every family has (the lab moves them into its docks, dockPanels()):
    // what is swept (backend, sizes), which kernels, and why no faults are placed here.
    inputsPanel_ = new QWidget(this);
    inputsPanel_->setObjectName(QStringLiteral("galleryInputsPanel"));
    auto* inputs = new QFormLayout(inputsPanel_);
    inputs->addRow(new QLabel(QStringLiteral("Backend"), this), backendBox_);
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(fromBox_);
    sizes->addWidget(new QLabel(QStringLiteral("to"), this));
    sizes->addWidget(toBox_);
    inputs->addRow(new QLabel(QStringLiteral("N from"), this), sizes);
    algorithmPanel_ = new QWidget(this);
    algorithmPanel_->setObjectName(QStringLiteral("galleryAlgorithmPanel"));
    auto* algorithm = new QFormLayout(algorithmPanel_);
    algorithm->addRow(new QLabel(QStringLiteral("Family"), this), familyBox_);
    algorithm->addRow(new QLabel(QStringLiteral("Kernels"), this), variantList_);
    faultPanel_ = new QWidget(this);
    faultPanel_->setObjectName(QStringLiteral("galleryFaultPanel"));
    auto* noFaults = new QLabel(QStringLiteral("The gallery measures kernels, it places no faults: each point's result is "
                                               "checked (C against an FP64 reference, a transpose element by element) "
                                               "and a wrong one is named in the status line. Faults are placed for ABFT "
                                               "GEMM and Strassen."),
                                faultPanel_);
    noFaults->setWordWrap(true);
    auto* faultLayout = new QVBoxLayout(faultPanel_);
    faultLayout->addWidget(noFaults);

    auto* controls = new QHBoxLayout;
    panelRow_ = new QWidget(this);
    auto* panelRow = new QHBoxLayout(panelRow_);
    panelRow->setContentsMargins(0, 0, 0, 0);
    panelRow->addWidget(inputsPanel_);
    panelRow->addWidget(algorithmPanel_, 1);
    controls->addWidget(panelRow_, 1);
    auto* plotRow = new QHBoxLayout;
    plotRow->addWidget(new QLabel(QStringLiteral("plot"), this));
    plotRow->addWidget(axisBox_);
    controls->addLayout(plotRow);
    controls->addWidget(status_, 1);
    faultPanel_->hide();  // a view on its own has no Faults dock

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("galleryPlot"));
    plot_->setMinimumHeight(220);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
        if (axis == plot_->xAxis)
            ticker->setLogBase(2);  // the seeds' sizes are powers of two
        axis->setTicker(ticker);
    }
    plot_->xAxis->setLabel(QStringLiteral("N"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    // The legend in a row under the axes, as the roofline's: inside it hid the seed's points at the
    // largest N (the A30's at 2^15), where the curves end.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(3);
    keepLegendFitting(plot_);  // as many columns as the plot is wide
    applyPalette(plot_, palette());

    // Beside it, each kernel at its largest swept N: on the roofline (reduced matmul) or as a
    // bandwidth bar against the memory roof (transpose): galleryroofline.hpp.
    roofline_ = new QCustomPlot(this);
    roofline_->setObjectName(QStringLiteral("galleryRoofline"));
    roofline_->setMinimumHeight(220);
    kernelPlot_ = makeKernelPlot(roofline_);
    applyPalette(roofline_, palette());

    patternBox_ = new QComboBox(this);
    patternBox_->setObjectName(QStringLiteral("galleryPattern"));
    for (const PatternInfo& p : patterns())
        patternBox_->addItem(p.name);
    auto* back = new QPushButton(QStringLiteral("◀ Back"), this);
    auto* step = new QPushButton(QStringLiteral("Step ▶"), this);
    playButton_ = new QPushButton(QStringLiteral("Play"), this);
    stepTitle_ = new QLabel(this);
    stepCost_ = new QLabel(this);
    stepTitle_->setWordWrap(true);
    stepCost_->setWordWrap(true);
    // Beside the docks the page is ~700 px wide: the longest pattern's name may be elided.
    patternBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    patternBox_->setMinimumContentsLength(24);
    pattern_ = new AccessPatternWidget(this);
    timer_ = new QTimer(this);
    timer_->setInterval(700);

    auto* animation = new QWidget(this);
    auto* animationLayout = new QVBoxLayout(animation);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(patternBox_, 1);
    buttons->addWidget(back);
    buttons->addWidget(step);
    buttons->addWidget(playButton_);
    animationLayout->addLayout(buttons);
    animationLayout->addWidget(stepTitle_);
    animationLayout->addWidget(stepCost_);
    animationLayout->addWidget(pattern_, 1);
    auto* legend = new QLabel(QStringLiteral("blue: read · orange: the swap partner · green: write · outlined in red: the "
                                             "sectors (4-element lines) this step costs · shaded: earlier steps"),
                              this);
    legend->setWordWrap(true);
    animationLayout->addWidget(legend);

    auto* plots = new QSplitter(Qt::Horizontal, this);
    plots->addWidget(plot_);
    plots->addWidget(roofline_);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 2);
    plots->setSizes({600, 400});  // before the first layout: proportions
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plots);
    split->addWidget(animation);
    // The plots take three fifths of the height, the animation the rest: its grids are squares
    // that grow with the height and left a wide blank band each side on a 1920 x 1080 screen while
    // the plots beside the legend rows got a third of the page (a 1366 x 768 screen gave the plots
    // 160 px when the animation took the spare height first).
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({3000, 2000});
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    const auto familyOrBackendChanged = [this] {
        fillVariants();
        points_.clear();
        replot();
        followFamilyWithPattern();
    };
    connect(familyBox_, &QComboBox::currentIndexChanged, this, familyOrBackendChanged);
    connect(backendBox_, &QComboBox::currentIndexChanged, this, familyOrBackendChanged);
    connect(axisBox_, &QComboBox::currentIndexChanged, this, &GalleryView::replot);
    connect(patternBox_, &QComboBox::currentIndexChanged, this, &GalleryView::setPattern);
    connect(back, &QPushButton::clicked, this, &GalleryView::stepBack);
    connect(step, &QPushButton::clicked, this, &GalleryView::stepForward);
    connect(playButton_, &QPushButton::clicked, this, &GalleryView::togglePlay);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (step_ + 1 >= int(steps_.size()))
            togglePlay();
        else
            stepForward();
    });

    fillVariants();
    followFamilyWithPattern();
    setPattern(patternBox_->currentIndex());
    replot();
}

// Never waits for the sweep: it is told to stop (the engine checks the flag between ops and the
// CPU naive loops between rows) and ends alone when its current point returns; the points it
// would still deliver go to a view that is gone, which the job drops.
GalleryView::~GalleryView()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
}

int GalleryView::heightForWidth(int) const
{
    return minimumSizeHint().height();
}

int GalleryView::sweepsRunning()
{
    return BackgroundJobs::instance()->running(jobName());
}

int GalleryView::maxExponent(Family family, bool gpu)
{
    if (gpu)
        return 15;
    // The CPU points that finish in seconds on a few cores: the reduced matmul's reference GEMMs
    // (OpenBLAS, not cancellable inside a call) reach minutes beyond 2^12, a transpose's calls
    // and its check tens of seconds beyond 2^13. `gigacheck bench` goes further.
    return family == Family::Reduced ? 12 : 13;
}

Family GalleryView::family() const { return familyBox_->currentIndex() == 0 ? Family::Reduced : Family::Transpose; }
bool GalleryView::gpu() const { return backendBox_->currentText() == QLatin1String("GPU"); }

QString GalleryView::plotTitle() const
{
    return QStringLiteral("%1 on the %2: %3 against N")
        .arg(familyBox_->currentText(), backendBox_->currentText(),
             axisBox_->currentIndex() == 0 ? rateUnit(family()) : QStringLiteral("time"));
}

void GalleryView::fillVariants()
{
    variantList_->clear();
    for (const QString& v : variantsOf(family(), gpu())) {
        auto* item = new QListWidgetItem(v, variantList_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    const bool reduced = family() == Family::Reduced;
    fromBox_->setMinimum(reduced ? 2 : 1);
    fromBox_->setMaximum(maxExponent(family(), gpu()));
    toBox_->setMaximum(maxExponent(family(), gpu()));
    toBox_->setToolTip(QStringLiteral("Up to 2^%1 here: larger %2 points take minutes (gigacheck bench goes further)")
                           .arg(maxExponent(family(), gpu()))
                           .arg(gpu() ? QStringLiteral("GPU") : QStringLiteral("CPU")));
}

void GalleryView::startSweep()
{
    if (job_)
        return;
    QStringList variants;
    for (int i = 0; i < variantList_->count(); ++i)
        if (variantList_->item(i)->checkState() == Qt::Checked)
            variants << variantList_->item(i)->text();
    const int from = std::min(fromBox_->value(), toBox_->value()), to = std::max(fromBox_->value(), toBox_->value());
    const Family fam = family();
    const bool onGpu = gpu();
    JobSpec spec;
    spec.name = jobName();
    spec.owner = this;
    spec.onDone = [this] {
        job_ = 0;
        if (status_->text() == QLatin1String("sweeping..."))
            status_->setText(QStringLiteral("%1 points measured").arg(points_.size()));
        emit sweepFinished();
    };
    spec.onUnqueued = [this] {
        job_ = 0;
        status_->setText(QStringLiteral("queued sweep cancelled before it started"));
        emit sweepFinished();
    };
    const quint64 job = BackgroundJobs::instance()->start(spec, [this, variants, from, to, fam, onGpu](const JobContext& job) {
        const int total = (to - from + 1) * int(variants.size());
        int done = 0;
        for (int e = from; e <= to && !job.cancelled(); ++e)
            for (const QString& v : variants) {
                if (job.cancelled())
                    break;
                const SweepPoint p = runPoint(fam, v, std::int64_t(1) << e, onGpu, job.cancelFlag());
                if (job.cancelled())
                    break;  // a stopped point is incomplete: not drawn
                job.setProgress(double(++done) / std::max(total, 1));
                job.post([this, p] { addPoint(p); });  // only while the view exists
            }
    });
    job_ = job;
    points_.clear();
    replot();
    const QString queued = BackgroundJobs::instance()->queuedNote(job);
    status_->setText(queued.isEmpty() ? QStringLiteral("sweeping...") : QStringLiteral("sweep %1").arg(queued));
}

void GalleryView::stopSweep()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
}

GalleryView::Panels GalleryView::dockPanels()
{
    panelRow_->hide();
    return {inputsPanel_, algorithmPanel_, faultPanel_};
}

void GalleryView::openRecord(const RecordEnvelope& record, const QString& path)
{
    if (job_)
        throw InputError("the kernel gallery's sweep goes on or waits in the queue: cancel it (Esc) or let it end, "
                         "then open the record");
    const bool reduced = record.family == reduced_matmul::kFamilyName;
    if (!reduced && record.family != transpose::kFamilyName)
        throw InputError("the kernel gallery opens records of reduced matmul and transpose, not of '" + record.family + "'");
    const SweepPoint p = reduced ? pointOf(static_cast<const reduced_matmul::Record&>(record))
                                 : pointOf(static_cast<const transpose::Record&>(record));
    // Its family and backend (a GPU record where the lab has no GPU: drawn beside the CPU's variants).
    familyBox_->setCurrentIndex(reduced ? 0 : 1);
    const bool onGpu = !record.devices.empty() && record.devices.front().backend == BackendKind::Cuda;
    if (const int index = backendBox_->findText(onGpu ? QStringLiteral("GPU") : QStringLiteral("CPU")); index >= 0)
        backendBox_->setCurrentIndex(index);
    points_.clear();
    addPoint(p);
    status_->setText(QStringLiteral("opened %1: %2 at N = %3 on %4, %5 ms, %6 %7%8")
                         .arg(path, p.variant)
                         .arg(p.n)
                         .arg(QString::fromStdString(record.devices.empty() ? std::string() : record.devices.front().name))
                         .arg(p.ms, 0, 'g', 4)
                         .arg(p.rate, 0, 'g', 4)
                         .arg(rateUnit(family()), p.verified ? QStringLiteral(", verified") : QStringLiteral(", WRONG result")));
}

void GalleryView::addPoint(const SweepPoint& p)
{
    points_.push_back(p);
    if (!p.error.isEmpty())
        status_->setText(QStringLiteral("%1 at N = %2: %3").arg(p.variant).arg(p.n).arg(p.error));
    else if (!p.verified)
        status_->setText(QStringLiteral("%1 at N = %2: WRONG result").arg(p.variant).arg(p.n));
    replot();
}

void GalleryView::replot()
{
    plot_->clearGraphs();
    const bool rate = axisBox_->currentIndex() == 0;
    plot_->yAxis->setLabel(rate ? rateUnit(family()) : QStringLiteral("time (ms)"));
    std::map<QString, QCPGraph*> graphs;
    const QStringList names = variantsOf(family(), gpu());
    auto colourOf = [&](const QString& variant) { return accentColor(int(names.indexOf(variant))); };
    for (const SweepPoint& p : points_) {
        if (!p.error.isEmpty() || p.ms <= 0)
            continue;
        QCPGraph*& g = graphs[p.variant];
        if (!g) {
            g = plot_->addGraph();
            g->setName(p.variant);
            g->setPen(QPen(colourOf(p.variant), 2));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        }
        g->addData(double(p.n), rate ? p.rate : p.ms);
    }
    for (const SeedSeries& s : seedSeries(family(), gpu())) {
        QCPGraph* g = plot_->addGraph();
        g->setName(s.variant + QStringLiteral(" (paper, ") + s.hardware + QStringLiteral(")"));
        QPen pen(colourOf(s.variant), 1.5, Qt::DashLine);
        g->setPen(pen);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, 7));
        for (const SweepPoint& p : s.points)
            g->addData(double(p.n), rate ? p.rate : p.ms);
    }
    // A transpose does no arithmetic: its roof is the memory bandwidth, a level line on the GB/s plot.
    double roof = 0;
    QString source;
    for (const SweepPoint& p : points_)
        if (p.error.isEmpty() && p.memoryRoofGBs > 0)
            roof = p.memoryRoofGBs, source = p.roofSource;
    if (rate && family() == Family::Transpose && roof > 0 && !graphs.empty()) {
        QCPGraph* g = plot_->addGraph();
        g->setName(QStringLiteral("memory roof %1 GB/s (%2)").arg(roof, 0, 'f', 0).arg(source));
        g->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashDotLine));
        double lo = 1e30, hi = 0;
        for (const SweepPoint& p : points_)
            lo = std::min(lo, double(p.n)), hi = std::max(hi, double(p.n));
        g->addData(lo, roof);
        g->addData(hi, roof);
    }
    plot_->rescaleAxes();
    plot_->xAxis->scaleRange(1.3, plot_->xAxis->range().center());
    plot_->yAxis->scaleRange(1.5, plot_->yAxis->range().center());
    plot_->replot(QCustomPlot::rpQueuedReplot);
    replotRoofline();
}

void GalleryView::replotRoofline()
{
    drawKernelPlot(kernelPlot_, family(), points_, variantsOf(family(), gpu()), palette());
}

void GalleryView::followFamilyWithPattern()
{
    const int shown = patternBox_->currentIndex();
    if (shown >= 0 && shown < int(patterns().size()) && patternShows(patterns()[std::size_t(shown)].pattern, family(), gpu()))
        return;  // a pattern the user picked for this family stays
    for (std::size_t i = 0; i < patterns().size(); ++i)
        if (patterns()[i].pattern == firstPatternOf(family(), gpu()))
            patternBox_->setCurrentIndex(int(i));
}

void GalleryView::setPattern(int index)
{
    if (index < 0 || index >= int(patterns().size()))
        return;
    if (patternBox_->currentIndex() != index) {  // called directly: the selector names what is shown
        const QSignalBlocker quiet(patternBox_);
        patternBox_->setCurrentIndex(index);
    }
    steps_ = buildSteps(patterns()[std::size_t(index)].pattern);
    pattern_->setPattern(patterns()[std::size_t(index)], &steps_);
    step_ = 0;
    showStep();
}

void GalleryView::stepForward()
{
    if (step_ + 1 < int(steps_.size()))
        ++step_;
    showStep();
}

void GalleryView::stepBack()
{
    if (step_ > 0)
        --step_;
    showStep();
}

void GalleryView::togglePlay()
{
    if (timer_->isActive()) {
        timer_->stop();
        playButton_->setText(QStringLiteral("Play"));
    } else {
        if (step_ + 1 >= int(steps_.size()))
            step_ = -1;
        timer_->start();
        playButton_->setText(QStringLiteral("Pause"));
        stepForward();
    }
}

void GalleryView::goToStepForScreenshot(int index)
{
    if (timer_->isActive())
        togglePlay();
    step_ = std::clamp(index, 0, std::max(0, int(steps_.size()) - 1));
    showStep();
}

void GalleryView::showStep()
{
    pattern_->setStep(step_);
    if (step_ >= 0 && step_ < int(steps_.size())) {
        const AccessStep& s = steps_[std::size_t(step_)];
        stepTitle_->setText(QStringLiteral("Step %1 / %2: ").arg(step_ + 1).arg(steps_.size()) + s.title);
        stepCost_->setText(s.cost);
    }
}

}  // namespace gigacheck::ui::gallery
