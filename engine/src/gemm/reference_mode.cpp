// Name table of ReferenceMode for the CLI (--reference) and the record (names.hpp).
#include "gigacheck/reference_check.hpp"

namespace gigacheck {

namespace {
constexpr EnumName<ReferenceMode> kModes[] = {{ReferenceMode::Auto, "auto"},
                                              {ReferenceMode::Full, "full"},
                                              {ReferenceMode::Sample, "sample"},
                                              {ReferenceMode::None, "none"}};
}  // namespace

template <> const EnumTable<ReferenceMode>& enumTable<ReferenceMode>()
{
    static const EnumTable<ReferenceMode> table{"reference mode", kModes};
    return table;
}

std::string_view toString(ReferenceMode m) { return nameOf(m); }
ReferenceMode referenceModeFromString(std::string_view s) { return valueOfName<ReferenceMode>(s); }

}  // namespace gigacheck
