// Names of H2dStaging (CLI --h2d-staging, the record) and which copies a staging packs.
#include "gigacheck/blocked_gemm/h2d_staging.hpp"

namespace gigacheck {

namespace {
constexpr EnumName<H2dStaging> kStagings[] = {
    {H2dStaging::Auto, "auto"}, {H2dStaging::Pack, "pack"}, {H2dStaging::Direct, "direct"}};
}  // namespace

template <> const EnumTable<H2dStaging>& enumTable<H2dStaging>()
{
    static const EnumTable<H2dStaging> table{"H2D staging", kStagings};
    return table;
}

std::string_view toString(H2dStaging s) { return nameOf(s); }
H2dStaging h2dStagingFromString(std::string_view s) { return valueOfName<H2dStaging>(s); }

bool packsOnHost(H2dStaging staging, std::int64_t rows, std::int64_t rowBytes, std::int64_t hostPitchBytes)
{
    const bool contiguous = rows <= 1 || rowBytes >= hostPitchBytes;
    return staging == H2dStaging::Pack && !contiguous;
}

}  // namespace gigacheck
