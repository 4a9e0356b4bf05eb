// MainWindow's files: open, save and compare run records, campaigns, exports, and their dialogs
// (kept apart from the window's layout and run control in mainwindow.cpp).
#include "mainwindow.hpp"

#include "export/plotexport.hpp"
#include "models/rooflinemodel.hpp"
#include "panels/faultspanel.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/runpanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/campaignview.hpp"
#include "views/gallery/galleryview.hpp"
#include "views/online/onlinesweepview.hpp"
#include "views/strassen/strassenview.hpp"
#include "window/familyviews.hpp"
#include "views/heatmapview.hpp"
#include "views/rooflineview.hpp"
#include "views/timelineview.hpp"
#include "window/confighistory.hpp"
#include "window/filedialogs.hpp"
#include "window/recentfiles.hpp"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>

#include <gigacheck/bench.hpp>
#include <gigacheck/campaign.hpp>
#include <gigacheck/family.hpp>
#include <gigacheck/record_envelope.hpp>

#include <QFileInfo>
#include <QTabWidget>
#include <QStatusBar>

#include <algorithm>
#include <optional>
#include <iterator>
#include <utility>

namespace gigacheck::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A family's lab view: how File › Open shows its records. A family with a view adds its line to
// kFamilyViews; the registry (gigacheck/family.hpp) names the family of a record file.
struct FamilyView {
    std::string_view family;  // the records' "family"
    // Its records set the panels of that family of views (configuration, scheme, faults): Open
    // asks first when that would replace placed faults. The gallery places none.
    std::optional<LabFamily> setsPanelsOf;
    void (*open)(MainWindow& window, const QString& path) = nullptr;
};

void openBlockedRecord(MainWindow& window, const QString& path)
{
    window.showRecord(loadRecord(path.toStdString()));
}

void openStrassenRecord(MainWindow& window, const QString& path)
{
    QString why;
    if (!window.strassenView()->openRecordFile(path, &why))
        throw InputError(why.toStdString());
    window.showView(MainWindow::View::Strassen);
}

void openOnlineRecord(MainWindow& window, const QString& path)
{
    OnlineRecord record = loadOnlineRecord(path.toStdString());
    // The panels take the record's setup, scheme and faults: Run runs it again.
    RunConfig base;
    window.currentConfig(&base, nullptr);
    const OnlinePanels panels = onlinePanelsOf(record.config, base);
    window.setConfig(panels.base);
    window.strategyPanel()->schemeBox()->setSettings(panels.scheme);
    window.faultsPanel()->onlineFaultBox()->setSettings(panels.faults);
    window.session()->openOnlineRecord(std::move(record));
}

// A record of the kernel gallery's families: its point in the Kernel gallery.
void openGalleryRecord(MainWindow& window, const QString& path)
{
    window.galleryView()->openRecord(*loadAnyRecord(path.toStdString()), path);
    window.showView(MainWindow::View::Gallery);
}

constexpr FamilyView kFamilyViews[] = {
    {"blocked_gemm", LabFamily::AbftGemm, &openBlockedRecord},
    {"strassen", LabFamily::Strassen, &openStrassenRecord},
    {OnlineRecord::kFamily, LabFamily::AbftGemm, &openOnlineRecord},
    {reduced_matmul::kFamilyName, std::nullopt, &openGalleryRecord},
    {transpose::kFamilyName, std::nullopt, &openGalleryRecord},
};

// nullptr when the lab has no view for that family's records.
const FamilyView* familyViewOf(std::string_view family)
{
    const auto view = std::find_if(std::begin(kFamilyViews), std::end(kFamilyViews),
                                   [&](const FamilyView& v) { return v.family == family; });
    return view == std::end(kFamilyViews) ? nullptr : view;
}

}  // namespace

// Runs f; an exception becomes false with its message in *error (files the user picked may be anything).
template <class F> bool reportingFailure(F&& f, QString* error)
{
    try {
        f();
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::openRecord(const QString& path, QString* error)
{
    // The engine's loaders name the file; every caller here says "Cannot open <path>: <why>".
    const auto withoutPath = [&](bool opened) {
        const QString prefix = path + QStringLiteral(": ");
        if (!opened && error && error->startsWith(prefix))
            error->remove(0, prefix.size());
        return opened;
    };
    return withoutPath(reportingFailure([&] {
        // A campaign file given where a record was expected (the command line, File › Open):
        // open it as the campaign it is instead of refusing a field a record would have.
        if (isCampaignFile(path.toStdString())) {
            QString why;
            if (!openCampaign(path, &why))
                throw InputError(why.toStdString());
            return;
        }
        // Each family with a lab view opens its records in it; another family's record is refused by name.
        const std::string file = path.toStdString();
        const std::string family = recordFamilyOfFile(file);
        const FamilyView* view = familyViewOf(family);
        if (!view)
            throw InputError("the lab has no view for records of family '" + family + "' yet");
        view->open(*this, path);
        addRecent(path);
        setWindowTitle(QStringLiteral("Gigacheck Lab — %1").arg(QFileInfo(path).fileName()));
    }, error));
}

namespace {

// The first local file among the dropped URLs; empty when there is none.
QString droppedFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            return url.toLocalFile();
    return {};
}

}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openRecordReporting(path);  // as File > Open: an unreadable file is a message, nothing is lost
}

