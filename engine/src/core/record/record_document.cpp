// readRecordDocument (envelope_json.hpp): a record's text in one SAX pass. The envelope and the
// family's section go into the DOM as before; a format >= 2 record's "spans", "events.injections"
// and "events.verifications", the bulk of a large record, are read one element at a time (a small
// DOM of that element, then readSpan / readInjectEvent / readVerifyEvent, so the checks and
// messages are those of every other reader) into PreparsedLists. A 350 MB record took 2.3 GB and
// two parses (one to find its family); it now takes its text and the values read from it.
// Nesting depth and size are checked here too: the parser never sees a deeper level.
#include "core/record/envelope_json.hpp"

#include "core/io/input_file.hpp"
#include "core/record/streamed_dom.hpp"

#include <cstdint>
#include <vector>

namespace gigacheck::recordjson {

namespace {

// A format >= 2 record (format_version comes first; format 1 has another layout, read from the DOM
// by readVersion1) streams these lists.
bool formatTwo(const Json& root)
{
    const auto version = root.is_object() ? root.find("format_version") : root.end();
    return version != root.end() && version->is_number_integer() && version->get<std::int64_t>() >= 2;
}

// The elements of one list read into list.items; the first refusal kept in list.error (thrown by
// readEnvelope when it reaches the list, so refusals come in the order they always did).
template <class T, class Read>
jsonlimits::StreamedDom<Json>::OnElement into(Preparsed<T>& list, std::string path, Read read)
{
    list = Preparsed<T>{};
    list.present = true;
    return [&list, path = std::move(path), read](const Json& element, std::size_t index) {
        if (!list.error.empty())
            return;  // after the first refusal the rest is only parsed
        try {
            list.items.push_back(read(Node(element, path + "[" + std::to_string(index) + "]")));
        } catch (const InputError& e) {
            list.error = e.what();
        }
    };
}

}  // namespace

RecordDocument readRecordDocument(const std::string& text)
{
    const jsonlimits::Limits limits;
    if (text.size() > limits.maxBytes)
        throw InputError("record: larger than " + binaryBytes(limits.maxBytes) + ", refused");
    RecordDocument doc;
    PreparsedLists& lists = *doc.lists;
    const auto choose = [&lists](const std::vector<std::string>& keys,
                                 const Json& root) -> jsonlimits::StreamedDom<Json>::OnElement {
        if (!formatTwo(root))
            return {};
        if (keys == std::vector<std::string>{"spans"})
            return into(lists.spans, "spans", readSpan);
        if (keys == std::vector<std::string>{"events", "injections"})
            return into(lists.injections, "events.injections", readInjectEvent);
        if (keys == std::vector<std::string>{"events", "verifications"})
            return into(lists.verifications, "events.verifications", readVerifyEvent);
        return {};
    };
    jsonlimits::StreamedDom<Json>::parse(
        text, doc.json, choose, limits.maxDepth,
        {[](int depth) {
             return "record: objects and arrays nested deeper than " + std::to_string(depth) + " levels, refused";
         },
         [](const char* why) { return std::string("record is not valid JSON: ") + why; }});
    const Node root = doc.root();
    // The version first: a newer record may have any shape, so say why before anything else fails.
    const int version = root.get<int>("format_version");
    if (version > RecordEnvelope::kFormatVersion)
        throw InputError("record format " + std::to_string(version) + " is newer than this gigacheck supports (" +
                         std::to_string(RecordEnvelope::kFormatVersion) + "); update gigacheck");
    if (version < 1)
        throw InputError("record: field 'format_version' must be at least 1 (got " + std::to_string(version) + ")");
    doc.formatVersion = version;
    return doc;
}

}  // namespace gigacheck::recordjson
