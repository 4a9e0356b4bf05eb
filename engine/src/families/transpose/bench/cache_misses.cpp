#include "families/transpose/bench/cache_misses.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace gigacheck::transpose {

namespace {

std::string kernelFunction(Variant v)
{
    switch (v) {
    case Variant::Naive: return "*naiveInPlace*";
    case Variant::Blocked: return "*blockedInPlace*";
    case Variant::OutOfPlace: return "*outOfPlace*";
    default: return "*inPlaceAnyShape*";
    }
}

}  // namespace

CacheMisses simulateCacheMisses(const std::string& cli, Variant v, std::int64_t n, ElementType type)
{
    CacheMisses r;
    if (std::system("valgrind --version > /dev/null 2>&1") != 0) {
        r.why = "valgrind is not installed";
        return r;
    }
    const std::string out = "/tmp/gigacheck-callgrind-" + std::to_string(::getpid()) + ".out";
    const std::string command = "valgrind --tool=callgrind --cache-sim=yes " + std::string(kSimulatedCacheOptions) +
                                " '--toggle-collect=" + kernelFunction(v) +
                                "' --callgrind-out-file=" + out + " '" + cli + "' transpose --shape " + std::to_string(n) + "x" +
                                std::to_string(n) + " --variant " + std::string(toString(v)) + " --type " +
                                std::string(toString(type)) + " --backend cpu --reps 0 > /dev/null 2>&1";
    if (std::system(command.c_str()) != 0) {
        r.why = "the run under valgrind failed";
        std::remove(out.c_str());
        return r;
    }
    std::ifstream f(out);
    std::string line, events, totals;
    while (std::getline(f, line)) {
        if (line.rfind("events:", 0) == 0)
            events = line.substr(7);
        else if (line.rfind("totals:", 0) == 0)
            totals = line.substr(7);
    }
    std::remove(out.c_str());
    std::istringstream names(events), values(totals);
    std::string name;
    double value = 0;
    while (names >> name) {
        if (!(values >> value))
            value = 0;  // Callgrind leaves trailing zero counts out
        if (name == "Dr")
            r.reads = value;
        else if (name == "D1mr")
            r.l1ReadMisses = value;
        else if (name == "DLmr")
            r.llReadMisses = value;
    }
    r.measured = !events.empty();
    if (!r.measured)
        r.why = "no totals in Callgrind's output";
    return r;
}

}  // namespace gigacheck::transpose
