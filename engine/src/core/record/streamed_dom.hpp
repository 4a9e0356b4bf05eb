// A JSON document parsed in one SAX pass into a DOM, except for the arrays the caller chooses: their
// elements are handed over one at a time, each as a small DOM that is dropped afterwards, and the
// DOM keeps an empty array in their place. Large files (a record's spans and events, a campaign's
// runs) are read without holding their bulk twice; the nesting depth is bounded as the parser meets
// it. Used by readRecordDocument and campaignFromJson. Internal to the engine.
#pragma once

#include "gigacheck/types.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck::jsonlimits {

template <class Json> class StreamedDom {
public:
    // Takes one element of a streamed array (index from 0).
    using OnElement = std::function<void(const Json& element, std::size_t index)>;
    // Asked as an array opens within the first kKeyDepth levels: the keys that lead to it from the
    // top (e.g. {"events", "verifications"}) and the DOM read so far; what it returns takes the
    // array's elements, an empty function keeps the array in the DOM.
    using Chooser = std::function<OnElement(const std::vector<std::string>& keys, const Json& root)>;
    struct Messages {
        std::function<std::string(int maxDepth)> tooDeep;
        std::function<std::string(const char* parserMessage)> notJson;
    };

    // Parses text into root; throws InputError with messages' words when it nests deeper than
    // maxDepth or is not JSON. What the OnElement functions throw goes through unchanged.
    static void parse(std::string_view text, Json& root, Chooser choose, int maxDepth, Messages messages)
    {
        StreamedDom sax(root, std::move(choose), maxDepth, std::move(messages));
        Json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, true);
    }

    // The SAX interface (nlohmann::json::sax_parse).
    bool null() { return scalar([](DomParser& p) { return p.null(); }); }
    bool boolean(bool v) { return scalar([v](DomParser& p) { return p.boolean(v); }); }
    bool number_integer(typename Json::number_integer_t v)
    {
        return scalar([v](DomParser& p) { return p.number_integer(v); });
    }
    bool number_unsigned(typename Json::number_unsigned_t v)
    {
        return scalar([v](DomParser& p) { return p.number_unsigned(v); });
    }
    bool number_float(typename Json::number_float_t v, const typename Json::string_t& s)
    {
        return scalar([v, &s](DomParser& p) { return p.number_float(v, s); });
    }
    bool string(typename Json::string_t& s) { return scalar([&s](DomParser& p) { return p.string(s); }); }
    bool binary(typename Json::binary_t& b) { return scalar([&b](DomParser& p) { return p.binary(b); }); }
    bool key(typename Json::string_t& k)
    {
        if (depth_ <= kKeyDepth)
            keys_[std::size_t(depth_ - 1)] = k;
        return target().key(k);
    }
    bool start_object(std::size_t n) { return open(false, [n](DomParser& p) { return p.start_object(n); }); }
    bool start_array(std::size_t n) { return open(true, [n](DomParser& p) { return p.start_array(n); }); }
    bool end_object() { return close([](DomParser& p) { return p.end_object(); }); }
    bool end_array() { return close([](DomParser& p) { return p.end_array(); }); }
    template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& e)
    {
        throw InputError(messages_.notJson(e.what()));
    }

private:
    using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;
    static constexpr int kKeyDepth = 4;  // keys remembered this deep: streamed arrays are near the top

    StreamedDom(Json& root, Chooser choose, int maxDepth, Messages messages)
        : root_(root), main_(root, true), choose_(std::move(choose)), maxDepth_(maxDepth), messages_(std::move(messages))
    {
    }

    Json& root_;
    DomParser main_;
    Chooser choose_;
    const int maxDepth_;
    Messages messages_;
    int depth_ = 0;                          // containers open
    std::vector<std::string> keys_ = std::vector<std::string>(kKeyDepth);  // [d]: last key at depth d + 1
    OnElement onElement_;                    // set while a streamed array is open
    int arrayDepth_ = 0;                     // its depth
    Json element_;                           // its element being read
    std::optional<DomParser> elementParser_;
    std::size_t index_ = 0;

    DomParser& target() { return onElement_ ? *elementParser_ : main_; }

    void beginElement()
    {
        element_ = Json();
        elementParser_.emplace(element_);
    }
    void endElement()
    {
        onElement_(element_, index_++);
        elementParser_.reset();
        element_ = Json();
    }

    template <class F> bool scalar(F f)
    {
        if (onElement_ && depth_ == arrayDepth_) {  // an element that is no container
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
            throw InputError(messages_.tooDeep(maxDepth_));
        if (depth_ <= kKeyDepth)
            keys_[std::size_t(depth_ - 1)].clear();  // no key seen in this container yet
        if (!onElement_ && array && depth_ <= kKeyDepth + 1) {
            const std::vector<std::string> path(keys_.begin(), keys_.begin() + (depth_ - 1));
            if ((onElement_ = choose_(path, root_))) {
                arrayDepth_ = depth_;
                index_ = 0;
                return f(main_);  // the DOM keeps an empty array in its place
            }
        }
        if (onElement_ && depth_ == arrayDepth_ + 1)
            beginElement();
        return f(target());
    }
    template <class F> bool close(F f)
    {
        --depth_;
        if (onElement_ && depth_ == arrayDepth_ - 1) {  // the streamed array itself ends
            onElement_ = nullptr;
            return f(main_);
        }
        const bool ok = f(target());
        if (onElement_ && depth_ == arrayDepth_)
            endElement();
        return ok;
    }
};

}  // namespace gigacheck::jsonlimits
