// Fits every screen: at 1366×768, 1920×1080, 2560×1440 and a 1366×768 screen at QT_SCALE_FACTOR
// 1.25 and 1.5 (910×512 logical pixels: the same layout Qt lays out, emulated by the available
// area, since the scale factor is fixed per process), every view of every family is shown and the
// test fails on clipping: a family's tabs that need scroll arrows, a widget given less than it
// asks for (its minimum size hint, or a wrapped label's height for its width), a widget cut off by
// a parent it cannot scroll in, a dock that scrolls at scale 1 (also with the online and TMR
// schemes' extra fault rows at 1366×768), a plot legend whose entry is
// drawn narrower than it needs or past the plot, campaign bit labels that run together.
// The same with presentation mode on at 1366×768 and 1920×1080 (a view may scroll there, nothing
// is cut). Presentation mode on and off gives back exactly the dock widths it left. After a run of each
// checked-GEMM scheme with a fault, every step of its animation or step view is shown whole (no
// explanation that needs more height than it gets, no view that scrolls, a verdict not cut) and
// has content (TMR's replicas and vote, not an empty plot); each family shows only the docks it
// uses. The kernel gallery's plots fill their room after a sweep (no blank band beside or under
// their axes) and get the height a 1920×1080 screen adds.
#include "ui/uitestmain.hpp"

#include <panels/faultspanel.hpp>
#include <panels/onlinefaultbox.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/runpanel.hpp>
#include <panels/setuppanel.hpp>
#include <panels/strategypanel.hpp>
#include <views/animationpanel.hpp>
#include <views/campaignview.hpp>
#include <views/gallery/galleryview.hpp>
#include <views/online/onlinestepview.hpp>
#include <views/legendfit.hpp>
#include <window/familyviews.hpp>
#include <window/mainwindow.hpp>
#include <window/windowlayout.hpp>

#include <gigacheck/campaign.hpp>

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabBar>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

constexpr int kDesktopChrome = 64;  // a taskbar and the window's title bar

bool isControl(const QWidget* w)
{
    return qobject_cast<const QLabel*>(w) || qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QComboBox*>(w) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QLineEdit*>(w);
}

// Whether all of w can be seen: its rectangle cut by every parent up to the window is all of it,
// except where a scroll area's viewport cuts it in a direction that area scrolls to.
bool reachable(const QWidget* w, const QWidget* window, QRect* seen)
{
    QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget()) {
        const QRect pr(p->mapTo(window, QPoint(0, 0)), p->size());
        const QRect cut = r & pr;
        if (cut != r) {
            auto* area = qobject_cast<const QAbstractScrollArea*>(p->parentWidget());
            const bool viewport = area && area->viewport() == p;
            const bool sideways = r.left() < pr.left() || r.right() > pr.right();
            const bool upDown = r.top() < pr.top() || r.bottom() > pr.bottom();
            if (!viewport || (sideways && !area->horizontalScrollBar()->isVisible()) ||
                (upDown && !area->verticalScrollBar()->isVisible())) {
                *seen = cut;
                return false;
            }
            // Scrolled out of the viewport: scrolling brings it into the viewport, which must be seen.
            if (cut.isEmpty()) {
                r = pr;
                continue;
            }
        }
        r = cut;
    }
    *seen = r;
    return true;
}

QString nameOf(const QWidget* w)
{
    QString text;
    if (auto* label = qobject_cast<const QLabel*>(w))
        text = label->text().left(40);
    else if (auto* button = qobject_cast<const QAbstractButton*>(w))
        text = button->text();
    QString path;
    for (const QWidget* p = w; p && !p->isWindow(); p = p->parentWidget())
        if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_"))) {
            path = p->objectName();
            break;
        }
    return QStringLiteral("%1 \"%2\" (in %3)").arg(QString::fromLatin1(w->metaObject()->className()), text, path);
}

