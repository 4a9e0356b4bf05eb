// gigacheck bench SUITE: one benchmark suite, its table of ratios on stdout (engine/src/bench).
#include "commands.hpp"

#include "command_line.hpp"
#include "family_verb.hpp"
#include "output_files.hpp"

#include "gigacheck/command_options.hpp"
#include "gigacheck/bench.hpp"
#include "gigacheck/family.hpp"

#include <iostream>
#include <sstream>

namespace cli {

int benchCommand(const QStringList& args)
{
    QCommandLineParser parser;
    // The suites are the families', from the registry.
    parser.addPositionalArgument(QStringLiteral("SUITE"), QString::fromStdString(benchSuiteList(" | ", " | ")));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Write the full numbers as JSON to FILE."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("quick"), QStringLiteral("Smaller sizes (a smoke run).")});
    parser.addOption({QStringLiteral("device"),
                      QStringLiteral("CUDA device number, as `gigacheck devices` lists them. Default: the first."),
                      QStringLiteral("N")});
    if (!parseCommandLine(parser, QStringLiteral("bench"),
                          QStringLiteral("Runs one benchmark suite and prints its table of ratios."), args))
        return kExitVerified;
    const QStringList suites = parser.positionalArguments();
    if (suites.size() != 1)
        throw gigacheck::InputError("bench takes exactly one SUITE: " + benchSuiteList(", ", " or ") +
                                    " (see gigacheck bench --help)");

    gigacheck::BenchOptions options;
    options.suite = text(suites.first());
    // --json "" is refused, not ignored: the numbers must not be lost after a long run.
    if (parser.isSet(QStringLiteral("json")))
        options.jsonPath = requireOutputPath(text(parser.value(QStringLiteral("json"))), "json", "bench JSON");
    options.quick = parser.isSet(QStringLiteral("quick"));
    if (parser.isSet(QStringLiteral("device")))
        options.device = optionValue(parser, QStringLiteral("device"), gigacheck::parseDeviceNumber);
    // Every suite, whether it would use the device or not: --device is never silently ignored.
    gigacheck::requireDevice(options.device);
    // The suite's reason for failing becomes the CLI's one-line error; other messages pass through.
    std::ostringstream err;
    // Every suite belongs to a family (its bench/ folder), found through the registry.
    const gigacheck::BenchSuite* suite = gigacheck::findBenchSuite(options.suite);
    if (!suite)
        throw gigacheck::InputError("unknown bench suite '" + options.suite + "' (" + gigacheck::benchSuiteNames() + ")");
    const int code = suite->run(options, std::cout, err);
    std::string message = err.str();
    if (code == kExitVerified) {
        std::cerr << message;
        return code;
    }
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
    if (message.rfind("gigacheck: error: ", 0) == 0)
        message.erase(0, 18);
    throw gigacheck::InputError(message.empty() ? "bench " + options.suite + " failed" : message);
}

}  // namespace cli
