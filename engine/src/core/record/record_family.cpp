// recordFamilyOf / recordFamilyOfFile (gigacheck/record_envelope.hpp): the family a record names,
// read by a SAX pass that stops as soon as format_version and family are known. Both come first
// in every record gigacheck writes, so `show` and the lab no longer parse a large record twice
// (once to dispatch, once to load); a file is read only as far as that.
#include "gigacheck/record_envelope.hpp"

#include "core/io/input_file.hpp"
#include "core/record/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <optional>

namespace gigacheck {

namespace {

using Json = nlohmann::json;

// Top-level "format_version" and "family" of a JSON document, within the readers' nesting limit.
class TopLevelFields : public nlohmann::json_sax<Json> {
public:
    std::optional<std::int64_t> version;
    std::optional<std::string> family;
    std::string wrongType;   // the first of the two fields that has the wrong type
    std::string parseError;  // the parser's message, when the text is not JSON
    bool topIsObject = false;

    bool null() override { return scalar(false, {}, {}); }
    bool boolean(bool) override { return scalar(false, {}, {}); }
    bool number_integer(number_integer_t v) override { return scalar(true, v, {}); }
    bool number_unsigned(number_unsigned_t v) override
    {
        return scalar(true, v <= number_unsigned_t(INT64_MAX) ? std::optional<std::int64_t>(v) : std::nullopt, {});
    }
    bool number_float(number_float_t, const string_t&) override { return scalar(false, {}, {}); }
    bool string(string_t& s) override { return scalar(false, {}, s); }
    bool binary(binary_t&) override { return scalar(false, {}, {}); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override
    {
        if (depth_ == 1)
            key_ = k;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override
    {
        parseError = e.what();
        return false;
    }

    // True once nothing later in the document can change the answer.
    bool known() const
    {
        if (!wrongType.empty())
            return true;
        if (version && (*version == 1 || *version > RecordEnvelope::kFormatVersion || *version < 1))
            return true;  // format 1 has no family; the others are refused for their version
        return version && family;
    }

private:
    int depth_ = 0;
    std::string key_;

    bool open(bool object)
    {
        if (depth_ == 0)
            topIsObject = object;  // not one: parsed on, so that a syntax error is still said first
        else if (depth_ == 1)
            mark(false, std::nullopt, std::nullopt);
        if (++depth_ > jsonlimits::Limits{}.maxDepth)
            throw InputError("record: objects and arrays nested deeper than " +
                             std::to_string(jsonlimits::Limits{}.maxDepth) + " levels, refused");
        return true;
    }
    bool close()
    {
        --depth_;
        return true;
    }
    bool scalar(bool integer, std::optional<std::int64_t> v, std::optional<std::string> s)
    {
        if (depth_ == 1 && topIsObject)
            mark(integer, v, std::move(s));
        return !known();
    }
    void mark(bool integer, std::optional<std::int64_t> v, std::optional<std::string> s)
    {
        if (key_ == "format_version") {
            // Node::as<int>'s words, as the full reader says them.
            if (v && *v >= INT32_MIN && *v <= INT32_MAX)
                version = v;
            else if (wrongType.empty())
                wrongType = integer ? "record: field 'format_version' must be an integer from " +
                                          std::to_string(INT32_MIN) + " to " + std::to_string(INT32_MAX)
                                    : std::string("record: field 'format_version' must be an integer");
        } else if (key_ == "family") {
            if (s)
                family = std::move(s);
            else if (wrongType.empty())
                wrongType = "record: field 'family' must be a string";
        }
        key_.clear();
    }
};

std::string familyOf(const TopLevelFields& fields)
{
    if (!fields.parseError.empty())
        throw InputError("record is not valid JSON: " + fields.parseError);
    if (!fields.topIsObject)
        throw InputError("record: field '(top level)' must be an object");
    if (!fields.wrongType.empty())
        throw InputError(fields.wrongType);
    if (!fields.version)
        throw InputError("record: missing field 'format_version'");
    const std::int64_t version = *fields.version;
    if (version > RecordEnvelope::kFormatVersion)
        throw InputError("record format " + std::to_string(version) + " is newer than this gigacheck supports (" +
                         std::to_string(RecordEnvelope::kFormatVersion) + "); update gigacheck");
    if (version < 1)
        throw InputError("record: field 'format_version' must be at least 1 (got " + std::to_string(version) + ")");
    if (version == 1)
        return "blocked_gemm";  // format 1 predates families: it was the only one
    if (!fields.family)
        throw InputError("record: missing field 'family'");
    return *fields.family;
}

template <class Input> std::string sniff(Input&& input)
{
    TopLevelFields fields;
    // strict = false: the pass stops early on purpose, trailing text is the full reader's to judge.
    Json::sax_parse(std::forward<Input>(input), &fields, nlohmann::json::input_format_t::json, false);
    return familyOf(fields);
}

}  // namespace

std::string recordFamilyOf(const std::string& jsonText)
{
    if (jsonText.size() > jsonlimits::kMaxFileBytes)
        throw InputError("record: larger than " + binaryBytes(jsonlimits::kMaxFileBytes) + ", refused");
    return sniff(jsonText);
}

std::string recordFamilyOfFile(const std::string& path)
{
    checkInputFile(path, "run record", jsonlimits::kMaxFileBytes);  // before anything opens it
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError("cannot read run record '" + path + "': cannot open it");
    try {
        return sniff(in);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