// The first clipped control of the window's visible part, or an empty string.
// Whether w lies in a dock that is not on screen: behind another dock's tab.
bool behindAnotherTab(const QWidget* w)
{
    for (const QWidget* p = w; p; p = p->parentWidget())
        if (auto* dock = qobject_cast<const QDockWidget*>(p))
            return dock->visibleRegion().isEmpty();
    return false;
}

QString firstClipped(QMainWindow& window)
{
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!isControl(w) || !w->isVisibleTo(&window) || qobject_cast<const QTabBar*>(w->parentWidget()) ||
            qobject_cast<const QDockWidget*>(w->parentWidget()))
            continue;  // the tab bar's scroll buttons (tested apart), the docks' own float / close buttons
        if (qobject_cast<QComboBox*>(w->parentWidget()) || qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
            continue;  // their own line edits
        if (behindAnotherTab(w))
            continue;  // laid out when its dock's tab is chosen (presentation mode's tabbed docks)
        auto* label = qobject_cast<QLabel*>(w);
        if (label && (label->text().isEmpty() || !label->pixmap().isNull()))
            continue;
        const QSize need = w->minimumSizeHint();
        if (label && label->wordWrap()) {
            const int height = label->heightForWidth(label->width());
            if (height > label->height() + 1)
                return QStringLiteral("%1: %2 px high, its text needs %3").arg(nameOf(w)).arg(w->height()).arg(height);
        } else if (need.isValid() && (w->width() + 1 < need.width() || w->height() + 1 < need.height())) {
            return QStringLiteral("%1: %2×%3, needs %4×%5").arg(nameOf(w)).arg(w->width()).arg(w->height()).arg(need.width()).arg(need.height());
        }
        const QRect whole(w->mapTo(&window, QPoint(0, 0)), w->size());
        QRect seen;
        if (!reachable(w, &window, &seen))
        if (!reachable(w, &window, &seen))
            return QStringLiteral("%1 at %2,%3 %4×%5: only %6×%7 of it can be seen")
                .arg(nameOf(w)).arg(whole.x()).arg(whole.y()).arg(whole.width()).arg(whole.height()).arg(seen.width()).arg(seen.height());
    }
    return {};
}

QString scrollingDock(QMainWindow& window)
{
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || dock->visibleRegion().isEmpty())
            continue;
        if (auto* area = qobject_cast<QScrollArea*>(dock->widget()))
            if (area->verticalScrollBar()->isVisible() || area->horizontalScrollBar()->isVisible())
                return QStringLiteral("%1 scrolls (%2×%3 px, its panel needs %4, %5 at that width; range %6)")
                    .arg(dock->windowTitle()).arg(area->viewport()->width()).arg(area->viewport()->height())
                    .arg(area->widget()->minimumSizeHint().height())
                    .arg(area->widget()->hasHeightForWidth() ? area->widget()->heightForWidth(area->viewport()->width()) : -1)
                    .arg(area->verticalScrollBar()->maximum());
    }
    return {};
}

// A scroll area in the views (the gallery's page, the animation's explanation) that scrolls: part
// of a view out of sight. A document (plain text: the campaign's summary tables) may scroll.
QString scrollingView(QMainWindow& window)
{
    for (QScrollArea* area : window.centralWidget()->findChildren<QScrollArea*>()) {
        if (!area->isVisibleTo(&window) || !area->isVisible())
            continue;
        if (auto* text = qobject_cast<QLabel*>(area->widget()); text && text->textFormat() == Qt::PlainText)
            continue;
        if (area->verticalScrollBar()->isVisible() || area->horizontalScrollBar()->isVisible())
            return QStringLiteral("%1 scrolls (%2×%3 px shown, its content %4×%5)")
                .arg(area->widget() && !area->widget()->objectName().isEmpty() ? area->widget()->objectName() : area->objectName())
                .arg(area->viewport()->width()).arg(area->viewport()->height())
                .arg(area->widget() ? area->widget()->minimumSizeHint().width() : -1)
                .arg(area->widget() && area->widget()->hasHeightForWidth() ? area->widget()->heightForWidth(area->viewport()->width())
                                                                          : area->widget() ? area->widget()->minimumSizeHint().height() : -1);
    }
    return {};
}

