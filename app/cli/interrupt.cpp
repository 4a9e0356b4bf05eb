#include "interrupt.hpp"

#include <csignal>
#include <cstddef>
#include <cstdio>
#include <pthread.h>
#include <unistd.h>

namespace cli {

namespace {

// One word holds where the command is and the signal that came: the handler may run on any
// thread (OpenBLAS and the backends' workers included), concurrently with the main thread moving
// from one phase to the next, so every change is a compare-exchange on this word.
enum Phase : int {
    kOutside,           // no work under way: a signal ends the process at once
    kWorking,           // the work polls cancelRequested
    kWorkingCancelled,  // ... and a first signal asked it to stop
    kHolding,           // the work has returned; outputs are being written
    kHoldingSignalled,  // ... and a signal waits for them
    kEnding,            // a handler is ending the process (it printed the one line)
    kEnded,             // the command prints its closing line and returns: a signal adds no line
    kEndedSignalled,    // ... and one came already: a second one ends the exit at once
};
constexpr int kPhaseBits = 0xff;
constexpr int phaseOf(int state) { return state & kPhaseBits; }
constexpr int signalOf(int state) { return state >> 8; }
constexpr int stateOf(int phase, int sig) { return phase | (sig << 8); }

constinit std::atomic<int> g_state{kOutside};
constinit std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

template <std::size_t N>
void say(const char (&line)[N])
{
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, line, N - 1);
}

// Ends the process by sig with its default action (the shell sees 130 / 143). Async-signal-safe.
[[noreturn]] void endBy(int sig)
{
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    sigset_t only;
    ::sigemptyset(&only);
    ::sigaddset(&only, sig);
    ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);  // blocked while its handler runs
    ::raise(sig);
    ::_exit(128 + sig);  // not reached: the default action of SIGINT / SIGTERM ends the process
}

// Only async-signal-safe calls here: write, sigaction, pthread_sigmask, raise, _exit.
extern "C" void onSignal(int sig)
{
    const bool term = sig == SIGTERM;
    int state = g_state.load();
    while (true) {
        switch (phaseOf(state)) {
        case kWorking:
            if (!g_state.compare_exchange_weak(state, stateOf(kWorkingCancelled, sig)))
                continue;
            g_cancel.store(true);
            return;
        case kHolding:
            if (!g_state.compare_exchange_weak(state, stateOf(kHoldingSignalled, sig)))
                continue;
            g_cancel.store(true);
            return;
        case kHoldingSignalled:
        case kEnding:
            return;  // held already, or the process is ending with its line
        case kEnded:
            // The closing line is out (or going out) and the process is on its way out with its
            // status: this signal would only add a second line.
            if (!g_state.compare_exchange_weak(state, stateOf(kEndedSignalled, signalOf(state))))
                continue;
            return;
        case kEndedSignalled:
            // Asked twice while ending: the way out is stuck (a full pipe on stdout...); leave at
            // once, without a second line.
            if (!g_state.compare_exchange_weak(state, stateOf(kEnding, signalOf(state))))
                continue;
            endBy(sig);
        case kWorkingCancelled:
            // A second signal before the work has stopped: the user wants out now; nothing is
            // written, and the one line says so.
            if (!g_state.compare_exchange_weak(state, stateOf(kEnding, sig)))
                continue;
            if (term)
                say("gigacheck: error: terminated (SIGTERM) a second time before the work had stopped; "
                    "ended at once, no partial record written\n");
            else
                say("gigacheck: error: interrupted (SIGINT) a second time before the work had stopped; "
                    "ended at once, no partial record written\n");
            endBy(sig);
        default:  // kOutside: start-up, parsing, a verb with nothing to cancel
            if (!g_state.compare_exchange_weak(state, stateOf(kEnding, sig)))
                continue;
            if (term)
                say("gigacheck: error: terminated (SIGTERM)\n");
            else
                say("gigacheck: error: interrupted (SIGINT)\n");
            endBy(sig);
        }
    }
}

// Moves to next(state) unless a handler is ending the process: then this thread waits for the end
// rather than start writing a file the process will not finish. Returns the state it left.
template <class Next>
int moveState(Next next)
{
    int state = g_state.load();
    while (true) {
        if (phaseOf(state) == kEnding) {
            while (true)
                ::pause();
        }
        if (g_state.compare_exchange_weak(state, next(state)))
            return state;
    }
}

// Before any library's start-up code runs (Qt, OpenBLAS's thread pool, the engine's statics):
// a handler installed only in main left those milliseconds to the default action, which ended
// the process with no message. Only the dynamic loader's mapping of the libraries comes before.
void installEarly(int, char**, char**) { installInterruptHandlers(); }
__attribute__((section(".preinit_array"), used)) void (*const kInstallEarly)(int, char**, char**) = installEarly;

}  // namespace

void installInterruptHandlers()
{
    struct sigaction action = {};
    action.sa_handler = onSignal;
    action.sa_flags = SA_RESTART;
    // One handler at a time per thread: a SIGTERM during the SIGINT handler waits for it.
    ::sigemptyset(&action.sa_mask);
    ::sigaddset(&action.sa_mask, SIGINT);
    ::sigaddset(&action.sa_mask, SIGTERM);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

void endingNow()
{
    moveState([](int state) {
        return phaseOf(state) == kEnded || phaseOf(state) == kEndedSignalled ? state : stateOf(kEnded, signalOf(state));
    });
}

const std::atomic<bool>& cancelRequested() { return g_cancel; }

std::string interruptWords()
{
    return signalOf(g_state.load()) == SIGTERM ? "terminated (SIGTERM)" : "interrupted (SIGINT)";
}

CancellableSection::CancellableSection()
{
    g_cancel.store(false);  // before the phase: a signal from here on is this section's
    moveState([](int) { return stateOf(kWorking, 0); });
}

CancellableSection::~CancellableSection()
{
    // After release the command is ending; otherwise (an exception) main prints the closing line.
    moveState([](int state) {
        return phaseOf(state) == kEnded || phaseOf(state) == kEndedSignalled ? state : stateOf(kOutside, signalOf(state));
    });
}

void CancellableSection::holdSignals() const
{
    moveState([](int state) {
        return stateOf(phaseOf(state) == kWorkingCancelled ? kHoldingSignalled : kHolding, signalOf(state));
    });
}

void CancellableSection::release(bool endingSaysSo) const
{
    const int before = moveState([endingSaysSo](int state) {
        const bool unsaid = signalOf(state) != 0 && phaseOf(state) != kEnded && phaseOf(state) != kEndedSignalled;
        return stateOf(unsaid && !endingSaysSo ? kEnding : kEnded, signalOf(state));
    });
    const int sig = signalOf(before);
    if (sig == 0 || endingSaysSo || phaseOf(before) == kEnded || phaseOf(before) == kEndedSignalled)
        return;
    // The signal came after the work's last cancellation point: the outputs are whole (they were
    // written under holdSignals), and the process ends as the signal asks, with its one line.
    std::fflush(stdout);
    std::fprintf(stderr, "gigacheck: error: %s as the work ended; its outputs were written in full\n",
                 sig == SIGTERM ? "terminated (SIGTERM)" : "interrupted (SIGINT)");
    std::fflush(stderr);
    endBy(sig);
}

}  // namespace cli
