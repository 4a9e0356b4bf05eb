// gigacheck rerun RECORD: the run a saved record describes, made again on this machine by the
// family that wrote it (Family::configureFromRecord), ended as every verb ends (runCommand: report, record, closing
// line, exit code), with the recorded verdict beside the new one.
#pragma once

#include "gigacheck/family.hpp"

namespace gigacheck::rerun_verb {

const FamilyCommand& command();

}  // namespace gigacheck::rerun_verb
