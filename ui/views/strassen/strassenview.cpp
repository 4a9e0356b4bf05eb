#include "views/strassen/strassenview.hpp"

#include "views/plotstyle.hpp"
#include "views/strassen/strassenblockswidget.hpp"
#include "views/strassen/strassenplots.hpp"
#include "views/strassen/strassenverdict.hpp"

#include <gigacheck/backend.hpp>

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
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui::strassenlab {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// "MxNxQ" or "N" (square).
bool parseShapeText(const QString& text, Shape* shape)
{
    const QStringList parts = text.trimmed().split(QRegularExpression(QStringLiteral("\\s*[x×,]\\s*")), Qt::SkipEmptyParts);
    if (parts.size() != 1 && parts.size() != 3)
        return false;
    std::int64_t v[3];
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        v[i] = parts[parts.size() == 1 ? 0 : i].toLongLong(&ok);
        if (!ok || v[i] <= 0)
            return false;
    }
    *shape = {v[0], v[1], v[2]};
    return true;
}

QCustomPlot* makePlot(QWidget* parent, const QString& name)
{
    auto* plot = new QCustomPlot(parent);
    plot->setObjectName(name);
    plot->setMinimumHeight(160);
    plot->legend->setVisible(false);
    plot->legend->setFont(plotFont(parent->font(), 8));
    applyPalette(plot, parent->palette());
    return plot;
}

// The short name of a product step ("M1", "P5") from its formula.
QString productName(const StepView& s)
{
    const int end = int(s.formula.indexOf(QLatin1Char(' ')));
    return end > 0 ? s.formula.left(end) : QStringLiteral("product %1").arg(s.productIndex + 1);
}

}  // namespace

StrassenView::StrassenView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("strassenView"));
    buildControls();
    rebuildSteps();
    replotAll();
}

StrassenView::~StrassenView()
{
    for (auto [thread, cancel] : {std::pair{runThread_, runCancel_}, std::pair{sweepThread_, sweepCancel_}})
        if (thread) {
            cancel->store(true);
            thread->wait();
        }
}

