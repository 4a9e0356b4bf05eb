// A record section described once, for both directions. A family lists its fields in one function
//     template <class Io, class R> void fields(Io& io, R& r)
//     { io("m", r.config.m); io.optional("back_ms", r.backMs, 0.0); io.object("counts", [&] {...}); }
// run with a FieldWriter (R const: the section as ordered JSON, keys in the order listed) or a
// FieldReader (the section's Node: errors name the field's path, integers must fit their field,
// enums are read by their names). A field written in a reader and a writer separately drifts (one
// side forgets it); listed once, it cannot. Internal to the engine.
#pragma once

#include "core/record/envelope_json.hpp"
#include "gigacheck/names.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gigacheck::recordjson {

namespace field_detail {
template <class T> struct IsVector : std::false_type {};
template <class T, class A> struct IsVector<std::vector<T, A>> : std::true_type {};
}  // namespace field_detail

// A value as JSON: doubles through number() (inf / nan as strings), enums by their name table.
template <class T> Json valueJson(const T& v)
{
    if constexpr (std::is_enum_v<T>) {
        return std::string(nameOf(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        return number(v);
    } else if constexpr (field_detail::IsVector<T>::value) {
        Json out = Json::array();
        for (const auto& x : v)
            out.push_back(valueJson(x));
        return out;
    } else {
        return Json(v);
    }
}

// The value of a node, refused with the node's path when it is not a T.
template <class T> T valueOf(const Node& n)
{
    if constexpr (std::is_enum_v<T>) {
        return n.asEnumeration<T>();
    } else if constexpr (field_detail::IsVector<T>::value) {
        T out;
        for (const Node& e : n.elements())
            out.push_back(valueOf<typename T::value_type>(e));
        return out;
    } else {
        return n.as<T>();
    }
}

class FieldWriter {
public:
    static constexpr bool kWrites = true;

    FieldWriter()
    {
        stack_.reserve(4);  // a span's writer runs a million times in a large record
        stack_.push_back(&root_);
    }
    FieldWriter(const FieldWriter&) = delete;  // stack_ points into root_
    FieldWriter& operator=(const FieldWriter&) = delete;

    Json take() { return std::move(root_); }

    template <class T> void operator()(const char* key, const T& v) { top()[key] = valueJson(v); }
    // A field older records lack: always written; reading takes fallback when it is absent.
    template <class T, class U> void optional(const char* key, const T& v, const U&) { (*this)(key, v); }
    // Written only when it differs from fallback, so records that do not use it stay as they were.
    template <class T, class U> void unlessDefault(const char* key, const T& v, const U& fallback)
    {
        if (!(v == fallback))
            (*this)(key, v);
    }
    // Written only when it holds a value.
    template <class T> void optional(const char* key, const std::optional<T>& v)
    {
        if (v)
            (*this)(key, *v);
    }
    // Always written, null when it holds no value.
    template <class T> void nullable(const char* key, const std::optional<T>& v)
    {
        top()[key] = v ? valueJson(*v) : Json();
    }
    // A value stored in another form: encode(v) is written; reading calls decode(node, v).
    template <class T, class Encode, class Decode> void as(const char* key, const T& v, Encode encode, Decode)
    {
        top()[key] = encode(v);
    }
    template <class T, class U, class Encode, class Decode>
    void optionalAs(const char* key, const T& v, const U&, Encode encode, Decode)
    {
        top()[key] = encode(v);
    }
    // An enum without a name table, named by toString over its values.
    template <class E, std::size_t N> void oneOf(const char* key, const E& v, const std::array<E, N>&)
    {
        top()[key] = std::string(toString(v));
    }
    // Whether a field written only when `written` is there: writing, `written`; reading, present.
    bool includes(const char*, bool written) const { return written; }
    // A nested object whose fields body() lists through this same io.
    template <class Body> void object(const char* key, Body body)
    {
        open(key);
        body();
        close();
    }
    // A nested object written only when `present` (older records lack it); reading sets
    // `present` (when it is a bool variable) to whether it was there. Returns that.
    template <class B, class Body> bool optionalObject(const char* key, B&& present, Body body)
    {
        const bool written = present;
        if (written)
            object(key, body);
        return written;
    }
    // An optional value as a nested object, written when it holds one.
    template <class T, class Body> void optionalObject(const char* key, const std::optional<T>& v, Body body)
    {
        if (v)
            object(key, [&] { body(*v); });
    }
    // A list of objects, each element's fields listed by body(element).
    template <class T, class Body> void objects(const char* key, const std::vector<T>& items, Body body)
    {
        Json list = Json::array();
        for (const T& item : items) {
            stack_.push_back(&list.emplace_back(Json::object()));
            body(item);
            stack_.pop_back();
        }
        top()[key] = std::move(list);
    }
    // A list older records lack (reading: empty when absent).
    template <class T, class Body> void optionalObjects(const char* key, const std::vector<T>& items, Body body)
    {
        objects(key, items, body);
    }
    // A list written only when it is not empty (reading: empty when absent).
    template <class T, class Body> void objectsUnlessEmpty(const char* key, const std::vector<T>& items, Body body)
    {
        if (!items.empty())
            objects(key, items, body);
    }
    // Derived from other fields and only written, for readers of the file (never read back).
    template <class Make> void writeOnly(const char* key, Make make) { top()[key] = make(); }

private:
    Json& top() { return *stack_.back(); }
    void open(const char* key)
    {
        Json& child = top()[key] = Json::object();
        stack_.push_back(&child);
    }
    void close() { stack_.pop_back(); }

    Json root_ = Json::object();
    std::vector<Json*> stack_;
};

class FieldReader {
public:
    static constexpr bool kWrites = false;

    explicit FieldReader(const Node& section)
    {
        stack_.reserve(4);  // a span's reader runs a million times in a large record
        stack_.push_back(section);
    }

    const Node& node() const { return stack_.back(); }

    template <class T> void operator()(const char* key, T& v) { v = valueOf<T>(node().child(key)); }
    template <class T, class U> void optional(const char* key, T& v, const U& fallback)
    {
        v = node().has(key) ? valueOf<T>(node().child(key)) : T(fallback);
    }
    template <class T, class U> void unlessDefault(const char* key, T& v, const U& fallback)
    {
        optional(key, v, fallback);
    }
    template <class T> void optional(const char* key, std::optional<T>& v)
    {
        v.reset();
        if (node().has(key))
            v = valueOf<T>(node().child(key));
    }
    template <class T> void nullable(const char* key, std::optional<T>& v)
    {
        v.reset();
        if (node().has(key) && !node().child(key).json().is_null())
            v = valueOf<T>(node().child(key));
    }
    template <class T, class Encode, class Decode> void as(const char* key, T& v, Encode, Decode decode)
    {
        decode(node().child(key), v);
    }
    template <class T, class U, class Encode, class Decode>
    void optionalAs(const char* key, T& v, const U& fallback, Encode, Decode decode)
    {
        if (node().has(key))
            decode(node().child(key), v);
        else
            v = T(fallback);
    }
    template <class E, std::size_t N> void oneOf(const char* key, E& v, const std::array<E, N>& values)
    {
        v = node().enumeration(key, values);
    }
    bool includes(const char* key, bool) const { return node().has(key); }
    template <class Body> void object(const char* key, Body body)
    {
        stack_.push_back(node().child(key));
        body();
        stack_.pop_back();
    }
    template <class B, class Body> bool optionalObject(const char* key, B&& present, Body body)
    {
        const bool found = node().has(key);
        if constexpr (std::is_same_v<B, bool&>)
            present = found;
        if (found)
            object(key, body);
        return found;
    }
    template <class T, class Body> void optionalObject(const char* key, std::optional<T>& v, Body body)
    {
        v.reset();
        if (node().has(key))
            object(key, [&] { body(v.emplace()); });
    }
    template <class T, class Body> void objects(const char* key, std::vector<T>& items, Body body)
    {
        items.clear();
        for (const Node& element : node().elements(key)) {
            stack_.push_back(element);
            body(items.emplace_back());
            stack_.pop_back();
        }
    }
    template <class T, class Body> void optionalObjects(const char* key, std::vector<T>& items, Body body)
    {
        items.clear();
        if (node().has(key))
            objects(key, items, body);
    }
    template <class T, class Body> void objectsUnlessEmpty(const char* key, std::vector<T>& items, Body body)
    {
        optionalObjects(key, items, body);
    }
    template <class Make> void writeOnly(const char*, Make) {}

private:
    std::vector<Node> stack_;
};

// The document of a record (derived from RecordEnvelope) whose family section fields(io, record)
// describes.
template <class Record, class Fields> std::string writeRecordWith(const Record& r, Fields fields, int indent)
{
    FieldWriter writer;
    fields(writer, r);
    return dumpRecord(writeRecordDocument(r, writer.take()), indent);
}

// A record of family `family` read from text: the envelope, then the section fields describes.
template <class Record, class Fields>
Record readRecordWith(const std::string& text, std::string_view family, Fields fields)
{
    const RecordDocument doc = readRecordDocument(text);
    Record r;
    readEnvelope(doc.root(), r);
    FieldReader reader(familySection(doc.root(), family));
    fields(reader, r);
    return r;
}

}  // namespace gigacheck::recordjson