bool MainWindow::openRecordReporting(const QString& path, QString* error)
{
    // A record replaces the panels of its family of views (the checked GEMM's for blocked and
    // online records, Strassen's for its own): asked first where they hold placed faults. A file
    // that cannot be opened is refused before anything is asked.
    std::optional<LabFamily> replaces;
    try {
        const std::string file = path.toStdString();
        if (!isCampaignFile(file)) {
            const FamilyView* view = familyViewOf(recordFamilyOfFile(file));
            if (view && view->setsPanelsOf) {
                (void)loadAnyRecord(file);  // readable: otherwise nothing is asked
                replaces = view->setsPanelsOf;
            }
        }
    } catch (const std::exception&) {
        replaces.reset();  // openRecord below says why, as for any file
    }
    if (replaces) {
        if (!confirmReplacing(QStringLiteral("Opening %1").arg(QFileInfo(path).fileName()), *replaces))
            return false;
        if (*replaces == LabFamily::Strassen && !strassen_->faultSpecs().isEmpty())
            run_->log(QStringLiteral("the Strassen faults before opening %1: %2")
                          .arg(QFileInfo(path).fileName(), strassen_->faultSpecs().join(QStringLiteral(", "))));
    }
    history_->noteChange(QStringLiteral("Open %1").arg(QFileInfo(path).fileName()));
    QString why;
    if (openRecord(path, &why))
        return true;
    reportError(QStringLiteral("Cannot open %1: %2").arg(path, why));
    if (error)
        *error = why;
    return false;
}

bool MainWindow::compareWithRecord(const QString& path, QString* error)
{
    // Any family's record, through the envelope: its spans are the timeline's lanes, its metrics
    // and spans the roofline's points. A record with no spans has nothing to lay beside a run.
    RecordPtr baseline;
    if (!reportingFailure([&] {
            const std::string file = path.toStdString();
            if (isCampaignFile(file))
                throw InputError("a campaign is many runs, not one to compare; open it with File > Open");
            baseline = loadAnyRecord(file);
            if (baseline->spans.empty()) {
                const Family* family = findFamily(baseline->family);
                throw InputError("this " + std::string(family ? family->title : std::string_view(baseline->family)) +
                                 " record has no timeline to compare (it holds no spans)");
            }
        }, error))
        return false;
    const QString label = runLabel(*baseline);
    session_->addBaseline(std::move(baseline));
    run_->log(QStringLiteral("comparing with %1 (%2)").arg(QFileInfo(path).fileName(), label));
    showView(View::Timeline);
    return true;
}

void MainWindow::showRecord(const RunRecord& record)
{
    setConfig(record.config);
    // A blocked-GEMM record runs again as blocked ABFT, whatever scheme was chosen before.
    OnlineSchemeSettings scheme = strategy_->schemeBox()->settings();
    scheme.scheme = Scheme::Blocked;
    strategy_->schemeBox()->setSettings(scheme);
    session_->openRecord(record);
}

RecordPtr MainWindow::recordOnScreen() const
{
    if (currentView() == View::Strassen) {
        const StrassenResult* strassen = strassen_->result();
        return strassen ? std::make_shared<const StrassenResult>(*strassen) : nullptr;
    }
    return lastRecord();
}

bool MainWindow::saveRecord(const QString& path, QString* error) const
{
    if (!recordOnScreen() && currentView() == View::Strassen) {
        if (error)
            *error = QStringLiteral("no Strassen run to save yet");
        return false;
    }
    return saveRecord(recordOnScreen(), path, error);
}

