// Every family verb's run, written once (gigacheck/family.hpp runCommand): configure from the
// options, check the outputs, run cancellable by a signal, then the one ending (run_ending.hpp).
#include "families/cli/option_groups.hpp"
#include "families/cli/run_ending.hpp"
#include "gigacheck/family.hpp"
#include "gigacheck/safe_write.hpp"

namespace gigacheck {

namespace {

// The files a verb reads and writes, by the options that name them: an output never replaces an
// input nor another output (a slip in a script must not cost the user's matrices or record).
void refuseSharedFiles(std::string_view verb, const CommandOptions& options)
{
    std::vector<NamedFile> inputs, outputs;
    for (const char* name : {"load-a", "load-b"})
        if (options.isSet(name))
            inputs.push_back({"--" + std::string(name), options.value(name)});
    if (verb == "rerun" && !options.positional().empty())
        inputs.push_back({"the record", options.positional().front()});
    for (const char* name : {"json", "save-c"})
        if (options.isSet(name))
            outputs.push_back({"--" + std::string(name), options.value(name)});
    gigacheck::refuseSharedFiles(inputs, outputs);
}

}  // namespace

int runCommand(const FamilyCommand& command, std::string_view verb, const CommandOptions& options, CommandIo& io)
{
    refuseSharedFiles(verb, options);  // InputError -> exit 2 in main, before anything is read
    const std::unique_ptr<FamilyRun> run = command.configure(options);
    const std::string jsonPath = cli::jsonPathOption(options);
    requireDevice(run->device(), run->backend());
    // From here a signal stops the run between operations and the partial record is still written
    // (a signal before this line ends the process with a message: nothing has run yet).
    io.beginCancellable();
    if (!jsonPath.empty())
        checkOutputFile(jsonPath, "run record");
    run->checkOtherOutputs();

    RunHooks hooks;
    hooks.cancel = &io.cancel();
    const std::shared_ptr<const RecordEnvelope> record = run->run(hooks);
    cli::RunEnding ending;
    ending.verb = std::string(verb);
    ending.runName = verb == "run" || verb == "rerun" ? std::string(verb) : std::string(verb) + " run";
    const bool judged = run->hasVerdict(*record);
    ending.cancelled = record->status == "cancelled";
    ending.failed = !ending.cancelled && !judged && record->status != "ok";
    ending.error = record->error;
    ending.jsonPath = jsonPath;
    ending.writeRecord = [&](const std::string& path) { saveAnyRecord(*record, path); };
    ending.report = run->reportHeading() + reportOf(*record);
    ending.quiet = options.isSet("quiet");
    ending.writeOtherOutputs = [&] { return run->writeOtherOutputs(*record, io.out()); };
    if (judged)
        cli::setVerdict(ending, verdictOf(*record));
    return cli::endRun(io, ending);
}

}  // namespace gigacheck
