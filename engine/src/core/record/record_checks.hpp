// Range checks every family's record reader shares: a record someone sent may claim
// anything, so what it claims is checked before anything uses or draws it. Each throws InputError
// "record: field '<path>' ..." naming the field. Internal to the engine.
#pragma once

#include "gigacheck/events.hpp"
#include "gigacheck/types.hpp"

#include <cstdint>
#include <string>

namespace gigacheck::recordcheck {

// One matrix dimension: 2^31 - 1 (the CLI and the runs refuse more).
inline constexpr std::int64_t kMaxExtent = 2147483647;

[[noreturn]] void refuse(const std::string& field, const std::string& why);
// v within lo..hi (inclusive).
void inRange(std::int64_t v, std::int64_t lo, std::int64_t hi, const std::string& field);
void finite(double v, const std::string& field);
// m, n and q each 1..kMaxExtent; field is the shape's path ("online_abft.config.shape").
void validateShape(const Shape& s, const std::string& field);
// "list[i]"
std::string at(const std::string& list, std::size_t i);
// Finite and >= 0 (times, rates, bytes).
void nonNegative(double v, const std::string& field);
// A double as it round-trips (%.17g), for "is X, but ... makes Y".
std::string exactNumber(double v);
// What every span claims whatever its family: a device among the record's, a stream, finite
// times in order, bytes and flops >= 0. field is the span's path ("spans[3]").
void spanBasics(const Span& span, const std::string& field, std::size_t deviceCount);
// The checks' threshold factor lambda of a record's configuration: runs write 4, tests use a few
// around it; 1..64 is accepted. A larger one would blind the checks of a run made again from it.
void thresholdLambda(double lambda, const std::string& field);
// A family that injects no faults and makes no checksum checks: its record lists none.
void noFaultEvents(std::size_t injections, std::size_t verifications, const std::string& family);

}  // namespace gigacheck::recordcheck
