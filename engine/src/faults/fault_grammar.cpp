// The one fault grammar (gigacheck/fault_grammar.hpp): --inject-at and --fault as text.
#include "gigacheck/fault_grammar.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>
#include <vector>

namespace gigacheck {

namespace {

constexpr std::array<std::pair<std::string_view, InjectTarget>, 7> kTargetNames{{
    {"c", InjectTarget::C},
    {"result", InjectTarget::C},  // run's --target word for C
    {"a", InjectTarget::A},
    {"b", InjectTarget::B},
    {"checksum-row", InjectTarget::ChecksumRow},
    {"checksum-col", InjectTarget::ChecksumCol},
    {"product", InjectTarget::Product},
}};

[[noreturn]] void refuse(std::string_view text, const std::string& why)
{
    throw InputError("--inject-at '" + std::string(text) + "': " + why + " (expected " + std::string(kInjectAtForms) + ")");
}

template <class Int> std::optional<Int> wholeNumber(std::string_view s)
{
    Int value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || value < 0)
        return std::nullopt;
    return value;
}

std::optional<double> realNumber(std::string_view s)
{
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return value;
}

std::vector<std::string_view> split(std::string_view s, char at)
{
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t stop = s.find(at, start);
        parts.push_back(s.substr(start, stop == std::string_view::npos ? std::string_view::npos : stop - start));
        if (stop == std::string_view::npos)
            return parts;
        start = stop + 1;
    }
}

bool startsWithLetter(std::string_view s) { return !s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')); }

}  // namespace

std::string_view toString(InjectTarget t)
{
    switch (t) {
    case InjectTarget::C: return "c";
    case InjectTarget::A: return "a";
    case InjectTarget::B: return "b";
    case InjectTarget::ChecksumRow: return "checksum-row";
    case InjectTarget::ChecksumCol: return "checksum-col";
    case InjectTarget::Product: return "product";
    }
    return "c";
}

InjectSpec parseInjectSpec(std::string_view text)
{
    InjectSpec spec;
    std::string_view body = text;
    if (const std::size_t at = text.find('@'); at != std::string_view::npos) {
        body = text.substr(0, at);
        spec.when = wholeNumber<int>(text.substr(at + 1));
        if (!spec.when)
            refuse(text, "'" + std::string(text.substr(at + 1)) + "' after @ is not a step or product number (from 0)");
    }
    const std::vector<std::string_view> parts = split(body, ':');
    std::size_t next = 0;
    if (startsWithLetter(parts[0])) {
        const auto named = std::find_if(kTargetNames.begin(), kTargetNames.end(), [&](const auto& n) { return n.first == parts[0]; });
        if (named == kTargetNames.end())
            refuse(text, "unknown target '" + std::string(parts[0]) + "'");
        spec.target = named->second;
        spec.targetGiven = true;
        ++next;
        if (spec.target == InjectTarget::Product) {
            const auto k = next < parts.size() ? wholeNumber<int>(parts[next]) : std::nullopt;
            if (!k)
                refuse(text, "product needs its leaf number K (product:K)");
            spec.product = *k;
            ++next;
        }
    }
    // The position: a cell R,C, or (c / a / b) a quadrant Q; product:K needs neither.
    const bool cellNext = next < parts.size() && parts[next].find(',') != std::string_view::npos;
    if (cellNext) {
        const std::string_view cell = parts[next++];
        const std::size_t comma = cell.find(',');
        const std::string_view r = cell.substr(0, comma), c = cell.substr(comma + 1);
        const auto row = wholeNumber<std::int64_t>(r), col = wholeNumber<std::int64_t>(c);
        if (!row)
            refuse(text, "'" + std::string(r) + "' is not a row index (R,C: row and column, from 0)");
        if (!col)
            refuse(text, "'" + std::string(c) + "' is not a column index (R,C: row and column, from 0)");
        spec.row = *row;
        spec.col = *col;
    } else if (spec.targetGiven && spec.target != InjectTarget::Product) {
        const bool quadrants = spec.target == InjectTarget::C || spec.target == InjectTarget::A || spec.target == InjectTarget::B;
        const auto q = next < parts.size() ? wholeNumber<int>(parts[next]) : std::nullopt;
        if (!quadrants)
            refuse(text, std::string(toString(spec.target)) + " needs a cell R,C");
        if (!q || *q > 3)
            refuse(text, "after '" + std::string(toString(spec.target)) + ":' neither a cell R,C nor a quadrant 0..3");
        spec.quadrant = *q;
        ++next;
    } else if (!spec.targetGiven) {
        refuse(text, "no cell R,C (row and column, from 0)");
    }
    if (next < parts.size()) {
        spec.delta = realNumber(parts[next]);
        if (!spec.delta)
            refuse(text, "'" + std::string(parts[next]) + "' is not a number (DELTA: the value added to the cell)");
        ++next;
    }
    if (next < parts.size())
        refuse(text, "too many ':' parts");
    return spec;
}

