// The gigacheck subcommands. Each takes the arguments after its name and returns the exit code;
// bad input is thrown as gigacheck::InputError and turned into one line on stderr by main.
#pragma once

#include <QStringList>

namespace cli {

// Exit codes scripts rely on (README "CLI reference").
inline constexpr int kExitVerified = 0;       // result verified correct (clean or corrected)
inline constexpr int kExitUncorrectable = 1;  // uncorrectable errors remain, or the reference disagrees
inline constexpr int kExitFailure = 2;        // bad input or a failure
inline constexpr int kExitNotVerified = 3;    // the run ended but no check that could see a fault ran

int runCommand(const QStringList& args);
int devicesCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int showCommand(const QStringList& args);
int campaignCommand(const QStringList& args);
int campaignMergeCommand(const QStringList& args);  // gigacheck campaign merge: shard files into one
int strassenCommand(const QStringList& args);
int reducedCommand(const QStringList& args);    // kernel gallery, seed 003
int transposeCommand(const QStringList& args);  // kernel gallery, seed 004

}  // namespace cli
