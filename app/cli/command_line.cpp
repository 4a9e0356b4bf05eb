#include "command_line.hpp"

#include "gigacheck/types.hpp"

#include <QSet>

#include <cstdio>

namespace cli {

namespace {

// repeatable: the options that are lists by design (their help says "repeatable"); every other
// option that takes a value takes one, and a second one is refused rather than silently winning.
void refuseRepeatedValues(const QCommandLineParser& parser, const QString& command, const QStringList& repeatable)
{
    QSet<QString> seen;
    for (const QString& name : parser.optionNames()) {
        if (seen.contains(name) && !repeatable.contains(name)) {
            const QStringList values = parser.values(name);
            if (values.isEmpty())
                continue;  // a switch (--quiet twice) says the same thing twice
            throw gigacheck::InputError("--" + text(name) + " given " + std::to_string(values.size()) + " times (" +
                                        text(values.join(QStringLiteral(", "))) + "); it takes one value (see gigacheck " +
                                        text(command) + " --help)");
        }
        seen.insert(name);
    }
}

}  // namespace

std::string text(const QString& s) { return s.toStdString(); }

QCommandLineOption option(const char* name, const char* description, std::string_view valueName)
{
    if (valueName.empty())
        return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description));
    return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description),
                              QString::fromLatin1(valueName.data(), qsizetype(valueName.size())));
}

bool parseCommandLine(QCommandLineParser& parser, const QString& command, const QString& description,
                      const QStringList& args, const QStringList& repeatable)
{
    parser.setApplicationDescription(description);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help and exit."));
    parser.addOption(help);
    // QCommandLineParser skips the first word as the program name.
    QStringList words{QStringLiteral("gigacheck ") + command};
    words += args;
    if (!parser.parse(words))
        throw gigacheck::InputError(text(parser.errorText()) + " (see gigacheck " + text(command) + " --help)");
    refuseRepeatedValues(parser, command, repeatable);
    if (parser.isSet(help)) {
        // Qt's usage line names the binary only; the command belongs in it.
        QString helpText = parser.helpText();
        const qsizetype options = helpText.indexOf(QStringLiteral("[options]"));
        if (options >= 0)
            helpText.replace(0, options, QStringLiteral("Usage: gigacheck ") + command + QLatin1Char(' '));
        std::fputs(helpText.toLocal8Bit().constData(), stdout);
        return false;
    }
    return true;
}

}  // namespace cli
