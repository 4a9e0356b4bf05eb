// The CLI verb of an algorithm family (gigacheck/family.hpp FamilyCommand): its QCommandLineParser
// built from the family's option list, the values handed to the family as CommandOptions, and the
// family's run given the console and the signals (interrupt.hpp). Every family verb enters here.
#pragma once

#include "gigacheck/family.hpp"

#include <QStringList>

#include <string>

namespace cli {

// args: the words after the verb. Returns the exit code.
int runFamilyVerb(const gigacheck::Family& family, const QStringList& args);

// The family verbs' entries in `gigacheck --help`, in the registry's order.
std::string familyVerbsUsage();

}  // namespace cli
