// gigacheck reduced: one reduced matrix multiplication (seed 003), verified, timed and counted.
#include "commands.hpp"

#include "command_line.hpp"
#include "gallery_options.hpp"
#include "gallery_run.hpp"
#include "run_options.hpp"

#include "gigacheck/reduced_matmul.hpp"

#include <fstream>
#include <iostream>
#include <limits>

namespace cli {

int reducedCommand(const QStringList& args)
{
    using namespace gigacheck::reduced_matmul;
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("n"), QStringLiteral("A and B are N x N (N even); C is N/2 x N/2."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("variant"),
                      QString::fromStdString("Kernel: " + gigacheck::joinedNames<Variant>("|") + " (default reduce-blas)."),
                      QStringLiteral("V"), QStringLiteral("reduce-blas")});
    parser.addOption({QStringLiteral("type"), QStringLiteral("f32 | f64 (default f32)."), QStringLiteral("T"), QStringLiteral("f32")});
    addBackendOptions(parser);
    parser.addOption({QStringLiteral("reps"), QStringLiteral("Timed repetitions after a warm-up (default 3)."), QStringLiteral("R"),
                      QStringLiteral("3")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the random inputs (default 42)."), QStringLiteral("S"),
                      QStringLiteral("42")});
    addJsonOption(parser);
    if (!parseCommandLine(parser, QStringLiteral("reduced"),
                          QStringLiteral("Reduced matrix multiplication: C_ij = (A row 2i + row 2i+1) . "
                                         "(B column 2j + column 2j+1). Exit 0 correct, 1 wrong, 2 bad input."),
                          args))
        return kExitVerified;
    if (!parser.isSet(QStringLiteral("n")))
        throw gigacheck::InputError("reduced needs --n N (an even matrix size)");
    Config config;
    config.n = optionValue(parser, QStringLiteral("n"), parsePositiveExtent);
    config.variant = optionValue(parser, QStringLiteral("variant"), [](const std::string& s) { return variantFromString(s); });
    config.precision = optionValue(parser, QStringLiteral("type"), [](const std::string& s) { return gigacheck::precisionFromString(s); });
    readBackendOptions(parser, config);
    config.reps = repsOption(parser, 1);
    config.seed = optionValue(parser, QStringLiteral("seed"), [](const std::string& s) {
        return parseInteger<std::uint64_t>(s, 0, std::numeric_limits<std::uint64_t>::max(), "a seed");
    });
    const std::string jsonPath = jsonPathOption(parser);
    return runGalleryVerb("reduced", config, jsonPath, &runReduced, &report, &toJson);
}

}  // namespace cli
