// The Qt-free option values of a family verb and the value parsers several verbs share
// (gigacheck/command_options.hpp).
#include "gigacheck/command_options.hpp"

#include <limits>

namespace gigacheck {

CommandOptions::CommandOptions(const std::vector<OptionSpec>& specs)
{
    for (const OptionSpec& s : specs)
        if (!s.defaultValue.empty())
            defaults_[s.name] = s.defaultValue;
}

void CommandOptions::add(const std::string& name, std::string value) { given_[name].push_back(std::move(value)); }

void CommandOptions::addPositional(std::string word) { positional_.push_back(std::move(word)); }

bool CommandOptions::isSet(std::string_view name) const { return given_.find(name) != given_.end(); }

std::string CommandOptions::value(std::string_view name) const
{
    if (const auto it = given_.find(name); it != given_.end() && !it->second.empty())
        return it->second.back();
    if (const auto it = defaults_.find(name); it != defaults_.end())
        return it->second;
    return {};
}

std::vector<std::string> CommandOptions::values(std::string_view name) const
{
    const auto it = given_.find(name);
    return it == given_.end() ? std::vector<std::string>{} : it->second;
}

Shape parseShape(const std::string& text)
{
    std::int64_t dims[3] = {0, 0, 0};
    std::size_t start = 0;
    for (int d = 0; d < 3; ++d) {
        std::size_t stop = text.find_first_of("xX", start);
        if ((d < 2) != (stop != std::string::npos))
            throw InputError("expected MxNxQ (A is M x N, B is N x Q), e.g. 2048x1024x1536");
        if (stop == std::string::npos)
            stop = text.size();
        const std::string part = text.substr(start, stop - start);
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
            throw InputError("expected MxNxQ (A is M x N, B is N x Q), e.g. 2048x1024x1536");
        if (value < 1)
            throw InputError("every dimension must be at least 1");
        dims[d] = value;
        start = stop + 1;
    }
    return {dims[0], dims[1], dims[2]};
}

int parseDeviceNumber(const std::string& text) { return parseInteger<int>(text, 0, 1023, "a CUDA device number"); }

std::int64_t parsePositiveExtent(const std::string& text)
{
    return parseInteger<std::int64_t>(text, 1, std::numeric_limits<std::int64_t>::max(), "a positive integer");
}

}  // namespace gigacheck
