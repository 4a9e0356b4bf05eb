// Input files checked before they are opened (input_file.hpp).
#include "core/io/input_file.hpp"

#include "core/io/file_kind.hpp"
#include "gigacheck/types.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gigacheck {

namespace {

[[noreturn]] void refuse(const std::string& path, std::string_view what, const std::string& why)
{
    throw InputError("cannot read " + std::string(what) + " '" + path + "': " + why);
}

// Why st is not a file a reader takes (empty when it is a regular file no larger than maxBytes).
std::string whyNot(const struct stat& st, std::uintmax_t maxBytes)
{
    if (std::string why = notRegularFile(st.st_mode); !why.empty())
        return why;
    if (std::uintmax_t(st.st_size) > maxBytes)
        return "it is larger than " + binaryBytes(maxBytes) + " (" + std::to_string(std::uintmax_t(st.st_size)) +
               " bytes), the limit of this reader";
    return {};
}

class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() { ::close(fd_); }
    int get() const { return fd_; }

private:
    int fd_;
};

}  // namespace

std::string binaryBytes(std::uintmax_t bytes)
{
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        ++unit;
    }
    return std::to_string(bytes) + " " + units[unit];
}

std::uintmax_t checkInputFile(const std::string& path, std::string_view what, std::uintmax_t maxBytes)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        refuse(path, what, errno == ENOENT ? std::string("no such file") : std::string(std::strerror(errno)));
    if (const std::string why = whyNot(st, maxBytes); !why.empty())
        refuse(path, what, why);
    return std::uintmax_t(st.st_size);
}

std::string readInputFile(const std::string& path, std::string_view what, std::uintmax_t maxBytes)
{
    checkInputFile(path, what, maxBytes);
    // O_NONBLOCK: should a FIFO have taken the file's place since the check, open returns at once.
    const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
        refuse(path, what, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        refuse(path, what, std::strerror(errno));
    if (const std::string why = whyNot(st, maxBytes); !why.empty())
        refuse(path, what, why);
    std::string bytes(std::size_t(st.st_size), '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            refuse(path, what, std::string("read failed: ") + std::strerror(errno));
        if (n == 0)  // shrunk while read: what is there is all there is
            break;
        done += std::size_t(n);
    }
    bytes.resize(done);
    return bytes;
}

}  // namespace gigacheck
