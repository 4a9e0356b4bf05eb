// Your own matrices in the lab (issue 12, item 7): A and B imported from .npy files; a B (or A)
// whose shape does not fit the other imported one is refused naming both shapes and keeps what
// was imported; File › Forget imported A and B (enabled only while some are imported) returns to
// generated inputs, says so and keeps the placed faults inside C; the run record's "inputs"
// section names the files and survives a save and an open; the report shows it. Sizes in the
// units the cap was typed in (1MiB reads "1 MiB").
#include "engine/npy_fixture.hpp"
#include "ui/uitestmain.hpp"

#include <models/sizetext.hpp>
#include <panels/memorybar.hpp>
#include <panels/setuppanel.hpp>
#include <panels/strategypanel.hpp>
#include <session/labsession.hpp>
#include <views/heatmapview.hpp>
#include <views/reportview.hpp>
#include <window/mainwindow.hpp>

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;
using gigacheck::test::NpySpec;
using gigacheck::test::npyMatrix;
using gigacheck::test::writeFile;

namespace {

double aValue(std::int64_t r, std::int64_t c) { return double((r * 5 + c) % 9) - 4; }
double bValue(std::int64_t r, std::int64_t c) { return double((2 * r + c) % 7) - 3; }

QAction* forgetAction(MainWindow& window)
{
    return window.findChild<QAction*>(QStringLiteral("forgetOperandsAction"));
}

}  // namespace

class TestOwnMatrices : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

    // A rows x cols .npy file (float64, C order unless fortran).
    void write(const char* name, std::int64_t rows, std::int64_t cols, bool fortran = false, const char* descr = "<f8")
    {
        NpySpec spec;
        spec.descr = descr;
        spec.fortran = fortran;
        QVERIFY(writeFile(path(name), npyMatrix(spec, rows, cols, aValue)));
    }

    static Shape shapeOf(const MainWindow& window)
    {
        RunConfig c;
        QString error;
        return window.currentConfig(&c, &error) ? c.shape : Shape{};
    }