// The docks shown, by object name, sorted.
QStringList docksShown(QMainWindow& window)
{
    QStringList shown;
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        if (d->isVisible())
            shown << d->objectName();
    shown.sort();
    return shown;
}

// The walk-through's small run (512³, several blocks under a 1 MiB cap) of a checked-GEMM scheme
// with its fault, as Start runs it; false when it failed or took too long.
bool runScheme(MainWindow& window, Scheme scheme)
{
    RunConfig c;
    c.shape = Shape{512, 512, 512};
    c.precision = Precision::F32;
    c.strategy = StrategyKind::S2;
    c.memCapBytes = 1ull << 20;
    c.backend = BackendKind::Cpu;
    c.faults.at = scheme == Scheme::Blocked ? std::vector<FaultAt>{FaultAt{40, 60, {}, {}}, FaultAt{40, 200, {}, {}}, FaultAt{400, 450, {}, {}}}
                                            : std::vector<FaultAt>{FaultAt{170, 300, {}, {}}};
    window.setConfig(c);
    window.strategyPanel()->schemeBox()->setSettings({scheme, 64, 1, 1});
    window.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, scheme == Scheme::Tmr ? 0 : 2});
    QSignalSpy done(&window, &MainWindow::runFinished);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    window.showView(MainWindow::View::Timeline);  // Start runs the checked GEMM shown
    window.startRun();
    for (int i = 0; i < 600 && done.isEmpty() && failed.isEmpty(); ++i)
        done.wait(200);
    window.showView(MainWindow::View::Heatmap);
    return !done.isEmpty();
}

QString clippedLegend(QMainWindow& window)
{
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
        if (!plot->isVisibleTo(&window))
            continue;
        plot->replot(QCustomPlot::rpImmediateRefresh);
        if (legendClipped(plot))
            return plot->objectName() + QStringLiteral(": a legend entry is cut");
    }
    return {};
}

// A band of a plot that its layout leaves empty: the rows of its top layout grid (axes, title,
// note, legend) together shorter than the plot, axes narrower than it (an empty legend once capped
// the column at the note's width), or axes squeezed under 40 % of its height by the rows beside.
QString blankBand(QCustomPlot* plot)
{
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCPLayoutGrid* grid = plot->plotLayout();
    int rowsHeight = 0;
    QStringList rows;
    for (int r = 0; r < grid->rowCount(); ++r) {
        int height = 0;
        for (int c = 0; c < grid->columnCount(); ++c)
            if (grid->hasElement(r, c) && grid->element(r, c)->visible())
                height = std::max(height, grid->element(r, c)->outerRect().height());
        rowsHeight += height + (r > 0 ? grid->rowSpacing() : 0);
        rows << QString::number(height);
    }
    const QRect axes = plot->axisRect()->outerRect();
    if (rowsHeight < plot->height() - 4 || axes.width() < plot->width() - 2 || axes.height() < plot->height() * 2 / 5)
        return QStringLiteral("%1 (%2×%3 px): its rows (%4) fill %5 px of its height, the axes %6×%7 px")
            .arg(plot->objectName()).arg(plot->width()).arg(plot->height())
            .arg(rows.join(QStringLiteral(" + "))).arg(rowsHeight).arg(axes.width()).arg(axes.height());
    return {};
}

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}

// Presentation mode on for a scope when asked; off again at its end (its larger fonts are the
// application's: never into the next test).
class PresentationMode {
public:
    PresentationMode(MainWindow& window, bool on)
        : action_(window.findChild<QAction*>(QStringLiteral("presentationMode"))), on_(on)
    {
        if (on_) {
            action_->trigger();
            settle();
        }
    }
    ~PresentationMode()
    {
        if (on_)
            action_->trigger();
    }
    PresentationMode(const PresentationMode&) = delete;
    PresentationMode& operator=(const PresentationMode&) = delete;

private:
    QAction* action_;
    bool on_;
};

