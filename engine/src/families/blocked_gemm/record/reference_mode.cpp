// Stable names of ReferenceMode for the CLI (--reference) and the record.
#include "gigacheck/record.hpp"

namespace gigacheck {

std::string_view toString(ReferenceMode m)
{
    switch (m) {
    case ReferenceMode::Auto: return "auto";
    case ReferenceMode::Full: return "full";
    case ReferenceMode::Sample: return "sample";
    case ReferenceMode::None: return "none";
    }
    return "auto";
}

ReferenceMode referenceModeFromString(std::string_view s)
{
    for (ReferenceMode m : {ReferenceMode::Auto, ReferenceMode::Full, ReferenceMode::Sample, ReferenceMode::None})
        if (toString(m) == s)
            return m;
    throw InputError("unknown reference mode '" + std::string(s) + "' (expected auto, full, sample or none)");
}

}  // namespace gigacheck