private slots:
    void init() { QSettings().clear(); }

    void importAAndB()
    {
        write("A.npy", 48, 40);
        NpySpec b;
        b.fortran = true;
        QVERIFY(writeFile(path("B.npy"), npyMatrix(b, 40, 36, bValue)));
        MainWindow window;
        QVERIFY(forgetAction(window));
        QVERIFY(!forgetAction(window)->isEnabled());  // nothing imported yet
        QString error;
        QVERIFY2(window.importOperand(MainWindow::Operand::A, path("A.npy"), &error), qPrintable(error));
        QVERIFY(forgetAction(window)->isEnabled());
        QVERIFY2(window.importOperand(MainWindow::Operand::B, path("B.npy"), &error), qPrintable(error));
        QCOMPARE(shapeOf(window), (Shape{48, 40, 36}));
        QVERIFY(window.session()->operands().present());
        QCOMPARE(window.session()->operands().bFile.file, std::string("B.npy"));
        QVERIFY(window.session()->operands().bFile.fortranOrder);
        QVERIFY(!window.session()->operands().aFile.fortranOrder);
        // B in Fortran order is read as the matrix it is.
        QCOMPARE(window.session()->operands().b->at(3, 5), bValue(3, 5));
    }

    void mismatchIsRefusedKeepingTheOldImport()
    {
        write("A.npy", 48, 40);
        write("B.npy", 40, 36);
        write("B-wrong.npy", 30, 36);
        write("A-wrong.npy", 48, 25);
        MainWindow window;
        QString error;
        QVERIFY(window.importOperand(MainWindow::Operand::A, path("A.npy"), &error));
        QVERIFY(window.importOperand(MainWindow::Operand::B, path("B.npy"), &error));
        const auto a = window.session()->operands().a, b = window.session()->operands().b;

        QVERIFY(!window.importOperand(MainWindow::Operand::B, path("B-wrong.npy"), &error));
        // Both shapes named.
        QVERIFY2(error.contains(QStringLiteral("30 × 36")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("48 × 40")), qPrintable(error));
        QVERIFY(window.session()->operands().a == a);
        QVERIFY(window.session()->operands().b == b);
        QCOMPARE(window.session()->operands().bFile.file, std::string("B.npy"));
        QCOMPARE(shapeOf(window), (Shape{48, 40, 36}));

        QVERIFY(!window.importOperand(MainWindow::Operand::A, path("A-wrong.npy"), &error));
        QVERIFY2(error.contains(QStringLiteral("48 × 25")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("40 × 36")), qPrintable(error));
        QVERIFY(window.session()->operands().a == a);
        QVERIFY(window.session()->operands().b == b);
        QCOMPARE(shapeOf(window), (Shape{48, 40, 36}));

        // Only A imported: a B of any number of columns is fine, but not of the wrong rows.
        window.forgetOperands();
        QVERIFY(window.importOperand(MainWindow::Operand::A, path("A.npy"), &error));
        QVERIFY(!window.importOperand(MainWindow::Operand::B, path("B-wrong.npy"), &error));
        QVERIFY(window.session()->operands().a && !window.session()->operands().b);
    }

    void forgetReturnsToGeneratedAndKeepsFaults()
    {
        write("A.npy", 64, 40);
        write("B.npy", 40, 56);
        MainWindow window;
        QString error;
        QVERIFY(window.importOperand(MainWindow::Operand::A, path("A.npy"), &error));
        QVERIFY(window.importOperand(MainWindow::Operand::B, path("B.npy"), &error));
        const std::vector<FaultAt> faults = {FaultAt{3, 4, {}, {}}, FaultAt{63, 55, {}, {}}, FaultAt{20, 30, {}, {}}};
        window.heatmap()->setFaults(faults);
        QVERIFY(forgetAction(window)->isEnabled());
        forgetAction(window)->trigger();
        QVERIFY(!window.session()->operands().a && !window.session()->operands().b);
        QVERIFY(!forgetAction(window)->isEnabled());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("generate")),
                 qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(shapeOf(window), (Shape{64, 40, 56}));
        QCOMPARE(window.heatmap()->faults().size(), faults.size());
        RunConfig c;
        QVERIFY(window.currentConfig(&c, &error));
        QCOMPARE(c.faults.at.size(), faults.size());
        QCOMPARE(c.faults.at[1].row, std::int64_t(63));
        QCOMPARE(c.faults.at[1].col, std::int64_t(55));
    }

    void recordInputsRoundTrip()
    {
        write("A.npy", 24, 16, false, "<f4");
        NpySpec b;
        b.descr = "<f4";
        b.fortran = true;
        QVERIFY(writeFile(path("B.npy"), npyMatrix(b, 16, 20, bValue)));
        MainWindow window;
        window.show();
        QString error;
        QVERIFY(window.importOperand(MainWindow::Operand::A, path("A.npy"), &error));
        QVERIFY(window.importOperand(MainWindow::Operand::B, path("B.npy"), &error));
        RunConfig c;
        QVERIFY(window.currentConfig(&c, &error));
        c.backend = BackendKind::Cpu;
        c.memCapBytes = 64 * 1024;
        c.faults.at = {FaultAt{5, 6, 100.0, {}}};
        window.setConfig(c);
        QVERIFY(window.session()->operands().present());  // the same shape: kept
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 120000));
        const auto record = blockedRecordOf(window.lastRecord());
        QVERIFY(record);
        QCOMPARE(record->status, std::string("ok"));
        QCOMPARE(record->inputs.size(), std::size_t(2));
        QCOMPARE(record->inputs[0].operand, std::string("A"));
        QCOMPARE(record->inputs[0].file, std::string("A.npy"));
        QCOMPARE(record->inputs[1].file, std::string("B.npy"));
        QCOMPARE(record->inputs[1].rows, std::int64_t(16));
        QCOMPARE(record->inputs[1].cols, std::int64_t(20));
        QCOMPARE(record->inputs[1].dtype, std::string("float32"));
        QVERIFY(record->inputs[1].fortranOrder);
        // The report shows it, once.
        const QString report = window.report()->text();
        QVERIFY2(report.contains(QStringLiteral("Your matrices: A from A.npy (24 x 16, float32, C order), B from B.npy "
                                                "(16 x 20, float32, Fortran order)")),
                 qPrintable(report));
        QCOMPARE(report.count(QStringLiteral("Your matrices")), 1);

        QVERIFY2(window.saveRecord(path("run.json"), &error), qPrintable(error));
        MainWindow other;
        QVERIFY2(other.openRecord(path("run.json"), &error), qPrintable(error));
        const auto reopened = blockedRecordOf(other.lastRecord());
        QVERIFY(reopened);
        QCOMPARE(reopened->inputs.size(), std::size_t(2));
        QCOMPARE(reopened->inputs[1].file, std::string("B.npy"));
        QVERIFY(reopened->inputs[1].fortranOrder);
        QVERIFY(other.report()->text().contains(QStringLiteral("Your matrices: A from A.npy")));

        // A generated run has no inputs section.
        window.forgetOperands();
        finished.clear();
        window.startRun();
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 120000));
        QVERIFY(blockedRecordOf(window.lastRecord()) && blockedRecordOf(window.lastRecord())->inputs.empty());
        QVERIFY(!window.report()->text().contains(QStringLiteral("Your matrices")));
    }

    // Issue 12, item 6: a cap typed as 1MiB reads "1 MiB" (never "1.05 MB") in the memory bar and the
    // plan; typed as 10MB it stays decimal.
    void capUnitsAsTyped()
    {
        QCOMPARE(sizeText(1024.0 * 1024.0, true), QStringLiteral("1 MiB"));
        QCOMPARE(sizeText(1.5 * 1024.0 * 1024.0 * 1024.0, true), QStringLiteral("1.5 GiB"));
        QCOMPARE(sizeText(512, true), QStringLiteral("512 B"));
        QVERIFY(typedInBinaryUnits(QStringLiteral("1MiB")));
        QVERIFY(typedInBinaryUnits(QStringLiteral("2 gib")));
        QVERIFY(!typedInBinaryUnits(QStringLiteral("10MB")));
        QVERIFY(looksBinary(1024 * 1024));
        QVERIFY(!looksBinary(64'000'000));

        MainWindow window;
        auto* cap = window.setupPanel()->findChild<QLineEdit*>(QStringLiteral("memoryCap"));
        QVERIFY(cap);
        RunConfig c;
        c.shape = Shape{512, 512, 512};
        c.strategy = StrategyKind::S2;
        c.backend = BackendKind::Cpu;
        window.setConfig(c);
        cap->setText(QStringLiteral("1MiB"));
        auto* bar = window.strategyPanel()->findChild<MemoryBar*>();
        QVERIFY(bar);
        QVERIFY2(bar->usageText().contains(QStringLiteral(" of 1 MiB (")), qPrintable(bar->usageText()));
        QVERIFY(!bar->usageText().contains(QStringLiteral("MB")));
        QVERIFY(!bar->toolTip().contains(QStringLiteral("1.05 MB")));
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("1 MiB")), qPrintable(summary->text()));
        QVERIFY2(!summary->text().contains(QStringLiteral("1.05 MB")), qPrintable(summary->text()));
        // Too small a cap: the refusal names it as typed too.
        cap->setText(QStringLiteral("16KiB"));
        QVERIFY2(summary->text().contains(QStringLiteral("16 KiB")), qPrintable(summary->text()));
        cap->setText(QStringLiteral("10MB"));
        QVERIFY2(bar->usageText().contains(QStringLiteral(" of 10.00 MB (")), qPrintable(bar->usageText()));
    }
};

GIGACHECK_UI_TEST_MAIN(TestOwnMatrices)
#include "tst_ownmatrices.moc"
