// The campaign file's field helpers, shared by campaign_json.cpp and the families' own fields
// (FamilyCampaign::writeConfig / readConfig / writeRun / readRun): numbers that may be inf or nan,
// and reads that name the field that is wrong.
#pragma once

#include "core/record/json_limits.hpp"
#include "gigacheck/types.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace gigacheck::campaignjson {

using Json = nlohmann::ordered_json;

inline Json number(double v) { return jsonlimits::numberToJson(v); }

inline double toNumber(const Json& j)
{
    if (j.is_string()) {
        const std::string s = j.get<std::string>();
        if (const std::optional<double> v = jsonlimits::nonFiniteFromString(s))
            return *v;
        throw InputError("campaign: '" + s + "' is not a number");
    }
    return j.get<double>();
}

// Reading: every access names the field that is wrong.
template <class T>
T element(const nlohmann::json& j, std::size_t index, const std::string& where)
{
    if (!j.is_array() || index >= j.size())
        throw InputError("campaign: field '" + where + "' is too short");
    if (const std::optional<T> v = jsonlimits::integerValue<T>(j[index]))
        return *v;
    throw InputError("campaign: field '" + where + "' holds something other than integers");
}

template <class T>
T field(const nlohmann::json& j, const char* key, const std::string& where)
{
    if (!j.is_object() || !j.contains(key))
        throw InputError("campaign: missing field '" + where + key + "'");
    try {
        if constexpr (std::is_same_v<T, double>) {
            return toNumber(j.at(key));
        } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            if (const std::optional<T> v = jsonlimits::integerValue<T>(j.at(key)))
                return *v;
            throw InputError("campaign: field '" + where + key + "' must be an integer from " +
                             std::to_string(std::numeric_limits<T>::min()) + " to " +
                             std::to_string(std::numeric_limits<T>::max()));
        } else {
            return j.at(key).get<T>();
        }
    } catch (const nlohmann::json::exception&) {
        throw InputError("campaign: field '" + where + key + "' has the wrong type");
    }
}

}  // namespace gigacheck::campaignjson
