// The commands' output files (--json, --csv, --save-c): an unwritable path is found before a run,
// not after it (the run's result would be lost), and a file is written whole or the command says
// which one it could not write.
#pragma once

#include <string>

namespace cli {

// Throws gigacheck::InputError "cannot write <what> '<path>': ..." when path is a directory or
// cannot be opened for writing. Leaves no file behind that was not there before.
void checkWritable(const std::string& path, const std::string& what);

// Writes text to path (replacing it); throws gigacheck::InputError naming what and path on failure.
void writeTextFile(const std::string& path, const std::string& text, const std::string& what);

}  // namespace cli
