// NumPy .npy files of 2-D float32 / float64 matrices: the user's own A and B read in, C, the
// residuals and the injected-error map written out. Format versions 1.0, 2.0
// and 3.0, little- or big-endian '<f4' '<f8' '>f4' '>f8', C or Fortran order. A file is untrusted
// input: the header is parsed strictly and its size claims are checked against the file's length
// before anything is allocated (engine/src/core/io/README.md).
#pragma once

#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace gigacheck {

// The longest header the reader accepts (NumPy's own reader stops at 10 000 bytes by default; a
// 2-D float array's header is ~120).
inline constexpr std::size_t kMaxNpyHeaderBytes = 16384;

// What a .npy header says, once checked.
struct NpyHeader {
    int major = 1, minor = 0;
    Precision precision = Precision::F64;
    bool bigEndian = false;
    bool fortranOrder = false;
    std::int64_t rows = 0, cols = 0;
    std::size_t dataOffset = 0;  // where the values begin
    std::string descr;           // as written, e.g. "<f8"
};

// Parses the header at the start of `bytes` (the whole file or at least its first
// dataOffset bytes) of a file of fileBytes bytes, and checks that rows x cols values of its type
// are exactly what follows the header. Throws InputError with a reason meant for the user.
NpyHeader parseNpyHeader(std::string_view bytes, std::uint64_t fileBytes);

// Reads a 2-D float32 / float64 matrix in the precision the file holds. Throws InputError
// naming the file (truncated, lying header, other dtype, 1-D or 3-D, unreadable).
HostMatrix readNpy(const std::string& path);
// Only the header of a file (its shape, type and order), checked as readNpy checks it.
NpyHeader readNpyHeader(const std::string& path);
// The same from memory (the fuzzer and the tests).
HostMatrix npyFromBytes(std::string_view bytes);

// Writes format 1.0, little-endian, C order ('<f4' or '<f8' by the matrix's precision), first
// into PATH.part then renamed, so a failed write never leaves half a file in place of an old one.
// Throws InputError when the file cannot be written.
void writeNpy(const HostMatrix& m, const std::string& path);
std::string npyBytes(const HostMatrix& m);

}  // namespace gigacheck
