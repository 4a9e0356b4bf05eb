#include "interrupt.hpp"

#include <csignal>
#include <cstring>
#include <unistd.h>

namespace cli {

namespace {

std::atomic<bool> g_cancellable{false};
std::atomic<bool> g_cancel{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

// Only async-signal-safe calls here: write, signal, raise.
extern "C" void onSignal(int sig)
{
    if (g_cancellable.load() && !g_cancel.exchange(true)) {
        g_signal.store(sig);
        return;
    }
    const char* message = sig == SIGTERM ? "gigacheck: error: terminated (SIGTERM)\n"
                                         : "gigacheck: error: interrupted (SIGINT)\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, std::strlen(message));
    std::signal(sig, SIG_DFL);
    std::raise(sig);  // the shell sees the usual 130 / 143
}

}  // namespace

void installInterruptHandlers()
{
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
}

const std::atomic<bool>& cancelRequested() { return g_cancel; }

std::string interruptWords()
{
    return g_signal.load() == SIGTERM ? "terminated (SIGTERM)" : "interrupted (SIGINT)";
}

CancellableSection::CancellableSection()
{
    g_cancel.store(false);
    g_signal.store(0);
    g_cancellable.store(true);
}

CancellableSection::~CancellableSection() { g_cancellable.store(false); }

}  // namespace cli
