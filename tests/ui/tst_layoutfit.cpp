// Issue 12, layout: on a 1366×768 projector (and at 1920×1080) the first launch shows every input
// of every panel, none clipped and none squeezed below the width it needs, without sideways
// scrolling, and the plan with its memory bar is in view; a layout saved on a larger screen is
// adapted to the smaller one. Measured by widget geometry, offscreen.
#include "ui/uitestmain.hpp"

#include <panels/memorybar.hpp>
#include <window/mainwindow.hpp>
#include <views/plotstyle.hpp>
#include <views/timelineview.hpp>
#include <window/displayscale.hpp>
#include <window/windowlayout.hpp>

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QSettings>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// A desktop's taskbar and the window's title bar take about this much of the screen's height.
constexpr int kDesktopChrome = 64;

QList<QWidget*> inputsOf(QWidget* panel)
{
    QList<QWidget*> inputs;
    for (QWidget* w : panel->findChildren<QWidget*>())
        if ((qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QLineEdit*>(w) ||
             qobject_cast<QAbstractButton*>(w)) &&
            !qobject_cast<QComboBox*>(w->parentWidget()) && !qobject_cast<QAbstractSpinBox*>(w->parentWidget()) &&
            w->isVisibleTo(panel))
            inputs << w;
    return inputs;
}

// Every input of every dock lies wholly inside the part of its dock that is on screen, and is at
// least as wide as it needs; a message naming the first that is not.
QString firstHiddenInput(MainWindow& window)
{
    const QRect windowRect = window.rect();
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || (!window.tabifiedDockWidgets(dock).isEmpty() && dock->visibleRegion().isEmpty()))
            continue;  // hidden, or behind another panel's tab
        QWidget* panel = dock->widget();
        QRect shown = QRect(panel->mapTo(&window, QPoint(0, 0)), panel->size());
        if (auto* area = qobject_cast<QScrollArea*>(panel)) {
            if (area->horizontalScrollBar()->isVisible())
                return dock->windowTitle() + QStringLiteral(": scrolls sideways");
            shown = QRect(area->viewport()->mapTo(&window, QPoint(0, 0)), area->viewport()->size());
            panel = area->widget();
        }
        shown &= windowRect;
        for (QWidget* input : inputsOf(panel)) {
            const QRect r(input->mapTo(&window, QPoint(0, 0)), input->size());
            const QString name = dock->windowTitle() + QStringLiteral(" › ") + input->metaObject()->className() +
                                 QLatin1Char(' ') + input->objectName();
            if (!shown.contains(r))
                return QStringLiteral("%1 at (%2,%3 %4×%5) outside the visible (%6,%7 %8×%9)")
                    .arg(name).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())
                    .arg(shown.x()).arg(shown.y()).arg(shown.width()).arg(shown.height());
            if (input->width() < input->minimumSizeHint().width())
                return QStringLiteral("%1 squeezed to %2 px (needs %3)").arg(name).arg(input->width()).arg(input->minimumSizeHint().width());
        }
    }
    return {};
}

bool planInView(MainWindow& window)
{
    auto* bar = window.findChild<MemoryBar*>();
    auto* summary = window.findChild<QWidget*>(QStringLiteral("planSummary"));
    if (!bar || !summary)
        return false;
    auto* area = qobject_cast<QScrollArea*>(window.findChild<QDockWidget*>(QStringLiteral("dockStrategy"))->widget());
    const QRect shown(area->viewport()->mapTo(&window, QPoint(0, 0)), area->viewport()->size());
    for (QWidget* w : {static_cast<QWidget*>(bar), summary})
        if (!shown.contains(QRect(w->mapTo(&window, QPoint(0, 0)), w->size())))
            return false;
    return true;
}

void showAt(MainWindow& window, const QRect& available)
{
    applyFirstLaunchLayout(&window, available);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        qInfo("%s: %d px wide (needs %d), %d high", qPrintable(d->objectName()), d->width(), d->widget()->minimumWidth(), d->height());
    qInfo("window %d×%d (minimum %d×%d), views %d×%d (minimum %d×%d)", window.width(), window.height(), window.minimumSizeHint().width(),
          window.minimumSizeHint().height(), window.centralWidget()->width(), window.centralWidget()->height(),
          window.centralWidget()->minimumSizeHint().width(), window.centralWidget()->minimumSizeHint().height());
}

}  // namespace

