// Shared QCommandLineParser handling for the subcommands: --help per command, errors as InputError.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <string>

namespace cli {

// Parses args (the words after the command name). Returns false when --help was asked and its text
// printed (the caller exits 0). Throws gigacheck::InputError on unknown options or missing values.
bool parseCommandLine(QCommandLineParser& parser, const QString& command, const QString& description,
                      const QStringList& args);

std::string text(const QString& s);

// The value of an option, converted by parse; a conversion error is rethrown naming the option.
template <class Parse>
auto optionValue(const QCommandLineParser& parser, const QString& name, Parse parse)
    -> decltype(parse(std::string()));

}  // namespace cli

#include "option_value.ipp"
