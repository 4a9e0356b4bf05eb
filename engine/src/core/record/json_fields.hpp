// Reading and writing JSON fields of the run record with errors that name the field.
// Internal to src/record.
#pragma once

#include "core/record/json_limits.hpp"
#include "gigacheck/events.hpp"
#include "gigacheck/types.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace gigacheck::recordjson {

// Ordered so that a saved record reads top-down like the report.
using Json = nlohmann::ordered_json;

// JSON has no inf/nan: they are stored as the strings "inf", "-inf", "nan".
inline Json number(double v) { return jsonlimits::numberToJson(v); }

// The lists of a record read while its document was parsed (record_document.cpp), one element at
// a time as it arrived, instead of kept in the DOM: its spans and events are the bulk of a large
// record (a 350 MB one holds 1.5 million spans). error is the first element's refusal, thrown when
// the envelope's reader reaches that list, so refusals come in the order they always did.
template <class T> struct Preparsed {
    bool present = false;  // read here; the document's DOM holds an empty array in its place
    bool taken = false;    // items moved into the record (readEnvelope reads a document once)
    std::vector<T> items;
    std::string error;
};
struct PreparsedLists {
    Preparsed<Span> spans;
    Preparsed<InjectEvent> injections;
    Preparsed<VerifyEvent> verifications;
};

// A node of the document together with its dotted path, so errors can say which field is wrong.
class Node {
public:
    Node(const Json& json, std::string path, PreparsedLists* preparsed = nullptr)
        : json_(json), path_(std::move(path)), preparsed_(preparsed)
    {
    }

    // The document's pre-read lists (only the root node of a document read by readRecordDocument).
    PreparsedLists* preparsed() const { return preparsed_; }

    const std::string& path() const { return path_; }
    const Json& json() const { return json_; }
    bool has(const char* key) const { return json_.is_object() && json_.contains(key); }

    Node child(const char* key) const
    {
        requireObject();
        auto it = json_.find(key);
        if (it == json_.end())
            throw InputError("record: missing field '" + sub(key) + "'");
        return Node(*it, sub(key));
    }

    template <class T> T get(const char* key) const { return child(key).as<T>(); }
    template <class T> T getOr(const char* key, T fallback) const
    {
        return has(key) ? child(key).as<T>() : fallback;
    }

    template <class T> T as() const
    {
        if constexpr (std::is_same_v<T, double>) {
            if (json_.is_string()) {
                if (const std::optional<double> v = jsonlimits::nonFiniteFromString(json_.get<std::string>()))
                    return *v;
            }
            if (!json_.is_number())
                wrongType("a number");
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!json_.is_boolean())
                wrongType("true or false");
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!json_.is_string())
                wrongType("a string");
        } else if constexpr (std::is_unsigned_v<T>) {
            if (!json_.is_number_unsigned())
                wrongType("a non-negative integer");
            return fitting<T>();
        } else {
            if (!json_.is_number_integer())
                wrongType("an integer");
            return fitting<T>();
        }
        return json_.get<T>();
    }

    std::vector<Node> elements(const char* key) const { return child(key).elements(); }
    // This node's elements; it must be an array.
    std::vector<Node> elements() const
    {
        if (!json_.is_array())
            wrongType("an array");
        std::vector<Node> out;
        out.reserve(json_.size());
        for (std::size_t i = 0; i < json_.size(); ++i)
            out.emplace_back(json_[i], path_ + "[" + std::to_string(i) + "]");
        return out;
    }

    template <class T> std::vector<T> list(const char* key) const
    {
        std::vector<T> out;
        for (const Node& n : elements(key))
            out.push_back(n.as<T>());
        return out;
    }

    // Enum by its stable name in its name table (names.hpp), listing the names when it is unknown.
    template <class E> E enumeration(const char* key) const { return child(key).asEnumeration<E>(); }
    // This node as an enum: a name of its table, or one of the table's older names (aliases).
    template <class E> E asEnumeration() const
    {
        const std::string s = as<std::string>();
        for (const EnumName<E>& row : enumTable<E>().rows)
            if (row.name == s)
                return row.value;
        for (const EnumName<E>& row : enumTable<E>().aliases)
            if (row.name == s)
                return row.value;
        throw InputError("record: field '" + path_ + "' has unknown value '" + s + "' (expected one of " +
                         joinedNames<E>(", ") + ")");
    }
    // Enum by toString over a list of values (enums without a name table: Queue, OpKind).
    template <class E, std::size_t N>
    E enumeration(const char* key, const std::array<E, N>& values) const
    {
        return enumeration(key, values, [](E e) { return toString(e); });
    }
    template <class E, std::size_t N, class NameOf>
    E enumeration(const char* key, const std::array<E, N>& values, NameOf nameOf) const
    {
        const Node n = child(key);
        const std::string s = n.as<std::string>();
        std::string accepted;
        for (E e : values) {
            if (nameOf(e) == s)
                return e;
            accepted += (accepted.empty() ? "" : ", ") + std::string(nameOf(e));
        }
        throw InputError("record: field '" + n.path_ + "' has unknown value '" + s + "' (expected one of " +
                         accepted + ")");
    }

private:
    std::string sub(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
    void requireObject() const
    {
        if (!json_.is_object())
            wrongType("an object");
    }
    // An integer that does not fit the field's type would wrap (4294967297 read as 1): refuse it.
    template <class T> T fitting() const
    {
        if (const std::optional<T> v = jsonlimits::integerValue<T>(json_))
            return *v;
        using Limits = std::numeric_limits<T>;
        wrongType(("an integer from " + std::to_string(Limits::min()) + " to " + std::to_string(Limits::max())).c_str());
    }
    [[noreturn]] void wrongType(const char* expected) const
    {
        throw InputError("record: field '" + (path_.empty() ? std::string("(top level)") : path_) +
                         "' must be " + expected);
    }

    const Json& json_;
    std::string path_;
    PreparsedLists* preparsed_ = nullptr;
};

}  // namespace gigacheck::recordjson
