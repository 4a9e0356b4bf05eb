// Shared QCommandLineParser handling for the subcommands: --help per command, errors as InputError.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include "gigacheck/command_options.hpp"
#include "gigacheck/types.hpp"

#include <string>
#include <string_view>

namespace cli {

// Parses args (the words after the command name). Returns false when --help was asked and its text
// printed (the caller exits 0). Throws gigacheck::InputError on unknown options, missing values and
// an option that takes one value given more than once (only the repeatable ones are lists by design).
bool parseCommandLine(QCommandLineParser& parser, const QString& command, const QString& description,
                      const QStringList& args, const QStringList& repeatable = {QStringLiteral("inject-at")});

std::string text(const QString& s);

// An option --name with its help text; with valueName, it takes a value shown as <valueName>.
QCommandLineOption option(const char* name, const char* description, std::string_view valueName = {});

// The value of an option, converted by parse; a conversion error is rethrown naming the option.
template <class Parse>
auto optionValue(const QCommandLineParser& parser, const QString& name, Parse parse)
    -> decltype(parse(std::string()));

// A whole decimal integer in [min, max] (gigacheck/command_options.hpp, shared with the families'
// verbs).
using gigacheck::parseInteger;

}  // namespace cli

#include "option_value.ipp"
