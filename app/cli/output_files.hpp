// The commands' output files (--json, --csv, --save-c): an unwritable path is found before a run,
// not after it (the run's result would be lost), and a file is written whole or the command says
// which one it could not write. The rules (no device, FIFO, socket or directory is replaced, a
// link is written through, the mode is kept) are the engine's: gigacheck/safe_write.hpp.
#pragma once

#include <string>

namespace cli {

// An output file option's value (--json, --csv) before anything runs: an empty name ("") is bad
// input, not "no file" (throws gigacheck::InputError "--<option> needs a file name (got an empty
// one)..."), and a path that cannot be written is refused (checkWritable). Returns path.
std::string requireOutputPath(const std::string& path, const std::string& option, const std::string& what);

// Throws gigacheck::InputError "cannot write <what> '<path>': ..." when path (or the file its links
// lead to) is a directory, a device, a FIFO or a socket, is not writable, or its folder is missing
// or not writable. Creates nothing and opens nothing (opening a FIFO would block).
void checkWritable(const std::string& path, const std::string& what);

// Writes text to path whole (a temporary file renamed over it); throws gigacheck::InputError naming
// what and path on any failure, the old file left as it was.
void writeTextFile(const std::string& path, const std::string& text, const std::string& what);

}  // namespace cli
