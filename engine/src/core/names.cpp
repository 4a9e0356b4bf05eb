// The non-template half of the enum name tables (gigacheck/names.hpp).
#include "gigacheck/names.hpp"

#include "gigacheck/types.hpp"

#include <cctype>

namespace gigacheck::names_detail {

bool sameIgnoringCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

void unknownName(std::string_view what, std::string_view text, const std::string& expected)
{
    throw InputError("unknown " + std::string(what) + " '" + std::string(text) + "' (expected one of: " + expected +
                     ")");
}

}  // namespace gigacheck::names_detail
