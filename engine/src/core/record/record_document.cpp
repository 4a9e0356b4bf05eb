// readRecordDocument (envelope_json.hpp): a record's text in one SAX pass. The envelope and the
// family's section go into the DOM as before; a format >= 2 record's "spans", "events.injections"
// and "events.verifications", the bulk of a large record, are read one element at a time (a small
// DOM of that element, then readSpan / readInjectEvent / readVerifyEvent, so the checks and
// messages are those of every other reader) into PreparsedLists. A 350 MB record took 2.3 GB and
// two parses (one to find its family); it now takes its text and the values read from it.
// Nesting depth and size are checked here too: the parser never sees a deeper level.
#include "core/record/envelope_json.hpp"

#include "core/io/input_file.hpp"

#include <functional>
#include <optional>

namespace gigacheck::recordjson {

namespace {

using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

// One list of the document read element by element: where it is, how an element is read.
struct Diversion {
    int arrayDepth = 0;  // containers open once the list's array is
    std::string path;    // "spans", "events.verifications": the elements' Node paths
    std::function<void(const Node&)> read;
    std::string* error = nullptr;
};

template <class T, class Read> Diversion divert(int depth, std::string path, Preparsed<T>& list, Read read)
{
    list = Preparsed<T>{};
    list.present = true;
    return {depth, std::move(path), [&list, read](const Node& n) { list.items.push_back(read(n)); }, &list.error};
}

class RecordSax {
public:
    RecordSax(Json& root, PreparsedLists& lists, int maxDepth) : main_(root, true), lists_(lists), maxDepth_(maxDepth) {}

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
        else if (depth_ == 2)
            secondKey_ = k;
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
    PreparsedLists& lists_;
    const int maxDepth_;
    int depth_ = 0;           // containers open
    std::string topKey_;      // the last key of the top-level object
    std::string secondKey_;   // the last key of the object open at depth 2 (inside "events")
    bool formatTwo_ = false;  // format_version >= 2 came first: its lists are read here
    std::optional<Diversion> diversion_;  // the list being read element by element
    Json element_;                        // its element being read, as a small DOM
    std::optional<DomParser> elementParser_;
    std::size_t index_ = 0;

    void noteVersion(bool formatTwo)
    {
        if (depth_ == 1 && topKey_ == "format_version")
            formatTwo_ = formatTwo;  // format 1 has another layout, read from the DOM (readVersion1)
    }
    DomParser& target() { return diversion_ ? *elementParser_ : main_; }

    // The list whose array opens now (depth_ already counts it), if it is one read element-wise.
    std::optional<Diversion> listOpening()
    {
        if (!formatTwo_)
            return std::nullopt;
        if (depth_ == 2 && topKey_ == "spans")
            return divert(depth_, "spans", lists_.spans, readSpan);
        if (depth_ == 3 && topKey_ == "events" && secondKey_ == "injections")
            return divert(depth_, "events.injections", lists_.injections, readInjectEvent);
        if (depth_ == 3 && topKey_ == "events" && secondKey_ == "verifications")
            return divert(depth_, "events.verifications", lists_.verifications, readVerifyEvent);
        return std::nullopt;
    }

    void beginElement()
    {
        element_ = Json();
        elementParser_.emplace(element_);
    }
    void endElement()
    {
        if (diversion_->error->empty()) {  // after the first refusal the rest is only parsed
            try {
                diversion_->read(Node(element_, diversion_->path + "[" + std::to_string(index_) + "]"));
            } catch (const InputError& e) {
                *diversion_->error = e.what();
            }
        }
        ++index_;
        elementParser_.reset();
        element_ = Json();
    }

    template <class F> bool scalar(F f)
    {
        if (diversion_ && depth_ == diversion_->arrayDepth) {  // an element that is no object: its reader says so
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
        if (depth_ == 2)
            secondKey_.clear();
        if (!diversion_ && array) {
            if ((diversion_ = listOpening())) {
                index_ = 0;
                return f(main_);  // the DOM keeps an empty array in the list's place
            }
        }
        if (diversion_ && depth_ == diversion_->arrayDepth + 1)
            beginElement();
        return f(target());
    }
    template <class F> bool close(F f)
    {
        --depth_;
        if (diversion_ && depth_ == diversion_->arrayDepth - 1) {  // the list's array itself ends
            diversion_.reset();
            return f(main_);
        }
        const bool ok = f(target());
        if (diversion_ && depth_ == diversion_->arrayDepth)
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
    RecordSax sax(doc.json, *doc.lists, limits.maxDepth);
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
