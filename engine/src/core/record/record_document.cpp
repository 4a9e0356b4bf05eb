// readRecordDocument (envelope_json.hpp): a record's text in one SAX pass. The envelope and the
// family's section go into the DOM as before; a format >= 2 record's top-level "spans" array, the
// bulk of a large record, is read one span at a time (a small DOM of that span, then readSpan, so
// the checks and messages are those of every other reader) into PreparsedSpans. A 350 MB record
// took 2.4 GB and two parses (one to find its family); it now takes its text and its spans.
// Nesting depth and size are checked here too: the parser never sees a deeper level.
#include "core/record/envelope_json.hpp"

#include "core/io/input_file.hpp"

#include <optional>

namespace gigacheck::recordjson {

namespace {

using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

class RecordSax {
public:
    RecordSax(Json& root, PreparsedSpans& spans, int maxDepth) : main_(root, true), spans_(spans), maxDepth_(maxDepth) {}

    bool null() { return scalar([](DomParser& p) { return p.null(); }); }
    bool boolean(bool v) { return scalar([v](DomParser& p) { return p.boolean(v); }); }
    bool number_integer(Json::number_integer_t v)
    {
        noteVersion(v >= 2);
        return scalar([v](DomParser& p) { return p.number_integer(v); });
    }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        noteVersion(v >= 2);
        return scalar([v](DomParser& p) { return p.number_unsigned(v); });
    }
    bool number_float(Json::number_float_t v, const Json::string_t& s)
    {
        return scalar([v, &s](DomParser& p) { return p.number_float(v, s); });
    }
    bool string(Json::string_t& s) { return scalar([&s](DomParser& p) { return p.string(s); }); }
    bool binary(Json::binary_t& b) { return scalar([&b](DomParser& p) { return p.binary(b); }); }
    bool key(Json::string_t& k)
    {
        if (depth_ == 1)
            topKey_ = k;
        return target().key(k);
    }
    bool start_object(std::size_t n) { return open(false, [n](DomParser& p) { return p.start_object(n); }); }
    bool start_array(std::size_t n) { return open(true, [n](DomParser& p) { return p.start_array(n); }); }
    bool end_object() { return close([](DomParser& p) { return p.end_object(); }); }
    bool end_array() { return close([](DomParser& p) { return p.end_array(); }); }
    template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& e)
    {
        throw InputError(std::string("record is not valid JSON: ") + e.what());
    }

private:
    DomParser main_;
    PreparsedSpans& spans_;
    const int maxDepth_;
    int depth_ = 0;            // containers open
    std::string topKey_;       // the last key of the top-level object
    bool formatTwo_ = false;   // format_version >= 2 came before the spans: they are read here
    bool inSpans_ = false;     // inside the top-level spans array
    Json element_;             // the span being read, as a small DOM
    std::optional<DomParser> elementParser_;
    std::size_t index_ = 0;

    void noteVersion(bool formatTwo)
    {
        if (depth_ == 1 && topKey_ == "format_version")
            formatTwo_ = formatTwo;  // format 1 reads its spans from the DOM (readVersion1)
    }
    DomParser& target() { return inSpans_ ? *elementParser_ : main_; }

    void beginElement()
    {
        element_ = Json();
        elementParser_.emplace(element_);
    }
    void endElement()
    {
        if (spans_.error.empty()) {  // after the first refusal the rest is only parsed
            try {
                spans_.spans.push_back(readSpan(Node(element_, "spans[" + std::to_string(index_) + "]")));
            } catch (const InputError& e) {
                spans_.error = e.what();
            }
        }
        ++index_;
        elementParser_.reset();
        element_ = Json();
    }

    template <class F> bool scalar(F f)
    {
        if (inSpans_ && depth_ == 2) {  // a span that is not an object: readSpan says so
            beginElement();
            f(*elementParser_);
            endElement();
            return true;
        }
        return f(target());
    }
    template <class F> bool open(bool array, F f)
    {
        if (++depth_ > maxDepth_)
            throw InputError("record: objects and arrays nested deeper than " + std::to_string(maxDepth_) +
                             " levels, refused");
        if (!inSpans_ && array && depth_ == 2 && formatTwo_ && topKey_ == "spans") {
            inSpans_ = true;
            spans_ = PreparsedSpans{};
            spans_.present = true;
            index_ = 0;
            return f(main_);  // the DOM keeps an empty array in their place
        }
        if (inSpans_ && depth_ == 3)
            beginElement();
        return f(target());
    }
    template <class F> bool close(F f)
    {
        --depth_;
        if (inSpans_ && depth_ == 1) {  // the spans array itself ends
            inSpans_ = false;
            return f(main_);
        }
        const bool ok = f(target());
        if (inSpans_ && depth_ == 2)
            endElement();
        return ok;
    }
};

}  // namespace

RecordDocument readRecordDocument(const std::string& text)
{
    const jsonlimits::Limits limits;
    if (text.size() > limits.maxBytes)
        throw InputError("record: larger than " + binaryBytes(limits.maxBytes) + ", refused");
    RecordDocument doc;
    RecordSax sax(doc.json, *doc.spans, limits.maxDepth);
    Json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, true);
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
