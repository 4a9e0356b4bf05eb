#include "output_files.hpp"

#include "gigacheck/types.hpp"

#include <filesystem>
#include <fstream>

namespace cli {

void checkWritable(const std::string& path, const std::string& what)
{
    const bool existed = std::filesystem::exists(path);
    if (std::filesystem::is_directory(path) || !std::ofstream(path, std::ios::app))
        throw gigacheck::InputError("cannot write " + what + " '" + path + "': cannot open the file for writing");
    if (!existed)
        std::filesystem::remove(path);
}

std::string requireOutputPath(const std::string& path, const std::string& option, const std::string& what)
{
    if (path.empty())
        throw gigacheck::InputError("--" + option + " needs a file name (got an empty one); leave --" + option +
                                    " out to write no " + what);
    checkWritable(path, what);
    return path;
}

void writeTextFile(const std::string& path, const std::string& text, const std::string& what)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out)
        throw gigacheck::InputError("cannot write " + what + " '" + path + "'");
}

}  // namespace cli
