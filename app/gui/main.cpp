// gigacheck-lab: the lab's GUI. `gigacheck-lab record.json` opens a record;
// `gigacheck-lab --screenshots DIR [--record FILE] [--backend auto|cpu|cuda] [--shape MxNxQ]
//  [--strategy s2|auto] [--compare s1] [--cap 16MiB] [--load-a A.npy --load-b B.npy] [--quick]`
// grabs the main views offscreen and exits; `gigacheck-lab --walkthrough DIR [--size WxH]` runs every
// family once and grabs each (export/walkthrough.hpp).
#include <window/mainwindow.hpp>
#include <export/screenshots.hpp>
#include <export/walkthrough.hpp>
#include <views/campaignview.hpp>

#include <gigacheck/version.hpp>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QScreen>
#include <QRegularExpression>

#include <iostream>

using namespace gigacheck;

int main(int argc, char** argv)
{
    // Screenshots, --help and --version need no display: fall back to the offscreen platform when
    // none is set (the xcb plugin would abort before the help is printed).
    const auto headless = [](const QByteArray& a) {
        return a == "--screenshots" || a == "--walkthrough" || a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v";
    };
    const bool noDisplay = qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    bool needsNoDisplay = false;
    for (int i = 1; i < argc; ++i)
        needsNoDisplay = needsNoDisplay || headless(QByteArray(argv[i]));
    if (noDisplay && needsNoDisplay)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (noDisplay && !needsNoDisplay) {
        // The window needs a screen: say how to get one (or do without) instead of aborting.
        std::cerr << "gigacheck-lab: no display (DISPLAY and WAYLAND_DISPLAY are unset). Start it\n"
                     "  on a virtual screen:     xvfb-run -s '-screen 0 1366x768x24' gigacheck-lab\n"
                     "  offscreen, as pictures:  gigacheck-lab --screenshots DIR\n"
                     "  without a window:        gigacheck run --help  (the same runs in the terminal)\n";
        return 2;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("gigacheck"));
    QApplication::setApplicationName(QStringLiteral("gigacheck-lab"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/gigacheck/icons/gigacheck-lab.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("gigacheck-lab"));  // the installed .desktop entry

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Gigacheck Lab: ABFT GEMM under a memory cap, live."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("record"), QStringLiteral("A run record (JSON) to open."), QStringLiteral("[record.json]"));
    const QCommandLineOption shots(QStringLiteral("screenshots"), QStringLiteral("Grab the main views into DIR and exit."), QStringLiteral("DIR"));
    const QCommandLineOption record(QStringLiteral("record"), QStringLiteral("With --screenshots: open FILE instead of running."), QStringLiteral("FILE"));
    const QCommandLineOption backend(QStringLiteral("backend"), QStringLiteral("auto, cpu or cuda (default auto)."), QStringLiteral("KIND"), QStringLiteral("auto"));
    const QCommandLineOption shape(QStringLiteral("shape"), QStringLiteral("Demo shape MxNxQ (default 2048x2048x2048)."), QStringLiteral("MxNxQ"));
    const QCommandLineOption strategy(QStringLiteral("strategy"), QStringLiteral("Demo strategy (default s2; auto: the cost-model planner chooses)."), QStringLiteral("S"));
    const QCommandLineOption compare(QStringLiteral("compare"), QStringLiteral("Run this strategy first and keep its lanes (default s1; 'none' for no comparison)."), QStringLiteral("S"), QStringLiteral("s1"));
    const QCommandLineOption cap(QStringLiteral("cap"), QStringLiteral("Demo memory cap (default 16MiB)."), QStringLiteral("SIZE"));
    const QCommandLineOption campaign(QStringLiteral("campaign"), QStringLiteral("With --screenshots: open this campaign file and grab its chart as DIR/campaign.png."), QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("With --screenshots or --walkthrough: the screen to lay the window out for (default 1600x1000, 1366x768)."), QStringLiteral("WxH"));
    const QCommandLineOption presentation(QStringLiteral("presentation"), QStringLiteral("With --screenshots: in presentation mode."));
    const QCommandLineOption loadA(QStringLiteral("load-a"), QStringLiteral("With --screenshots: import A from this .npy file (the shape follows)."), QStringLiteral("FILE"));
    const QCommandLineOption loadB(QStringLiteral("load-b"), QStringLiteral("With --screenshots: import B from this .npy file."), QStringLiteral("FILE"));
    const QCommandLineOption walkthrough(QStringLiteral("walkthrough"), QStringLiteral("Run every family once (a fault, its result, its step view, an export) and grab each into DIR as walk-<family>-<what>.png; --size sets the screen (default 1366x768)."), QStringLiteral("DIR"));
    const QCommandLineOption quick(QStringLiteral("quick"), QStringLiteral("With --screenshots: only the timeline, heatmap and report after the run."));
    parser.addOptions({shots, record, backend, shape, strategy, compare, cap, campaign, size, presentation, loadA, loadB, quick, walkthrough});
    parser.process(app);

    // --size WxH into width and height (kept when it is not given).
    const auto readSize = [&](int* width, int* height) {
        if (!parser.isSet(size))
            return;
        const auto wh = parser.value(size).split(QRegularExpression(QStringLiteral("[xX×]")));
        if (wh.size() != 2 || wh[0].toInt() < 320 || wh[1].toInt() < 240)
            throw InputError("--size wants WxH, e.g. 1366x768");
        *width = wh[0].toInt();
        *height = wh[1].toInt();
    };

    ui::MainWindow window;
    try {
        if (parser.isSet(shots) && parser.isSet(campaign)) {
            // The README's campaign chart: the lab's own view of a `gigacheck campaign --json` file.
            QString error;
            if (!window.openCampaign(parser.value(campaign), &error)) {
                std::cerr << "gigacheck-lab: cannot open " << parser.value(campaign).toStdString() << ": "
                          << error.toStdString() << '\n';
                return 2;
            }
            // At most the screen's size: on a 1366 x 768 projector, what it would show.
            const QSize screen = app.primaryScreen() ? app.primaryScreen()->availableSize() : QSize(1600, 1000);
            window.resize(QSize(1600, 1000).boundedTo(screen));
            window.show();
            QCoreApplication::processEvents();
            const QString path = QDir(parser.value(shots)).filePath(QStringLiteral("campaign.png"));
            if (!QDir().mkpath(parser.value(shots)) || !window.grab().save(path)) {
                std::cerr << "gigacheck-lab: cannot write " << path.toStdString() << '\n';
                return 1;
            }
            std::cout << path.toStdString() << '\n';
            return 0;
        }
        if (parser.isSet(walkthrough)) {
            ui::WalkthroughOptions options;
            options.directory = parser.value(walkthrough);
            readSize(&options.width, &options.height);
            if (parser.isSet(backend))
                options.backend = backendFromString(parser.value(backend).toStdString());
            QString error;
            const QStringList written = ui::takeWalkthrough(window, options, &error);
            if (written.isEmpty()) {
                std::cerr << "gigacheck-lab: walkthrough failed: " << error.toStdString() << '\n';
                return 1;
            }
            for (const QString& path : written)
                std::cout << path.toStdString() << '\n';
            return 0;
        }
        if (parser.isSet(shots)) {
            ui::ScreenshotOptions options;
            options.directory = parser.value(shots);
            options.recordPath = parser.value(record);
            options.config = ui::demoConfig();
            readSize(&options.width, &options.height);
            options.presentation = parser.isSet(presentation);
            options.config.backend = backendFromString(parser.value(backend).toStdString());
            if (parser.isSet(shape)) {
                const auto parts = parser.value(shape).split(QRegularExpression(QStringLiteral("[xX×]")));
                if (parts.size() != 3)
                    throw InputError("--shape wants MxNxQ, e.g. 4096x4096x4096");
                options.config.shape = Shape{parts[0].toLongLong(), parts[1].toLongLong(), parts[2].toLongLong()};
                // Keep the demo faults inside the new shape.
                for (auto& f : options.config.faults.at) {
                    f.row = f.row * options.config.shape.m / 2048;
                    f.col = f.col * options.config.shape.q / 2048;
                }
            }
            if (parser.value(strategy) == QLatin1String("auto"))
                options.config.planByCostModel = true;  // the planner's choice; s2 until its preview arrives
            else if (parser.isSet(strategy))
                options.config.strategy = strategyFromString(parser.value(strategy).toStdString());
            options.loadA = parser.value(loadA);
            options.loadB = parser.value(loadB);
            if (options.loadA.isEmpty() != options.loadB.isEmpty())
                throw InputError("--load-a needs --load-b too (and the other way round)");
            options.quick = parser.isSet(quick);
            if (parser.isSet(cap))
                options.config.memCapBytes = parseSize(parser.value(cap).toStdString());
            if (parser.value(compare) != QLatin1String("none"))
                options.compareWith = strategyFromString(parser.value(compare).toStdString());
            QString error;
            const QStringList written = ui::takeScreenshots(window, options, &error);
            if (written.isEmpty()) {
                std::cerr << "gigacheck-lab: screenshots failed: " << error.toStdString() << '\n';
                return 1;
            }
            for (const QString& path : written)
                std::cout << path.toStdString() << '\n';
            return 0;
        }
    } catch (const std::exception& e) {
        std::cerr << "gigacheck-lab: " << e.what() << '\n';
        return 2;
    }

    window.show();
    if (!parser.positionalArguments().isEmpty()) {
        QString error;
        const QString path = parser.positionalArguments().first();
        // A message in the window too: started from a file manager, nobody reads stderr.
        if (!window.openRecordReporting(path, &error))
            std::cerr << "gigacheck-lab: cannot open " << path.toStdString() << ": " << error.toStdString() << '\n';
    }
    return app.exec();
}
