// The lab shows what the GEMM takes of the memory cap beside the blocks: BF16 / FP16 inputs and
// tf32x3 multiply copies of the blocks, one workspace per stream of products, drawn in the memory
// bar and said in the plan text; cuBLAS FP32 reads the blocks in place and shows none.
#include "ui/uitestmain.hpp"

#include <window/mainwindow.hpp>
#include <panels/memorybar.hpp>
#include <panels/strategypanel.hpp>

#include <QLabel>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestGemmWorkspace : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    void memoryBarAndPlanShowTheWorkspace()
    {
        MainWindow window;
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        auto* bar = window.strategyPanel()->findChild<MemoryBar*>();
        QVERIFY(summary && bar);
        RunConfig c;
        c.shape = Shape{1024, 1024, 1024};
        c.strategy = StrategyKind::S3;
        c.backend = BackendKind::Cpu;
        c.memCapBytes = 16ull << 20;
        c.gemm = GemmVariant::Cublas;
        window.setConfig(c);
        QVERIFY2(!bar->toolTip().contains(QStringLiteral("the GEMM's copies")), qPrintable(bar->toolTip()));
        QVERIFY2(!summary->toolTip().contains(QStringLiteral("workspace")), qPrintable(summary->toolTip()));
        const QString plainUsage = bar->usageText();

        c.gemm = GemmVariant::CublasBf16;
        window.setConfig(c);
        // Two streams of products in s3: two workspaces, after the blocks, inside the same cap.
        QCOMPARE(bar->toolTip().count(QStringLiteral("the GEMM's copies of the blocks")), 2);
        QVERIFY2(summary->toolTip().contains(QStringLiteral("are the GEMM's workspaces, one per stream of products")),
                 qPrintable(summary->toolTip()));
        QVERIFY2(bar->usageText().contains(QStringLiteral(" of 16 MiB (")), qPrintable(bar->usageText()));
        QVERIFY(bar->usageText() != plainUsage);  // smaller blocks under the same cap
        // Its size in the units the cap was typed in, as every other size of the panel.
        QVERIFY2(!summary->text().contains(QStringLiteral(" MB of them")), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(QStringLiteral(" MiB of them")), qPrintable(summary->text()));

        // A cap that holds the smallest blocks but not the copies tf32x3 makes of them beside them.
        c.shape = Shape{4, 4, 4};
        c.memCapBytes = bytesForBlocks(StrategyKind::S3, Precision::F32, true, 1, 1, 1);
        c.gemm = GemmVariant::Cublas;
        window.setConfig(c);
        QVERIFY2(summary->text().contains(QStringLiteral("block product")), qPrintable(summary->text()));
        c.gemm = GemmVariant::Tf32x3;
        window.setConfig(c);
        QVERIFY2(summary->text().contains(QStringLiteral("1x1x1")), qPrintable(summary->text()));
    }
};

GIGACHECK_UI_TEST_MAIN(TestGemmWorkspace)
#include "tst_gemmworkspace.moc"
