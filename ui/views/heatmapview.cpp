#include "heatmapview.hpp"

#include "heatmapoverlay.hpp"
#include "engine/backgroundjobs.hpp"
#include "export/plotexport.hpp"
#include "session/labsession.hpp"
#include "plotstyle.hpp"

#include <utility>
#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace gigacheck::ui {

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("heatmapPlot"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel(QStringLiteral("column of C"));
    plot_->yAxis->setLabel(QStringLiteral("row of C"));
    plot_->yAxis->setRangeReversed(true);  // row 0 on top, as a matrix is read
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);

    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(true);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    scaleTicker_ = scale_->axis()->ticker();
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    plot_->addLayer(QStringLiteral("markers"), plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    plot_->layer(QStringLiteral("markers"))->setMode(QCPLayer::lmBuffered);
    overlay_ = new HeatmapOverlay(plot_, plot_->xAxis, plot_->yAxis, QStringLiteral("markers"));
    applyPalette(plot_, palette());

    layerBox_ = new QComboBox(this);
    layerBox_->setObjectName(QStringLiteral("heatmapLayer"));
    layerBox_->addItem(QStringLiteral("values of C"));
    layerBox_->addItem(QStringLiteral("|injected error|"));
    layerBox_->addItem(QStringLiteral("checksum residuals"));
    auto* reset = new QPushButton(QStringLiteral("Whole matrix"), this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Layer:"), this));
    bar->addWidget(layerBox_);
    bar->addWidget(reset);
    bar->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    layout->addWidget(status_);

    // Live blocks of C are merged a few times a second: a run sends a batch every 30 ms.
    liveRedraw_ = new QTimer(this);
    liveRedraw_->setSingleShot(true);
    liveRedraw_->setInterval(200);
    connect(liveRedraw_, &QTimer::timeout, this, [this] {
        // Hidden behind another tab: nothing to draw now; showEvent catches up.
        if (isVisible() && layer_ == Layer::Values && matrix_.empty()) {
            rebuildGrid();
            requestReplot();
        }
    });

    refine_ = new QTimer(this);
    refine_->setSingleShot(true);
    refine_->setInterval(120);
    connect(refine_, &QTimer::timeout, this, [this] {
        rebuildGrid();
        requestReplot();
    });
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), refine_, qOverload<>(&QTimer::start));
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), refine_, qOverload<>(&QTimer::start));
    connect(layerBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { setLayer(Layer(i)); });
    connect(reset, &QPushButton::clicked, this, &HeatmapView::resetZoom);
    connect(plot_, &QCustomPlot::mousePress, this, &HeatmapView::onPress);
    connect(plot_, &QCustomPlot::mouseMove, this, &HeatmapView::onMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &HeatmapView::onRelease);
    setShape(256, 256);
}

void HeatmapView::subscribe(LabSession* session)
{
    connect(session, &LabSession::runStarted, this, [this, session] {
        const Shape s = session->startedShape();
        if (rows_ != s.m || cols_ != s.q)
            setShape(s.m, s.q);
        beginLiveResult();
    });
    connect(session, &LabSession::resultTilesArrived, this, &HeatmapView::addResultTiles);
    connect(session, &LabSession::injectionsArrived, this, [this, session] {
        setEvents(session->injections(), session->verifications());  // sparse layers update live
    });
    connect(session, &LabSession::recordChanged, this,
            [this](const RecordPtr& r, LabSession::Origin origin, const HostMatrix& c) {
                // The block grid of a blocked run's plan; another family's C has no blocks.
                const RunRecord* blocked = blockedRecordOf(*r);
                recordPlan_ = blocked ? std::optional<Plan>(blocked->plan) : std::nullopt;
                if (origin == LabSession::Origin::Run) {
                    if (c.rows() != rows_ || c.cols() != cols_)
                        setShape(resultShapeOf(*r).m, resultShapeOf(*r).q);
                    setPlan(recordPlan_);
                    setMatrix(c);
                    // The live events usually are the record's already: then nothing to redo.
                    if (injections_.size() != r->injections.size() || verifications_.size() != r->verifications.size())
                        setEvents(r->injections, r->verifications);
                    return;
                }
                setPlan(recordPlan_);
                setEvents(r->injections, r->verifications);
                // A record holds no matrix: show where the faults and residuals were.
                setLayer(r->injections.empty() ? Layer::Residuals : Layer::InjectedError);
            });
}

