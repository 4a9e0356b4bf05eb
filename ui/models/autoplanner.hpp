// Strategy "auto" in the lab: the cost-model planner's preview (planWithCostModel over
// every strategy, for the device the run will use) as a preview job of BackgroundJobs, never on
// the GUI thread. Edits
// of the shape or the cap are debounced; while a preview is computed a newer request waits and is
// planned next, and a result older than the latest request is dropped.
#pragma once

#include <gigacheck/blocked_gemm/cost_model.hpp>
#include <gigacheck/blocked_gemm/record.hpp>

#include <QObject>
#include <QString>

#include <optional>

class QTimer;

namespace gigacheck::ui {

struct AutoPlanResult {
    quint64 request = 0;  // which request it answers
    bool ok = false;
    Plan plan;            // ok: the planner's choice (plan.strategy) and its explanation
    double predictedSeconds = 0;
    // The device's rate tables were measured (gigacheck devices --measure): else the prediction
    // rests on datasheet roofs and assumptions and is shown as uncalibrated.
    bool calibrated = false;
    QString error;        // !ok: the planner's message (e.g. no strategy fits the cap)
    bool onGuiThread = true;  // where it was computed (the tests check: never the GUI thread)
};

// The device a run of `config` would use, as the engine picks it (Auto: the first GPU, else the
// CPU; a GPU ordinal this machine lacks: InputError), and the cap the run would have (0: the
// device's memory, the CPU's default cap).
DeviceInfo previewDevice(const RunConfig& config);
std::uint64_t previewCapBytes(const RunConfig& config, const DeviceInfo& device);
// The same for the device previewDevice picks; 0 where it finds none (the caller shows that error).
std::uint64_t previewCapBytes(const RunConfig& config);
// The planner's choice for config as runGemm makes it with planByCostModel (throws InputError).
PlannerChoice planAuto(const RunConfig& config);

class AutoPlanner : public QObject {
    Q_OBJECT
public:
    explicit AutoPlanner(QObject* parent = nullptr);
    ~AutoPlanner() override;  // never waits: a preview being computed ends alone, its result dropped

    // Plans config after the debounce delay (a later request within it replaces this one).
    void request(const RunConfig& config);
    void setDebounceMs(int ms);
    // True from a request until its result (or a newer one's) is emitted.
    bool pending() const { return pending_; }
    // The result of the latest request, once there is one.
    const std::optional<AutoPlanResult>& latest() const { return latest_; }

signals:
    void planned(const gigacheck::ui::AutoPlanResult& result);

private:
    void launch();

    QTimer* debounce_ = nullptr;
    quint64 job_ = 0;  // BackgroundJobs' id of the preview being computed
    RunConfig config_;
    quint64 requested_ = 0;  // the latest request's number
    quint64 launched_ = 0;   // the request the worker is planning
    bool pending_ = false;
    std::optional<AutoPlanResult> latest_;
};

}  // namespace gigacheck::ui

Q_DECLARE_METATYPE(gigacheck::ui::AutoPlanResult)
