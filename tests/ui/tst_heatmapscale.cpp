// The heatmap's colour scale never shows a range nobody measured (issue 12: an empty heatmap's
// scale read ±1·10⁻¹², the error layers 0…1·10⁻¹² when all zero).
#include "ui/uitestmain.hpp"

#include <views/heatmapview.hpp>

#include <gigacheck/matrix.hpp>

#include <qcustomplot.h>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

QCPColorScale* colorScale(const HeatmapView& view)
{
    for (int i = 0; i < view.plot()->plotLayout()->elementCount(); ++i)
        if (auto* scale = qobject_cast<QCPColorScale*>(view.plot()->plotLayout()->elementAt(i)))
            return scale;
    return nullptr;
}

QStringList tickLabels(const HeatmapView& view)
{
    view.plot()->replot();
    const QVector<QString> labels = colorScale(view)->axis()->tickVectorLabels();  // a copy
    return QStringList(labels.begin(), labels.end());
}

}  // namespace

class TestHeatmapScale : public QObject {
    Q_OBJECT
private slots:
    void anEmptyHeatmapShowsNoNumbers()
    {
        HeatmapView view;
        view.resize(700, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setShape(96, 80);
        QTRY_VERIFY(!view.gridPending());
        QVERIFY(colorScale(view));
        QVERIFY2(tickLabels(view).isEmpty(), qPrintable(tickLabels(view).join(QLatin1Char(' '))));
        QVERIFY(colorScale(view)->axis()->label().contains(QStringLiteral("run to fill")));
    }

    void zeroErrorLayersSayNoError()
    {
        HeatmapView view;
        view.resize(700, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setShape(96, 80);
        view.setEvents({}, {});
        view.setLayer(HeatmapView::Layer::InjectedError);
        QTRY_VERIFY(!view.gridPending());
        QCOMPARE(tickLabels(view), QStringList{QStringLiteral("0")});
        QVERIFY(colorScale(view)->axis()->label().contains(QStringLiteral("no error")));
        view.setLayer(HeatmapView::Layer::Residuals);
        QTRY_VERIFY(!view.gridPending());
        QCOMPARE(tickLabels(view), QStringList{QStringLiteral("0")});
        QVERIFY(colorScale(view)->axis()->label().contains(QStringLiteral("no mismatch")));
    }

    void aFilledHeatmapGetsItsRangeBack()
    {
        HeatmapView view;
        view.resize(700, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setShape(96, 80);
        QTRY_VERIFY(!view.gridPending());
        QVERIFY(tickLabels(view).isEmpty());
        HostMatrix c(Precision::F32, 96, 80);
        c.set(10, 20, -3.0);
        c.set(90, 70, 4.0);
        view.setMatrix(c);
        QTRY_VERIFY(!view.gridPending());
        const QStringList labels = tickLabels(view);
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QLatin1Char(' '))));
        QCOMPARE(colorScale(view)->dataRange().upper, 4.0);
        QCOMPARE(colorScale(view)->dataRange().lower, -4.0);
        QCOMPARE(colorScale(view)->axis()->label(), QStringLiteral("value of C"));
        // An all-zero C is one value: "0", not ±1e-12.
        view.setMatrix(HostMatrix(Precision::F32, 96, 80));
        QTRY_VERIFY(!view.gridPending());
        QCOMPARE(tickLabels(view), QStringList{QStringLiteral("0")});
    }
};

GIGACHECK_UI_TEST_MAIN(TestHeatmapScale)
#include "tst_heatmapscale.moc"
