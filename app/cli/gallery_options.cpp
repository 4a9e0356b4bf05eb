// The kernel-gallery verbs' shared options (gallery_options.hpp).
#include "gallery_options.hpp"

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

}  // namespace cli
