// The options that both kernel-gallery verbs (gigacheck reduced, gigacheck transpose) take,
// declared and read once: where the kernels run (--backend, --device) and where the record goes
// (--json). Each verb adds its own options around them, in the order its --help lists them.
#pragma once

#include "command_line.hpp"
#include "run_options.hpp"

#include "gigacheck/types.hpp"

#include <QCommandLineParser>

#include <cstdint>
#include <string>

namespace cli {

void addBackendOptions(QCommandLineParser& parser);  // --backend B, --device N
void addJsonOption(QCommandLineParser& parser);      // --json FILE

// --backend (default auto) into config.backend, --device (when given) into config.device.
template <class Config> void readBackendOptions(const QCommandLineParser& parser, Config& config)
{
    config.backend = optionValue(parser, QStringLiteral("backend"), [](const std::string& s) { return gigacheck::backendFromString(s); });
    if (parser.isSet(QStringLiteral("device")))
        config.device = optionValue(parser, QStringLiteral("device"), parseDeviceNumber);
}

// --json's file name; empty when --json is not given; InputError for --json "".
std::string jsonPathOption(const QCommandLineParser& parser);

// A matrix extent: a whole number >= 1.
std::int64_t parsePositiveExtent(const std::string& text);

// --reps (the verb declares it with its own help): a count in [least, 1 000 000], the limit that
// the records' checks accept too.
int repsOption(const QCommandLineParser& parser, int least);

}  // namespace cli
