// The run of a kernel-gallery verb (gigacheck reduced, gigacheck transpose), written once: the
// device checked, the record's file checked before the run, the run cancellable by a signal, then
// the one run ending (families/cli/run_ending.hpp): report, record, exit 0 correct, 1 wrong, 2
// cancelled or bad input.
#pragma once

#include "families/cli/option_groups.hpp"
#include "families/cli/run_ending.hpp"
#include "gigacheck/safe_write.hpp"

#include <string>

namespace gigacheck::gallery {

template <class Config, class Record>
int runVerb(const char* verb, Config& config, const CommandOptions& options, CommandIo& io,
            Record (*run)(const Config&), std::string (*report)(const Record&), std::string (*toJson)(const Record&))
{
    const std::string jsonPath = cli::jsonPathOption(options);
    requireDevice(config.device, config.backend);
    // From here a signal stops the run between operations (the CPU loops between rows) and the
    // partial record is still written; a signal before this line ends the process with a message.
    io.beginCancellable();
    config.cancel = &io.cancel();
    if (!jsonPath.empty())
        checkOutputFile(jsonPath, "run record");
    const Record record = run(config);
    cli::RunEnding ending;
    ending.verb = verb;
    ending.runName = std::string(verb) + " run";
    ending.cancelled = record.status == "cancelled";
    ending.jsonPath = jsonPath;
    ending.writeRecord = [&](const std::string& path) { writeFileAtomically(path, toJson(record) + "\n", "run record"); };
    ending.report = report(record);
    ending.quiet = options.isSet("quiet");
    if (record.status == "ok")
        cli::setVerdict(ending, verdictOf(record));  // the family's words for a wrong result
    return cli::endRun(io, ending);
}

}  // namespace gigacheck::gallery
