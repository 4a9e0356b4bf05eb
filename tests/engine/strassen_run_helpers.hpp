// Strassen runs for the engine and GPU tests: what a run's checks caught.
#pragma once

#include "gigacheck/strassen.hpp"

#include <string>
#include <vector>

namespace gigacheck::test {

// The checks that saw a fault ("product 9", "c", ...), in the order they ran.
inline std::vector<std::string> detectedChecks(const StrassenResult& r)
{
    std::vector<std::string> caught;
    for (const StrassenCheck& k : r.checks)
        if (k.verdict == "detected")
            caught.push_back(k.where);
    return caught;
}

}  // namespace gigacheck::test
