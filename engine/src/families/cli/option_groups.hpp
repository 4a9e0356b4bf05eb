// Options that several family verbs declare and read the same way, written once: where the kernels
// run (--backend, --device), how often (--reps) and where the record goes (--json, checked for
// writing before anything runs). Each verb adds its own options around them.
#pragma once

#include "gigacheck/command_options.hpp"

#include <string>
#include <vector>

namespace gigacheck::cli {

// --backend B (default auto) and --device N, as the kernel-gallery verbs list them.
std::vector<OptionSpec> backendOptions();
// --json FILE.
OptionSpec jsonOption(std::string help = "Write the record as JSON to FILE.");
// --quiet: only the verdict line.
OptionSpec quietOption();

// --backend (default auto) into config.backend, --device (when given) into config.device.
template <class Config> void readBackendOptions(const CommandOptions& options, Config& config)
{
    config.backend = options.value("backend", [](const std::string& s) { return backendFromString(s); });
    if (options.isSet("device"))
        config.device = options.value("device", parseDeviceNumber);
}

// --json's file name, checked writable; empty when --json is not given; InputError for --json ""
// or a path that cannot be written.
std::string jsonPathOption(const CommandOptions& options);

// --reps (the verb declares it with its own help): a count in [least, 1 000 000], the limit that
// the records' checks accept too.
int repsOption(const CommandOptions& options, int least);

// --seed: any 64-bit value.
std::uint64_t seedOption(const CommandOptions& options);

}  // namespace gigacheck::cli
