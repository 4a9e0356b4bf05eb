// Bounded JSON parsing for every file the program reads (run records, the ceilings store).
// A file someone sent must not crash or freeze a reader: nesting depth and size are checked by a
// flat scan before the parser sees the text, and every parser error becomes an InputError that
// names the file. Internal to the engine.
#pragma once

#include "gigacheck/types.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace gigacheck::jsonlimits {

// The largest JSON file a reader takes (records, campaigns, the ceilings store): 1 GiB, a record of
// millions of spans. Documented in the README ("Hostile files") and app/cli/README.md.
inline constexpr std::size_t kMaxFileBytes = std::size_t(1) << 30;

struct Limits {
    std::size_t maxBytes = kMaxFileBytes;
    int maxDepth = 32;                            // a run record nests 5 levels deep
};

// Throws InputError "<source>: ..." when text is larger than limits.maxBytes or nests objects and
// arrays deeper than limits.maxDepth (brackets inside strings do not count). One pass, no recursion.
void check(std::string_view text, std::string_view source, const Limits& limits = {});

// The text of a JSON file: a regular file no larger than limits.maxBytes, checked before it is
// opened (core/io/input_file.hpp: a device or a FIFO is never opened). Throws InputError
// "cannot read <what> '<path>': ...".
std::string readFile(const std::string& path, std::string_view what, const Limits& limits = {});

// The integer of type T that j holds, or nothing when j is not an integer or does not fit T. Every
// reader of a file takes integers through this: nlohmann's get<int>() of 1e30 is undefined
// behaviour (found by fuzz_campaign) and of 4294967297 wraps to 1.
template <class T, class J> std::optional<T> integerValue(const J& j)
{
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    using Limits = std::numeric_limits<T>;
    if (j.is_number_unsigned()) {
        const auto v = j.template get<std::uint64_t>();
        if (v > std::uint64_t(Limits::max()))
            return std::nullopt;
        return T(v);
    }
    if (!j.is_number_integer())
        return std::nullopt;
    const auto v = j.template get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
        if (v < 0 || std::uint64_t(v) > std::uint64_t(Limits::max()))
            return std::nullopt;
    } else if (v < std::int64_t(Limits::min()) || v > std::int64_t(Limits::max())) {
        return std::nullopt;
    }
    return T(v);
}

// check(), then the parse; any parser error (syntax, a number out of range such as 1e400) becomes
// an InputError "<source> is not valid JSON: ...".
template <class Json>
Json parse(std::string_view text, std::string_view source, const Limits& limits = {})
{
    check(text, source, limits);
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string(source) + " is not valid JSON: " + e.what());
    }
}

// JSON has no inf / nan: every file the program writes stores them as the strings "inf", "-inf",
// "nan" (records and campaigns alike); these two are the only place that spells them.
inline nlohmann::ordered_json numberToJson(double v)
{
    if (v != v)
        return "nan";
    if (v == std::numeric_limits<double>::infinity())
        return "inf";
    if (v == -std::numeric_limits<double>::infinity())
        return "-inf";
    return v;
}
// The value such a string stands for; nullopt for any other string.
inline std::optional<double> nonFiniteFromString(std::string_view s)
{
    if (s == "inf")
        return std::numeric_limits<double>::infinity();
    if (s == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (s == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

}  // namespace gigacheck::jsonlimits
