// A campaign view's click: that run, exactly, in the lab, whichever family's campaign it is (the
// blocked GEMM's animation, an online scheme's run, a Strassen run), queued behind a run going on.
#include "mainwindow.hpp"

#include "panels/faultspanel.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/runpanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/strassen/strassenview.hpp"
#include "window/confighistory.hpp"
#include "window/familyviews.hpp"

#include <gigacheck/strassen.hpp>

namespace gigacheck::ui {

void MainWindow::rerunCampaignRun(const RunConfig& config, const QString& what)
{
    if (!confirmReplacing(QStringLiteral("Re-running %1").arg(what), LabFamily::AbftGemm))
        return;
    history_->noteChange(QStringLiteral("Re-run %1").arg(what));
    setConfig(config);  // the run's seed, strategy, cap and fault: the replay is the run itself
    // Campaign runs replayed here are blocked ABFT runs: never the online scheme chosen before.
    OnlineSchemeSettings scheme = strategy_->schemeBox()->settings();
    scheme.scheme = Scheme::Blocked;
    strategy_->schemeBox()->setSettings(scheme);
    faults_->onlineFaultBox()->setSettings({});
    history_->flush();
    run_->log(QStringLiteral("re-running %1").arg(what));
    showView(View::Timeline);  // Start runs the family shown: the checked GEMM's, not a Strassen run
    startRun();
    showView(View::Heatmap);  // the error animation, not the timeline startRun shows
}

void MainWindow::rerunStrassenCampaignRun(const StrassenConfig& config, const QString& what)
{
    if (!confirmReplacing(QStringLiteral("Re-running %1").arg(what), LabFamily::Strassen))
        return;
    // The Strassen controls take the run's setup; what they held before is kept in the run log and
    // on Edit › Undo.
    StrassenConfig before;
    if (strassen_->currentConfig(&before, nullptr)) {
        QStringList faults;
        for (const StrassenFault& f : before.faults)
            faults << QString::fromStdString(toString(f));
        run_->log(QStringLiteral("the Strassen controls before the re-run: %1x%2x%3, %4 level(s), %5, faults %6")
                      .arg(before.shape.m)
                      .arg(before.shape.n)
                      .arg(before.shape.q)
                      .arg(before.levels)
                      .arg(QString::fromStdString(std::string(toString(before.variant))),
                           faults.isEmpty() ? QStringLiteral("none") : faults.join(QStringLiteral(", "))));
    }
    run_->log(QStringLiteral("re-running %1").arg(what));
    tabs_->setFamily(LabFamily::Strassen);
    showView(View::Strassen);
    history_->noteChange(QStringLiteral("Re-run %1").arg(what));
    strassen_->replayRun(config, what);
    history_->flush();  // Edit › Undo puts the Strassen controls back as they were
}

void MainWindow::rerunOnlineCampaignRun(const OnlineConfig& config, const QString& what)
{
    if (!confirmReplacing(QStringLiteral("Re-running %1").arg(what), LabFamily::AbftGemm))
        return;
    history_->noteChange(QStringLiteral("Re-run %1").arg(what));
    // The panels take the run's setup, scheme and faults, as for an opened online record.
    RunConfig base;
    currentConfig(&base, nullptr);
    const OnlinePanels panels = onlinePanelsOf(config, base);
    setConfig(panels.base);
    strategy_->schemeBox()->setSettings(panels.scheme);
    faults_->onlineFaultBox()->setSettings(panels.faults);
    history_->flush();
    run_->log(QStringLiteral("re-running %1").arg(what));
    showView(View::Timeline);  // Start runs the family shown: the checked GEMM's
    startRun();
}

}  // namespace gigacheck::ui
