// Range checks shared by the families' record readers (record_checks.hpp).
#include "core/record/record_checks.hpp"

#include <cmath>

namespace gigacheck::recordcheck {

void refuse(const std::string& field, const std::string& why)
{
    throw InputError("record: field '" + field + "' " + why);
}

void inRange(std::int64_t v, std::int64_t lo, std::int64_t hi, const std::string& field)
{
    if (v < lo || v > hi)
        refuse(field, "is " + std::to_string(v) + ", outside " + std::to_string(lo) + ".." + std::to_string(hi));
}

void finite(double v, const std::string& field)
{
    if (!std::isfinite(v))
        refuse(field, "must be a finite number");
}

void validateShape(const Shape& s, const std::string& field)
{
    inRange(s.m, 1, kMaxExtent, field + ".m");
    inRange(s.n, 1, kMaxExtent, field + ".n");
    inRange(s.q, 1, kMaxExtent, field + ".q");
}

std::string at(const std::string& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

}  // namespace gigacheck::recordcheck
