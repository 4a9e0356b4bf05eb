#include "families/cli/rerun/verb.hpp"

#include "families/cli/option_groups.hpp"
#include "gigacheck/campaign.hpp"

#include <array>

namespace gigacheck::rerun_verb {
namespace {

std::vector<OptionSpec> options()
{
    return {
        {"backend", "cpu | cuda | auto: where to run it again (default: where the recorded run ran).", "B"},
        {"device", "CUDA device number. Default: the first.", "N"},
        cli::jsonOption("Write the new run's record to FILE."),
        cli::quietOption(),
    };
}

// "verified correct", "NOT verified correct", "not verified", or how the recorded run ended.
std::string recordedOutcome(const RecordEnvelope& record)
{
    if (record.status != "ok")
        return record.status;
    const RecordVerdict v = verdictOf(record);
    return v.verified ? "verified correct" : v.notVerified ? "not verified" : "NOT verified correct";
}

// The recorded run, configured again by its family, with a heading that says which record it is
// and how it had ended.
class RerunOfRecord final : public FamilyRun {
public:
    RerunOfRecord(std::unique_ptr<FamilyRun> run, std::string heading) : run_(std::move(run)), heading_(std::move(heading)) {}
    const Family& family() const override { return run_->family(); }
    std::string describe() const override { return run_->describe(); }
    BackendKind backend() const override { return run_->backend(); }
    int device() const override { return run_->device(); }
    void placeOn(BackendKind backend, int device) override { run_->placeOn(backend, device); }
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override { return run_->run(hooks); }
    bool hasVerdict(const RecordEnvelope& record) const override { return run_->hasVerdict(record); }
    std::string reportHeading() const override { return heading_; }

private:
    std::unique_ptr<FamilyRun> run_;
    std::string heading_;
};

std::unique_ptr<FamilyRun> configure(const CommandOptions& commandOptions)
{
    const std::vector<std::string>& files = commandOptions.positional();
    if (files.size() != 1)
        throw InputError("rerun takes exactly one RECORD (a run record of gigacheck run, strassen, reduced or transpose "
                         "--json; see gigacheck rerun --help)");
    const std::string path = files.front();
    if (isCampaignFile(path))
        throw InputError(path + " is a fault-injection campaign, not a run record: each of its runs is made again by "
                                "its reproduce command (gigacheck show " + path + " lists them)");
    const std::shared_ptr<const RecordEnvelope> recorded = loadAnyRecord(path);
    RerunOptions rerun;
    if (commandOptions.isSet("backend"))
        rerun.backend = commandOptions.value("backend", [](const std::string& s) { return backendFromString(s); });
    if (commandOptions.isSet("device"))
        rerun.device = commandOptions.value("device", parseDeviceNumber);
    // A GPU run's record on a machine without one: said before anything runs, with the way out.
    if (!rerun.backend && rerunBackend(*recorded, rerun) == BackendKind::Cuda) {
        std::string whyNoCuda;
        bool cuda = false;
        for (const DeviceInfo& d : listDevices(&whyNoCuda))
            cuda = cuda || d.backend == BackendKind::Cuda;
        if (!cuda)
            throw InputError("the recorded run ran on " + recorded->devices.front().name + " and this machine has no CUDA device" +
                             (whyNoCuda.empty() ? std::string() : " (" + whyNoCuda + ")") + ": --backend cpu runs it here");
    }
    std::unique_ptr<FamilyRun> again = configureRerun(*recorded, rerun);  // InputError -> exit 2
    const std::string heading = "run again: " + path + " (" + again->describe() + "), recorded on " +
                                recorded->devices.front().name + ": " + recordedOutcome(*recorded) + "\n";
    return std::make_unique<RerunOfRecord>(std::move(again), heading);
}

constexpr std::array<std::string_view, 2> kUsage{
    "gigacheck rerun RECORD [--backend auto|cpu|cuda] [--device N] [--json FILE] [--quiet]",
    "  (the same shape, type, seed, faults and scheme; a record of a GPU run on the CPU with --backend cpu)",
};

}  // namespace

const FamilyCommand& command()
{
    static const FamilyCommand c{
        "run a saved run record's run again on this machine, and say whether it ends as recorded",
        kUsage,
        "Runs the run a saved run record describes again -- its family, shape, type, seed, faults and scheme or "
        "variant, as recorded -- and prints its report after the recorded run's device and verdict.\nExit status: "
        "0 verified correct, 1 the result is wrong, 2 bad input or failure, 3 not verified.",
        &options,
        &configure};
    return c;
}

}  // namespace gigacheck::rerun_verb

namespace gigacheck {
const FamilyCommand& rerunCommand() { return rerun_verb::command(); }
}  // namespace gigacheck
