// SIGINT and SIGTERM for every command, from the first line of main. Outside a cancellable section
// a signal ends the process at once with a one-line message (and the usual 128+N status); inside one
// (a run or a campaign under way) the first signal only asks the work to stop between operations, so
// that a partial record can still be written; a second one ends the process at once.
#pragma once

#include <atomic>
#include <string>

namespace cli {

void installInterruptHandlers();

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
};

}  // namespace cli