void StrassenView::buildControls()
{
    shapeEdit_ = new QLineEdit(QStringLiteral("512x512x512"), this);
    shapeEdit_->setObjectName(QStringLiteral("strassenShape"));
    shapeEdit_->setToolTip(QStringLiteral("M×N×Q, or N for a square product; any size (the fringe is peeled)"));
    levelsBox_ = new QSpinBox(this);
    levelsBox_->setObjectName(QStringLiteral("strassenLevels"));
    levelsBox_->setRange(0, kMaxStrassenLevels);
    levelsBox_->setValue(2);
    variantBox_ = new QComboBox(this);
    variantBox_->setObjectName(QStringLiteral("strassenVariant"));
    for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace, StrassenVariant::Accumulate})
        variantBox_->addItem(qs(toString(v)));
    typeBox_ = new QComboBox(this);
    typeBox_->setObjectName(QStringLiteral("strassenType"));
    typeBox_->addItems({QStringLiteral("f32"), QStringLiteral("f64"), QStringLiteral("tf32")});
    backendBox_ = new QComboBox(this);
    backendBox_->setObjectName(QStringLiteral("strassenBackend"));
    backendBox_->addItem(QStringLiteral("CPU"));
    if (cudaCompiledIn())
        backendBox_->addItem(QStringLiteral("CUDA"));
    devicesBox_ = new QSpinBox(this);
    devicesBox_->setObjectName(QStringLiteral("strassenDevices"));
    devicesBox_->setRange(1, 8);
    devicesBox_->setToolTip(QStringLiteral("G devices: the CPU emulates them (threads); CUDA lists the GPU once per device "
                                           "when the machine has fewer"));
    decompositionBox_ = new QComboBox(this);
    decompositionBox_->setObjectName(QStringLiteral("strassenDecomposition"));
    decompositionBox_->addItems({QStringLiteral("none"), QStringLiteral("winograd"), QStringLiteral("2d")});
    decompositionBox_->setToolTip(QStringLiteral("The global decomposition over the devices (the thesis's chapter 4): none (one "
                                                 "device, MSMES recursion), Strassen-Winograd's 7 tasks or 2D's 8"));
    exactBox_ = new QCheckBox(QStringLiteral("exact restore"), this);
    exactBox_->setObjectName(QStringLiteral("strassenExact"));
    exactBox_->setToolTip(QStringLiteral("Copy A and B back from the host instead of recovering them in floating point"));
    besideBox_ = new QCheckBox(QStringLiteral("sums beside"), this);
    besideBox_->setObjectName(QStringLiteral("strassenSumsBeside"));
    besideBox_->setChecked(true);
    besideBox_->setToolTip(QStringLiteral("CUDA: the block sums that do not need the product just issued run on side streams "
                                          "beside it (the memory-bound sums hide behind the compute-bound GEMMs); "
                                          "off: every op in issue order on one stream (--sums inline)"));
    leavesBox_ = new QCheckBox(QStringLiteral("check leaves"), this);
    leavesBox_->setObjectName(QStringLiteral("strassenCheckLeaves"));
    leavesBox_->setToolTip(QStringLiteral("ABFT on every leaf product: its column checksums checked on its C blocks right "
                                          "after it ran, so a fault in a product is caught where it happened "
                                          "(--check-leaves; one device)"));
    leafBox_ = new QComboBox(this);
    leafBox_->setObjectName(QStringLiteral("strassenLeaf"));
    leafBox_->addItems({QStringLiteral("cuBLAS leaves"), QStringLiteral("kernel leaves")});
    leafBox_->setToolTip(QStringLiteral("CUDA leaves of msmes and winograd: cuBLAS (one GEMM per target) or the thesis's "
                                        "multi-target kernel (each product once, added into every target; --leaf kernel). "
                                        "The CPU has OpenBLAS leaves only"));
    distBox_ = new QComboBox(this);
    distBox_->setObjectName(QStringLiteral("strassenDist"));
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
        distBox_->addItem(qs(toString(d)));
    distBox_->setToolTip(QStringLiteral("The inputs' distribution (--dist), of the run and of the sweep's error and recovery "
                                        "runs: uniform U(-1, 1), normal N(0, 1), wide (magnitudes over six decades)"));
    faultsEdit_ = new QLineEdit(this);
    faultsEdit_->setObjectName(QStringLiteral("strassenFaults"));
    faultsEdit_->setPlaceholderText(QStringLiteral("click a block or ⚡ a product"));
    faultsEdit_->setToolTip(QStringLiteral("--inject-at: product:K, c:Q, a:Q, b:Q (optionally :DELTA), comma separated"));
    auto* clearFaults = new QPushButton(QStringLiteral("Clear"), this);
    runButton_ = new QPushButton(QStringLiteral("Run"), this);
    runButton_->setObjectName(QStringLiteral("strassenRun"));
    runButton_->setDefault(true);
    sweepButton_ = new QPushButton(QStringLiteral("Sweep"), this);
    sweepButton_->setObjectName(QStringLiteral("strassenSweep"));
    sweepButton_->setToolTip(QStringLiteral("Speedup vs N (N = 128 … the largest) of every variant against the plain GEMM, and the "
                                            "recovery error of A and B and the error of C "
                                            "vs levels, on the chosen backend and type"));
    sweepToBox_ = new QSpinBox(this);
    sweepToBox_->setObjectName(QStringLiteral("strassenSweepTo"));
    sweepToBox_->setRange(8, 15);
    sweepToBox_->setPrefix(QStringLiteral("N ≤ 2^"));
    sweepToBox_->setValue(10);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("strassenStatus"));
    status_->setWordWrap(true);

    // Controls on two rows that wrap into the width of a laptop's central area.
    auto* controls = new QGridLayout;
    auto label = [this](const QString& t) { return new QLabel(t, this); };
    controls->addWidget(label(QStringLiteral("shape")), 0, 0);
    controls->addWidget(shapeEdit_, 0, 1);
    controls->addWidget(label(QStringLiteral("levels")), 0, 2);
    controls->addWidget(levelsBox_, 0, 3);
    controls->addWidget(variantBox_, 0, 4);
    controls->addWidget(typeBox_, 0, 5);
    controls->addWidget(backendBox_, 0, 6);
    controls->addWidget(runButton_, 0, 7);
    controls->addWidget(label(QStringLiteral("devices")), 1, 0);
    controls->addWidget(devicesBox_, 1, 1);
    controls->addWidget(decompositionBox_, 1, 2, 1, 2);
    controls->addWidget(exactBox_, 1, 4);
    controls->addWidget(sweepToBox_, 1, 5);
    controls->addWidget(sweepButton_, 1, 6);
    controls->addWidget(besideBox_, 1, 7);
    auto* faultRow = new QHBoxLayout;
    faultRow->addWidget(label(QStringLiteral("faults")));
    faultRow->addWidget(faultsEdit_, 1);
    faultRow->addWidget(clearFaults);
    faultRow->addWidget(leavesBox_);
    faultRow->addWidget(leafBox_);
    faultRow->addWidget(label(QStringLiteral("inputs")));
    faultRow->addWidget(distBox_);
    controls->addLayout(faultRow, 2, 0, 1, 9);
    // Spare width goes to an empty column, not to the shape field.
    controls->setColumnStretch(8, 1);

    // The stepper: A, B, C lit by the current step, its formula and words, the step list.
    blocks_ = new StrassenBlocksWidget(this);
    stepTitle_ = new QLabel(this);
    stepTitle_->setObjectName(QStringLiteral("strassenStepTitle"));
    stepTitle_->setWordWrap(true);
    stepWords_ = new QLabel(this);
    stepWords_->setWordWrap(true);
    auto* back = new QPushButton(QStringLiteral("◀"), this);
    back->setToolTip(QStringLiteral("Previous step"));
    auto* forward = new QPushButton(QStringLiteral("▶ Step"), this);
    playButton_ = new QPushButton(QStringLiteral("Play"), this);
    playButton_->setObjectName(QStringLiteral("strassenPlay"));
    speed_ = new QSlider(Qt::Horizontal, this);
    speed_->setRange(1, 16);
    speed_->setValue(4);
    speed_->setToolTip(QStringLiteral("Speed: ¼× … 4×"));
    speed_->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 8);
    pacedBox_ = new QCheckBox(QStringLiteral("paced by the run"), this);
    pacedBox_->setToolTip(QStringLiteral("Each step shown for a time proportional to what it took in the run"));
    zoomBox_ = new QCheckBox(QStringLiteral("4×4"), this);
    zoomBox_->setObjectName(QStringLiteral("strassenZoom"));
    zoomBox_->setToolTip(QStringLiteral("Zoom: the level-2 sub-blocks (A21 = block 1 of A2)"));
    nodeBox_ = new QComboBox(this);
    nodeBox_->setObjectName(QStringLiteral("strassenNode"));
    nodeBox_->setToolTip(QStringLiteral("Zoomed: the top level, or the level-2 recipe inside one top-level product"));
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);

    auto* stepper = new QHBoxLayout;
    stepper->addWidget(back);
    stepper->addWidget(forward);
    stepper->addWidget(playButton_);
    stepper->addWidget(speed_);
    stepper->addWidget(pacedBox_);
    stepper->addStretch(1);

    auto* legend = new QLabel(this);
    legend->setWordWrap(true);
    auto swatch = [](const QColor& c) {
        return QStringLiteral("<span style='background:%1; color:%1'>&nbsp;■■&nbsp;</span>").arg(c.name());
    };
    legend->setText(QStringLiteral("%1 read &nbsp; %2 overwritten in place &nbsp; %3 C += product &nbsp; %4 C −= product "
                                   "&nbsp; <span style='color:#dc2626'>⚡ fault</span> &nbsp; (click a block: fault in its quadrant)")
                        .arg(swatch(StrassenBlocksWidget::readColor()), swatch(StrassenBlocksWidget::overwriteColor()),
                             swatch(StrassenBlocksWidget::plusColor()), swatch(StrassenBlocksWidget::minusColor())));

    auto* picture = new QWidget(this);
    auto* pictureLayout = new QVBoxLayout(picture);
    pictureLayout->setContentsMargins(0, 0, 0, 0);
    pictureLayout->addLayout(stepper);
    pictureLayout->addWidget(stepTitle_);
    pictureLayout->addWidget(stepWords_);
    pictureLayout->addWidget(blocks_, 1);
    pictureLayout->addWidget(legend);

    stepList_ = new QTreeWidget(this);
    stepList_->setObjectName(QStringLiteral("strassenSteps"));
    stepList_->setHeaderLabels({QStringLiteral("st."), QStringLiteral("formula (thesis)"), QStringLiteral("ms"), QStringLiteral("⚡")});
    stepList_->headerItem()->setToolTip(kStepColumn, QStringLiteral("the thesis's stage"));
    stepList_->headerItem()->setToolTip(kFaultColumn, QStringLiteral("click ⚡ on a product to place a fault in its result"));
    stepList_->setRootIsDecorated(false);
    stepList_->setUniformRowHeights(true);
    stepList_->setWordWrap(false);
    stepList_->header()->setStretchLastSection(false);
    stepList_->header()->setSectionResizeMode(kFormulaColumn, QHeaderView::Stretch);
    stepList_->header()->setSectionResizeMode(kStepColumn, QHeaderView::ResizeToContents);
    stepList_->header()->setSectionResizeMode(kTimeColumn, QHeaderView::ResizeToContents);
    stepList_->header()->setSectionResizeMode(kFaultColumn, QHeaderView::ResizeToContents);

    // The zoom picks which level's steps the list holds, so it sits above the list.
    auto* listBox = new QWidget(this);
    auto* listLayout = new QVBoxLayout(listBox);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto* zoomRow = new QHBoxLayout;
    zoomRow->addWidget(zoomBox_);
    zoomRow->addWidget(nodeBox_, 1);
    listLayout->addLayout(zoomRow);
    listLayout->addWidget(stepList_, 1);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(picture);
    top->addWidget(listBox);
    top->setStretchFactor(0, 5);
    top->setStretchFactor(1, 4);
    top->setChildrenCollapsible(false);

    // Results: verdict and figures beside the plots.
    verdict_ = new QLabel(QStringLiteral("No run yet"), this);
    verdict_->setObjectName(QStringLiteral("strassenVerdict"));
    verdict_->setWordWrap(true);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("strassenDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* verdictBox = new QWidget(this);
    auto* verdictLayout = new QVBoxLayout(verdictBox);
    verdictLayout->setContentsMargins(0, 0, 0, 0);
    verdictLayout->addWidget(verdict_);
    // The checks and figures scroll rather than being cut at 1366×768 or in presentation mode.
    auto* detailsScroll = new QScrollArea(this);
    detailsScroll->setWidget(details_);
    detailsScroll->setWidgetResizable(true);
    detailsScroll->setFrameShape(QFrame::NoFrame);
    verdictLayout->addWidget(detailsScroll, 1);

    plotTabs_ = new QTabWidget(this);
    plotTabs_->setObjectName(QStringLiteral("strassenPlots"));
    stagePlot_ = makePlot(this, QStringLiteral("strassenStagePlot"));
    lanesPlot_ = makePlot(this, QStringLiteral("strassenLanesPlot"));
    speedupPlot_ = makePlot(this, QStringLiteral("strassenSpeedupPlot"));
    errorPlot_ = makePlot(this, QStringLiteral("strassenErrorPlot"));
    recoveryPlot_ = makePlot(this, QStringLiteral("strassenRecoveryPlot"));
    // The lanes' legend (one entry per stage) below the plot, wrapped, never over the lanes.
    lanesPlot_->axisRect()->insetLayout()->take(lanesPlot_->legend);
    lanesPlot_->plotLayout()->addElement(1, 0, lanesPlot_->legend);
    lanesPlot_->plotLayout()->setRowStretchFactor(1, 0.001);
    lanesPlot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    lanesPlot_->legend->setWrap(8);
    lanesPlot_->legend->setBorderPen(Qt::NoPen);
    lanesPlot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    lanesPlot_->axisRect()->setRangeDrag(Qt::Horizontal);
    lanesPlot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plotTabs_->addTab(stagePlot_, QStringLiteral("Time per stage"));
    plotTabs_->addTab(lanesPlot_, QStringLiteral("Timeline"));
    plotTabs_->addTab(speedupPlot_, QStringLiteral("Speedup vs N"));
    plotTabs_->addTab(errorPlot_, QStringLiteral("Error vs levels"));
    plotTabs_->addTab(recoveryPlot_, QStringLiteral("Recovery vs levels"));
    connect(plotTabs_, &QTabWidget::currentChanged, this, [this] { fitLanes(); });

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(plotTabs_);
    bottom->addWidget(verdictBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setChildrenCollapsible(false);

    auto* split = new QSplitter(Qt::Vertical, this);
    split_ = split;
    split->setObjectName(QStringLiteral("strassenSplit"));
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    // Everything in a scroll area: the tab widget's minimum is the largest page's, so a wide page
    // would widen the whole lab (1366×768 in presentation mode, docks shown on the other tabs).
    // On this tab the docks are hidden and the content fits without scrolling.
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("strassenScroll"));
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    applyLabelFonts();

    connect(runButton_, &QPushButton::clicked, this, [this] { running() ? cancelRun() : startRun(); });
    connect(sweepButton_, &QPushButton::clicked, this, [this] { sweeping() ? stopSweep() : startSweep(); });
    // The leaf choice exists where the backend has it (the CPU multiplies with OpenBLAS).
    const auto leafWhereCuda = [this] { leafBox_->setEnabled(backendBox_->currentText() == QLatin1String("CUDA")); };
    connect(backendBox_, &QComboBox::currentIndexChanged, this, leafWhereCuda);
    leafWhereCuda();
    connect(clearFaults, &QPushButton::clicked, this, [this] {
        faultsEdit_->clear();
        blocks_->setFaultQuadrants({});
    });
    connect(faultsEdit_, &QLineEdit::textChanged, this, [this] {
        // The quadrants of the block faults, for the picture.
        std::vector<BlockCell> quadrants;
        for (const QString& f : faultSpecs()) {
            const QStringList parts = f.split(QLatin1Char(':'));
            if (parts.size() < 2)
                continue;
            const int q = parts[1].toInt();
            const QString where = parts[0].trimmed().toLower();
            if (q < 0 || q > 3 || (where != QLatin1String("a") && where != QLatin1String("b") && where != QLatin1String("c")))
                continue;
            const MatrixId o = where == QLatin1String("a") ? MatrixId::A : where == QLatin1String("b") ? MatrixId::B : MatrixId::C;
            quadrants.push_back({o, q / 2, q % 2});
        }
        blocks_->setFaultQuadrants(quadrants);
    });
    connect(blocks_, &StrassenBlocksWidget::blockClicked, this, &StrassenView::onBlockClicked);
    connect(stepList_, &QTreeWidget::itemClicked, this, &StrassenView::onStepItemClicked);
    connect(back, &QPushButton::clicked, this, &StrassenView::stepBack);
    connect(forward, &QPushButton::clicked, this, &StrassenView::stepForward);
    connect(playButton_, &QPushButton::clicked, this, &StrassenView::togglePlay);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (step_ + 1 >= int(steps_.size())) {
            togglePlay();
            return;
        }
        stepForward();
        timer_->start(playInterval());
    });
    connect(zoomBox_, &QCheckBox::toggled, this, &StrassenView::setZoom);
    connect(nodeBox_, &QComboBox::currentIndexChanged, this, [this](int index) { setNode(index - 1); });
    // The steps follow what would run: the variant, or the decomposition over the devices.
    for (QComboBox* box : {variantBox_, decompositionBox_})
        connect(box, &QComboBox::currentIndexChanged, this, &StrassenView::rebuildSteps);
    connect(devicesBox_, &QSpinBox::valueChanged, this, &StrassenView::rebuildSteps);
    connect(exactBox_, &QCheckBox::toggled, this, &StrassenView::rebuildSteps);
    nodeBox_->setEnabled(false);
}

