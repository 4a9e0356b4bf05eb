// MainWindow's Edit menu: Undo / Redo of the panels (ConfigHistory), and the question asked before
// a record or a campaign's run replaces a configuration with placed faults.
#include "mainwindow.hpp"

#include "views/strassen/strassenview.hpp"
#include "window/familyviews.hpp"

#include "panels/faultspanel.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/setuppanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/heatmapview.hpp"
#include "window/confighistory.hpp"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

namespace gigacheck::ui {

namespace {

QString schemeText(const OnlineSchemeSettings& s, const OnlineFaultSettings& f)
{
    return QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
        .arg(int(s.scheme)).arg(s.panel).arg(s.checkEvery).arg(s.checksums).arg(s.columnBlocks).arg(int(f.target)).arg(f.step);
}

void parseSchemeText(const QString& text, OnlineSchemeSettings* s, OnlineFaultSettings* f)
{
    const QStringList parts = text.split(QLatin1Char(' '));
    if (parts.size() != 7)
        return;
    s->scheme = Scheme(parts[0].toInt());
    s->panel = parts[1].toLongLong();
    s->checkEvery = parts[2].toInt();
    s->checksums = parts[3].toInt();
    s->columnBlocks = parts[4].toInt();
    f->target = OnlineTarget(parts[5].toInt());
    f->step = parts[6].toInt();
}

QString configJson(const RunConfig& config)
{
    RunRecord holder;  // the record's JSON already knows how to write a RunConfig
    holder.config = config;
    return QString::fromStdString(toJson(holder, -1));
}

}  // namespace

void MainWindow::buildEditMenu(QMenu* edit)
{
    history_ = new ConfigHistory(
        this, [this] { return captureSetup(); }, [this](const LabSetup& s) { restoreSetup(s); });
    QAction* undo = history_->stack()->createUndoAction(edit, QStringLiteral("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("undoAction"));
    QAction* redo = history_->stack()->createRedoAction(edit, QStringLiteral("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setObjectName(QStringLiteral("redoAction"));
    edit->addAction(undo);
    edit->addAction(redo);
    // Every edit of the panels and of the placed faults is a step (one per event-loop pass).
    const auto note = [this] { history_->noteChange(); };
    connect(setup_, &SetupPanel::changed, this, note);
    connect(strategy_, &StrategyPanel::changed, this, note);
    connect(faults_, &FaultsPanel::changed, this, note);
    connect(faults_, &FaultsPanel::explicitFaultsEdited, this, note);
    connect(faults_->onlineFaultBox(), &OnlineFaultBox::changed, this, note);
    connect(heatmap_, &HeatmapView::faultsChanged, this, note);
    connect(strassen_, &strassenlab::StrassenView::setupEdited, this, note);
}

std::optional<LabSetup> MainWindow::captureSetup() const
{
    RunConfig c;
    if (!currentConfig(&c, nullptr))
        return std::nullopt;  // a field being typed: the step comes once it is valid
    LabSetup s;
    s.faults = configJson(c);  // all of it, what a step restores
    s.placedFaults = int(c.faults.at.size());
    c.faults.at.clear();
    s.config = configJson(c);  // without the faults: which kind of step it is
    s.scheme = schemeText(strategy_->schemeBox()->settings(), faults_->onlineFaultBox()->settings());
    s.strassen = strassen_->controlsState();
    s.strassenFaults = int(strassen_->faultSpecs().size());
    return s;
}

void MainWindow::restoreSetup(const LabSetup& s)
{
    try {
        const RunConfig c = recordFromJson(s.faults.toStdString()).config;
        OnlineSchemeSettings scheme = strategy_->schemeBox()->settings();
        OnlineFaultSettings faults = faults_->onlineFaultBox()->settings();
        parseSchemeText(s.scheme, &scheme, &faults);
        setConfig(c);
        strategy_->schemeBox()->setSettings(scheme);
        faults_->onlineFaultBox()->setSettings(faults);
        strassen_->restoreControls(s.strassen);
        updatePlan();
    } catch (const std::exception& e) {
        reportError(QStringLiteral("Cannot undo: %1").arg(QString::fromStdString(e.what())));
    }
}

bool MainWindow::confirmReplacing(const QString& what, LabFamily family)
{
    // The checked GEMM's faults are on the heatmap, Strassen's in its Faults panel: Edit › Undo
    // restores either (and the run log keeps Strassen's).
    const bool strassen = family == LabFamily::Strassen;
    const std::size_t placed = strassen ? std::size_t(strassen_->faultSpecs().size()) : heatmap_->faults().size();
    if (placed == 0)
        return true;
    const QString question =
        strassen ? QStringLiteral("%1 replaces the Strassen set-up and its %2 placed fault(s) (%3).\n"
                                  "Edit › Undo brings them back.")
                       .arg(what)
                       .arg(placed)
                       .arg(strassen_->faultSpecs().join(QStringLiteral(", ")))
                 : QStringLiteral("%1 replaces the configuration and its %2 placed fault(s).\n"
                                  "Edit › Undo brings them back.")
                       .arg(what)
                       .arg(placed);
    if (replaceQuestion_)
        return replaceQuestion_(question);
    QMessageBox box(QMessageBox::Question, QStringLiteral("Gigacheck Lab"), question, QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("replaceQuestion"));
    QPushButton* go = box.addButton(QStringLiteral("Replace"), QMessageBox::AcceptRole);
    box.setDefaultButton(go);
    box.exec();
    return box.clickedButton() == go;
}

QUndoStack* MainWindow::undoStack() const
{
    return history_->stack();
}

ConfigHistory* MainWindow::configHistory() const
{
    return history_;
}

}  // namespace gigacheck::ui
