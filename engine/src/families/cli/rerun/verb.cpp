#include "families/cli/rerun/verb.hpp"

#include "families/cli/option_groups.hpp"
#include "families/cli/run_ending.hpp"
#include "gigacheck/campaign.hpp"
#include "gigacheck/safe_write.hpp"

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

int run(const CommandOptions& commandOptions, CommandIo& io)
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
    const Family& family = *findFamily(recorded->family);
    if (!family.rerun)
        throw InputError(path + ": records of family '" + recorded->family + "' cannot be run again by this build");
    RerunOptions rerun;
    if (commandOptions.isSet("backend"))
        rerun.backend = commandOptions.value("backend", [](const std::string& s) { return backendFromString(s); });
    if (commandOptions.isSet("device"))
        rerun.device = commandOptions.value("device", parseDeviceNumber);
    const std::string json = cli::jsonPathOption(commandOptions);
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
    requireDevice(rerun.device, rerunBackend(*recorded, rerun));

    // From here a signal stops the run between operations and the partial record is still written.
    io.beginCancellable();
    RunHooks hooks;
    hooks.cancel = &io.cancel();
    const std::shared_ptr<const RecordEnvelope> again = family.rerun(*recorded, rerun, hooks);  // InputError -> exit 2
    cli::RunEnding ending;
    ending.verb = "rerun";
    ending.runName = "rerun of " + path;
    ending.cancelled = again->status == "cancelled";
    ending.failed = !ending.cancelled && again->status != "ok";
    ending.error = again->error;
    ending.jsonPath = json;
    ending.writeRecord = [&](const std::string& out) { saveAnyRecord(*again, out); };
    ending.report = "run again: " + path + " (" + std::string(family.title) + "), recorded on " +
                    recorded->devices.front().name + ": " + recordedOutcome(*recorded) + "\n" + reportOf(*again);
    ending.quiet = commandOptions.isSet("quiet");
    if (again->status == "ok")
        cli::setVerdict(ending, verdictOf(*again));
    return cli::endRun(io, ending);
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
        &run};
    return c;
}

}  // namespace gigacheck::rerun_verb

namespace gigacheck {
const FamilyCommand& rerunCommand() { return rerun_verb::command(); }
}  // namespace gigacheck
