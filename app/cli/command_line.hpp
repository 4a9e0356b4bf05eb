// Shared QCommandLineParser handling for the subcommands: --help per command, errors as InputError.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include "gigacheck/types.hpp"

#include <charconv>
#include <string>
#include <string_view>

namespace cli {

// Parses args (the words after the command name). Returns false when --help was asked and its text
// printed (the caller exits 0). Throws gigacheck::InputError on unknown options, missing values and
// an option that takes one value given more than once (only --inject-at is a list by design).
bool parseCommandLine(QCommandLineParser& parser, const QString& command, const QString& description,
                      const QStringList& args);

std::string text(const QString& s);

// An option --name with its help text; with valueName, it takes a value shown as <valueName>.
QCommandLineOption option(const char* name, const char* description, std::string_view valueName = {});

// The value of an option, converted by parse; a conversion error is rethrown naming the option.
template <class Parse>
auto optionValue(const QCommandLineParser& parser, const QString& name, Parse parse)
    -> decltype(parse(std::string()));

// A whole decimal integer in [min, max], for every command's counts and sizes; anything else
// (signs, spaces, suffixes, "1e3", a value past T) is an InputError naming what was expected.
template <class T>
T parseInteger(const std::string& text, T min, T max, const char* what)
{
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end)
        throw gigacheck::InputError("'" + text + "' is not " + what);
    if (value < min || value > max)
        throw gigacheck::InputError("'" + text + "' is out of range [" + std::to_string(min) + ", " +
                                    std::to_string(max) + "]");
    return value;
}

}  // namespace cli

#include "option_value.ipp"
