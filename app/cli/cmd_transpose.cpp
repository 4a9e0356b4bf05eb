// gigacheck transpose: one matrix transpose (seed 004), verified, timed and counted.
#include "commands.hpp"

#include "command_line.hpp"
#include "gallery_options.hpp"
#include "gallery_run.hpp"
#include "run_options.hpp"

#include "gigacheck/transpose.hpp"

#include <fstream>
#include <iostream>
#include <limits>

namespace cli {

namespace {
// "MxN" -> {m, n}
std::pair<std::int64_t, std::int64_t> parseMatrixShape(const std::string& s)
{
    const std::size_t x = s.find_first_of("xX");
    if (x == std::string::npos)
        throw gigacheck::InputError("expected MxN, e.g. 4096x4096");
    return {parsePositiveExtent(s.substr(0, x)), parsePositiveExtent(s.substr(x + 1))};
}
}  // namespace

int transposeCommand(const QStringList& args)
{
    using namespace gigacheck::transpose;
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("shape"), QStringLiteral("The input is M x N (row-major); the result N x M."), QStringLiteral("MxN")});
    parser.addOption({QStringLiteral("variant"),
                      QString::fromStdString("Kernel: " + gigacheck::joinedNames<Variant>("|") +
                                             " (default inplace). CPU: naive, blocked, outofplace, inplace, library; "
                                             "CUDA: naive, coalesced, inplace, padded, library."),
                      QStringLiteral("V"), QStringLiteral("inplace")});
    parser.addOption({QStringLiteral("type"), QStringLiteral("f32 | i32 (default f32)."), QStringLiteral("T"), QStringLiteral("f32")});
    addBackendOptions(parser);
    parser.addOption({QStringLiteral("reps"),
                      QStringLiteral("Timed repetitions after a warm-up (default 3); 0: one call and no warm-up (cache simulation)."),
                      QStringLiteral("R"),
                      QStringLiteral("3")});
    addJsonOption(parser);
    if (!parseCommandLine(parser, QStringLiteral("transpose"),
                          QStringLiteral("Matrix transpose, in place or out of place. "
                                         "Exit 0 correct, 1 wrong, 2 bad input."),
                          args))
        return kExitVerified;
    if (!parser.isSet(QStringLiteral("shape")))
        throw gigacheck::InputError("transpose needs --shape MxN");
    Config config;
    std::tie(config.m, config.n) = optionValue(parser, QStringLiteral("shape"), parseMatrixShape);
    config.variant = optionValue(parser, QStringLiteral("variant"), [](const std::string& s) { return variantFromString(s); });
    config.type = optionValue(parser, QStringLiteral("type"), [](const std::string& s) { return elementTypeFromString(s); });
    readBackendOptions(parser, config);
    config.reps = repsOption(parser, 0);
    const std::string jsonPath = jsonPathOption(parser);
    return runGalleryVerb("transpose", config, jsonPath, &runTranspose, &report, &toJson);
}

}  // namespace cli