class TestLayoutFit : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void firstLaunchShowsEveryInput_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1366x768 projector") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void firstLaunchShowsEveryInput()
    {
        QFETCH(QSize, screen);
        MainWindow window;
        showAt(window, QRect(QPoint(0, 0), screen - QSize(0, kDesktopChrome)));
        QVERIFY(window.width() <= screen.width());
        QVERIFY(window.height() <= screen.height() - kDesktopChrome);
        const QString hidden = firstHiddenInput(window);
        QVERIFY2(hidden.isEmpty(), qPrintable(hidden));
        QVERIFY(planInView(window));
        // The plan's buffer table shows every buffer: nothing to scroll to.
        auto* buffers = window.findChild<QDockWidget*>(QStringLiteral("dockStrategy"))->findChild<QTableWidget*>();
        QVERIFY(buffers);
        QAbstractButton* s2 = nullptr;  // double buffering: six buffers, the most a plan has
        for (QAbstractButton* b : window.findChild<QDockWidget*>(QStringLiteral("dockStrategy"))->findChildren<QAbstractButton*>())
            if (b->text() == QStringLiteral("s2"))
                s2 = b;
        QVERIFY(s2);
        s2->click();
        QTRY_VERIFY(buffers->rowCount() >= 6);  // the plan follows the setup once the event loop runs
        QCoreApplication::processEvents();
        QVERIFY2(buffers->viewport()->height() >= buffers->verticalHeader()->length(),
                 qPrintable(QStringLiteral("%1 rows (%2 px) in a %3 px view").arg(buffers->rowCount())
                                .arg(buffers->verticalHeader()->length()).arg(buffers->viewport()->height())));
        // The views keep a useful share of the window.
        QVERIFY2(window.centralWidget()->width() >= window.width() * 2 / 5,
                 qPrintable(QString::number(window.centralWidget()->width())));
    }

    void aLayoutFromALargerScreenIsAdapted()
    {
        QByteArray geometry, state;
        const QSize largeAvailable(1920, 1080 - kDesktopChrome);
        {
            MainWindow large;
            showAt(large, QRect(QPoint(0, 0), largeAvailable));
            // The user widened both sides on the large screen.
            QList<QDockWidget*> docks{large.findChild<QDockWidget*>(QStringLiteral("dockSetup")),
                                      large.findChild<QDockWidget*>(QStringLiteral("dockStrategy"))};
            large.resizeDocks(docks, {620, 600}, Qt::Horizontal);
            QCoreApplication::processEvents();
            geometry = large.saveGeometry();
            state = large.saveState();
        }
        MainWindow small;
        const QRect available(0, 0, 1366, 768 - kDesktopChrome);
        QVERIFY(restoreWindowLayout(&small, geometry, state, largeAvailable, available));
        small.show();
        QVERIFY(QTest::qWaitForWindowExposed(&small));
        QTRY_VERIFY(small.centralWidget()->width() >= small.width() * 2 / 5);
        QVERIFY(available.contains(small.frameGeometry()));
        // Not squeezed into a corner (Qt's restoreGeometry alone leaves 2/3 of the screen).
        const QRect covered = small.frameGeometry() & available;
        QVERIFY2(qint64(covered.width()) * covered.height() >= qint64(available.width()) * available.height() * 9 / 10,
                 qPrintable(QStringLiteral("%1×%2 at %3,%4").arg(covered.width()).arg(covered.height()).arg(covered.x()).arg(covered.y())));
        const QString hidden = firstHiddenInput(small);
        QVERIFY2(hidden.isEmpty(), qPrintable(hidden));
        QVERIFY(small.centralWidget()->width() >= small.width() * 2 / 5);
        // The docks are still where the user put them.
        QCOMPARE(small.dockWidgetArea(small.findChild<QDockWidget*>(QStringLiteral("dockSetup"))), Qt::LeftDockWidgetArea);
        QCOMPARE(small.dockWidgetArea(small.findChild<QDockWidget*>(QStringLiteral("dockStrategy"))), Qt::RightDockWidgetArea);
    }

    // A relaunch on the same screen: the whole frame, status bar included, is on screen, even where
    // Qt's restoreGeometry shifts a window that filled the screen down by a guessed title bar.
    void aLayoutFromTheSameScreenStaysOnIt()
    {
        const QRect available(0, 0, 1366, 768 - kDesktopChrome);
        QByteArray geometry, state;
        {
            MainWindow first;
            showAt(first, available);
            geometry = first.saveGeometry();
            state = first.saveState();
        }
        MainWindow again;
        QVERIFY(restoreWindowLayout(&again, geometry, state, available.size(), available));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCoreApplication::processEvents();
        QVERIFY2(available.contains(again.frameGeometry()),
                 qPrintable(QStringLiteral("%1×%2 at %3,%4").arg(again.frameGeometry().width()).arg(again.frameGeometry().height())
                                .arg(again.frameGeometry().x()).arg(again.frameGeometry().y())));
        const QRect covered = again.frameGeometry() & available;  // and not squeezed
        QVERIFY(qint64(covered.width()) * covered.height() >= qint64(available.width()) * available.height() * 9 / 10);
    }

    void presentationModeEnlargesEverythingAndStillFits()
    {
        const double normalPoints = QApplication::font().pointSizeF();
        MainWindow window;
        showAt(window, QRect(0, 0, 1366, 768 - kDesktopChrome));
        const double tickPoints = window.timeline()->plot()->xAxis->tickLabelFont().pointSizeF();
        auto* log = window.findChild<QPlainTextEdit*>(QStringLiteral("runLog"));
        QVERIFY(log);
        const double logPoints = log->font().pointSizeF();
        auto* action = window.findChild<QAction*>(QStringLiteral("presentationMode"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(window.displayScale()->presentation());
        QCOMPARE(QApplication::font().pointSizeF(), normalPoints * DisplayScale::kPresentationFactor);
        QCOMPARE(plotScale(), DisplayScale::kPresentationFactor);
        QVERIFY(window.timeline()->plot()->xAxis->tickLabelFont().pointSizeF() >= tickPoints * 1.4);
        // The run log too, whose fixed-width face is set apart from the application's font.
        QTRY_COMPARE(log->font().pointSizeF(), logPoints * DisplayScale::kPresentationFactor);
        QVERIFY(log->font().fixedPitch() || log->font().styleHint() == QFont::Monospace);
        QTRY_VERIFY(window.centralWidget()->width() >= window.width() * 2 / 5);
        // The larger fonts reach the widgets through posted events: wait until they are laid out.
        QTRY_VERIFY2(firstHiddenInput(window).isEmpty(), qPrintable(firstHiddenInput(window)));

        action->trigger();  // back to normal: sizes and the panels one above the other
        QCOMPARE(QApplication::font().pointSizeF(), normalPoints);
        QTRY_COMPARE(log->font().pointSizeF(), logPoints);
        QCOMPARE(plotScale(), 1.0);
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("dockFaults"))->isVisible());
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("dockSetup"))->isVisible());
    }

    // QT_SCALE_FACTOR=1.5 on a 1366×768 projector leaves 910×512 logical pixels: the window (and,
    // in presentation mode, its larger fonts) stays on the screen; the docks shrink and scroll.
    void aScaledSmallScreenKeepsTheWindowOnIt()
    {
        const QRect available(0, 0, 1366 * 2 / 3, (768 - kDesktopChrome) * 2 / 3);
        MainWindow window;
        showAt(window, available);
        QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                 qPrintable(QStringLiteral("%1×%2").arg(window.width()).arg(window.height())));
        QVERIFY(window.minimumSizeHint().width() <= available.width());
        QVERIFY(window.centralWidget()->width() >= window.width() / 3);

        window.findChild<QAction*>(QStringLiteral("presentationMode"))->trigger();
        const auto onScreen = [&] {
            return available.contains(window.frameGeometry()) && window.minimumSizeHint().width() <= available.width();
        };
        const bool fits = QTest::qWaitFor(onScreen, 5000);
        const QRect frame = window.frameGeometry();
        window.findChild<QAction*>(QStringLiteral("presentationMode"))->trigger();  // back, whatever happened
        QVERIFY2(fits, qPrintable(QStringLiteral("%1×%2 at %3,%4 (minimum width %5)").arg(frame.width()).arg(frame.height())
                                      .arg(frame.x()).arg(frame.y()).arg(window.minimumSizeHint().width())));
    }

    void theTextSizePersists()
    {
        const double normalPoints = QApplication::font().pointSizeF();
        {
            MainWindow window;
            window.displayScale()->setZoomPercent(130);
            QCOMPARE(QApplication::font().pointSizeF(), normalPoints * 1.3);
            window.displayScale()->setZoomPercent(100);
            window.displayScale()->setZoomPercent(120);
        }
        MainWindow again;
        QCOMPARE(again.displayScale()->zoomPercent(), 120);
        QVERIFY(qAbs(QApplication::font().pointSizeF() - normalPoints * 1.2) < 0.01);
        again.displayScale()->setZoomPercent(100);
        QCOMPARE(QApplication::font().pointSizeF(), normalPoints);
    }
};

GIGACHECK_UI_TEST_MAIN(TestLayoutFit)
#include "tst_layoutfit.moc"
