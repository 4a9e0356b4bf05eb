// The gigacheck subcommands that are no family's (a family's verb: family_verb.hpp). Each takes
// the arguments after its name and returns the exit code; bad input is thrown as
// gigacheck::InputError and turned into one line on stderr by main.
#pragma once

#include "gigacheck/command_options.hpp"

#include <QStringList>

namespace cli {

// Exit codes scripts rely on (gigacheck/command_options.hpp, README "CLI reference").
using gigacheck::kExitFailure;
using gigacheck::kExitNotVerified;
using gigacheck::kExitUncorrectable;
using gigacheck::kExitVerified;

int runCommand(const QStringList& args);
int devicesCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int showCommand(const QStringList& args);
int campaignCommand(const QStringList& args);
int campaignMergeCommand(const QStringList& args);  // gigacheck campaign merge: shard files into one

}  // namespace cli
