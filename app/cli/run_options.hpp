// `gigacheck run` options: their declaration for QCommandLineParser and their conversion into a
// RunConfig. Every value is checked here or by the engine's fromString; errors name the option.
#pragma once

#include "gigacheck/online_abft.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include <QCommandLineParser>

#include <string>

namespace cli {

struct RunOptions {
    gigacheck::Scheme scheme = gigacheck::Scheme::Blocked;
    gigacheck::RunConfig config;          // --scheme blocked
    gigacheck::OnlineConfig online;       // --scheme online | offline | tmr
    std::string jsonPath;  // empty: no record written
    bool quiet = false;
    // Your own matrices (run_inputs.cpp): A and B from .npy files, C written to one.
    std::string loadA, loadB, saveC;
    bool shapeGiven = false, typeGiven = false;
};

void addRunOptions(QCommandLineParser& parser);
// gigacheck run --scheme online | offline | tmr (cmd_run_online.cpp).
int runOnlineCommand(const RunOptions& options);
RunOptions runOptionsFrom(const QCommandLineParser& parser);

// Exposed for tests and reuse: "2048x1024x1536" -> Shape; "R,C[:DELTA][@STEP]" -> FaultAt;
// "delta" | "bitflip" | "bitflip:B" -> model and bit (-1: the default bit).
gigacheck::Shape parseShape(const std::string& text);
gigacheck::FaultAt parseInjectAt(const std::string& text);
void parseFaultModel(const std::string& text, gigacheck::FaultSpec& spec);
// "N" -> a CUDA device number (0..1023), for run and bench.
int parseDeviceNumber(const std::string& text);

}  // namespace cli
