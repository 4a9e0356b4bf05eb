// The Strassen view's controls: building them (shape, levels, variant, backend, devices, faults,
// the stepper and the plots) and reading them into a StrassenConfig and back.
#include "views/strassen/strassenview.hpp"

#include "engine/backgroundjobs.hpp"

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
#include <QTimer>
#include <QToolButton>
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

}  // namespace

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
    faultsEdit_->setToolTip(QStringLiteral("--inject-at, as on the command line: a cell [c:|a:|b:]R,C, a quadrant c:Q, a:Q, b:Q "
                                           "or product:K[:R,C]; optionally :DELTA, and @K (right after leaf product K); "
                                           "separated by commas or spaces"));
    auto* clearFaults = new QPushButton(QStringLiteral("Clear"), this);
    faultModelEdit_ = new QLineEdit(QStringLiteral("delta"), this);
    faultModelEdit_->setObjectName(QStringLiteral("strassenFaultModel"));
    faultModelEdit_->setToolTip(QStringLiteral("--fault, as on the command line: what a fault without its own delta does -- delta "
                                               "(adds 1000 × the typical size of the element), bitflip (the top exponent bit), "
                                               "bitflip:B (bit B of the stored word), bitflip:B+B2 (two bits)"));
    seedEdit_ = new SeedEdit(1, this);
    seedEdit_->setObjectName(QStringLiteral("strassenSeed"));
    seedEdit_->setToolTip(QStringLiteral("The inputs' seed (--seed): the same seed, the same A and B; a bit flip's cell too"));
    referenceBox_ = new QComboBox(this);
    referenceBox_->setObjectName(QStringLiteral("strassenReference"));
    referenceBox_->addItems({QStringLiteral("reference auto"), QStringLiteral("reference full"), QStringLiteral("reference none")});
    referenceBox_->setToolTip(QStringLiteral("The FP64 reference product on the host, part of the verdict (--reference): auto runs it "
                                             "up to 2^34 multiply-adds, full always, none never (C's checksums alone)"));
    sweepButton_ = new QPushButton(QStringLiteral("Sweep"), this);
    sweepButton_->setObjectName(QStringLiteral("strassenSweep"));
    sweepButton_->setToolTip(QStringLiteral("Speedup vs N (N = 128 … the largest) of every variant against the plain GEMM, and the "
                                            "recovery error of A and B and the error of C "
                                            "vs levels, on the chosen backend and type; its progress and Cancel are in the Run dock"));
    sweepToBox_ = new QSpinBox(this);
    sweepToBox_->setObjectName(QStringLiteral("strassenSweepTo"));
    sweepToBox_->setRange(8, 15);
    sweepToBox_->setPrefix(QStringLiteral("N ≤ 2^"));
    sweepToBox_->setValue(10);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("strassenStatus"));
    status_->setWordWrap(true);

    // The set-up in three panels, as the checked GEMM's: what is multiplied (Matrix setup), how
    // (Algorithm) and what strikes it (Faults). The lab moves them into its docks (dockPanels());
    // a view on its own shows them in a row above the picture.
    auto label = [this](const QString& t) { return new QLabel(t, this); };
    inputsPanel_ = new QWidget(this);
    inputsPanel_->setObjectName(QStringLiteral("strassenInputsPanel"));
    auto* inputs = new QFormLayout(inputsPanel_);
    inputs->addRow(label(QStringLiteral("Shape M×N×Q")), shapeEdit_);
    inputs->addRow(label(QStringLiteral("Type")), typeBox_);
    inputs->addRow(label(QStringLiteral("Inputs")), distBox_);
    inputs->addRow(label(QStringLiteral("Seed")), seedEdit_);
    inputs->addRow(label(QStringLiteral("Backend")), backendBox_);
    auto* devicesRow = new QHBoxLayout;
    devicesRow->addWidget(devicesBox_);
    devicesRow->addWidget(decompositionBox_, 1);
    inputs->addRow(label(QStringLiteral("Devices")), devicesRow);
    inputs->addRow(label(QStringLiteral("Check C by")), referenceBox_);

    algorithmPanel_ = new QWidget(this);
    algorithmPanel_->setObjectName(QStringLiteral("strassenAlgorithmPanel"));
    auto* algorithm = new QFormLayout(algorithmPanel_);
    algorithm->addRow(label(QStringLiteral("Variant")), variantBox_);
    algorithm->addRow(label(QStringLiteral("Levels")), levelsBox_);
    algorithm->addRow(label(QStringLiteral("Leaves")), leafBox_);
    auto* checks = new QGridLayout;
    checks->addWidget(leavesBox_, 0, 0);
    checks->addWidget(exactBox_, 0, 1);
    checks->addWidget(besideBox_, 1, 0);
    algorithm->addRow(checks);
    auto* sweepRow = new QHBoxLayout;
    sweepRow->addWidget(sweepToBox_);
    sweepRow->addWidget(sweepButton_, 1);
    algorithm->addRow(label(QStringLiteral("Sweep")), sweepRow);

    faultPanel_ = new QWidget(this);
    faultPanel_->setObjectName(QStringLiteral("strassenFaultPanel"));
    auto* faultLayout = new QVBoxLayout(faultPanel_);
    auto* faults = new QFormLayout;
    auto* faultRow = new QHBoxLayout;
    faultRow->addWidget(faultsEdit_, 1);
    faultRow->addWidget(clearFaults);
    faults->addRow(label(QStringLiteral("Faults")), faultRow);
    faults->addRow(label(QStringLiteral("Model")), faultModelEdit_);
    faultLayout->addLayout(faults);
    // Below the form, not in a row of it: a form's spanning row gives wrapped text too little height.
    auto* faultHint = label(QStringLiteral("Click a block of A, B or C in the picture for a fault in its quadrant, or ⚡ a "
                                           "product in the step list for one in its result."));
    faultHint->setWordWrap(true);
    faultLayout->addWidget(faultHint);

    // On its own (tests, a view without the lab's docks) the three panels sit in a row.
    panelRow_ = new QWidget(this);
    auto* controls = new QHBoxLayout(panelRow_);
    controls->setContentsMargins(0, 0, 0, 0);
    for (QWidget* panel : {inputsPanel_, algorithmPanel_, faultPanel_})
        controls->addWidget(panel, 1);

    // The stepper: A, B, C lit by the current step, its formula and words, the step list.
    blocks_ = new StrassenBlocksWidget(this);
    stepTitle_ = new QLabel(this);
    stepTitle_->setObjectName(QStringLiteral("strassenStepTitle"));
    stepTitle_->setWordWrap(true);
    stepWords_ = new QLabel(this);
    stepWords_->setWordWrap(true);
    // A tool button: as wide as its glyph (a push button takes a word's width).
    auto* back = new QToolButton(this);
    back->setText(QStringLiteral("◀"));
    back->setToolTip(QStringLiteral("Previous step"));
    auto* forward = new QPushButton(QStringLiteral("▶ Step"), this);
    playButton_ = new QPushButton(QStringLiteral("Play"), this);
    playButton_->setObjectName(QStringLiteral("strassenPlay"));
    speed_ = new QSlider(Qt::Horizontal, this);
    speed_->setRange(1, 16);
    speed_->setValue(4);
    speed_->setToolTip(QStringLiteral("Speed: ¼× … 4×"));
    // Never squeezed to a dot by the step list beside the picture.
    speed_->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 8);
    speed_->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 4);
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
                                   "&nbsp; <span style='color:#dc2626'>⚡ fault</span>")
                        .arg(swatch(StrassenBlocksWidget::readColor()), swatch(StrassenBlocksWidget::overwriteColor()),
                             swatch(StrassenBlocksWidget::plusColor()), swatch(StrassenBlocksWidget::minusColor())));
    // How to place a fault is said in the Faults dock; the legend stays two lines at 150 % scale.
    legend->setToolTip(QStringLiteral("Click a block of A, B or C for a fault in its quadrant"));

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
    stepList_->setHeaderLabels({QStringLiteral("st."), QStringLiteral("formula"), QStringLiteral("ms"), QStringLiteral("⚡")});
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
    // One word each: the five fit beside the verdict at 1366×768 without scroll arrows; each plot's
    // title and axes say the rest.
    plotTabs_->addTab(stagePlot_, QStringLiteral("Stages"));
    plotTabs_->setTabToolTip(0, QStringLiteral("Time per level and stage of the run (the thesis's Table 3.2)"));
    plotTabs_->addTab(lanesPlot_, QStringLiteral("Timeline"));
    plotTabs_->setTabToolTip(1, QStringLiteral("The run's ops on their queues and streams, coloured by stage"));
    plotTabs_->addTab(speedupPlot_, QStringLiteral("Speedup"));
    plotTabs_->setTabToolTip(2, QStringLiteral("Speedup over one plain GEMM of the same shape, over N (a sweep)"));
    plotTabs_->addTab(errorPlot_, QStringLiteral("Error"));
    plotTabs_->setTabToolTip(3, QStringLiteral("Error of C against the FP64 reference over the levels (a sweep)"));
    plotTabs_->addTab(recoveryPlot_, QStringLiteral("Recovery"));
    plotTabs_->setTabToolTip(4, QStringLiteral("How far recovering A and B moved them, over the levels (a sweep)"));
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
    // At 1366×768 beside the docks the content fits without scrolling.
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(panelRow_);
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

    connect(sweepButton_, &QPushButton::clicked, this, &StrassenView::startSweep);
    // One run job at a time: a sweep asked for beside another job waits in the queue; this view's
    // own run or sweep (going on or queued) greys it.
    // (The view is the context: the button may live in a dock that outlives it at exit.)
    connect(BackgroundJobs::instance(), &BackgroundJobs::busyChanged, this,
            [this] { sweepButton_->setEnabled(!running() && !sweeping()); });
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
            bool quadrant = false;  // a cell (c:3,4) lights no quadrant
            const int q = parts[1].toInt(&quadrant);
            const QString where = parts[0].trimmed().toLower();
            if (!quadrant || q < 0 || q > 3 || (where != QLatin1String("a") && where != QLatin1String("b") && where != QLatin1String("c")))
                continue;
            const MatrixId o = where == QLatin1String("a") ? MatrixId::A : where == QLatin1String("b") ? MatrixId::B : MatrixId::C;
            quadrants.push_back({o, q / 2, q % 2});
        }
        blocks_->setFaultQuadrants(quadrants);
    });
    connect(blocks_, &StrassenBlocksWidget::blockClicked, this, &StrassenView::onBlockClicked);
    connect(stepList_, &QTreeWidget::itemClicked, this, &StrassenView::onStepItemClicked);
    connect(back, &QToolButton::clicked, this, &StrassenView::stepBack);
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
    noteSetupEdits();
}

StrassenView::Panels StrassenView::dockPanels()
{
    panelRow_->hide();
    return {inputsPanel_, algorithmPanel_, faultPanel_};
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
    c.seed = seedEdit_->value();
    c.reference = referenceBox_->currentIndex() != 2;
    c.referenceAlways = referenceBox_->currentIndex() == 1;
    try {
        c.faultModel = parseFaultModelSpec(faultModelEdit_->text().trimmed().toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QStringLiteral("fault model: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
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
    seedEdit_->setValue(c.seed);
    referenceBox_->setCurrentIndex(!c.reference ? 2 : c.referenceAlways ? 1 : 0);
    faultModelEdit_->setText(qs(toString(c.faultModel)));
    QStringList faults;
    for (const StrassenFault& f : c.faults)
        faults << qs(toString(f));
    faultsEdit_->setText(faults.join(QStringLiteral(", ")));
    rebuildSteps();
}

}  // namespace gigacheck::ui::strassenlab