std::string toString(const InjectSpec& s)
{
    std::string out;
    if (s.targetGiven || s.target != InjectTarget::C || s.quadrant)
        out += std::string(toString(s.target)) + ":";
    if (s.target == InjectTarget::Product)
        out += std::to_string(s.product) + (s.hasCell() || s.delta ? ":" : "");
    if (s.hasCell())
        out += std::to_string(s.row) + "," + std::to_string(s.col);
    else if (s.quadrant)
        out += std::to_string(*s.quadrant);
    if (s.delta) {
        // Shortest form that reads back to the same double.
        char digits[64];
        const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, *s.delta);
        if (s.target != InjectTarget::Product || s.hasCell())
            out += ':';
        out.append(digits, ec == std::errc() ? end : digits);
    }
    if (s.when)
        out += "@" + std::to_string(*s.when);
    return out;
}

FaultModelSpec parseFaultModelSpec(std::string_view text)
{
    const auto bad = [&](const std::string& why) {
        return InputError(why + " (expected " + std::string(kFaultModelForms) +
                          "; B = bit to flip, 0 = least significant, default the top exponent bit; +B2: a second bit "
                          "of the same word)");
    };
    FaultModelSpec spec;
    if (text == "delta")
        return spec;
    spec.model = FaultModel::BitFlip;
    if (text == "bitflip")
        return spec;
    if (text.rfind("bitflip:", 0) != 0)
        throw bad("'" + std::string(text) + "' is not a fault model");
    const std::string_view bits = text.substr(8);
    const std::size_t plus = bits.find('+');
    const auto bit = wholeNumber<int>(bits.substr(0, plus));
    if (!bit || *bit > 63)
        throw bad("'" + std::string(bits.substr(0, plus)) + "' is not a bit number (0-63)");
    spec.bit = *bit;
    if (plus != std::string_view::npos) {
        const auto bit2 = wholeNumber<int>(bits.substr(plus + 1));
        if (!bit2 || *bit2 > 63)
            throw bad("'" + std::string(bits.substr(plus + 1)) + "' is not a bit number (0-63)");
        spec.bit2 = *bit2;
    }
    return spec;
}

std::string toString(const FaultModelSpec& s)
{
    if (s.model == FaultModel::Delta)
        return "delta";
    if (s.bit < 0)
        return "bitflip";
    return "bitflip:" + std::to_string(s.bit) + (s.bit2 >= 0 ? "+" + std::to_string(s.bit2) : std::string());
}

int resolvedBit(int bit, Precision precision)
{
    const int bits = precision == Precision::F64 ? 64 : 32;
    if (bit == -1)
        return bits - 2;  // the most significant exponent bit: 30 (FP32), 62 (FP64)
    if (bit < 0 || bit >= bits)
        throw InputError("bit " + std::to_string(bit) + " is outside an " + std::string(toString(precision)) +
                         " element (bits 0-" + std::to_string(bits - 1) + ")");
    return bit;
}

}  // namespace gigacheck
