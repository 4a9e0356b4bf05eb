// isCampaignFile (gigacheck/campaign.hpp): whether a file is a campaign, read only as far as its
// top-level "format" (the first key gigacheck writes). `gigacheck show` and the lab ask it of every
// file they open; a full parse made that as slow as reading the file twice (a 1 GiB campaign of
// 10^6 runs, a 350 MB record). Whether the rest is a valid campaign is loadCampaign's to say.
#include "gigacheck/campaign.hpp"

#include "core/io/input_file.hpp"
#include "core/record/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace gigacheck {

namespace {

using Json = nlohmann::json;
constexpr int kMaxDepth = 16;  // a campaign's nesting limit (campaign_json.cpp)

// Stops at the value of the top-level "format", or at anything that shows the file is no campaign.
class FormatField : public nlohmann::json_sax<Json> {
public:
    bool campaign = false;

    bool null() override { return value(nullptr); }
    bool boolean(bool) override { return value(nullptr); }
    bool number_integer(number_integer_t) override { return value(nullptr); }
    bool number_unsigned(number_unsigned_t) override { return value(nullptr); }
    bool number_float(number_float_t, const string_t&) override { return value(nullptr); }
    bool string(string_t& s) override { return value(&s); }
    bool binary(binary_t&) override { return value(nullptr); }
    bool start_object(std::size_t) override
    {
        if (depth_ == 1 && format_)
            return false;  // "format" holds an object: no campaign
        return ++depth_ <= kMaxDepth;
    }
    bool start_array(std::size_t) override
    {
        if (depth_ == 0 || (depth_ == 1 && format_))
            return false;
        return ++depth_ <= kMaxDepth;
    }
    bool end_object() override { return --depth_ > 0; }  // the top level closed without a format
    bool end_array() override
    {
        --depth_;
        return true;
    }
    bool key(string_t& k) override
    {
        if (depth_ != 1)
            return true;
        format_ = k == "format";
        // A key only run records have: a record (its spans would otherwise be read to the end).
        static const std::set<std::string, std::less<>> kRecordKeys = {
            "family", "devices", "metrics", "events", "spans", "plan", "injections", "verifications"};
        return kRecordKeys.count(k) == 0;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    int depth_ = 0;
    bool format_ = false;  // the last top-level key was "format"

    bool value(const string_t* s)
    {
        if (depth_ == 0)
            return false;  // a bare value
        if (depth_ == 1 && format_) {
            campaign = s && *s == "gigacheck-campaign";
            return false;  // decided
        }
        return true;
    }
};

}  // namespace

bool isCampaignFile(const std::string& path)
{
    try {
        // A regular file within the limit, checked before it is opened (core/io/input_file.hpp).
        checkInputFile(path, "campaign", jsonlimits::kMaxFileBytes);
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return false;
        FormatField sax;
        Json::sax_parse(in, &sax, nlohmann::json::input_format_t::json, false);
        return sax.campaign;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace gigacheck
