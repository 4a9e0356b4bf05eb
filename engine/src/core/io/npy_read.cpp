// Reading a .npy matrix: the header checked first (parseNpyHeader), then the values read straight
// into the matrix, byte-swapped when big-endian, transposed when in Fortran order.
#include "gigacheck/npy.hpp"

#include "core/io/input_file.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <new>
#include <system_error>

namespace gigacheck {

namespace {

// Copies `bytes` bytes of the file's values into dst; throws when the source ends early.
using ReadValues = std::function<void(void* dst, std::size_t bytes)>;

template <class U> void swapBytes(void* data, std::size_t count)
{
    U* p = static_cast<U*>(data);
    for (std::size_t i = 0; i < count; ++i) {
        if constexpr (sizeof(U) == 4)
            p[i] = __builtin_bswap32(p[i]);
        else
            p[i] = __builtin_bswap64(p[i]);
    }
}

// The file's (rows x cols, column-major) values are the row-major cols x rows matrix `t`.
template <class T> void transposeInto(const HostMatrix& t, HostMatrix& out)
{
    const T* src = t.as<T>();
    T* dst = out.as<T>();
    const std::int64_t rows = out.rows(), cols = out.cols();
    constexpr std::int64_t kTile = 32;  // cache blocks: neither side is walked with a huge stride alone
    for (std::int64_t r0 = 0; r0 < rows; r0 += kTile)
        for (std::int64_t c0 = 0; c0 < cols; c0 += kTile)
            for (std::int64_t c = c0; c < std::min(cols, c0 + kTile); ++c)
                for (std::int64_t r = r0; r < std::min(rows, r0 + kTile); ++r)
                    dst[r * cols + c] = src[c * rows + r];
}

HostMatrix readMatrix(const NpyHeader& h, const ReadValues& read)
{
    try {
        // Fortran order: the values as they lie are the transpose, read whole and then turned.
        HostMatrix stored(h.precision, h.fortranOrder ? h.cols : h.rows, h.fortranOrder ? h.rows : h.cols);
        read(stored.data(), stored.bytes());
        const bool nativeBig = std::endian::native == std::endian::big;
        if (h.bigEndian != nativeBig) {
            const std::size_t count = std::size_t(h.rows) * std::size_t(h.cols);
            if (h.precision == Precision::F32)
                swapBytes<std::uint32_t>(stored.data(), count);
            else
                swapBytes<std::uint64_t>(stored.data(), count);
        }
        if (!h.fortranOrder)
            return stored;
        HostMatrix out(h.precision, h.rows, h.cols);
        if (h.precision == Precision::F32)
            transposeInto<float>(stored, out);
        else
            transposeInto<double>(stored, out);
        return out;
    } catch (const std::bad_alloc&) {
        throw InputError("not enough memory for its " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                         " matrix (" + formatBytes(double(h.rows) * double(h.cols) * double(elementSize(h.precision))) + ")");
    } catch (const BackendError& e) {  // the heap allocator's "out of host memory"
        throw InputError(e.what());
    }
}

// Opens the file into `in` and parses its header; `in` stays open for the values.
NpyHeader openNpyFile(const std::string& path, std::ifstream& in)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec)
        throw InputError(ec.message());
    in.open(path, std::ios::binary);
    if (!in)
        throw InputError("cannot open it for reading");
    // Enough for any header the parser accepts; the values are read after it has checked them.
    const std::size_t headerRead = std::size_t(std::min<std::uintmax_t>(size, 12 + kMaxNpyHeaderBytes));
    std::string head(headerRead, '\0');
    if (!in.read(head.data(), std::streamsize(headerRead)))
        throw InputError("cannot read its header");
    return parseNpyHeader(head, size);
}

HostMatrix readNpyFile(const std::string& path)
{
    std::ifstream in;
    const NpyHeader h = openNpyFile(path, in);
    in.seekg(std::streamoff(h.dataOffset));
    return readMatrix(h, [&in](void* dst, std::size_t bytes) {
        // In pieces: a stream's count is a signed streamsize.
        char* p = static_cast<char*>(dst);
        for (std::size_t done = 0; done < bytes;) {
            const std::size_t chunk = std::min<std::size_t>(bytes - done, std::size_t(1) << 30);
            if (!in.read(p + done, std::streamsize(chunk)))
                throw InputError("the file ended while its values were read (changed while reading?)");
            done += chunk;
        }
    });
}

}  // namespace

HostMatrix readNpy(const std::string& path)
{
    // A regular file, checked before it is opened (a FIFO would block, /dev/zero never end); its
    // size is bounded by what its header claims, checked against the file's length.
    checkInputFile(path, "matrix", std::numeric_limits<std::uintmax_t>::max());
    try {
        return readNpyFile(path);
    } catch (const InputError& e) {
        throw InputError("cannot read '" + path + "': " + e.what());
    }
}

NpyHeader readNpyHeader(const std::string& path)
{
    checkInputFile(path, "matrix", std::numeric_limits<std::uintmax_t>::max());
    try {
        std::ifstream in;
        return openNpyFile(path, in);
    } catch (const InputError& e) {
        throw InputError("cannot read '" + path + "': " + e.what());
    }
}

HostMatrix npyFromBytes(std::string_view bytes)
{
    const NpyHeader h = parseNpyHeader(bytes, bytes.size());
    return readMatrix(h, [&](void* dst, std::size_t n) { std::memcpy(dst, bytes.data() + h.dataOffset, n); });
}

}  // namespace gigacheck
