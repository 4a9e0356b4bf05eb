// The CLI verb of an algorithm family (gigacheck/family.hpp FamilyCommand): its QCommandLineParser
// built from the family's option list, the values handed to the family as CommandOptions, and the
// family's run given the console and the signals (interrupt.hpp). Every family verb enters here,
// and what `gigacheck --help` says of the families (their verbs, their bench suites) comes from here.
#pragma once

#include "gigacheck/family.hpp"

#include <QStringList>

#include <string>

namespace cli {

// args: the words after the verb. Returns the exit code.
int runFamilyVerb(const gigacheck::Family& family, const QStringList& args);
// The same for a verb of the registry's own (gigacheck rerun).
int runVerb(const gigacheck::FamilyCommand& command, const QString& verb, const QStringList& args);

// The family verbs' entries in `gigacheck --help`, in the registry's order.
std::string familyVerbsUsage();
// The `bench` entry of `gigacheck --help`: every family's suites, from the registry.
std::string benchUsage();
// Every bench suite's name, joined by separator (the last two by lastSeparator).
std::string benchSuiteList(const std::string& separator, const std::string& lastSeparator);

}  // namespace cli
