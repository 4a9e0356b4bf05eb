// libFuzzer target: the .npy reader (gigacheck run --load-a / --load-b, the lab's File > Import A /
// B). Any input may be refused with an InputError; nothing else may escape, crash, hang, leak or
// allocate more than the input can fill (a lying header must be refused before allocating). An
// accepted matrix is written back and read again to the same values, through memory and a file.
#include "gigacheck/npy.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

void requireSame(const gigacheck::HostMatrix& x, const gigacheck::HostMatrix& y)
{
    if (x.rows() != y.rows() || x.cols() != y.cols() || x.precision() != y.precision() || x.bytes() != y.bytes() ||
        std::memcmp(x.data(), y.data(), x.bytes()) != 0)
        std::abort();  // a round trip that changes the matrix is a bug
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    gigacheck::HostMatrix fromMemory;
    try {
        fromMemory = gigacheck::npyFromBytes(bytes);
    } catch (const gigacheck::InputError&) {
    }
    // The file reader reads the header and the values separately: it must agree with the other.
    static const std::string path = "/tmp/gigacheck-fuzz-npy-" + std::to_string(::getpid()) + ".npy";
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(size));
    gigacheck::HostMatrix fromFile;
    bool fileAccepted = true;
    try {
        fromFile = gigacheck::readNpy(path);
    } catch (const gigacheck::InputError&) {
        fileAccepted = false;
    }
    if (fileAccepted != !fromMemory.empty())
        std::abort();
    if (!fileAccepted)
        return 0;
    requireSame(fromMemory, fromFile);
    requireSame(fromMemory, gigacheck::npyFromBytes(gigacheck::npyBytes(fromMemory)));
    return 0;
}
