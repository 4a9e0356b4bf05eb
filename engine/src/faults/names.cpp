// Stable names of the fault vocabulary (CLI flags, JSON record, GUI).
#include "gigacheck/faults.hpp"

#include <cctype>
#include <string>

namespace gigacheck {

namespace {
std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

std::string_view toString(FaultModel v) { return v == FaultModel::BitFlip ? "bitflip" : "delta"; }

std::string_view toString(FaultTarget v)
{
    switch (v) {
    case FaultTarget::Result:
        return "result";
    case FaultTarget::ChecksumRow:
        return "checksum-row";
    case FaultTarget::ChecksumCol:
        return "checksum-col";
    }
    return "?";
}

std::string_view toString(Collinearity v)
{
    switch (v) {
    case Collinearity::Scattered:
        return "none";
    case Collinearity::Row:
        return "row";
    case Collinearity::Col:
        return "col";
    }
    return "?";
}

std::string_view toString(FaultScope v) { return v == FaultScope::EveryProduct ? "every" : "one"; }

FaultTarget faultTargetFromString(std::string_view s)
{
    const std::string k = lower(s);
    if (k == "result")
        return FaultTarget::Result;
    if (k == "checksum-row")
        return FaultTarget::ChecksumRow;
    if (k == "checksum-col")
        return FaultTarget::ChecksumCol;
    throw InputError("unknown fault target '" + std::string(s) + "' (expected one of: result, checksum-row, checksum-col)");
}

Collinearity collinearityFromString(std::string_view s)
{
    const std::string k = lower(s);
    if (k == "none" || k == "scattered")
        return Collinearity::Scattered;
    if (k == "row")
        return Collinearity::Row;
    if (k == "col" || k == "column")
        return Collinearity::Col;
    throw InputError("unknown collinearity '" + std::string(s) + "' (expected one of: none, row, col)");
}

FaultScope faultScopeFromString(std::string_view s)
{
    const std::string k = lower(s);
    if (k == "one")
        return FaultScope::OneProduct;
    if (k == "every")
        return FaultScope::EveryProduct;
    throw InputError("unknown fault scope '" + std::string(s) + "' (expected one of: one, every)");
}

}  // namespace gigacheck
