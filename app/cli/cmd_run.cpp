// gigacheck run: one ABFT-checked product under a memory cap, its report and its record.
#include "commands.hpp"
#include "output_files.hpp"

#include "command_line.hpp"
#include "interrupt.hpp"
#include "run_ending.hpp"
#include "run_inputs.hpp"
#include "run_options.hpp"

#include "gigacheck/blocked_gemm/run.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace cli {
using namespace gigacheck;

int runCommand(const QStringList& args)
{
    QCommandLineParser parser;
    addRunOptions(parser);
    if (!parseCommandLine(parser, QStringLiteral("run"),
                          QStringLiteral("Multiplies A (MxN) by B (NxQ) with ABFT checksums under a device-memory "
                                         "cap,\ninjects the requested faults, detects and corrects them, checks the "
                                         "result\nagainst an independent reference and prints the report.\n"
                                         "Exit status: 0 verified correct, 1 uncorrectable errors remain or the "
                                         "reference\ndisagrees, 2 bad input or a failure, 3 not verified (--no-abft without a full reference)."),
                          args))
        return kExitVerified;
    RunOptions options = runOptionsFrom(parser);
    if (options.scheme != Scheme::Blocked)
        return runOnlineCommand(options);
    const GivenOperands given = loadGivenOperands(options);  // the shape and type follow from the files
    // From here a signal stops the run between operations and the partial record is still written
    // (a signal before this line ends the process with a message: nothing has run yet).
    const CancellableSection cancellable;
    if (!options.jsonPath.empty())
        checkWritable(options.jsonPath, "run record");
    if (!options.saveC.empty())
        checkWritable(options.saveC, "C");

    RunHooks hooks;
    hooks.cancel = &cancelRequested();
    HostMatrix c;
    if (!options.saveC.empty())
        hooks.resultOut = &c;
    if (given.present()) {
        hooks.givenA = &given.a;
        hooks.givenB = &given.b;
    }
    RunRecord record = runGemm(options.config, hooks);  // InputError before anything runs -> exit 2 in main
    cancellable.holdSignals();  // a signal from here waits: the record and C are written whole
    record.inputs = inputsOf(options);  // the report's "Your matrices" line comes from the record

    if (!options.jsonPath.empty())
        saveRecord(record, options.jsonPath);
    if (!options.quiet)
        std::cout << formatReport(record);
    // One line per ending: a C that could not be written is said in the run's closing line.
    const std::string cNotWritten = saveResult(options, c, record.status)
                                        ? std::string()
                                        : "; " + options.saveC + " not written (the run did not finish, so C is not whole)";
    cancellable.release(record.status == "cancelled");

    if (record.status == "cancelled")
        return cancelledRunEnding("run", options.jsonPath, cNotWritten);
    if (record.status != "ok") {
        std::cerr << "gigacheck: error: run failed: " << record.error << cNotWritten << "\n";
        return kExitFailure;
    }
    const bool verified = record.verifiedCorrect();
    if (options.quiet)
        std::cout << (verified ? "verified correct" : record.notVerified() ? "not verified" : "NOT verified correct") << "\n";
    if (record.notVerified()) {
        std::cerr << "gigacheck: not verified: no check that could see a fault ran (--no-abft without a full reference)\n";
        return kExitNotVerified;
    }
    if (!verified) {
        std::cerr << "gigacheck: "
                  << (!record.reference.passed ? "the result does not match the reference" : "uncorrectable errors remain")
                  << "\n";
        return kExitUncorrectable;
    }
    return kExitVerified;
}

}  // namespace cli
