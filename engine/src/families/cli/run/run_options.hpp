// `gigacheck run` options: their declaration and their conversion into a RunConfig (--scheme
// blocked) or an OnlineConfig (--scheme online | offline | tmr). Every value is checked here or by
// the engine's fromString; errors name the option.
#pragma once

#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/command_options.hpp"
#include "gigacheck/online_abft.hpp"

#include <string>
#include <vector>

namespace gigacheck::run_verb {

struct RunOptions {
    Scheme scheme = Scheme::Blocked;
    RunConfig config;     // --scheme blocked
    OnlineConfig online;  // --scheme online | offline | tmr
    std::string jsonPath;  // empty: no record written
    bool quiet = false;
    // Your own matrices (run_inputs.cpp): A and B from .npy files, C written to one.
    std::string loadA, loadB, saveC;
    bool shapeGiven = false, typeGiven = false;
};

std::vector<OptionSpec> runOptionSpecs();
RunOptions runOptionsFrom(const CommandOptions& options);

// "R,C[:DELTA][@STEP]" -> FaultAt; "delta" | "bitflip" | "bitflip:B" -> model and bit (-1: the
// default bit).
FaultAt parseInjectAt(const std::string& text);
void parseFaultModel(const std::string& text, FaultSpec& spec);

}  // namespace gigacheck::run_verb
