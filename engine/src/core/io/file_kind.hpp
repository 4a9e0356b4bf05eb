// What kind of file a path names, in the words that both the readers (input_file.cpp) and the
// writers (safe_write.cpp) give when they refuse one. Internal to the engine.
#pragma once

#include <string>

#include <sys/types.h>

namespace gigacheck {

// "it is a directory, not a file", "it is a FIFO (named pipe), not a regular file", ... for a file
// of this st_mode that is not a regular file; empty when it is one.
std::string notRegularFile(mode_t mode);

}  // namespace gigacheck
