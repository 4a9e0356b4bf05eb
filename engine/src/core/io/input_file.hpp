// Every file the engine reads (records, campaigns, the ceilings store, .npy matrices) is checked
// here before it is opened: only a regular file no larger than the reader's limit. /dev/zero or
// /dev/urandom would otherwise be read until memory ran out, and opening a FIFO blocks until a
// writer comes, so such files are never opened. Internal to the engine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gigacheck {

// Throws InputError "cannot read <what> '<path>': <why>" when path does not exist, cannot be
// examined, is not a regular file after following its links (a directory, a device, a FIFO, a
// socket) or is larger than maxBytes. Returns the file's size. Opens nothing.
std::uintmax_t checkInputFile(const std::string& path, std::string_view what, std::uintmax_t maxBytes);

// checkInputFile, then the whole file in one string of its size (no stream copies). The file is
// opened without blocking and checked again once open, so one swapped for a FIFO in between is
// refused too.
std::string readInputFile(const std::string& path, std::string_view what, std::uintmax_t maxBytes);

// "1 GiB", "512 MiB": limits as the documentation states them.
std::string binaryBytes(std::uintmax_t bytes);

}  // namespace gigacheck
