// Writing a .npy matrix as NumPy's own np.save does for a C-ordered float array: format 1.0, the
// dict padded with spaces so that the values start on a 64-byte boundary.
#include "gigacheck/npy.hpp"

#include "gigacheck/safe_write.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

namespace gigacheck {

namespace {

std::string headerOf(const HostMatrix& m)
{
    const bool f32 = m.precision() == Precision::F32;
    std::string dict = std::string("{'descr': '") + (f32 ? "<f4" : "<f8") + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + "), }";
    const std::size_t prefix = 10;  // magic, version, 2-byte length
    const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict.push_back('\n');
    std::string out("\x93NUMPY\x01\x00", 8);
    out.push_back(char(dict.size() & 0xff));
    out.push_back(char(dict.size() >> 8));
    return out + dict;
}

// The values in little-endian order, in pieces (a big-endian host swaps a copy of each piece).
template <class Sink> void forEachLittleEndianPiece(const HostMatrix& m, Sink sink)
{
    const char* data = static_cast<const char*>(m.data());
    const std::size_t total = m.bytes();
    constexpr std::size_t kPiece = std::size_t(1) << 24;
    std::vector<char> swapped;
    for (std::size_t done = 0; done < total; done += kPiece) {
        const std::size_t n = std::min(kPiece, total - done);
        if constexpr (std::endian::native == std::endian::little) {
            sink(data + done, n);
        } else {
            swapped.assign(data + done, data + done + n);
            const std::size_t e = elementSize(m.precision());
            for (std::size_t i = 0; i < n; i += e)
                std::reverse(swapped.begin() + std::ptrdiff_t(i), swapped.begin() + std::ptrdiff_t(i + e));
            sink(swapped.data(), n);
        }
    }
}

}  // namespace

std::string npyBytes(const HostMatrix& m)
{
    std::string out = headerOf(m);
    out.reserve(out.size() + m.bytes());
    forEachLittleEndianPiece(m, [&out](const char* p, std::size_t n) { out.append(p, n); });
    return out;
}

void writeNpy(const HostMatrix& m, const std::string& path)
{
    if (m.empty())
        throw InputError("cannot write '" + path + "': the matrix is empty");
    // Streamed in pieces (a matrix may not fit in memory twice), whole or not at all, never over a
    // device, a FIFO or a link (gigacheck/safe_write.hpp).
    writeFileAtomically(path, "matrix", [&m](const ByteSink& sink) {
        const std::string header = headerOf(m);
        sink(header.data(), header.size());
        forEachLittleEndianPiece(m, sink);
    });
}

}  // namespace gigacheck
