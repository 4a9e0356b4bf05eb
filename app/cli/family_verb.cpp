#include "family_verb.hpp"

#include "command_line.hpp"
#include "commands.hpp"
#include "interrupt.hpp"

#include <QCommandLineParser>

#include <iostream>
#include <optional>

namespace cli {
namespace {

// The console and the signals, as a family's run sees them.
class ConsoleIo final : public gigacheck::CommandIo {
public:
    std::ostream& out() override { return std::cout; }
    std::ostream& err() override { return std::cerr; }
    void beginCancellable() override { section_.emplace(); }
    const std::atomic<bool>& cancel() const override { return cancelRequested(); }
    void holdSignals() override
    {
        if (section_)
            section_->holdSignals();
    }
    void release(bool endingSaysSo) override
    {
        if (section_)
            section_->release(endingSaysSo);
    }
    std::string interruptWords() const override { return cli::interruptWords(); }

private:
    std::optional<CancellableSection> section_;
};

QString qText(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

int runFamilyVerb(const gigacheck::Family& family, const QStringList& args)
{
    return runVerb(*family.command, QString::fromUtf8(family.verb.data(), qsizetype(family.verb.size())), args);
}

int runVerb(const gigacheck::FamilyCommand& command, const QString& verb, const QStringList& args)
{
    const std::vector<gigacheck::OptionSpec> specs = command.options();
    QCommandLineParser parser;
    QStringList repeatable;
    for (const gigacheck::OptionSpec& s : specs) {
        if (s.valueName.empty())
            parser.addOption(QCommandLineOption(qText(s.name), qText(s.help)));
        else
            parser.addOption(QCommandLineOption(qText(s.name), qText(s.help), qText(s.valueName), qText(s.defaultValue)));
        if (s.repeatable)
            repeatable << qText(s.name);
    }
    const QString description = QString::fromUtf8(command.description.data(), qsizetype(command.description.size()));
    if (!parseCommandLine(parser, verb, description, args, repeatable))
        return kExitVerified;
    gigacheck::CommandOptions options(specs);
    for (const gigacheck::OptionSpec& s : specs) {
        const QString name = qText(s.name);
        if (!parser.isSet(name))
            continue;
        if (s.valueName.empty())
            options.add(s.name);
        else
            for (const QString& v : parser.values(name))
                options.add(s.name, text(v));
    }
    for (const QString& word : parser.positionalArguments())
        options.addPositional(text(word));
    ConsoleIo io;
    return gigacheck::runCommand(command, text(verb), options, io);
}

std::string familyVerbsUsage()
{
    // "  VERB     summary", then the usage lines under the summary.
    constexpr std::size_t kVerbColumn = 9;
    const std::string indent(2 + kVerbColumn, ' ');
    std::string usage;
    for (const gigacheck::Family* f : gigacheck::families()) {
        if (!f->command)
            continue;
        const std::string verb(f->verb);
        usage += "  " + verb + std::string(verb.size() < kVerbColumn ? kVerbColumn - verb.size() : 1, ' ') +
                 std::string(f->command->summary) + "\n";
        for (std::string_view line : f->command->usage)
            usage += indent + std::string(line) + "\n";
    }
    return usage;
}

std::string benchUsage()
{
    // The suites named alone on lines of at most kWidth columns, then one line per suite with a
    // summary.
    constexpr std::size_t kWidth = 106;
    const std::string indent(11, ' ');
    std::string done, described;
    std::string line = "  bench    run a benchmark suite: ";
    bool first = true;
    for (const gigacheck::Family* f : gigacheck::families())
        for (const gigacheck::BenchSuite& s : f->benchSuites) {
            const std::string name(s.name);
            if (!s.summary.empty()) {
                described += indent + "| " + name + " (" + std::string(s.summary) + ")\n";
            } else if (first) {
                line += name;
                first = false;
            } else if (line.size() + 3 + name.size() > kWidth) {
                done += line + "\n";
                line = indent + "| " + name;
            } else {
                line += " | " + name;
            }
        }
    return done + line + "\n" + described;
}

std::string benchSuiteList(const std::string& separator, const std::string& lastSeparator)
{
    std::vector<std::string> names;
    for (const gigacheck::Family* f : gigacheck::families())
        for (const gigacheck::BenchSuite& s : f->benchSuites)
            names.emplace_back(s.name);
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? lastSeparator : separator) + names[i];
    return list;
}

}  // namespace cli