void HeatmapView::setShape(std::int64_t rows, std::int64_t cols)
{
    rows_ = std::max<std::int64_t>(rows, 1);
    cols_ = std::max<std::int64_t>(cols, 1);
    matrix_ = HostMatrix();
    resetLive();
    injections_.clear();
    verifications_.clear();
    const std::size_t dropped = dropFaultsOutside();
    overlay_->setFaults(faults_);
    overlay_->setStep(nullptr);
    resetZoom();
    if (dropped) {
        emit faultsChanged(faults_);  // the faults list and the next run must not keep them
        emit faultsDropped(int(dropped), int(faults_.size()));
    }
}

std::size_t HeatmapView::dropFaultsOutside()
{
    return std::erase_if(faults_, [this](const FaultAt& f) {
        return f.row < 0 || f.col < 0 || f.row >= rows_ || f.col >= cols_;
    });
}

const std::optional<Plan>& HeatmapView::gridPlan() const { return overlay_->plan(); }

void HeatmapView::clearPreviewPlan()
{
    const bool fits = recordPlan_ && recordPlan_->shape.m == rows_ && recordPlan_->shape.q == cols_ && recordPlan_->splitM >= 1;
    setPlan(fits ? recordPlan_ : std::nullopt);
}

void HeatmapView::setPlan(const std::optional<Plan>& plan)
{
    overlay_->setPlan(plan);
    replotOverlay();
}

void HeatmapView::resetLive()
{
    liveTiles_.clear();
    liveGrid_ = HeatmapGrid();
    liveMerged_ = 0;
}

void HeatmapView::beginLiveResult()
{
    matrix_ = HostMatrix();
    resetLive();
    if (!isVisible()) {
        // Behind another tab (a run shows the timeline): the blank map is drawn when shown.
        gridStale_ = true;
        return;
    }
    rebuildGrid();
    requestReplot();
}

void HeatmapView::addResultTiles(const QVector<HeatmapGrid>& tiles)
{
    if (!matrix_.empty())  // the finished run's full matrix is already shown
        return;
    liveTiles_.insert(liveTiles_.end(), tiles.begin(), tiles.end());
    if (!liveRedraw_->isActive())
        liveRedraw_->start();
}

void HeatmapView::setMatrix(const HostMatrix& c)
{
    matrix_ = c;
    resetLive();
    liveRedraw_->stop();
    if (!c.empty() && (c.rows() != rows_ || c.cols() != cols_)) {
        rows_ = c.rows();
        cols_ = c.cols();
        resetZoom();  // rebuilds the grid for the new shape
        return;
    }
    rebuildGrid();
    requestReplot();
}

void HeatmapView::setEvents(const std::vector<InjectEvent>& injections, const std::vector<VerifyEvent>& verifications)
{
    injections_ = injections;
    verifications_ = verifications;
    if (layer_ != Layer::Values) {
        rebuildGrid();
        requestReplot();
    }
}

void HeatmapView::setLayer(Layer layer)
{
    layer_ = layer;
    if (layerBox_->currentIndex() != int(layer))
        layerBox_->setCurrentIndex(int(layer));
    rebuildGrid();
    requestReplot();
}

void HeatmapView::setFaults(const std::vector<FaultAt>& faults)
{
    faults_ = faults;
    const std::size_t dropped = dropFaultsOutside();  // e.g. a record or settings from a larger shape
    overlay_->setFaults(faults_);
    replotOverlay();
    if (dropped) {
        emit faultsChanged(faults_);
        emit faultsDropped(int(dropped), int(faults_.size()));
    }
}

void HeatmapView::setFaultSteps(std::optional<int> defaultStep)
{
    overlay_->setFaultSteps(defaultStep);
    replotOverlay();
}

QString HeatmapView::faultLabel(std::size_t i) const
{
    return overlay_->faultLabel(i);
}

void HeatmapView::setStep(const AnimationStep* step)
{
    overlay_->setStep(step);
    if (step) {
        // Bring the block (with its checksum row and column) into view.
        const double padR = std::max(2.0, 0.06 * double(step->rows)), padC = std::max(2.0, 0.06 * double(step->cols));
        plot_->xAxis->setRange(double(step->colOffset) - padC, double(step->colOffset + step->cols + 1) + padC);
        plot_->yAxis->setRange(double(step->rowOffset) - padR, double(step->rowOffset + step->rows + 1) + padR);
        rebuildGrid();
        refine_->stop();
        requestReplot();
    } else {
        replotOverlay();
    }
}

