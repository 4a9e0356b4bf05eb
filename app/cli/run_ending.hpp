// The closing line every run verb prints when a signal cancelled its run, written once: the run's
// word ("run", "reduced", ...), how it was interrupted, where the partial record went, and what
// else was not written; the exit code is kExitFailure.
#pragma once

#include "commands.hpp"
#include "interrupt.hpp"

#include <iostream>
#include <string>

namespace cli {

inline int cancelledRunEnding(const std::string& verb, const std::string& jsonPath, const std::string& notWritten = {})
{
    std::cerr << "gigacheck: error: " << verb << " " << interruptWords()
              << (jsonPath.empty() ? "" : "; partial record written to " + jsonPath) << notWritten << "\n";
    return kExitFailure;
}

}  // namespace cli
