// One name table per enum: the stable name (CLI flags, the JSON record, scripts), a short label
// and a description where the GUI or the help shows one. toString / fromString, the record's
// reader and writer, the CLI help and the GUI's combo boxes all read the same table, so a new
// value is one new row. The tables sit next to the code of their enum (types.cpp, faults/names.cpp,
// ...), declared next to the enum as a specialisation of enumTable.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gigacheck {

template <class E> struct EnumName {
    E value;
    std::string_view name;              // stable: never change one, records and scripts rely on it
    std::string_view label = {};        // shown in the GUI; empty: the name
    std::string_view description = {};  // one sentence for tooltips and help; may be empty
};

template <class E> struct EnumTable {
    std::string_view what;                    // "precision", "GEMM variant": for error messages
    std::span<const EnumName<E>> rows;        // in the order help texts and combo boxes list them
    std::span<const EnumName<E>> aliases = {};  // further names accepted when reading, never written
};

// Specialised (declared in the enum's header, defined beside its code) for every named enum.
template <class E> const EnumTable<E>& enumTable();

namespace names_detail {
bool sameIgnoringCase(std::string_view a, std::string_view b);
[[noreturn]] void unknownName(std::string_view what, std::string_view text, const std::string& expected);
}  // namespace names_detail

// The stable name of a value ("?" for a value outside the table).
template <class E> std::string_view nameOf(E value)
{
    for (const EnumName<E>& row : enumTable<E>().rows)
        if (row.value == value)
            return row.name;
    return "?";
}

// The GUI's label of a value: its label, or its name when it has none.
template <class E> std::string_view labelOf(E value)
{
    for (const EnumName<E>& row : enumTable<E>().rows)
        if (row.value == value)
            return row.label.empty() ? row.name : row.label;
    return "?";
}

// The names joined by separator: "f32|f64" for a help text, "f32, f64" for a message.
template <class E> std::string joinedNames(std::string_view separator)
{
    std::string out;
    for (const EnumName<E>& row : enumTable<E>().rows) {
        if (!out.empty())
            out += separator;
        out += row.name;
    }
    return out;
}

// The value of a name or alias, case ignored. Throws InputError
// "unknown <what> '<text>' (expected one of: a, b, c)".
template <class E> E valueOfName(std::string_view text)
{
    const EnumTable<E>& table = enumTable<E>();
    for (const EnumName<E>& row : table.rows)
        if (names_detail::sameIgnoringCase(row.name, text))
            return row.value;
    for (const EnumName<E>& row : table.aliases)
        if (names_detail::sameIgnoringCase(row.name, text))
            return row.value;
    names_detail::unknownName(table.what, text, joinedNames<E>(", "));
}

}  // namespace gigacheck
