// SIGINT and SIGTERM for every command, from before any library's start-up code (a .preinit_array
// entry, see interrupt.cpp). Every ending caused by a signal prints exactly one line on stderr:
// - outside a cancellable section a signal ends the process at once with that line (and the usual
//   128+N status, 130 / 143);
// - inside one (a run or a campaign under way) the first signal only asks the work to stop between
//   operations, so that a partial record can still be written; a second one before the work has
//   stopped ends the process at once with a line saying that no partial record was written;
// - once the work has returned (holdSignals) a signal waits until the outputs are written whole:
//   it never cuts a record short;
// - once the command prints its closing line (release, endingNow) a signal adds no second line.
#pragma once

#include <atomic>
#include <string>

namespace cli {

// Idempotent; interrupt.cpp already runs it before main (kept callable for main's first line).
void installInterruptHandlers();

// The command is printing its closing line (main: its error line, or after the command returned):
// from here a signal adds no second line; a second one ends the exit at once (128+N).
void endingNow();

// Set by the first signal inside a cancellable section; runGemm / runCampaign poll it.
const std::atomic<bool>& cancelRequested();
// "interrupted (SIGINT)" or "terminated (SIGTERM)": what ended the work, for the closing message.
std::string interruptWords();

class CancellableSection {
public:
    CancellableSection();
    ~CancellableSection();
    CancellableSection(const CancellableSection&) = delete;
    CancellableSection& operator=(const CancellableSection&) = delete;

    // The work has returned and its outputs are about to be written: from here a signal is held
    // (not lost) until release, so a record or C being written is always finished.
    void holdSignals() const;
    // Before the command's closing line. endingSaysSo: that line reports the interruption (the
    // work came back cancelled). Otherwise a signal held or not acted on (it came after the last
    // cancellation point) ends the process here, with its one line and 128+N, the outputs being
    // whole. After release the command is ending (endingNow).
    void release(bool endingSaysSo) const;
};

}  // namespace cli
