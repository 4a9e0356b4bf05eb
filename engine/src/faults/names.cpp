// Name tables of the fault vocabulary (CLI flags, JSON record, GUI): see gigacheck/names.hpp.
#include "gigacheck/faults.hpp"

namespace gigacheck {

namespace {
constexpr EnumName<FaultModel> kModels[] = {{FaultModel::Delta, "delta", "delta (add ±U(10,100)·|C|)"},
                                            {FaultModel::BitFlip, "bitflip", "bit flip"}};
constexpr EnumName<FaultTarget> kTargets[] = {{FaultTarget::Result, "result"},
                                              {FaultTarget::ChecksumRow, "checksum-row"},
                                              {FaultTarget::ChecksumCol, "checksum-col"},
                                              {FaultTarget::Check, "check", "a check of the verification (lies)"},
                                              {FaultTarget::Correction, "correction", "the correction write"},
                                              {FaultTarget::EncodingA, "encoding-a", "A's checksum (encoding)"},
                                              {FaultTarget::EncodingB, "encoding-b", "B's checksum (encoding)"}};
constexpr EnumName<FaultExtent> kExtents[] = {{FaultExtent::Cell, "cell", "one cell"},
                                              {FaultExtent::RowSegment, "row", "a row segment"},
                                              {FaultExtent::ColSegment, "col", "a column segment"},
                                              {FaultExtent::Tile, "tile", "a tile"}};
constexpr EnumName<Collinearity> kCollinearities[] = {{Collinearity::Scattered, "none", "scattered"},
                                                      {Collinearity::Row, "row", "one row"},
                                                      {Collinearity::Col, "col", "one column"}};
constexpr EnumName<Collinearity> kCollinearityAliases[] = {{Collinearity::Scattered, "scattered"},
                                                           {Collinearity::Col, "column"}};
constexpr EnumName<FaultScope> kScopes[] = {{FaultScope::OneProduct, "one", "one block product"},
                                            {FaultScope::EveryProduct, "every", "every block product"}};
}  // namespace

template <> const EnumTable<FaultModel>& enumTable<FaultModel>()
{
    static const EnumTable<FaultModel> table{"fault model", kModels};
    return table;
}
template <> const EnumTable<FaultTarget>& enumTable<FaultTarget>()
{
    static const EnumTable<FaultTarget> table{"fault target", kTargets};
    return table;
}
template <> const EnumTable<Collinearity>& enumTable<Collinearity>()
{
    static const EnumTable<Collinearity> table{"collinearity", kCollinearities, kCollinearityAliases};
    return table;
}
template <> const EnumTable<FaultScope>& enumTable<FaultScope>()
{
    static const EnumTable<FaultScope> table{"fault scope", kScopes};
    return table;
}

template <> const EnumTable<FaultExtent>& enumTable<FaultExtent>()
{
    static const EnumTable<FaultExtent> table{"fault extent", kExtents};
    return table;
}

std::string_view toString(FaultModel v) { return nameOf(v); }
std::string_view toString(FaultTarget v) { return nameOf(v); }
std::string_view toString(Collinearity v) { return nameOf(v); }
std::string_view toString(FaultScope v) { return nameOf(v); }

FaultTarget faultTargetFromString(std::string_view s) { return valueOfName<FaultTarget>(s); }
Collinearity collinearityFromString(std::string_view s) { return valueOfName<Collinearity>(s); }
FaultScope faultScopeFromString(std::string_view s) { return valueOfName<FaultScope>(s); }

}  // namespace gigacheck
