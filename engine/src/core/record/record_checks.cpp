// Range checks shared by the families' record readers (record_checks.hpp).
#include "core/record/record_checks.hpp"

#include <cmath>
#include <cstdio>

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

void nonNegative(double v, const std::string& field)
{
    finite(v, field);
    if (v < 0)
        refuse(field, "is negative");
}

std::string exactNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

void spanBasics(const Span& span, const std::string& field, std::size_t deviceCount)
{
    inRange(span.device, 0, std::int64_t(deviceCount) - 1, field + ".device");
    inRange(span.stream, 0, 63, field + ".stream");
    finite(span.start, field + ".start");
    finite(span.end, field + ".end");
    if (span.end < span.start)
        refuse(field + ".end", "is before its start");
    nonNegative(span.bytes, field + ".bytes");
    nonNegative(span.flops, field + ".flops");
}

void noFaultEvents(std::size_t injections, std::size_t verifications, const std::string& family)
{
    if (injections != 0)
        refuse("events.injections", "lists faults, but a " + family + " run injects none");
    if (verifications != 0)
        refuse("events.verifications", "lists checksum checks, but a " + family + " run makes none");
}

void thresholdLambda(double lambda, const std::string& field)
{
    if (!(lambda >= 1 && lambda <= 64))
        refuse(field, "is " + exactNumber(lambda) + ", not a threshold factor between 1 and 64 (runs write 4)");
}

}  // namespace gigacheck::recordcheck
