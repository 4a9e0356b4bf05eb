// Fits every screen: at 1366×768, 1920×1080, 2560×1440 and a 1366×768 screen at QT_SCALE_FACTOR
// 1.25 and 1.5 (910×512 logical pixels: the same layout Qt lays out, emulated by the available
// area, since the scale factor is fixed per process), every view of every family is shown and the
// test fails on clipping: a family's tabs that need scroll arrows, a widget given less than it
// asks for (its minimum size hint, or a wrapped label's height for its width), a widget cut off by
// a parent it cannot scroll in, a dock that scrolls at scale 1, a plot legend whose entry is
// drawn narrower than it needs or past the plot, campaign bit labels that run together.
// Presentation mode on and off gives back exactly the dock widths it left.
#include "ui/uitestmain.hpp"

#include <panels/runpanel.hpp>
#include <views/campaignview.hpp>
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
            const bool sideways = cut.left() != r.left() || cut.right() != r.right();
            const bool upDown = cut.top() != r.top() || cut.bottom() != r.bottom();
            if (!viewport || (sideways && !area->horizontalScrollBar()->isVisible()) ||
                (upDown && !area->verticalScrollBar()->isVisible())) {
                *seen = cut;
                return false;
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
QString firstClipped(QMainWindow& window)
{
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!isControl(w) || !w->isVisibleTo(&window) || qobject_cast<const QTabBar*>(w->parentWidget()) ||
            qobject_cast<const QDockWidget*>(w->parentWidget()))
            continue;  // the tab bar's scroll buttons (tested apart), the docks' own float / close buttons
        if (qobject_cast<QComboBox*>(w->parentWidget()) || qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
            continue;  // their own line edits
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

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}

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
        QTest::newRow("1366x768") << QSize(1366, 768) << 1.0;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 1.0;
        QTest::newRow("2560x1440") << QSize(2560, 1440) << 1.0;
        QTest::newRow("1366x768 at 1.25") << QSize(1366, 768) << 1.25;
        QTest::newRow("1366x768 at 1.5") << QSize(1366, 768) << 1.5;
    }

    void everyViewFits()
    {
        QFETCH(QSize, screen);
        QFETCH(double, scale);
        const QRect available(0, 0, int(screen.width() / scale), int((screen.height() - kDesktopChrome) / scale));
        MainWindow window;
        window.campaignView()->setCampaign(campaign_);
        QString error;
        QVERIFY2(window.openRecord(QFINDTESTDATA("../../resources/records/cpu-1024-s2.json"), &error), qPrintable(error));
        applyFirstLaunchLayout(&window, available);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
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
                QVERIFY2(views->tabBar()->sizeHint().width() <= tabRoom,
                         qPrintable(where + QStringLiteral("tabs need %1 px, have %2").arg(views->tabBar()->sizeHint().width()).arg(tabRoom)));
                if (scale == 1.0) {
                    const QString scrolling = scrollingDock(window);
                    QVERIFY2(scrolling.isEmpty(), qPrintable(where + scrolling));
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
