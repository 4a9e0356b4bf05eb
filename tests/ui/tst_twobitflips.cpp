// Two bits of one word in the lab: the Faults dock's second bit reaches the blocked run's fault
// spec and the online run's configuration, comes back from an online record's configuration, and
// a two-bit campaign's runs name both bits in the Campaign view's table.
#include "ui/uitestmain.hpp"

#include <panels/faultspanel.hpp>
#include <panels/onlinefaultbox.hpp>
#include <views/campaignmodel.hpp>

#include <gigacheck/campaign.hpp>

#include <QSpinBox>
#include <QtTest>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestTwoBitFlips : public QObject {
    Q_OBJECT

private slots:
    void secondBitReachesEveryRun()
    {
        FaultsPanel panel;
        FaultSpec spec;
        spec.model = FaultModel::BitFlip;
        spec.bit = 3;
        spec.bit2 = 9;
        panel.load(spec);
        auto* second = panel.findChild<QSpinBox*>(QStringLiteral("secondBit"));
        QVERIFY(second);
        QVERIFY(second->isEnabled());  // a bit flip: both bits can be set
        QCOMPARE(second->value(), 9);
        FaultSpec back;
        panel.apply(back);
        QCOMPARE(back.bit, 3);
        QCOMPARE(back.bit2, 9);

        // The online run the panels describe flips both, and its record's configuration sets them back.
        RunConfig base;
        base.shape = {64, 64, 64};
        base.faults = back;
        OnlineSchemeSettings scheme;
        scheme.scheme = Scheme::Online;
        const OnlineConfig online = makeOnlineConfig(base, scheme, OnlineFaultSettings{});
        QCOMPARE(online.bit, 3);
        QCOMPARE(online.bit2, 9);
        const OnlinePanels panels = onlinePanelsOf(online, RunConfig{});
        QCOMPARE(panels.base.faults.bit2, 9);

        // A delta model: the bits are not asked for.
        spec.model = FaultModel::Delta;
        panel.load(spec);
        QVERIFY(!second->isEnabled());
    }

    void campaignTableNamesBothBits()
    {
        CampaignRun run;
        run.bit = 3;
        QCOMPARE(bitsText(run), QStringLiteral("3"));
        run.bit2 = 9;
        QCOMPARE(bitsText(run), QStringLiteral("3+9"));
    }
};

GIGACHECK_UI_TEST_MAIN(TestTwoBitFlips)
#include "tst_twobitflips.moc"
