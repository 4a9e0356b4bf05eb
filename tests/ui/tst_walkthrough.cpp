// The walk-through of every family at 1366x768 (gigacheck-lab --walkthrough): each family runs with
// its fault, and its screens and its exported plot are written as pictures of the right size.
#include "ui/uitestmain.hpp"

#include <window/mainwindow.hpp>
#include <export/walkthrough.hpp>

#include <QImage>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestWalkthrough : public QObject {
    Q_OBJECT
private slots:
    void everyFamilyAt1366x768()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow window;
        WalkthroughOptions options;
        options.directory = dir.path();
        options.timeoutSeconds = 120;
        QString error;
        const QStringList written = takeWalkthrough(window, options, &error);
        QVERIFY2(!written.isEmpty(), qPrintable(error));
        for (const QString& family : walkthroughFamilies()) {
            const QString screen = dir.filePath(QStringLiteral("walk-%1-result.png").arg(family));
            const QString exported = dir.filePath(QStringLiteral("walk-%1-export.png").arg(family));
            QVERIFY2(written.contains(screen), qPrintable(screen));
            QVERIFY2(written.contains(exported), qPrintable(exported));
            // The window as laid out for the screen, not larger (nothing off the projector's edge).
            const QImage shot(screen);
            QVERIFY2(!shot.isNull(), qPrintable(screen));
            QVERIFY2(shot.width() <= 1366 && shot.height() <= 768,
                     qPrintable(QStringLiteral("%1 is %2x%3").arg(screen).arg(shot.width()).arg(shot.height())));
            QVERIFY(shot.width() >= 1000 && shot.height() >= 600);
            QVERIFY2(!QImage(exported).isNull(), qPrintable(exported));
        }
        // The blocked family also shows the animation at its correction and the queues' timeline.
        QVERIFY(written.contains(dir.filePath(QStringLiteral("walk-blocked-step.png"))));
        QVERIFY(written.contains(dir.filePath(QStringLiteral("walk-blocked-timeline.png"))));
        QVERIFY(window.lastRecord());
    }
};

GIGACHECK_UI_TEST_MAIN(TestWalkthrough)
#include "tst_walkthrough.moc"
