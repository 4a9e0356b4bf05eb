// The kernel-gallery verbs' shared options (gallery_options.hpp).
#include "gallery_options.hpp"

#include <limits>

namespace cli {

void addBackendOptions(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("backend"), QStringLiteral("auto | cpu | cuda (default auto)."), QStringLiteral("B"),
                      QStringLiteral("auto")});
    parser.addOption({QStringLiteral("device"), QStringLiteral("CUDA device number. Default: the first."), QStringLiteral("N")});
}

void addJsonOption(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("json"), QStringLiteral("Write the record as JSON to FILE."), QStringLiteral("FILE")});
}

std::string jsonPathOption(const QCommandLineParser& parser)
{
    const std::string jsonPath = text(parser.value(QStringLiteral("json")));
    if (parser.isSet(QStringLiteral("json")) && jsonPath.empty())
        throw gigacheck::InputError("--json needs a file name");
    return jsonPath;
}

std::int64_t parsePositiveExtent(const std::string& text)
{
    return parseInteger<std::int64_t>(text, 1, std::numeric_limits<std::int64_t>::max(), "a positive integer");
}

int repsOption(const QCommandLineParser& parser, int least)
{
    constexpr std::int64_t kMaxReps = 1000000;
    return int(optionValue(parser, QStringLiteral("reps"), [least](const std::string& s) {
        return parseInteger<std::int64_t>(s, least, kMaxReps, "a repetition count");
    }));
}

}  // namespace cli
