// The run and its ending for the kernel-gallery verbs (gigacheck reduced, gigacheck transpose),
// written once: the device checked, the run cancellable by a signal, the report printed, the record
// written whole, and the exit code (0 correct, 1 wrong, 2 cancelled or bad input).
#pragma once

#include "commands.hpp"
#include "device_check.hpp"
#include "interrupt.hpp"
#include "output_files.hpp"
#include "run_ending.hpp"

#include <iostream>
#include <string>

namespace cli {

template <class Config, class Record>
int runGalleryVerb(const char* verb, Config& config, const std::string& jsonPath, Record (*run)(const Config&),
                   std::string (*report)(const Record&), std::string (*toJson)(const Record&))
{
    requireDevice(config.device, config.backend);
    // From here a signal stops the run between operations (the CPU loops between rows) and the
    // partial record is still written; a signal before this line ends the process with a message.
    const CancellableSection cancellable;
    config.cancel = &cancelRequested();
    if (!jsonPath.empty())
        checkWritable(jsonPath, "run record");
    const Record record = run(config);
    cancellable.holdSignals();  // a signal from here waits: the record is written whole
    std::cout << report(record) << std::flush;
    if (!jsonPath.empty())
        writeTextFile(jsonPath, toJson(record) + "\n", "run record");
    cancellable.release(record.status == "cancelled");
    if (record.status == "cancelled")
        return cancelledRunEnding(verb, jsonPath);
    return record.verified ? kExitVerified : kExitUncorrectable;
}

}  // namespace cli