void HeatmapView::resetZoom()
{
    plot_->xAxis->setRange(0, double(cols_));
    plot_->yAxis->setRange(0, double(rows_));
    rebuildGrid();
    refine_->stop();
    requestReplot();
}

MatrixWindow HeatmapView::visibleWindow() const
{
    // The visible window plus a quarter on each side, so small pans need no rebuild to look right.
    const QCPRange xr = plot_->xAxis->range(), yr = plot_->yAxis->range();
    const double padX = 0.25 * xr.size(), padY = 0.25 * yr.size();
    MatrixWindow w;
    w.col0 = std::int64_t(std::floor(std::max(0.0, xr.lower - padX)));
    w.row0 = std::int64_t(std::floor(std::max(0.0, yr.lower - padY)));
    w.cols = std::int64_t(std::ceil(std::min(double(cols_), xr.upper + padX))) - w.col0;
    w.rows = std::int64_t(std::ceil(std::min(double(rows_), yr.upper + padY))) - w.row0;
    return clampWindow(w, rows_, cols_);
}

void HeatmapView::rebuildGrid()
{
    gridStale_ = false;
    deferredGrid_.reset();
    const MatrixWindow w = visibleWindow();
    const quint64 generation = ++gridGeneration_;
    // Sparse layers (a few faulty cells, a few mismatching rows) use cells of at least ~4 pixels
    // so that a single element stays visible on a 16384^2 matrix.
    const int sparseCells = std::clamp(std::max(plot_->axisRect()->width(), plot_->axisRect()->height()) / 4, 16, kMaxCells);
    switch (layer_) {
    case Layer::Values:
        if (matrix_.empty()) {
            // During a run: the blocks of C that are final so far (tiles of ~512^2 cells in all).
            if (liveTiles_.empty()) {
                applyGrid(HeatmapGrid(w, kMaxCells));
                return;
            }
            if (liveMerged_ == 0 || !(liveGrid_.window() == w)) {
                liveGrid_ = HeatmapGrid(w, kLiveCells);
                liveMerged_ = 0;
            }
            for (; liveMerged_ < liveTiles_.size(); ++liveMerged_)
                liveGrid_.accumulateGrid(liveTiles_[liveMerged_]);
            applyGrid(liveGrid_);
        } else if (w.rows * w.cols <= kAsyncElements) {
            applyGrid(HeatmapGrid::fromMatrix(matrix_, w, kMaxCells));
        } else {
            // Reading 16384^2 elements takes long enough to stall the GUI: reduce in a preview
            // job; its result reaches this view only while it exists and is dropped when stale.
            gridPending_ = true;
            auto grid = std::make_shared<HeatmapGrid>();
            JobSpec spec;
            spec.name = QStringLiteral("heatmap reduction");
            spec.owner = this;
            spec.kind = JobKind::Preview;
            spec.onDone = [this, generation, grid] {
                if (generation != gridGeneration_)
                    return;
                gridPending_ = false;
                if (!isVisible()) {
                    // A run ended behind another tab: the colour map is filled when shown.
                    deferredGrid_ = std::move(*grid);
                    return;
                }
                applyGrid(std::move(*grid));
                requestReplot();
            };
            BackgroundJobs::instance()->start(spec, [grid, matrix = matrix_, w](const JobContext&) {
                *grid = HeatmapGrid::fromMatrix(matrix, w, kMaxCells);
            });
        }
        return;
    case Layer::InjectedError: {
        HeatmapGrid grid(w, sparseCells);
        for (const InjectEvent& e : injections_)
            if (e.injection.globalRow >= 0 && e.injection.globalCol >= 0)
                grid.accumulate(e.injection.globalRow, e.injection.globalCol,
                                std::abs(e.injection.after - e.injection.before));
        applyGrid(std::move(grid));
        return;
    }
    case Layer::Residuals: {
        HeatmapGrid grid(w, sparseCells);
        for (const VerifyEvent& v : verifications_) {
            const auto& r = v.result;
            for (std::size_t i = 0; i < r.mismatchRows.size() && i < r.rowResidual.size(); ++i)
                if (r.mismatchRows[i] < v.rows)
                    grid.accumulateRow(v.rowOffset + r.mismatchRows[i], v.colOffset, v.colOffset + v.cols,
                                       r.rowResidual[i]);
            for (std::size_t j = 0; j < r.mismatchCols.size() && j < r.colResidual.size(); ++j)
                if (r.mismatchCols[j] < v.cols)
                    grid.accumulateCol(v.colOffset + r.mismatchCols[j], v.rowOffset, v.rowOffset + v.rows,
                                       r.colResidual[j]);
        }
        applyGrid(std::move(grid));
        return;
    }
    }
}

