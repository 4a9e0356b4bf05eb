// gigacheck run --scheme online | offline | tmr: the online ABFT family's run, report and record.
#include "commands.hpp"
#include "output_files.hpp"

#include "interrupt.hpp"
#include "run_ending.hpp"
#include "run_options.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace cli {
using namespace gigacheck;

int runOnlineCommand(const RunOptions& options)
{
    const CancellableSection cancellable;
    if (!options.jsonPath.empty())
        checkWritable(options.jsonPath, "run record");
    RunHooks hooks;
    hooks.cancel = &cancelRequested();
    const OnlineRecord record = runOnline(options.online, hooks);  // InputError -> exit 2 in main
    cancellable.holdSignals();  // a signal from here waits: the record is written whole

    if (!options.jsonPath.empty())
        saveOnlineRecord(record, options.jsonPath);
    if (!options.quiet)
        std::cout << formatOnlineReport(record);
    cancellable.release(record.status == "cancelled");
    if (record.status == "cancelled")
        return cancelledRunEnding("run", options.jsonPath);
    if (record.status != "ok") {
        std::cerr << "gigacheck: error: run failed: " << record.error << "\n";
        return kExitFailure;
    }
    const bool verified = record.verifiedCorrect();
    if (options.quiet)
        std::cout << (verified ? "verified correct" : "NOT verified correct") << "\n";
    if (!verified) {
        const bool noMajority = record.vote && record.vote->cellsWithoutMajority > 0;
        std::cerr << "gigacheck: "
                  << (!record.reference.passed ? "the result does not match the reference"
                      : noMajority             ? "TMR found no majority for some cells"
                                               : "uncorrectable errors remain")
                  << "\n";
        return kExitUncorrectable;
    }
    return kExitVerified;
}

}  // namespace cli
