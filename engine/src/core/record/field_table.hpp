// A record section's fields written once: each field's key and where it lives in the record, in one
// table that both writes the section (in the table's order) and reads it back, instead of a writer
// and a reader that list every field separately. Enumerations go by their names (toString /
// Node::enumeration); a field records before it existed lack is read only when present.
#pragma once

#include "core/record/json_fields.hpp"

#include <string>
#include <tuple>
#include <type_traits>

namespace gigacheck::recordjson {

template <class Access> struct Field {
    const char* key;
    // [](auto& r) -> auto& { return r.member; }: the same place for writing (const) and reading.
    Access access;
    bool optional = false;  // absent in older records: the record type's default is kept
};
template <class Access> Field(const char*, Access) -> Field<Access>;
template <class Access> Field(const char*, Access, bool) -> Field<Access>;

template <class Record, class... Fields> void writeFields(Json& section, const Record& r, const std::tuple<Fields...>& fields)
{
    const auto write = [&](const auto& f) {
        const auto& value = f.access(r);
        if constexpr (std::is_enum_v<std::decay_t<decltype(value)>>)
            section[f.key] = std::string(toString(value));
        else
            section[f.key] = value;
    };
    std::apply([&](const auto&... f) { (write(f), ...); }, fields);
}

template <class Record, class... Fields> void readFields(const Node& section, Record& r, const std::tuple<Fields...>& fields)
{
    const auto read = [&](const auto& f) {
        auto& value = f.access(r);
        using T = std::decay_t<decltype(value)>;
        if (f.optional && !section.has(f.key))
            return;
        if constexpr (std::is_enum_v<T>)
            value = section.enumeration<T>(f.key);
        else
            value = section.get<T>(f.key);
    };
    std::apply([&](const auto&... f) { (read(f), ...); }, fields);
}

}  // namespace gigacheck::recordjson
