// gigacheck: the headless lab. Dispatches to one subcommand; every failure becomes one line on
// stderr and exit status 2 (see commands.hpp for the codes).
#include "commands.hpp"
#include "interrupt.hpp"

#include "gigacheck/types.hpp"
#include "gigacheck/version.hpp"

#include <QCoreApplication>

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

namespace {

const char* const kUsage =
    "Usage: gigacheck COMMAND [options]\n"
    "\n"
    "ABFT (checksum-protected) matrix multiplication under a device-memory cap.\n"
    "\n"
    "Commands:\n"
    "  run      multiply, inject faults, detect and correct them, print the report\n"
    "           gigacheck run --shape MxNxQ [--type f32|f64|bf16|f16] [--backend auto|cpu|cuda]\n"
    "             [--strategy none|s1|s2|s3|s4|auto] [--mem SIZE] [--errors K] [--collinear row|col|none]\n"
    "             [--inject-at [TARGET:]R,C[:DELTA][@STEP]]... [--fault delta|bitflip:B[+B2]] [--extent cell|row:L|col:L|tile:S] [--seed S]\n"
    "             [--dist uniform|normal|wide] [--tile 8|16|32] [--no-abft] [--json FILE] ...\n"
    "           gigacheck run --shape MxNxQ --scheme online|offline|tmr [--panel B] [--check-every FQ]\n"
    "             [--checksums K] [--target result|checksum-row|checksum-col|a|b] ...\n"
    "  campaign run N fault injections in one process and classify each outcome\n"
    "           gigacheck campaign --runs N [--shape MxNxQ] [--type f32|f64|tf32|bf16|f16]\n"
    "             [--strategy none|s1|s2|s3|s4|all] [--mem SIZE] [--scheme blocked]\n"
    "             [--fault bitflip:any|bitflip:B[+B2]|bitflip2|delta|none] [--model cell|row:L|col:L|tile:S]\n"
    "             [--target result|checksum|a|b|a-after|b-after|check|correction|encoding|any]\n"
    "             [--faults-per-run K] [--backend auto|cpu|cuda] [--device N] [--seed S]\n"
    "             [--shard K/N] [--json FILE] [--csv FILE]\n"
    "           gigacheck campaign merge SHARD.json... [--json FILE]   (the --shard files into one)\n"
    "  devices  list devices and their roofline ceilings (--measure times them)\n"
    "  strassen memory-efficient Strassen: in-place stages, recovery, checksums\n"
    "           gigacheck strassen --shape MxNxQ [--levels L] [--variant msmes|winograd|workspace|accumulate]\n"
    "             [--type f32|f64|tf32] [--backend auto|cpu|cuda] [--devices G] [--decomposition 2d|winograd]\n"
    "             [--exact-restore] [--inject-at [TARGET:]R,C[:DELTA][@K]|c:Q|a:Q|b:Q|product:K]...\n"
    "             [--fault delta|bitflip:B[+B2]] [--json FILE]\n"
    "  reduced  reduced matmul: gigacheck reduced --n N --variant naive4p|naivep|tiled8|tiled16|tiled32|reduce-blas\n"
    "             [--type f32|f64] [--backend auto|cpu|cuda] [--json FILE]\n"
    "  transpose matrix transpose: gigacheck transpose --shape MxN\n"
    "             --variant naive|blocked|outofplace|coalesced|inplace|padded|library [--type f32|i32]\n"
    "             [--backend auto|cpu|cuda] [--json FILE]\n"
    "  bench    run a benchmark suite: abft-overhead | kernels | out-of-core | paper | link | online | strassen\n"
    "           | reduced | transpose\n"
    "           | multi-gpu-strassen (the Strassen decompositions on every visible GPU, against one GPU and cuBLAS)\n"
    "           | multi-gpu-gemm (blocked ABFT GEMM over every visible GPU, against cublasXt)\n"
    "  show     print the report of a saved run record\n"
    "\n"
    "Options:\n"
    "  -h, --help     this help; gigacheck COMMAND --help for a command's options\n"
    "  -v, --version  print the version\n"
    "\n"
    "Exit status: 0 verified correct, 1 the result is wrong (uncorrectable, or the reference disagrees),\n"
    "2 bad input or failure, 3 not verified (no check that could see a fault ran).\n";

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
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        std::printf("gigacheck %s\n", gigacheck::kVersion);
        return 0;
    }
    // Commands in the order the unknown-command message lists them.
    using Command = int (*)(const QStringList&);
    static constexpr std::pair<const char*, Command> kCommands[] = {
        {"run", cli::runCommand},           {"campaign", cli::campaignCommand}, {"strassen", cli::strassenCommand},
        {"reduced", cli::reducedCommand},   {"transpose", cli::transposeCommand}, {"devices", cli::devicesCommand},
        {"bench", cli::benchCommand},       {"show", cli::showCommand},
    };
    std::string names;
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
