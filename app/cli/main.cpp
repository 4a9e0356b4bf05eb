// gigacheck: the headless lab. Dispatches to one subcommand; every failure becomes one line on
// stderr and exit status 2 (see commands.hpp for the codes).
#include "commands.hpp"
#include "family_verb.hpp"
#include "interrupt.hpp"

#include "gigacheck/family.hpp"
#include "gigacheck/types.hpp"
#include "gigacheck/version.hpp"

#include <QCoreApplication>

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

namespace {

// `gigacheck --help`: the family verbs' entries and the bench suites come from the registry
// (family_verb.cpp).
std::string usage()
{
    return "Usage: gigacheck COMMAND [options]\n"
           "\n"
           "ABFT (checksum-protected) matrix multiplication under a device-memory cap.\n"
           "\n"
           "Commands:\n" +
           cli::familyVerbsUsage() +
           "  campaign run N fault injections in one process and classify each outcome\n"
           "           gigacheck campaign --runs N [--family blocked|online|strassen] [--shape MxNxQ]\n"
           "             [--type f32|f64|tf32|tf32x3|bf16|f16]\n"
           "             [--strategy none|s1|s2|s3|s4|all] [--mem SIZE] [--scheme blocked]\n"
           "             [--fault bitflip:any|bitflip:B[+B2]|bitflip2|delta|none] [--extent cell|row:L|col:L|tile:S]\n"
           "             [--target result|checksum[-row|-col]|a|b|a-after|b-after|check|correction|encoding[-a|-b]|any]\n"
           "             [--inject-at [TARGET:]R,C[:DELTA][@WHEN]]... [--faults-per-run K]\n"
           "             [--backend auto|cpu|cuda] [--device N] [--seed S]\n"
           "             [--shard K/N] [--json FILE] [--csv FILE]\n"
           "           gigacheck campaign merge SHARD.json... [--json FILE]   (the --shard files into one)\n"
           "  devices  list devices and their roofline ceilings (--measure times them)\n" +
           cli::benchUsage() +
           "  show     print the report of a saved run record\n"
           "  rerun    run a saved run record's run again on this machine (same shape, type, seed, faults)\n"
           "           gigacheck rerun RECORD [--backend auto|cpu|cuda] [--device N] [--json FILE] [--quiet]\n"
           "\n"
           "Options:\n"
           "  -h, --help     this help; gigacheck COMMAND --help for a command's options\n"
           "  -v, --version  print the version\n"
           "\n"
           "Exit status: 0 verified correct, 1 the result is wrong (uncorrectable, or the reference disagrees),\n"
           "2 bad input or failure, 3 not verified (no check that could see a fault ran).\n";
}

// stderr gets exactly one line, whatever the message holds.
int fail(std::string message)
{
    for (char& c : message)
        if (c == '\n' || c == '\r')
            c = ' ';
    cli::endingNow();  // a signal from here adds no second line
    std::fprintf(stderr, "gigacheck: error: %s\n", message.c_str());
    return cli::kExitFailure;
}

int dispatch(const QStringList& arguments)
{
    if (arguments.size() < 2)
        return fail("no command given (try gigacheck --help)");
    const QString command = arguments.at(1);
    const QStringList rest = arguments.mid(2);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        std::printf("gigacheck %s\n", gigacheck::kVersion);
        return 0;
    }
    // A family's verb, by the registry; then the commands that are no family's.
    if (const gigacheck::Family* family = gigacheck::findFamilyByVerb(command.toStdString()))
        return cli::runFamilyVerb(*family, rest);
    if (command == QLatin1String("rerun"))
        return cli::runVerb(gigacheck::rerunCommand(), command, rest);
    using Command = int (*)(const QStringList&);
    static constexpr std::pair<const char*, Command> kCommands[] = {
        {"campaign", cli::campaignCommand}, {"devices", cli::devicesCommand},
        {"bench", cli::benchCommand},       {"show", cli::showCommand},
    };
    // The unknown-command message lists the family verbs, then the others.
    std::string names;
    for (const gigacheck::Family* f : gigacheck::families())
        if (f->command)
            names += (names.empty() ? "" : ", ") + std::string(f->verb);
    names += ", rerun";
    for (const auto& [name, run] : kCommands) {
        if (command == QLatin1String(name))
            return run(rest);
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    return fail("unknown command '" + command.toStdString() + "' (commands: " + names + ")");
}

}  // namespace

int main(int argc, char** argv)
{
    // Already installed before the libraries' start-up code (interrupt.cpp); kept first here too.
    cli::installInterruptHandlers();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gigacheck"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(gigacheck::kVersion));
    try {
        const int code = dispatch(QCoreApplication::arguments());
        cli::endingNow();  // the command has said its last line; the way out adds none
        return code;
    } catch (const gigacheck::InputError& e) {
        return fail(e.what());
    } catch (const gigacheck::BackendError& e) {
        return fail(std::string("backend failure: ") + e.what());
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
