// MainWindow's views: one family at a time (FamilyViews: the selector left of the tabs), the
// docks showing that family's set-up panels (DockPages).
#include "mainwindow.hpp"

#include "panels/runpanel.hpp"
#include "views/animationpanel.hpp"
#include "views/campaignview.hpp"
#include "views/gallery/galleryview.hpp"
#include "views/heatmapview.hpp"
#include "views/online/onlinestepview.hpp"
#include "views/online/onlinesweepview.hpp"
#include "views/reportview.hpp"
#include "views/rooflineview.hpp"
#include "views/strassen/strassenview.hpp"
#include "views/timelineview.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/strategypanel.hpp"
#include "window/dockpages.hpp"
#include "window/familyviews.hpp"
#include "window/windowlayout.hpp"

#include <QDockWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

namespace gigacheck::ui {

void MainWindow::buildViews()
{
    heatmap_ = new HeatmapView(this);
    animation_ = new AnimationPanel(this);
    timeline_ = new TimelineView(this);
    roofline_ = new RooflineView(this);
    report_ = new ReportView(this);

    auto* heatmapPage = new QSplitter(Qt::Vertical, this);
    heatmapPage->addWidget(heatmap_);
    heatmapPage->addWidget(animation_);
    onlineSteps_ = new OnlineStepView(this);  // in the animation's place while an online record is shown
    heatmapPage->addWidget(onlineSteps_);
    onlineSteps_->hide();
    onlineSteps_->setMinimumHeight(260);
    heatmapPage->setStretchFactor(0, 3);
    heatmapPage->setStretchFactor(1, 1);
    heatmapPage->setChildrenCollapsible(false);
    // No fixed minimum for the animation: its layout asks for the height its explanation needs (up to
    // half the page, AnimationPanel::fitExplanation), and the splitter takes it from the heatmap.

    using F = LabFamily;
    tabs_ = new FamilyViews(this);
    // In View's order: the index of a page is its View.
    tabs_->addView(heatmapPage, QStringLiteral("C && error animation"), {F::AbftGemm});
    tabs_->addView(timeline_, QStringLiteral("Timeline"), {F::AbftGemm});
    tabs_->addView(roofline_, QStringLiteral("Roofline"), {F::AbftGemm});
    tabs_->addView(report_, QStringLiteral("Report"), {F::AbftGemm});
    campaign_ = new CampaignView(this);
    tabs_->addView(campaign_, QStringLiteral("Campaign"), {F::AbftGemm, F::Strassen});
    gallery_ = new gallery::GalleryView(this);
    // In a scroll area: its controls at presentation sizes would otherwise set the whole window's
    // minimum width past a 1366-pixel screen (every page counts, shown or not).
    auto* galleryArea = new QScrollArea(this);
    galleryArea->setWidgetResizable(true);
    galleryArea->setFrameShape(QFrame::NoFrame);
    galleryArea->setWidget(gallery_);
    tabs_->addView(galleryArea, QStringLiteral("Sweep && access patterns"), {F::Gallery});
    strassen_ = new strassenlab::StrassenView(this);
    tabs_->addView(strassen_, QStringLiteral("Steps && plots"), {F::Strassen});
    onlineSweep_ = new OnlineSweepView(this);
    tabs_->addView(onlineSweep_, QStringLiteral("fq sweep"), {F::AbftGemm});
    tabs_->setFamily(F::AbftGemm);
    connect(campaign_, &CampaignView::runRequested, this, &MainWindow::rerunCampaignRun);
    connect(campaign_, &CampaignView::onlineRunRequested, this, &MainWindow::rerunOnlineCampaignRun);
    connect(campaign_, &CampaignView::strassenRunRequested, this, &MainWindow::rerunStrassenCampaignRun);
    connect(tabs_, &FamilyViews::familyChanged, statusBar(), &QStatusBar::clearMessage);  // no other family's message
    setCentralWidget(tabs_);
}

void MainWindow::showPanelsFor(LabFamily family)
{
    for (DockPages* pages : dockPages_)
        pages->showFamily(family);
    strategy_->schemeBox()->setVisible(family == LabFamily::AbftGemm);
    updateDockMinimums(this);
    // Again once the shown pages have been laid out (their sizes follow in posted events).
    QTimer::singleShot(0, this, [this] { updateDockMinimums(this); });
}

void MainWindow::showView(View view)
{
    tabs_->showPage(int(view));
}

MainWindow::View MainWindow::currentView() const
{
    return View(tabs_->currentIndex());
}

FamilyViews* MainWindow::views() const
{
    return tabs_;
}

}  // namespace gigacheck::ui
