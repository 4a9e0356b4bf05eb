// Template part of command_line.hpp.
#include "gigacheck/types.hpp"

namespace cli {

template <class Parse>
auto optionValue(const QCommandLineParser& parser, const QString& name, Parse parse)
    -> decltype(parse(std::string()))
{
    const std::string value = parser.value(name).toStdString();
    try {
        return parse(value);
    } catch (const gigacheck::InputError& e) {
        throw gigacheck::InputError("--" + name.toStdString() + " " + value + ": " + e.what());
    }
}

}  // namespace cli