bool MainWindow::saveRecord(const RecordPtr& record, const QString& path, QString* error) const
{
    if (!record) {
        if (error)
            *error = QStringLiteral("no run to save yet");
        return false;
    }
    try {
        // Each family's record in its own format, which reopens as one (the registry's writer).
        saveAnyRecord(*record, path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::openCampaign(const QString& path, QString* error)
{
    if (!campaign_->openFile(path, error)) {
        // The loader names the file already; every caller says "Cannot open <path>: <why>".
        const QString prefix = path + QStringLiteral(": ");
        if (error && error->startsWith(prefix))
            error->remove(0, prefix.size());
        return false;
    }
    showView(View::Campaign);
    return true;
}

bool MainWindow::exportView(View view, const QString& path, QString* error) const
{
    const bool csv = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    // A picture for a slide: what it shows and of which run, its legend, the chosen resolution.
    ExportDecoration decoration;
    decoration.scale = exportScale();
    const QString run = lastRecord() ? QStringLiteral(" — ") + runLabel(*lastRecord()) : QString();
    switch (view) {
    case View::Heatmap:
        decoration.title = QStringLiteral("C heatmap") + run;
        return csv ? heatmap_->exportCsv(path, error) : exportPlot(heatmap_->plot(), path, decoration, error);
    case View::Timeline:
        decoration.title = QStringLiteral("Timeline of the queues") + run;
        decoration.legend = timeline_->legendEntries();
        return csv ? timeline_->exportCsv(path, error) : exportPlot(timeline_->plot(), path, decoration, error);
    case View::Roofline:
        decoration.title = QStringLiteral("Roofline") + run;
        return csv ? roofline_->exportCsv(path, error) : exportPlot(roofline_->plot(), path, decoration, error);
    case View::Campaign:
        decoration.title = QStringLiteral("Fault-injection campaign");
        return csv ? campaign_->exportCsv(path, error) : exportPlot(campaign_->plot(), path, decoration, error);
    case View::Gallery:
        decoration.title = gallery_->plotTitle();
        if (!csv)
            return exportPlot(gallery_->plot(), path, decoration, error);
        if (error)
            *error = QStringLiteral("the kernel gallery exports its plot (PNG, PDF, SVG), not CSV");
        return false;
    case View::Strassen:
        decoration.title = QStringLiteral("Strassen — ") + strassen_->plotTabs()->tabText(strassen_->plotTabs()->currentIndex());
        if (!csv)
            return exportPlot(strassen_->currentPlot(), path, decoration, error);
        if (error)
            *error = QStringLiteral("the Strassen view exports its plots (PNG, PDF, SVG), not CSV");
        return false;
    case View::OnlineSweep:
        decoration.title = QStringLiteral("Online ABFT: overhead and correctable share against fq");
        if (!csv)
            return exportPlot(onlineSweep_->plot(), path, decoration, error);
        if (error)
            *error = QStringLiteral("the fq sweep exports its plot (PNG, PDF, SVG), not CSV");
        return false;
    case View::Report:
        break;
    }
    if (error)
        *error = QStringLiteral("the report has no plot; save the record instead");
    return false;
}

void MainWindow::openRecordDialog()
{
    askPath(this, QStringLiteral("openRecordDialog"), QStringLiteral("Open run record"), QStringLiteral("records"), QString(),
            QStringLiteral("Run records (*.json);;All files (*)"), false, [this](const QString& path) { openRecordReporting(path); });
}

QString MainWindow::defaultFileStem() const
{
    // e.g. "s2-4096x4096x4096", "online-2048x2048x2048": what was run, so that a folder of exports
    // stays readable.
    if (const RecordPtr record = recordOnScreen())
        return runFileStem(*record);
    RunConfig c;
    if (!currentConfig(&c, nullptr))
        return QStringLiteral("gigacheck");
    return QStringLiteral("%1-%2x%3x%4").arg(qs(toString(c.strategy))).arg(c.shape.m).arg(c.shape.n).arg(c.shape.q);
}

void MainWindow::saveRecordDialog()
{
    askPath(this, QStringLiteral("saveRecordDialog"), QStringLiteral("Save run record"), QStringLiteral("records"),
            QStringLiteral("run-%1.json").arg(defaultFileStem()), QStringLiteral("Run records (*.json)"), true,
            [this](const QString& path) {
                QString error;
                if (!saveRecord(path, &error)) {
                    reportError(QStringLiteral("Cannot save %1: %2").arg(path, error));
                } else {
                    addRecent(path);
                    // Saved: the title names the file, no longer "(not saved)".
                    setWindowTitle(QStringLiteral("Gigacheck Lab — %1").arg(QFileInfo(path).fileName()));
                }
            });
}

void MainWindow::exportDialog(bool data)
{
    static const char* const kViewNames[] = {"heatmap", "timeline", "roofline", "report", "campaign", "gallery", "strassen", "online-sweep"};
    const View view = currentView();
    const QString stem = QStringLiteral("%1-%2").arg(QLatin1String(kViewNames[int(view)]), defaultFileStem());
    askPath(this, QStringLiteral("exportDialog"), data ? QStringLiteral("Export data") : QStringLiteral("Export plot"),
            QStringLiteral("exports"), stem + (data ? QStringLiteral(".csv") : QStringLiteral(".png")),
            data ? QStringLiteral("CSV (*.csv)") : QStringLiteral("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)"), true,
            [this, view](const QString& path) {
                QString error;
                if (!exportView(view, path, &error))
                    reportError(QStringLiteral("Export failed: %1").arg(error));
                else
                    statusBar()->showMessage(QStringLiteral("Wrote %1").arg(path), 5000);
            });
}

void MainWindow::addRecent(const QString& path)
{
    recent_->add(path);
}

}  // namespace gigacheck::ui