CampaignResult bitCampaign()
{
    CampaignConfig c;
    c.runs = 40;
    c.shape = {24, 20, 16};
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::S1};
    c.seed = 5;
    return runCampaign(c);
}

}  // namespace

class TestScreenFit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { campaign_ = bitCampaign(); }
    void init() { QSettings().clear(); }

    void everyViewFits_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("presentation");
        QTest::newRow("1366x768") << QSize(1366, 768) << 1.0 << int(Scheme::Blocked) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 1.0 << int(Scheme::Blocked) << false;
        QTest::newRow("2560x1440") << QSize(2560, 1440) << 1.0 << int(Scheme::Blocked) << false;
        QTest::newRow("1366x768 at 1.25") << QSize(1366, 768) << 1.25 << int(Scheme::Blocked) << false;
        QTest::newRow("1366x768 at 1.5") << QSize(1366, 768) << 1.5 << int(Scheme::Blocked) << false;
        // The online schemes' extra Faults rows (target, step or replica): still no dock scrolls.
        QTest::newRow("1366x768 online") << QSize(1366, 768) << 1.0 << int(Scheme::Online) << false;
        QTest::newRow("1366x768 tmr") << QSize(1366, 768) << 1.0 << int(Scheme::Tmr) << false;
        // Presentation mode (fonts, plot text and pens 1.5x; each side's docks as tabs): nothing cut.
        QTest::newRow("1366x768 presentation") << QSize(1366, 768) << 1.0 << int(Scheme::Blocked) << true;
        QTest::newRow("1920x1080 presentation") << QSize(1920, 1080) << 1.0 << int(Scheme::Blocked) << true;
    }

    void everyViewFits()
    {
        QFETCH(QSize, screen);
        QFETCH(double, scale);
        QFETCH(int, scheme);
        QFETCH(bool, presentation);
        const QRect available(0, 0, int(screen.width() / scale), int((screen.height() - kDesktopChrome) / scale));
        MainWindow window;
        window.campaignView()->setCampaign(campaign_);
        QString error;
        QVERIFY2(window.openRecord(QFINDTESTDATA("../../resources/records/cpu-1024-s2.json"), &error), qPrintable(error));
        applyFirstLaunchLayout(&window, available);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        const PresentationMode presentationMode(window, presentation);
        // The scheme chosen after the first layout, as a user does: the docks keep their heights.
        window.strategyPanel()->schemeBox()->setSettings({Scheme(scheme), 64, 1, 1});
        settle();
        QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                 qPrintable(QStringLiteral("window %1×%2").arg(window.width()).arg(window.height())));
        FamilyViews* views = window.views();
        for (LabFamily family : {LabFamily::AbftGemm, LabFamily::Strassen, LabFamily::Gallery}) {
            views->setFamily(family);
            for (int page = 0; page < views->count(); ++page) {
                if (!views->belongsTo(page, family))
                    continue;
                views->setCurrentIndex(page);
                settle();
                const QString where = views->selector()->currentText() + QStringLiteral(" › ") + views->tabText(page) + QStringLiteral(": ");
                const int tabRoom = views->width() - views->cornerWidget(Qt::TopLeftCorner)->width();
                // Presentation mode too: its panels share one column, so the views keep the room.
                QVERIFY2(views->tabBar()->sizeHint().width() <= tabRoom,
                         qPrintable(where + QStringLiteral("tabs need %1 px, have %2").arg(views->tabBar()->sizeHint().width()).arg(tabRoom)));
                // At scale 1 nothing scrolls; presentation mode's larger text may scroll a view
                // (the kernel gallery at 1366x768), never cut it.
                if (scale == 1.0 && !presentation) {
                    const QString scrolling = scrollingDock(window);
                    QVERIFY2(scrolling.isEmpty(), qPrintable(where + scrolling));
                    const QString view = scrollingView(window);
                    QVERIFY2(view.isEmpty(), qPrintable(where + view));
                }
                const QString clipped = firstClipped(window);
                QVERIFY2(clipped.isEmpty(), qPrintable(where + clipped));
                const QString legend = clippedLegend(window);
                QVERIFY2(legend.isEmpty(), qPrintable(where + legend));
            }
        }
        // The campaign's bit labels: one label's width (and a gap) between two labelled bars.
        window.showView(MainWindow::View::Campaign);
        settle();
        CampaignView* campaign = window.campaignView();
        campaign->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(campaign->tickLabelStep(), campaign->tickLabelStepFor(campaign->plot()->axisRect()->width()));
        QVERIFY(campaign->tickLabelStep() >= 1);
    }

    // Every step a lecturer steps through after a run, at 1366×768 and 1920×1080: the blocked
    // family's animation (its explanation whole, not scrolled), the online / offline step slider
    // (its verdict line whole) and TMR's replicas and vote, each with its faults drawn.
    void everyStepOfARunFits_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("presentation");
        for (bool presentation : {false, true})
            for (const QSize& screen : {QSize(1366, 768), QSize(1920, 1080)})
                for (Scheme scheme : {Scheme::Blocked, Scheme::Online, Scheme::Offline, Scheme::Tmr}) {
                    const std::string_view name = toString(scheme);
                    QTest::newRow(qPrintable(QStringLiteral("%1x%2 %3%4").arg(screen.width()).arg(screen.height())
                                                 .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                                                      presentation ? QStringLiteral(" presentation") : QString())))
                        << screen << int(scheme) << presentation;
                }
    }

    void everyStepOfARunFits()
    {
        QFETCH(QSize, screen);
        QFETCH(int, scheme);
        QFETCH(bool, presentation);
        MainWindow window;
        applyFirstLaunchLayout(&window, QRect(QPoint(0, 0), screen - QSize(0, kDesktopChrome)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        const PresentationMode presentationMode(window, presentation);
        QVERIFY(runScheme(window, Scheme(scheme)));
        settle();
        const auto fits = [&](const QString& where) {
            const QString clipped = firstClipped(window);
            // In presentation mode on a small screen a long explanation scrolls (animationpanel.cpp):
            // it is reached, never cut.
            const QString scrolling = presentation ? QString() : scrollingView(window);
            return clipped.isEmpty() && scrolling.isEmpty() ? QString() : where + clipped + scrolling;
        };
        if (Scheme(scheme) == Scheme::Blocked) {
            AnimationPanel* animation = window.animation();
            QVERIFY(animation->isVisible());
            // The run ended while the timeline was shown: the verdict set then is whole now.
            const QString afterRun = firstClipped(window);
            QVERIFY2(afterRun.isEmpty(), qPrintable(QStringLiteral("after the run: ") + afterRun));
            QVERIFY(animation->steps().size() >= 4);
            for (int i = 0; i < int(animation->steps().size()); ++i) {
                animation->goTo(i);
                settle();
                const QString error = fits(QStringLiteral("animation step %1: ").arg(i + 1));
                QVERIFY2(error.isEmpty(), qPrintable(error));
            }
            return;
        }
        OnlineStepView* steps = window.onlineSteps();
        QVERIFY(steps->isVisible());
        QVERIFY2(steps->model().count() > 0, "a run with a fault and nothing to step through");
        auto* plot = steps->findChild<QCustomPlot*>(QStringLiteral("onlineStepPlot"));
        QVERIFY(plot && plot->graphCount() >= 2);
        bool caughtShown = false;
        for (int i = 0; i < steps->model().count(); ++i) {
            steps->setPosition(i);
            settle();
            const QString error = fits(QStringLiteral("step position %1: ").arg(i));
            QVERIFY2(error.isEmpty(), qPrintable(error));
            // Each fault struck by now is drawn, caught or not.
            int drawn = 0;
            for (int g = 0; g < plot->graphCount(); ++g)
                drawn += plot->graph(g)->dataCount();
            QCOMPARE(drawn, int(steps->model().faultsAt(i).size()));
            for (const auto& f : steps->model().faultsAt(i))
                caughtShown = caughtShown || f.caught;
        }
        QVERIFY2(caughtShown, "the fault is never shown caught");
        QVERIFY(!steps->verdictText().isEmpty());
    }

    // One set of docks for every family (issue 43): the checked GEMM, Strassen and the kernel
    // gallery all show Matrix setup, Faults, Algorithm and Run, each dock with the panel of the
    // family on screen (and only that one); nothing in them or in the views scrolls or is cut at
    // 1366x768; back to the checked GEMM, its own panels again.
    void everyFamilyUsesTheSameDocks()
    {
        MainWindow window;
        applyFirstLaunchLayout(&window, QRect(0, 0, 1366, 768 - kDesktopChrome));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        const QStringList all{QStringLiteral("dockFaults"), QStringLiteral("dockRun"), QStringLiteral("dockSetup"),
                              QStringLiteral("dockStrategy")};
        QCOMPARE(docksShown(window), all);
        auto* setup = window.findChild<SetupPanel*>();
        const auto shown = [&](const char* name) { return window.findChild<QWidget*>(QLatin1String(name))->isVisible(); };
        QVERIFY(setup->isVisible());
        QVERIFY(!shown("strassenInputsPanel") && !shown("galleryInputsPanel"));
        for (MainWindow::View view : {MainWindow::View::Gallery, MainWindow::View::Strassen, MainWindow::View::Gallery,
                                      MainWindow::View::Strassen}) {
            window.showView(view);
            settle();
            QCOMPARE(docksShown(window), all);
            const bool strassen = view == MainWindow::View::Strassen;
            QCOMPARE(shown("strassenInputsPanel"), strassen);
            QCOMPARE(shown("strassenAlgorithmPanel"), strassen);
            QCOMPARE(shown("strassenFaultPanel"), strassen);
            QCOMPARE(shown("galleryInputsPanel"), !strassen);
            QCOMPARE(shown("galleryAlgorithmPanel"), !strassen);
            QCOMPARE(shown("galleryFaultPanel"), !strassen);
            QVERIFY(!setup->isVisible());
            QVERIFY(!window.findChild<StrategyPanel*>()->schemeBox()->isVisible());  // the checked GEMM's scheme
            const QString scrolling = scrollingView(window) + scrollingDock(window);
            QVERIFY2(scrolling.isEmpty(), qPrintable(scrolling));
            const QString clipped = firstClipped(window);
            QVERIFY2(clipped.isEmpty(), qPrintable(clipped));
        }
        // The gallery after the walk-through's sweep (five transpose kernels, their legend): whole.
        auto* gallery = window.findChild<gallery::GalleryView*>();
        auto* family = window.findChild<QComboBox*>(QStringLiteral("galleryFamily"));
        family->setCurrentIndex(1);
        QSignalSpy swept(gallery, &gallery::GalleryView::sweepFinished);
        gallery->startSweep();
        QVERIFY(swept.wait(120000));
        settle();
        const QString scrolling = scrollingView(window);
        QVERIFY2(scrolling.isEmpty(), qPrintable(QStringLiteral("gallery after a sweep: ") + scrolling));
        const QString clipped = firstClipped(window);
        QVERIFY2(clipped.isEmpty(), qPrintable(QStringLiteral("gallery after a sweep: ") + clipped));

        window.showView(MainWindow::View::Heatmap);
        settle();
        QCOMPARE(docksShown(window), all);
        QVERIFY(setup->isVisible() && window.findChild<StrategyPanel*>()->schemeBox()->isVisible());
        QVERIFY(!shown("strassenInputsPanel") && !shown("galleryInputsPanel"));
    }

    // The kernel gallery's two plots fill the room they are given after a sweep of each family, at
    // 1366x768 and 1920x1080 (also in presentation mode): no empty band beside or under the axes,
    // and the plots, not the animation's margins, get the height a large screen adds.
    void galleryPlotsFillTheirArea_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<bool>("presentation");
        QTest::newRow("1366x768") << QSize(1366, 768) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
        QTest::newRow("1920x1080 presentation") << QSize(1920, 1080) << true;
    }

    void galleryPlotsFillTheirArea()
    {
        QFETCH(QSize, screen);
        QFETCH(bool, presentation);
        MainWindow window;
        applyFirstLaunchLayout(&window, QRect(QPoint(0, 0), screen - QSize(0, kDesktopChrome)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (presentation)
            window.findChild<QAction*>(QStringLiteral("presentationMode"))->trigger();
        window.showView(MainWindow::View::Gallery);
        settle();
        auto* gallery = window.findChild<gallery::GalleryView*>();
        auto* family = window.findChild<QComboBox*>(QStringLiteral("galleryFamily"));
        QVERIFY(gallery && family);
        // The plots over the access-pattern animation: the plots get at least its height where the
        // page has room for more than both minimums (its square grids left blank bands each side).
        QSplitter* split = nullptr;
        for (QSplitter* s : gallery->findChildren<QSplitter*>())
            if (s->orientation() == Qt::Vertical)
                split = s;
        QVERIFY(split && split->count() == 2);
        if (split->height() >= split->widget(0)->minimumSizeHint().height() + 2 * split->widget(1)->minimumSizeHint().height())
            QVERIFY2(split->sizes().at(0) >= split->sizes().at(1),
                     qPrintable(QStringLiteral("plots %1 px, animation %2 px").arg(split->sizes().at(0)).arg(split->sizes().at(1))));
        for (int f = 0; f < family->count(); ++f) {
            family->setCurrentIndex(f);
            QSignalSpy swept(gallery, &gallery::GalleryView::sweepFinished);
            gallery->startSweep();
            QVERIFY(swept.wait(120000));
            settle();
            for (QCustomPlot* plot : {gallery->plot(), gallery->roofline()}) {
                const QString band = blankBand(plot);
                QVERIFY2(band.isEmpty(), qPrintable(family->currentText() + QStringLiteral(": ") + band));
            }
        }
        if (presentation)  // its larger fonts are the application's: not into the next test
            window.findChild<QAction*>(QStringLiteral("presentationMode"))->trigger();
    }

    void campaignBitLabelsThinOutOnANarrowPlot()
    {
        CampaignView view;
        view.setCampaign(campaign_);
        QVERIFY(view.model()->groupsAreBits());
        QVERIFY(view.model()->groups().size() >= 8);
        QCOMPARE(view.tickLabelStepFor(4000), 1);
        QVERIFY(view.tickLabelStepFor(100) > 1);
    }

    void presentationModeRestoresTheLayout_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void presentationModeRestoresTheLayout()
    {
        QFETCH(QSize, screen);
        MainWindow window;
        applyFirstLaunchLayout(&window, QRect(QPoint(0, 0), screen - QSize(0, kDesktopChrome)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        const auto widths = [&] {
            QStringList w;
            for (QDockWidget* d : window.findChildren<QDockWidget*>())
                w << QStringLiteral("%1 %2×%3").arg(d->objectName()).arg(d->width()).arg(d->height());
            w.sort();
            w << QStringLiteral("views %1×%2").arg(window.centralWidget()->width()).arg(window.centralWidget()->height());
            return w.join(QStringLiteral(", "));
        };
        const QString before = widths();
        auto* action = window.findChild<QAction*>(QStringLiteral("presentationMode"));
        action->trigger();
        settle();
        QVERIFY(widths() != before);
        QVERIFY(window.runPanel()->startButton()->isVisible());  // Start never behind another panel's tab
        action->trigger();
        settle();
        QCOMPARE(widths(), before);
    }

private:
    CampaignResult campaign_;
};

GIGACHECK_UI_TEST_MAIN(TestScreenFit)
#include "tst_screenfit.moc"
