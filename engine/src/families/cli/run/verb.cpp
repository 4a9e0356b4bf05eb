// gigacheck run: one ABFT-checked product under a memory cap (blocked GEMM) or an online ABFT run
// (--scheme online | offline | tmr), its report and its record; the scheme picks the family.
#include "families/cli/run/verb.hpp"

#include "families/cli/run/run_inputs.hpp"
#include "families/cli/run/run_options.hpp"
#include "families/cli/run_ending.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/safe_write.hpp"

#include <array>

namespace gigacheck::run_verb {
namespace {

// The ending's fields every scheme fills alike.
gigacheck::cli::RunEnding endingOf(const RunOptions& options, const std::string& status, const std::string& error)
{
    gigacheck::cli::RunEnding ending;
    ending.verb = "run";
    ending.runName = "run";
    ending.cancelled = status == "cancelled";
    ending.failed = !ending.cancelled && status != "ok";
    ending.error = error;
    ending.jsonPath = options.jsonPath;
    ending.quiet = options.quiet;
    return ending;
}

// --scheme online | offline | tmr: the online ABFT family's run.
int runOnlineScheme(const RunOptions& options, CommandIo& io)
{
    io.beginCancellable();
    if (!options.jsonPath.empty())
        checkOutputFile(options.jsonPath, "run record");
    RunHooks hooks;
    hooks.cancel = &io.cancel();
    const OnlineRecord record = runOnline(options.online, hooks);  // InputError -> exit 2 in main
    gigacheck::cli::RunEnding ending = endingOf(options, record.status, record.error);
    ending.writeRecord = [&](const std::string& path) { saveOnlineRecord(record, path); };
    ending.report = formatOnlineReport(record);
    gigacheck::cli::setVerdict(ending, verdictOf(record));
    return gigacheck::cli::endRun(io, ending);
}

int run(const CommandOptions& commandOptions, CommandIo& io)
{
    RunOptions options = runOptionsFrom(commandOptions);
    if (options.scheme != Scheme::Blocked)
        return runOnlineScheme(options, io);
    const GivenOperands given = loadGivenOperands(options);  // the shape and type follow from the files
    // From here a signal stops the run between operations and the partial record is still written
    // (a signal before this line ends the process with a message: nothing has run yet).
    io.beginCancellable();
    if (!options.jsonPath.empty())
        checkOutputFile(options.jsonPath, "run record");
    if (!options.saveC.empty())
        checkOutputFile(options.saveC, "C");

    RunHooks hooks;
    hooks.cancel = &io.cancel();
    HostMatrix c;
    if (!options.saveC.empty())
        hooks.resultOut = &c;
    if (given.present()) {
        hooks.givenA = &given.a;
        hooks.givenB = &given.b;
    }
    RunRecord record = runGemm(options.config, hooks);  // InputError before anything runs -> exit 2 in main
    record.inputs = inputsOf(options);  // the report's "Your matrices" line comes from the record

    gigacheck::cli::RunEnding ending = endingOf(options, record.status, record.error);
    ending.writeRecord = [&](const std::string& path) { saveRecord(record, path); };
    ending.report = formatReport(record);
    ending.writeOtherOutputs = [&] {
        return saveResult(options, c, record.status, io.out())
                   ? std::string()
                   : "; " + options.saveC + " not written (the run did not finish, so C is not whole)";
    };
    gigacheck::cli::setVerdict(ending, verdictOf(record));
    return gigacheck::cli::endRun(io, ending);
}

constexpr std::array<std::string_view, 6> kUsage{
    "gigacheck run --shape MxNxQ [--type f32|f64|bf16|f16] [--backend auto|cpu|cuda]",
    "  [--strategy none|s1|s2|s3|s4|auto] [--mem SIZE] [--errors K] [--collinear row|col|none]",
    "  [--inject-at [TARGET:]R,C[:DELTA][@STEP]]... [--fault delta|bitflip:B[+B2]] [--extent cell|row:L|col:L|tile:S] "
    "[--seed S]",
    "  [--dist uniform|normal|wide] [--tile 8|16|32] [--no-abft] [--json FILE] ...",
    "gigacheck run --shape MxNxQ --scheme online|offline|tmr [--panel B] [--check-every FQ]",
    "  [--checksums K] [--target result|checksum-row|checksum-col|a|b] ...",
};

}  // namespace
}  // namespace gigacheck::run_verb

namespace gigacheck {

const FamilyCommand& runVerbCommand()
{
    static const FamilyCommand c{
        "multiply, inject faults, detect and correct them, print the report", run_verb::kUsage,
        "Multiplies A (MxN) by B (NxQ) with ABFT checksums under a device-memory cap,\ninjects the requested faults, "
        "detects and corrects them, checks the result\nagainst an independent reference and prints the report.\n"
        "Exit status: 0 verified correct, 1 uncorrectable errors remain or the reference\ndisagrees, 2 bad input or "
        "a failure, 3 not verified (--no-abft, or TMR cells without a majority, and no full\nreference).",
        &run_verb::runOptionSpecs, &run_verb::run};
    return c;
}

}  // namespace gigacheck
