// The record envelope <-> JSON, for every family's record (gigacheck/record_envelope.hpp): a
// family writes its record as writeRecordDocument(envelope, its section) and reads it with
// readRecordDocument + readEnvelope + its section reader (blocked GEMM:
// families/blocked_gemm/record/record_json.cpp). Also the pieces the envelope is made of
// (devices, spans, events, metrics) and the atomic file write and bounded file read of records.
// Internal to the engine.
#pragma once

#include "gigacheck/record_envelope.hpp"
#include "core/record/json_fields.hpp"

#include <memory>
#include <string>

namespace gigacheck::recordjson {

// ---- the whole document -------------------------------------------------------------------------

// {format_version, tool_version, created_at, family, status, error, devices, metrics, events,
// spans, <family>: section}: the envelope, then the family's section under its family's name.
Json writeRecordDocument(const RecordEnvelope& envelope, Json section);
std::string dumpRecord(const Json& document, int indent);

// Bounded parse (size, nesting: json_limits) of a record's text in one SAX pass
// (record_document.cpp): a format >= 2 record's spans and events are read into Span / InjectEvent /
// VerifyEvent values as they arrive (readEnvelope takes them), everything else into the DOM. Then
// the format version, judged first: a newer record is refused for its version (InputError),
// whatever else it holds.
struct RecordDocument {
    Json json;
    int formatVersion = 0;
    std::unique_ptr<PreparsedLists> lists = std::make_unique<PreparsedLists>();
    Node root() const { return Node(json, "", lists.get()); }
};
RecordDocument readRecordDocument(const std::string& text);

// The envelope fields of a format >= 2 document (family, status, devices, metrics, events, spans).
void readEnvelope(const Node& root, RecordEnvelope& envelope);
// The family's section of the document; throws InputError naming the field when it is absent,
// or when the record belongs to another family than `family`.
Node familySection(const Node& root, std::string_view family);

// Writes text beside path and renames it over path (a failed write leaves the old file intact);
// reads a record file with the size bound first. Both throw InputError naming the file.
void saveRecordText(const std::string& text, const std::string& path);
std::string loadRecordText(const std::string& path);

// ---- the pieces ---------------------------------------------------------------------------------

Json numbers(const std::vector<double>& v);
Json write(const BlockIndex& b);
Json write(const Ceilings& c);
Json write(const DeviceInfo& d);
Json write(const Span& s);
Json write(const Injection& i);
Json write(const InjectEvent& e);
Json write(const VerifyResult& v);
Json write(const VerifyEvent& e);
Json write(const Metrics& m);
template <class T> Json writeAll(const std::vector<T>& items)
{
    Json out = Json::array();
    for (const T& item : items)
        out.push_back(write(item));
    return out;
}

BlockIndex readBlock(const Node& n);
Ceilings readCeilings(const Node& n);
DeviceInfo readDevice(const Node& n);
Span readSpan(const Node& n);
InjectEvent readInjectEvent(const Node& n);
VerifyEvent readVerifyEvent(const Node& n);
Metrics readMetrics(const Node& n);

}  // namespace gigacheck::recordjson