bool StrassenView::currentConfig(StrassenConfig* config, QString* error) const
{
    StrassenConfig c;
    if (!parseShapeText(shapeEdit_->text(), &c.shape)) {
        if (error)
            *error = QStringLiteral("shape '%1': expected M×N×Q or N, positive whole numbers").arg(shapeEdit_->text());
        return false;
    }
    c.levels = levelsBox_->value();
    c.variant = strassenVariantFromString(variantBox_->currentText().toStdString());
    const QString type = typeBox_->currentText();
    c.tf32 = type == QLatin1String("tf32");
    c.precision = type == QLatin1String("f64") ? Precision::F64 : Precision::F32;
    c.backend = backendBox_->currentText() == QLatin1String("CUDA") ? BackendKind::Cuda : BackendKind::Cpu;
    c.devices = devicesBox_->value();
    const QString decomposition = decompositionBox_->currentText();
    c.distribute = c.devices > 1 || decomposition != QLatin1String("none");
    c.decomposition = decomposition == QLatin1String("2d") ? StrassenDecomposition::TwoD : StrassenDecomposition::Winograd;
    c.exactRestore = exactBox_->isChecked();
    c.sumsBeside = besideBox_->isChecked();
    c.checkLeaves = leavesBox_->isChecked();
    c.multiTargetKernel = leafBox_->isEnabled() && leafBox_->currentIndex() == 1;
    c.distribution = distributionFromString(distBox_->currentText().toStdString());
    try {
        for (const QString& f : faultSpecs())
            c.faults.push_back(parseStrassenFault(f.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    *config = c;
    return true;
}

void StrassenView::setConfig(const StrassenConfig& c)
{
    const QSignalBlocker b1(variantBox_), b2(exactBox_);
    shapeEdit_->setText(QStringLiteral("%1x%2x%3").arg(c.shape.m).arg(c.shape.n).arg(c.shape.q));
    levelsBox_->setValue(c.levels);
    variantBox_->setCurrentText(qs(toString(c.variant)));
    typeBox_->setCurrentText(c.tf32 ? QStringLiteral("tf32") : qs(toString(c.precision)));
    if (c.backend == BackendKind::Cuda && backendBox_->count() > 1)
        backendBox_->setCurrentIndex(1);
    else if (c.backend == BackendKind::Cpu)
        backendBox_->setCurrentIndex(0);
    devicesBox_->setValue(std::clamp(c.devices, 1, 8));
    decompositionBox_->setCurrentText(!(c.distribute || c.devices > 1) ? QStringLiteral("none") : qs(toString(c.decomposition)));
    exactBox_->setChecked(c.exactRestore);
    besideBox_->setChecked(c.sumsBeside);
    leavesBox_->setChecked(c.checkLeaves);
    leafBox_->setCurrentIndex(c.multiTargetKernel ? 1 : 0);
    distBox_->setCurrentText(qs(toString(c.distribution)));
    QStringList faults;
    for (const StrassenFault& f : c.faults)
        faults << qs(toString(f));
    faultsEdit_->setText(faults.join(QStringLiteral(", ")));
    rebuildSteps();
}

QStringList StrassenView::faultSpecs() const
{
    QStringList out;
    for (const QString& part : faultsEdit_->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
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

void StrassenView::setRunning(bool on)
{
    runButton_->setText(on ? QStringLiteral("Cancel") : QStringLiteral("Run"));
}

void StrassenView::startRun()
{
    if (running())
        return;
    StrassenConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        setStatus(error, true);
        emit runFailed(error);
        return;
    }
    struct Outcome {
        std::optional<StrassenResult> result;
        std::shared_ptr<const Schedule> schedule;
        QString error;
    };
    runCancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = runCancel_;
    QPointer<StrassenView> self(this);
    runThread_ = QThread::create([self, cancel, c] {
        auto outcome = std::make_shared<Outcome>();
        try {
            auto backend = makeStrassenBackend(c);
            outcome->result = runStrassen(c, *backend, nullptr, cancel.get());
            // The schedule the run executed (deterministic): op ids of its spans -> recipe steps.
            StrassenConfig plain = outcome->result->config;
            outcome->schedule = std::make_shared<const Schedule>(buildStrassenSchedule(plain));
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            self,
            [self, outcome] {
                if (!self)
                    return;
                if (!outcome->error.isEmpty() || !outcome->result) {
                    self->setStatus(QStringLiteral("Run failed: %1").arg(outcome->error), true);
                    emit self->runFailed(outcome->error);
                    return;
                }
                self->result_ = std::move(outcome->result);
                self->schedule_ = outcome->schedule;
                self->showResult();
                if (self->result_->status == "failed") {
                    self->setStatus(QStringLiteral("Run failed: %1").arg(QString::fromStdString(self->result_->error)), true);
                    emit self->runFailed(QString::fromStdString(self->result_->error));
                    return;
                }
                self->setStatus(QStringLiteral("Run %1 on %2: %3")
                                    .arg(self->result_->status == "cancelled" ? QStringLiteral("cancelled") : QStringLiteral("finished"),
                                         QString::fromStdString(self->result_->device.name), verdictHeadline(*self->result_)));
                emit self->runFinished();
            },
            Qt::QueuedConnection);
    });
    connect(runThread_, &QThread::finished, this, [this] {
        runThread_->deleteLater();
        runThread_ = nullptr;
        setRunning(false);
    });
    setRunning(true);
    setStatus(QStringLiteral("running %1×%2×%3, %4, %5 level(s)…")
                  .arg(c.shape.m)
                  .arg(c.shape.n)
                  .arg(c.shape.q)
                  .arg(qs(toString(c.variant)))
                  .arg(c.levels));
    runThread_->start();
}

void StrassenView::cancelRun()
{
    if (runCancel_)
        runCancel_->store(true);
}

bool StrassenView::openRecordFile(const QString& path, QString* error)
{
    try {
        // The engine's loader: the readers' size and depth limits, errors naming the file.
        const StrassenResult r = loadStrassenRecord(path.toStdString());
        StrassenConfig c = r.config;
        // The record says whether a decomposition ran (one device too); old records: devices > 1.
        c.distribute = c.distribute || c.devices > 1;
        std::shared_ptr<const Schedule> schedule;
        try {
            schedule = std::make_shared<const Schedule>(buildStrassenSchedule(c));
            if (!spansFitSchedule(*schedule, r.spans))
                schedule.reset();  // a record of another build: stage times only, no per-step times
        } catch (const std::exception&) {
            schedule.reset();
        }
        result_ = r;
        result_->config.distribute = c.distribute;
        schedule_ = schedule;
        setConfig(result_->config);
        showResult();
        setStatus(QStringLiteral("opened %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
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
        item->setText(kFormulaColumn, s.formula);
        item->setToolTip(kFormulaColumn, s.stageName + QStringLiteral(": ") + s.words);
        item->setText(kTimeColumn, s.seconds >= 0 ? QString::number(s.seconds * 1e3, 'f', 3) : QStringLiteral("—"));
        item->setTextAlignment(kTimeColumn, Qt::AlignRight | Qt::AlignVCenter);
        if (s.product) {
            item->setText(kFaultColumn, QStringLiteral("⚡"));
            item->setToolTip(kFaultColumn, QStringLiteral("Place a fault in the result of %1 (product:K)").arg(productName(s)));
        }
    }
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

void StrassenView::startSweep()
{
    if (sweeping())
        return;
    StrassenConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        setStatus(error, true);
        return;
    }
    SweepRequest request;
    request.precision = c.precision;
    request.tf32 = c.tf32;
    request.backend = c.backend;
    request.levels = std::max(1, c.levels);
    request.multiTargetKernel = c.multiTargetKernel;
    request.distribution = c.distribution;
    request.fromExponent = 7;
    request.toExponent = sweepToBox_->value();
    request.errorN = std::min<std::int64_t>(std::int64_t(1) << sweepToBox_->value(), 256);
    sweep_.clear();
    replotAll();
    sweepCancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = sweepCancel_;
    QPointer<StrassenView> self(this);
    sweepThread_ = QThread::create([self, cancel, request] {
        runSweep(
            request,
            [self](const SweepPoint& p) {
                QMetaObject::invokeMethod(
                    self,
                    [self, p] {
                        if (!self)
                            return;
                        self->sweep_.push_back(p);
                        if (!p.error.isEmpty())
                            self->setStatus(QStringLiteral("sweep at N = %1: %2").arg(p.n).arg(p.error), true);
                        plotSpeedup(self->speedupPlot_, self->sweep_);
                        plotErrorVsLevels(self->errorPlot_, self->sweep_);
                        plotRecoveryVsLevels(self->recoveryPlot_, self->sweep_);
                    },
                    Qt::QueuedConnection);
            },
            *cancel);
    });
    connect(sweepThread_, &QThread::finished, this, [this] {
        sweepThread_->deleteLater();
        sweepThread_ = nullptr;
        sweepButton_->setText(QStringLiteral("Sweep"));
        if (!status_->styleSheet().contains(QLatin1String("dc2626")))
            setStatus(QStringLiteral("sweep: %1 points measured").arg(sweep_.size()));
        emit sweepFinished();
    });
    sweepButton_->setText(QStringLiteral("Stop"));
    setStatus(QStringLiteral("sweeping N = 128 … %1 and levels 0 … 4 at N = %2…").arg(std::int64_t(1) << request.toExponent).arg(request.errorN));
    plotTabs_->setCurrentWidget(speedupPlot_);
    sweepThread_->start();
}

void StrassenView::stopSweep()
{
    if (sweepCancel_)
        sweepCancel_->store(true);
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
