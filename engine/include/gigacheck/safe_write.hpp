// Every output file of the engine, the CLI and the lab (records, campaigns, CSV, .npy, the ceilings
// store) is written here, so that no writer can replace what it should not: a device, a FIFO, a
// socket or a directory is refused, a symbolic link is written through to its target (the link
// stays a link), an existing file keeps its permission bits and owner, and the file is replaced
// whole or not at all (a temporary file beside the target, flushed to disk, renamed over it).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

// Where a write to path lands: path itself, or the file its chain of symbolic links ends at (which
// need not exist yet). Throws InputError "cannot write <what> '<path>': ..." when that file exists
// and is not a regular file (directory, character or block device, FIFO, socket), when its folder
// does not exist or cannot be written, when the file exists and is not writable, or when the links
// loop. Creates nothing: a command calls it before a run so that no run is wasted.
std::string checkOutputFile(const std::string& path, std::string_view what);

// Writes bytes to path as described above (checkOutputFile first). Any failure (a full disk, a
// file-size limit, a refused rename) throws InputError naming what and path and leaves the old file
// as it was and no temporary file behind.
void writeFileAtomically(const std::string& path, std::string_view bytes, std::string_view what);

// The same for content too large to hold twice in memory: produce is called once with a sink that
// appends bytes to the file (each call may throw InputError on a failed write).
using ByteSink = std::function<void(const char* data, std::size_t size)>;
void writeFileAtomically(const std::string& path, std::string_view what,
                         const std::function<void(const ByteSink& sink)>& produce);

// A command's file named by one of its options ("--load-a", "--json"; "the record", "a shard" for
// positional ones).
struct NamedFile {
    std::string option;
    std::string path;
};
// Throws InputError before anything runs when an output would replace an input ("--save-c A.npy is
// also --load-a's file: an output never replaces an input") or another output ("--json and --csv
// both name out.x"). Two paths are one file when they lead to it through links, "..", or another
// hard link; empty paths are left out.
void refuseSharedFiles(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs);

}  // namespace gigacheck
