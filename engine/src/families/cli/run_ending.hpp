// The end of every family verb's run, written once: the record written whole (also when the run
// failed or was cancelled), the report, the other outputs, the closing line and the exit code
// (0 verified, 1 wrong, 2 failed or cancelled, 3 not verified). The verb has run its work inside
// io.beginCancellable(); endRun holds the signals from its first line.
#pragma once

#include "gigacheck/command_options.hpp"
#include "gigacheck/family.hpp"

#include <functional>
#include <string>

namespace gigacheck::cli {

enum class Verdict { Verified, Wrong, NotVerified };

struct RunEnding {
    std::string verb;     // "run", "strassen", ...: the word of the cancelled line
    std::string runName;  // "run", "strassen run": the word of the failed line
    bool cancelled = false;
    bool failed = false;
    std::string error;  // why it failed
    std::string jsonPath;  // empty: no record written
    std::function<void(const std::string& path)> writeRecord;
    std::string report;  // printed unless quiet
    bool quiet = false;
    std::string verdictLine;  // what --quiet prints of a run that ended ("verified correct", ...)
    // Outputs beside the record (--save-c); returns what the closing line adds about one it could
    // not write ("; C.npy not written (...)"), empty when none.
    std::function<std::string()> writeOtherOutputs;
    Verdict verdict = Verdict::Verified;
    std::string verdictReason;  // for Wrong and NotVerified: the stderr line after "gigacheck: " (Wrong: none when empty)
};

// What a run that ended says of C: the family's verdict (Family::verdict).
using RunOutcome = RecordVerdict;
// Sets the ending's verdict, its reason and its --quiet line from the outcome.
void setVerdict(RunEnding& ending, const RunOutcome& outcome);

int endRun(CommandIo& io, const RunEnding& ending);

}  // namespace gigacheck::cli