void HeatmapView::applyGrid(HeatmapGrid grid)
{
    grid_ = std::move(grid);
    gridPending_ = false;
    const MatrixWindow& w = grid_.window();
    QCPColorMapData* data = map_->data();
    data->setSize(grid_.cellsX(), grid_.cellsY());
    // Cell centres: cell k spans [colOfCell(k), colOfCell(k+1)) of C.
    const double cw = double(w.cols) / grid_.cellsX(), ch = double(w.rows) / grid_.cellsY();
    data->setRange(QCPRange(double(w.col0) + cw / 2, double(w.col0 + w.cols) - cw / 2),
                   QCPRange(double(w.row0) + ch / 2, double(w.row0 + w.rows) - ch / 2));
    double lo = 0, hi = 0;
    for (int cy = 0; cy < grid_.cellsY(); ++cy)
        for (int cx = 0; cx < grid_.cellsX(); ++cx) {
            const double v = grid_.value(cx, cy);
            data->setCell(cx, cy, v);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    // A layer with nothing to show (C not run yet, no injected error, no mismatch) gets a scale
    // without a range to read: ±1e-12 there was a number nobody had measured.
    // (During a run C fills from live tiles while matrix_ is still empty: their values count.)
    const bool nothing = lo == 0 && hi == 0;
    const bool notRun = layer_ == Layer::Values && matrix_.empty() && liveTiles_.empty();
    auto zeroTicker = QSharedPointer<QCPAxisTickerText>::create();
    if (!notRun)
        zeroTicker->addTick(0, QStringLiteral("0"));  // an all-zero C or error: its one value
    scale_->axis()->setTicker(nothing ? QSharedPointer<QCPAxisTicker>(zeroTicker) : scaleTicker_);
    if (layer_ == Layer::Values) {
        const double m = nothing ? 1.0 : std::max(std::abs(lo), std::abs(hi));
        // Diverging blue-white-red: zero is white, so an empty (not yet run) map is blank paper.
        QCPColorGradient diverging;
        diverging.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
        diverging.setColorStopAt(0.5, QColor(0xf7, 0xf7, 0xf7));
        diverging.setColorStopAt(1.0, QColor(0xb2, 0x18, 0x2b));
        map_->setGradient(diverging);
        map_->setDataRange(QCPRange(-m, m));
        scale_->axis()->setLabel(matrix_.empty() ? QStringLiteral("C (run to fill)") : QStringLiteral("value of C"));
    } else {
        map_->setGradient(QCPColorGradient(QCPColorGradient::gpHot).inverted());
        map_->setDataRange(QCPRange(0, nothing ? 1.0 : hi));
        const QString label = layer_ == Layer::InjectedError ? QStringLiteral("|C* − C|") : QStringLiteral("|control − stored|");
        scale_->axis()->setLabel(nothing ? label + (layer_ == Layer::InjectedError ? QStringLiteral(": no error")
                                                                                   : QStringLiteral(": no mismatch"))
                                         : label);
    }
    updateStatus();
}

void HeatmapView::updateStatus()
{
    const MatrixWindow& w = grid_.window();
    const bool downsampled = grid_.cellsX() < w.cols || grid_.cellsY() < w.rows;
    status_->setText(QStringLiteral("C %1 × %2%3 — click: add a fault, drag: move it, right-click: remove; "
                                    "wheel: zoom, drag the background: pan")
                         .arg(rows_)
                         .arg(cols_)
                         .arg(downsampled ? QStringLiteral(", drawn as %1 × %2 cells (block maximum)")
                                                .arg(grid_.cellsY())
                                                .arg(grid_.cellsX())
                                          : QString()));
}

void HeatmapView::replotOverlay()
{
    // Only the buffered overlay layer is redrawn; the colour map stays cached.
    if (plot_->layer(QStringLiteral("markers")))
        plot_->layer(QStringLiteral("markers"))->replot();
}

QPoint HeatmapView::pixelOfCell(std::int64_t row, std::int64_t col) const
{
    return overlay_->cellCenter(row, col).toPoint();
}

bool HeatmapView::cellAt(const QPointF& pixel, std::int64_t* row, std::int64_t* col) const
{
    if (!plot_->axisRect()->rect().contains(pixel.toPoint()))
        return false;
    const double c = std::floor(plot_->xAxis->pixelToCoord(pixel.x()));
    const double r = std::floor(plot_->yAxis->pixelToCoord(pixel.y()));
    if (c < 0 || r < 0 || c >= double(cols_) || r >= double(rows_))
        return false;
    *row = std::int64_t(r);
    *col = std::int64_t(c);
    return true;
}

void HeatmapView::onPress(QMouseEvent* e)
{
    pressPos_ = e->position();
    pressed_ = true;
    const int marker = overlay_->markerAt(e->position());
    if (e->button() == Qt::RightButton) {
        if (marker >= 0) {
            faults_.erase(faults_.begin() + marker);
            overlay_->setFaults(faults_);
            replotOverlay();
            emit faultsChanged(faults_);
        }
        return;
    }
    if (e->button() == Qt::LeftButton && marker >= 0) {
        // Dragging a marker must not pan the map.
        dragIndex_ = marker;
        plot_->setInteraction(QCP::iRangeDrag, false);
    }
}

void HeatmapView::onMove(QMouseEvent* e)
{
    std::int64_t row = 0, col = 0;
    if (dragIndex_ >= 0 && cellAt(e->position(), &row, &col)) {
        overlay_->setDragPreview(dragIndex_, row, col);
        replotOverlay();
    }
    if (!pressed_ && cellAt(e->position(), &row, &col) && hasMatrix())
        setToolTip(QStringLiteral("C[%1, %2] = %3").arg(row).arg(col).arg(matrix_.at(row, col), 0, 'g', 7));
}

void HeatmapView::onRelease(QMouseEvent* e)
{
    pressed_ = false;
    std::int64_t row = 0, col = 0;
    if (dragIndex_ >= 0) {
        const int index = dragIndex_;
        dragIndex_ = -1;
        overlay_->setDragPreview(-1, 0, 0);
        plot_->setInteraction(QCP::iRangeDrag, true);
        if (cellAt(e->position(), &row, &col) && (faults_[std::size_t(index)].row != row || faults_[std::size_t(index)].col != col)) {
            faults_[std::size_t(index)].row = row;
            faults_[std::size_t(index)].col = col;
            overlay_->setFaults(faults_);
            emit faultsChanged(faults_);
        }
        replotOverlay();
        return;
    }
    if (e->button() != Qt::LeftButton)
        return;
    // A press and release at (almost) the same place is a click; anything longer was a pan.
    const QPointF moved = e->position() - pressPos_;
    if (std::abs(moved.x()) + std::abs(moved.y()) > 4 || !cellAt(e->position(), &row, &col))
        return;
    FaultAt fault;
    fault.row = row;
    fault.col = col;
    if (std::find(faults_.begin(), faults_.end(), fault) != faults_.end())
        return;
    faults_.push_back(fault);
    overlay_->setFaults(faults_);
    replotOverlay();
    emit faultsChanged(faults_);
}

bool HeatmapView::exportCsv(const QString& path, QString* error) const
{
    std::vector<QStringList> rows;
    for (int cy = 0; cy < grid_.cellsY(); ++cy)
        for (int cx = 0; cx < grid_.cellsX(); ++cx)
            rows.push_back({QString::number(grid_.rowOfCell(cy)), QString::number(grid_.colOfCell(cx)),
                            QString::number(grid_.value(cx, cy), 'g', 9)});
    return writeCsv(path, {QStringLiteral("row"), QStringLiteral("col"), layerBox_->currentText()}, rows, error);
}

// A hidden view (another tab in front, e.g. the timeline during a run) does not render: a
// replot of the colour map costs ~20 ms of GUI-thread time; showEvent draws once instead.
void HeatmapView::requestReplot()
{
    if (!isVisible() && window()->isVisible()) {  // (a view never shown, e.g. in a test, still renders)
        replotPending_ = true;
        return;
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (std::exchange(replotPending_, false))
        plot_->replot(QCustomPlot::rpQueuedReplot);
    if (deferredGrid_) {
        applyGrid(std::move(*deferredGrid_));
        deferredGrid_.reset();
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (gridStale_ || (matrix_.empty() && !liveTiles_.empty() && layer_ == Layer::Values)) {
        rebuildGrid();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void HeatmapView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette(plot_, palette());
        plot_->replot();
    }
    QWidget::changeEvent(event);
}

}  // namespace gigacheck::ui
