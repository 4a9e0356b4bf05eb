#include "families/cli/run_ending.hpp"

namespace gigacheck::cli {

void setVerdict(RunEnding& ending, const RunOutcome& outcome)
{
    ending.verdictLine = outcome.verified      ? "verified correct"
                         : outcome.notVerified ? "not verified"
                                               : "NOT verified correct";
    if (outcome.notVerified) {
        ending.verdict = Verdict::NotVerified;
        ending.verdictReason = outcome.notVerifiedWhy;
    } else if (!outcome.verified) {
        ending.verdict = Verdict::Wrong;
        ending.verdictReason = !outcome.wrongWhy.empty()      ? outcome.wrongWhy
                               : outcome.referenceDisagrees ? "C does not match the reference"
                                                            : "uncorrectable errors remain";
    }
}

int endRun(CommandIo& io, const RunEnding& e)
{
    io.holdSignals();  // a signal from here waits: the record and the other outputs are written whole
    if (!e.jsonPath.empty())
        e.writeRecord(e.jsonPath);
    if (!e.quiet)
        io.out() << e.report;
    // One line per ending: an output that could not be written is said in the run's closing line.
    const std::string notWritten = e.writeOtherOutputs ? e.writeOtherOutputs() : std::string();
    io.out() << std::flush;
    io.release(e.cancelled);
    if (e.cancelled) {
        io.err() << "gigacheck: error: " << e.verb << " " << io.interruptWords()
                 << (e.jsonPath.empty() ? "" : "; partial record written to " + e.jsonPath) << notWritten << "\n";
        return kExitFailure;
    }
    if (e.failed) {
        io.err() << "gigacheck: error: " << e.runName << " failed" << (e.error.empty() ? "" : ": " + e.error)
                 << notWritten << "\n";
        return kExitFailure;
    }
    if (e.quiet)
        io.out() << e.verdictLine << "\n" << std::flush;
    switch (e.verdict) {
    case Verdict::NotVerified:
        io.err() << "gigacheck: not verified: " << e.verdictReason << "\n";
        return kExitNotVerified;
    case Verdict::Wrong:
        if (!e.verdictReason.empty())
            io.err() << "gigacheck: " << e.verdictReason << "\n";
        return kExitUncorrectable;
    case Verdict::Verified:
        break;
    }
    return kExitVerified;
}

}  // namespace gigacheck::cli
