// The commands' output files (--json, --csv, --save-c): an unwritable path is found before a run,
// not after it (the run's result would be lost), and a file is written whole or the command says
// which one it could not write.
#pragma once

#include <string>

namespace cli {

// An output file option's value (--json, --csv) before anything runs: an empty name ("") is bad
// input, not "no file" (throws gigacheck::InputError "--<option> needs a file name (got an empty
// one)..."), and a path that cannot be written is refused (checkWritable). Returns path.
std::string requireOutputPath(const std::string& path, const std::string& option, const std::string& what);

// Throws gigacheck::InputError "cannot write <what> '<path>': ..." when path is a directory or
// cannot be opened for writing. Leaves no file behind that was not there before.
void checkWritable(const std::string& path, const std::string& what);

// Writes text to path (replacing it); throws gigacheck::InputError naming what and path on failure.
void writeTextFile(const std::string& path, const std::string& text, const std::string& what);

}  // namespace cli
