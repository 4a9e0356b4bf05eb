// What the lab is showing: the current record, the live events of the running job, the runs of
// this session (roofline history) and a record opened for comparison. The views subscribe to its
// signals, as Hotspot's pages subscribe to its parser; nobody fans a result out by hand.
//
// Each result is delivered once and shared (RecordPtr: the record's envelope, the family's own
// record behind it, models/familyrecord.hpp): the end of a run costs one hand-over, not a copy per
// view.
#pragma once

#include "engine/metatypes.hpp"
#include "engine/onlinerun.hpp"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

namespace gigacheck::ui {

class EngineController;

class LabSession : public QObject {
    Q_OBJECT
public:
    enum class Origin { Run, File };
    static constexpr std::size_t kMaxHistory = 6;

    explicit LabSession(QObject* parent = nullptr);
    ~LabSession() override;

    // Starts a run (cancelling one still going). keepPrevious keeps the last run's lanes beside it.
    void start(const RunConfig& config, bool keepPrevious);
    // A run of the online ABFT family: the views get its own record (online() adds its frames).
    void startOnline(const OnlineConfig& config, bool keepPrevious);
    // The run started last, of either family (the other one nullopt): what it multiplies and how
    // the views name it while it goes on ("s2", "auto→s2", "online fq 1").
    const std::optional<RunConfig>& startedBlocked() const { return startedBlocked_; }
    const std::optional<OnlineConfig>& startedOnline() const { return startedOnline_; }
    Shape startedShape() const;
    QString startedName() const;
    // The user's own A and B (File > Import A / B): used by every run from now on while both are
    // set; either may be null (then runs generate both). The window keeps them fitting the shape.
    void setOperands(RunOperands operands) { operands_ = std::move(operands); }
    const RunOperands& operands() const { return operands_; }
    // C of the last run (its partial C when cancelled); empty for an opened record.
    const HostMatrix& result() const { return result_; }
    void cancel();
    bool isRunning() const;
    EngineController* engine() const { return engine_; }

    // A record read from a file becomes the current record (and the whole history).
    void openRecord(RunRecord record);
    // An online ABFT record read from a file (no step frames: the step view offers a replay).
    void openOnlineRecord(OnlineRecord record);
    // A record of any family read from a file, shown beside the current one (timeline lanes,
    // roofline points).
    void addBaseline(RecordPtr baseline);
    // Drops the record opened for comparison (it stays through any number of runs until then).
    void removeBaseline();

    // The record last finished or opened (null before the first), of any family; blockedRecordOf
    // and onlineRecordOf (models/familyrecord.hpp) give its family's own record.
    const RecordPtr& record() const { return record_; }
    const RecordPtr& baseline() const { return baseline_; }
    // The current record's online ABFT run, its record and step frames (null when the record is
    // another family's); set before recordChanged is emitted.
    const OnlinePtr& online() const { return online_; }
    // Events of the current run: live while it goes on, the record's once it ended or was opened.
    const std::vector<InjectEvent>& injections() const { return injections_; }
    const std::vector<VerifyEvent>& verifications() const { return verifications_; }
    // Records of this session for the roofline (oldest first, at most kMaxHistory).
    const std::vector<RecordPtr>& history() const { return history_; }

signals:
    // startedBlocked() / startedOnline() say what started.
    void runStarted(bool keepPrevious);
    void spansArrived(const QVector<gigacheck::Span>& spans);
    // New live events, already appended to injections() / verifications().
    void injectionsArrived(const QVector<gigacheck::InjectEvent>& events);
    void verificationsArrived(const QVector<gigacheck::VerifyEvent>& events);
    void resultTilesArrived(const QVector<gigacheck::ui::HeatmapGrid>& tiles);
    void progressChanged(double fraction, double etaSeconds);
    // Once per finished run (with C; the partial C of a cancelled run) or opened file (empty C).
    void recordChanged(const gigacheck::ui::RecordPtr& record, gigacheck::ui::LabSession::Origin origin,
                       const gigacheck::HostMatrix& c);
    void runFailed(const QString& message);
    void historyChanged();
    void baselineAdded(const gigacheck::ui::RecordPtr& baseline);
    void baselineRemoved();

private:
    void pushHistory(RecordPtr record, bool newest);

    EngineController* engine_ = nullptr;
    RecordPtr record_;
    RecordPtr baseline_;
    OnlinePtr online_;
    OnlinePtr pendingOnline_;
    std::optional<RunConfig> startedBlocked_;
    std::optional<OnlineConfig> startedOnline_;
    std::vector<InjectEvent> injections_;
    std::vector<VerifyEvent> verifications_;
    std::vector<RecordPtr> history_;
    RunOperands operands_;
    HostMatrix result_;
};

}  // namespace gigacheck::ui
