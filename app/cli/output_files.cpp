#include "output_files.hpp"

#include "gigacheck/safe_write.hpp"
#include "gigacheck/types.hpp"

namespace cli {

void checkWritable(const std::string& path, const std::string& what) { gigacheck::checkOutputFile(path, what); }

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
    gigacheck::writeFileAtomically(path, text, what);
}

}  // namespace cli
