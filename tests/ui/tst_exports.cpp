// Exports write valid files: PNG magic, PDF header, SVG root element, CSV header and rows.
#include "ui/uitestmain.hpp"

#include <window/mainwindow.hpp>
#include <export/plotexport.hpp>
#include <views/timelineview.hpp>

#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <sys/stat.h>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestExports : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;

    static QByteArray head(const QString& path, int n)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return f.read(n);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<MainWindow>();
        window_->resize(1300, 900);
        window_->show();
        RunConfig c;
        c.shape = Shape{256, 192, 320};
        c.memCapBytes = 192 * 1024;
        c.strategy = StrategyKind::S3;
        c.backend = BackendKind::Cpu;
        c.faults.at = {FaultAt{17, 33, {}, {}}};
        window_->setConfig(c);
        QSignalSpy finished(window_.get(), &MainWindow::runFinished);
        window_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    }
    void cleanupTestCase() { window_.reset(); }

    void images_data()
    {
        QTest::addColumn<int>("view");
        QTest::addColumn<QString>("suffix");
        for (auto [view, name] : {std::pair{MainWindow::View::Heatmap, "heatmap"}, {MainWindow::View::Timeline, "timeline"},
                                  {MainWindow::View::Roofline, "roofline"}})
            for (const char* suffix : {"png", "pdf", "svg"})
                QTest::newRow(qPrintable(QStringLiteral("%1.%2").arg(QLatin1String(name), QLatin1String(suffix))))
                    << int(view) << QString::fromLatin1(suffix);
    }
    void images()
    {
        QFETCH(int, view);
        QFETCH(QString, suffix);
        const QString path = dir_.filePath(QStringLiteral("view%1.%2").arg(view).arg(suffix));
        QString error;
        QVERIFY2(window_->exportView(MainWindow::View(view), path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 500);
        if (suffix == QLatin1String("png")) {
            QCOMPARE(head(path, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
            QImage image(path);
            QVERIFY(!image.isNull());
        } else if (suffix == QLatin1String("pdf")) {
            QCOMPARE(head(path, 5), QByteArray("%PDF-"));
        } else {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QXmlStreamReader xml(&f);
            QVERIFY(xml.readNextStartElement());
            QCOMPARE(xml.name().toString(), QStringLiteral("svg"));
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        }
    }

    void csv_data()
    {
        QTest::addColumn<int>("view");
        QTest::addColumn<QString>("header");
        QTest::newRow("timeline") << int(MainWindow::View::Timeline) << QStringLiteral("run,lane,op,kind,block_i,block_j,block_k,start_s,end_s,bytes,flops");
        QTest::newRow("roofline") << int(MainWindow::View::Roofline) << QStringLiteral("run,point,kind,intensity_flop_per_byte,gflops");
        QTest::newRow("heatmap") << int(MainWindow::View::Heatmap) << QStringLiteral("row,col,values of C");
    }
    void csv()
    {
        QFETCH(int, view);
        QFETCH(QString, header);
        const QString path = dir_.filePath(QStringLiteral("data%1.csv").arg(view));
        QString error;
        QVERIFY2(window_->exportView(MainWindow::View(view), path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), header);
        QVERIFY(lines.size() > 2);
        const int columns = int(header.count(QLatin1Char(','))) + 1;
        for (const QString& line : lines)
            QCOMPARE(int(line.count(QLatin1Char(','))) + 1, columns);
        if (MainWindow::View(view) == MainWindow::View::Timeline)
            QCOMPARE(std::size_t(lines.size() - 1), window_->lastRecord()->spans.size());
    }

    void csvQuotesFieldsWithCommas()
    {
        const QString path = dir_.filePath(QStringLiteral("quoted.csv"));
        QVERIFY(writeCsv(path, {QStringLiteral("a"), QStringLiteral("b")}, {{QStringLiteral("x, y"), QStringLiteral("say \"hi\"")}}, nullptr));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n"));
    }

    // A CSV or a picture never replaces a FIFO (nor blocks on one): refused in one line.
    void exportToAFifoIsRefused()
    {
        const QString fifo = dir_.filePath(QStringLiteral("export.fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        for (const char* suffix : {"", ".png"}) {
            QString error;
            const QString path = fifo + QLatin1String(suffix);
            if (*suffix)
                QVERIFY(QFile::link(fifo, path));  // a link to it: a picture is named by its suffix
            QVERIFY(!window_->exportView(MainWindow::View::Timeline, path, &error));
            QVERIFY2(error.contains(QStringLiteral("FIFO")), qPrintable(error));
        }
        QVERIFY(!writeCsv(fifo, {QStringLiteral("a")}, {}, nullptr));
        struct stat st {};
        QVERIFY(::lstat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }

    void unknownFormatIsRefused()
    {
        QString error;
        QVERIFY(!window_->exportView(MainWindow::View::Timeline, dir_.filePath(QStringLiteral("x.bmpx")), &error));
        QVERIFY(error.contains(QStringLiteral("bmpx")));
    }
};

GIGACHECK_UI_TEST_MAIN(TestExports)
#include "tst_exports.moc"
