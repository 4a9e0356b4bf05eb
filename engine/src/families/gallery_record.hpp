// The kernel galleries' records (reduced matmul, transpose) as JSON, written once for both: core's
// envelope, then the family's section from its field table (core/record/field_table.hpp) with its
// "counts" object, validated before anything uses it; a file's errors name the file.
#pragma once

#include "core/record/envelope_json.hpp"
#include "core/record/field_table.hpp"

#include <string>
#include <string_view>

namespace gigacheck::gallery {

template <class Record, class SectionFields, class CountFields>
std::string recordToJson(const Record& r, const SectionFields& sectionFields, const CountFields& countFields)
{
    recordjson::Json section = recordjson::Json::object();
    recordjson::writeFields(section, r, sectionFields);
    recordjson::Json& counts = section["counts"] = recordjson::Json::object();
    recordjson::writeFields(counts, r.counts, countFields);
    return recordjson::dumpRecord(recordjson::writeRecordDocument(r, std::move(section)), 1);
}

template <class Record, class SectionFields, class CountFields>
Record recordFromJson(const std::string& text, std::string_view family, const SectionFields& sectionFields,
                      const CountFields& countFields, void (*validate)(const Record&))
{
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    Record r;
    recordjson::readEnvelope(doc.root(), r);
    const recordjson::Node s = recordjson::familySection(doc.root(), family);
    recordjson::readFields(s, r, sectionFields);
    recordjson::readFields(s.child("counts"), r.counts, countFields);
    validate(r);  // nothing uses or prints what the record claims before this
    return r;
}

template <class Record> Record loadRecord(const std::string& path, Record (*fromJson)(const std::string&))
{
    try {
        return fromJson(recordjson::loadRecordText(path));
    } catch (const InputError& e) {
        const std::string what = e.what();  // the file's own errors name it already
        throw InputError(what.find(path) != std::string::npos ? what : path + ": " + what);
    }
}

}  // namespace gigacheck::gallery
