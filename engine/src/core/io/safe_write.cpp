// Output files written whole through a temporary file beside the target (gigacheck/safe_write.hpp).
#include "gigacheck/safe_write.hpp"

#include "core/io/file_kind.hpp"
#include "gigacheck/types.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gigacheck {

namespace {

namespace fs = std::filesystem;

// Linux gives up after 40 links in a path; so does this.
constexpr int kMaxLinkHops = 40;

struct Failure {
    const std::string& path;
    std::string_view what;
    std::string target;  // the link's end, when path is a link

    [[noreturn]] void operator()(const std::string& why) const
    {
        std::string where = "'" + path + "'";
        if (!target.empty() && target != path)
            where += " (a link to '" + target + "')";
        throw InputError("cannot write " + std::string(what) + " " + where + ": " + why);
    }
};

std::string errnoText(int error) { return std::strerror(error); }

// The end of path's chain of symbolic links (path itself when it is none); relative link targets
// are taken from the link's own folder. The end need not exist.
std::string followLinks(const std::string& path, const Failure& fail)
{
    fs::path p(path);
    for (int hops = 0;; ++hops) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return p.string();
        if (hops == kMaxLinkHops)
            fail("too many levels of symbolic links");
        std::error_code ec;
        const fs::path next = fs::read_symlink(p, ec);
        if (ec)
            fail("cannot read the link: " + ec.message());
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
}

std::string folderOf(const std::string& file)
{
    const fs::path parent = fs::path(file).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

// The process's umask, read without changing it (umask(2) would, for a moment, for every thread).
mode_t currentUmask()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("Umask:", 0) == 0)
            return mode_t(std::stoul(line.substr(6), nullptr, 8));
    return 022;
}

// The temporary file: removed unless committed, so that no failure leaves one behind.
class TempFile {
public:
    TempFile(std::string name, int fd) : name_(std::move(name)), fd_(fd) {}
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile()
    {
        if (fd_ >= 0)
            ::close(fd_);
        if (!committed_)
            ::unlink(name_.c_str());
    }
    int fd() const { return fd_; }
    const std::string& name() const { return name_; }
    // Closes the descriptor; false (errno set) when the close reports a failed write.
    bool close()
    {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0;
    }
    void commit() { committed_ = true; }

private:
    std::string name_;
    int fd_;
    bool committed_ = false;
};

void writeAll(int fd, const char* data, std::size_t size, const Failure& fail)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("write failed: " + errnoText(errno));
        }
        data += n;
        size -= std::size_t(n);
    }
}

}  // namespace

std::string checkOutputFile(const std::string& path, std::string_view what)
{
    Failure fail{path, what, {}};
    if (path.empty())
        fail("no file name");
    fail.target = followLinks(path, fail);
    const std::string& target = fail.target;
    struct stat st {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (!exists && errno != ENOENT)
        fail(errnoText(errno));
    if (exists) {
        if (const std::string why = notRegularFile(st.st_mode); !why.empty())
            fail(why);
        if (::access(target.c_str(), W_OK) != 0)
            fail("the file is not writable: " + errnoText(errno));
    }
    const std::string folder = folderOf(target);
    struct stat dir {};
    if (::stat(folder.c_str(), &dir) != 0)
        fail("its folder '" + folder + "' " + (errno == ENOENT ? std::string("does not exist") : errnoText(errno)));
    if (!S_ISDIR(dir.st_mode))
        fail("'" + folder + "' is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        fail("cannot create files in its folder '" + folder + "': " + errnoText(errno));
    return target;
}

void writeFileAtomically(const std::string& path, std::string_view what,
                         const std::function<void(const ByteSink& sink)>& produce)
{
    Failure fail{path, what, checkOutputFile(path, what)};
    const std::string& target = fail.target;
    struct stat old {};
    const bool existed = ::stat(target.c_str(), &old) == 0;

    // Beside the target, so that the rename stays on its file system; hidden, unique per writer.
    const std::string folder = folderOf(target);
    std::string name = folder + "/." + fs::path(target).filename().string() + ".XXXXXX";
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
        fail("cannot create a temporary file in '" + folder + "': " + errnoText(errno));
    TempFile temp(name, fd);

    produce([&](const char* data, std::size_t size) { writeAll(temp.fd(), data, size, fail); });

    // The replaced file keeps its owner (where this process may give it) and its mode; a new file
    // gets the mode any other program would give it (0666 less the umask), not mkstemp's 0600.
    if (existed && (old.st_uid != ::geteuid() || old.st_gid != ::getegid()))
        (void)::fchown(temp.fd(), old.st_uid, old.st_gid);  // best effort: only root may give a file away
    const mode_t mode = existed ? mode_t(old.st_mode & 07777) : mode_t(0666 & ~currentUmask());
    if (::fchmod(temp.fd(), mode) != 0)
        fail("cannot set the file's mode: " + errnoText(errno));
    if (::fsync(temp.fd()) != 0)
        fail("write failed: " + errnoText(errno));
    if (!temp.close())
        fail("write failed: " + errnoText(errno));
    if (::rename(temp.name().c_str(), target.c_str()) != 0)
        fail("cannot replace the file: " + errnoText(errno));
    temp.commit();
    // The rename itself on disk too (best effort: some file systems refuse fsync of a folder).
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

void writeFileAtomically(const std::string& path, std::string_view bytes, std::string_view what)
{
    writeFileAtomically(path, what, [bytes](const ByteSink& sink) { sink(bytes.data(), bytes.size()); });
}

namespace {

// Whether two paths lead to one file: the same file on disk (links and hard links followed), or,
// where one does not exist yet, the same path once its links (a dangling one too), "." / ".." and
// the links of its folders resolve. A chain of links that loops is refused, as its write would be.
bool sameFile(const std::string& pathA, const std::string& pathB)
{
    // Where each write lands: the end of its chain of links, which need not exist yet.
    const Failure failA{pathA, "output", {}}, failB{pathB, "output", {}};
    const std::string a = followLinks(pathA, failA), b = followLinks(pathB, failB);
    std::error_code ea, eb;
    if (std::filesystem::exists(a, ea) && std::filesystem::exists(b, eb))
        return std::filesystem::equivalent(a, b, ea) && !ea;
    const std::filesystem::path ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
    const std::filesystem::path cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
    return !ea && !eb && ca == cb;
}

}  // namespace

void refuseSharedFiles(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs)
{
    for (std::size_t o = 0; o < outputs.size(); ++o) {
        const NamedFile& out = outputs[o];
        if (out.path.empty())
            continue;
        for (const NamedFile& in : inputs)
            if (!in.path.empty() && sameFile(out.path, in.path))
                throw InputError(out.option + " " + out.path + " is also " + in.option +
                                 "'s file: an output never replaces an input (name another file)");
        for (std::size_t other = 0; other < o; ++other)
            if (!outputs[other].path.empty() && sameFile(out.path, outputs[other].path))
                throw InputError(outputs[other].option + " and " + out.option + " both name " + out.path +
                                 ": one would overwrite the other (name two files)");
    }
}

}  // namespace gigacheck
