// The .npy header: magic, version, length, then a Python dict literal such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n'. Parsed by a small strict grammar (no eval, no escapes,
// every key exactly once), and every size claim checked against the file before the caller
// allocates anything.
#include "gigacheck/npy.hpp"

#include <cstring>
#include <limits>
#include <vector>

namespace gigacheck {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;

// A cursor over the dict literal; every error names what was expected and where.
class DictParser {
public:
    explicit DictParser(std::string_view text) : text_(text) {}

    void skipSpace()
    {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
            ++pos_;
    }
    bool peek(char c)
    {
        skipSpace();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    void expect(char c, const char* what)
    {
        if (!peek(c))
            fail(std::string("expected ") + what);
        ++pos_;
    }
    std::string stringLiteral(const char* what)
    {
        skipSpace();
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
            fail(std::string("expected ") + what + " as a quoted string");
        const char quote = text_[pos_++];
        const std::size_t end = text_.find(quote, pos_);
        if (end == std::string_view::npos)
            fail("a string is not closed");
        const std::string_view s = text_.substr(pos_, end - pos_);
        if (s.find('\\') != std::string_view::npos || s.size() > 64)
            fail("unexpected string '" + std::string(s.substr(0, 64)) + "'");
        pos_ = end + 1;
        return std::string(s);
    }
    bool boolean()
    {
        skipSpace();
        for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}})
            if (text_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return value;
            }
        fail("expected True or False for 'fortran_order'");
    }
    // A tuple of non-negative integers, as Python writes it: (), (5,), (3, 4), (3L, 4L).
    std::vector<std::int64_t> shapeTuple()
    {
        expect('(', "'(' to open the shape");
        std::vector<std::int64_t> dims;
        while (!peek(')')) {
            if (dims.size() >= 32)
                fail("the shape has more than 32 dimensions");
            dims.push_back(integer());
            if (peek('L'))  // Python 2's long integers
                ++pos_;
            if (peek(','))
                ++pos_;
            else if (!peek(')'))
                fail("expected ',' or ')' in the shape");
        }
        ++pos_;
        return dims;
    }
    std::string_view rest() const { return text_.substr(pos_); }
    [[noreturn]] void fail(const std::string& why) const
    {
        throw InputError("not a valid .npy header: " + why + " at character " + std::to_string(pos_) + " of '" +
                         std::string(text_.substr(0, 200)) + "'");
    }

private:
    std::int64_t integer()
    {
        skipSpace();
        const std::size_t start = pos_;
        std::int64_t value = 0;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            const int digit = text_[pos_] - '0';
            if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                fail("a dimension of the shape is too large");
            value = value * 10 + digit;
            ++pos_;
        }
        if (pos_ == start)
            fail("expected a non-negative integer in the shape");
        return value;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

// What a dtype the lab does not read is, in words, with the NumPy call that converts it.
std::string refusedDtype(const std::string& descr)
{
    std::string kind = "values of type '" + descr + "'";
    if (descr.size() >= 3) {
        const char k = descr[1];
        const std::string bytes = descr.substr(2);
        if (k == 'i' || k == 'u')
            kind = std::string(k == 'u' ? "unsigned " : "") + "integers of " + bytes + " byte(s) ('" + descr + "')";
        else if (k == 'f')
            kind = "floats of " + bytes + " byte(s) ('" + descr + "')";
        else if (k == 'c')
            kind = "complex numbers ('" + descr + "')";
        else if (k == 'b')
            kind = "booleans ('" + descr + "')";
    }
    return "the file holds " + kind + "; the lab reads float32 ('<f4') and float64 ('<f8') matrices: save "
           "a.astype(numpy.float64)";
}

}  // namespace

NpyHeader parseNpyHeader(std::string_view bytes, std::uint64_t fileBytes)
{
    NpyHeader h;
    if (bytes.size() < kMagicBytes || std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0)
        throw InputError("not a NumPy .npy file (it does not start with \\x93NUMPY)");
    if (bytes.size() < 10)
        throw InputError("the .npy file ends inside its header (" + std::to_string(bytes.size()) + " bytes)");
    h.major = static_cast<unsigned char>(bytes[6]);
    h.minor = static_cast<unsigned char>(bytes[7]);
    if ((h.major != 1 && h.major != 2 && h.major != 3) || h.minor != 0)
        throw InputError(".npy format version " + std::to_string(h.major) + "." + std::to_string(h.minor) +
                         " is not one the lab reads (1.0, 2.0, 3.0)");
    // Version 1 has a 2-byte little-endian header length, versions 2 and 3 a 4-byte one.
    const std::size_t lengthBytes = h.major == 1 ? 2 : 4;
    const std::size_t prefix = 8 + lengthBytes;
    if (bytes.size() < prefix)
        throw InputError("the .npy file ends inside its header");
    std::uint64_t headerLength = 0;
    for (std::size_t i = 0; i < lengthBytes; ++i)
        headerLength |= std::uint64_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    if (headerLength > kMaxNpyHeaderBytes)
        throw InputError("the .npy header claims " + std::to_string(headerLength) + " bytes (at most " +
                         std::to_string(kMaxNpyHeaderBytes) + " are read)");
    if (prefix + headerLength > fileBytes || prefix + headerLength > bytes.size())
        throw InputError("the .npy file is truncated: its header claims " + std::to_string(headerLength) +
                         " bytes but the file has " + std::to_string(fileBytes) + " in all");
    h.dataOffset = std::size_t(prefix + headerLength);
    const std::string_view text = bytes.substr(prefix, std::size_t(headerLength));
    if (text.empty() || text.back() != '\n')
        throw InputError("not a valid .npy header: it does not end with a newline");
    for (char c : text.substr(0, text.size() - 1))
        if (c < 0x20 || c > 0x7e)
            throw InputError("not a valid .npy header: it holds a character that is not printable ASCII");

    DictParser p(text.substr(0, text.size() - 1));
    bool haveDescr = false, haveOrder = false, haveShape = false;
    std::vector<std::int64_t> shape;
    p.expect('{', "'{' to open the header dict");
    while (!p.peek('}')) {
        const std::string key = p.stringLiteral("a key");
        p.expect(':', "':' after a key");
        bool* seen = nullptr;
        if (key == "descr") {
            seen = &haveDescr;
            if (p.peek('['))
                throw InputError("the file holds a structured array (fields); the lab reads plain float32 or "
                                 "float64 matrices");
            h.descr = p.stringLiteral("the dtype");
        } else if (key == "fortran_order") {
            seen = &haveOrder;
            h.fortranOrder = p.boolean();
        } else if (key == "shape") {
            seen = &haveShape;
            shape = p.shapeTuple();
        } else {
            p.fail("unexpected key '" + key + "'");
        }
        if (*seen)
            p.fail("the key '" + key + "' appears twice");
        *seen = true;
        if (p.peek(','))
            p.expect(',', "','");
        else if (!p.peek('}'))
            p.fail("expected ',' or '}' after a value");
    }
    p.expect('}', "'}'");
    p.skipSpace();
    if (!p.rest().empty())
        p.fail("unexpected text after the dict");
    if (!haveDescr || !haveOrder || !haveShape)
        p.fail(std::string("missing key '") + (!haveDescr ? "descr" : !haveOrder ? "fortran_order" : "shape") + "'");

    if (h.descr == "<f4" || h.descr == ">f4" || h.descr == "<f8" || h.descr == ">f8") {
        h.bigEndian = h.descr[0] == '>';
        h.precision = h.descr[2] == '4' ? Precision::F32 : Precision::F64;
    } else {
        throw InputError(refusedDtype(h.descr));
    }

    if (shape.size() == 1)
        throw InputError("the file holds a 1-D array of " + std::to_string(shape[0]) + " values; the lab needs a "
                         "2-D matrix: save a.reshape(1, -1) for one row or a.reshape(-1, 1) for one column");
    if (shape.size() != 2)
        throw InputError("the file holds a " + std::to_string(shape.size()) + "-D array; the lab needs a 2-D matrix");
    h.rows = shape[0];
    h.cols = shape[1];
    if (h.rows == 0 || h.cols == 0)
        throw InputError("the file holds an empty " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                         " matrix");

    // rows x cols x element size, without overflow, must be exactly the bytes after the header.
    const std::uint64_t element = elementSize(h.precision);
    const std::uint64_t available = fileBytes - h.dataOffset;
    const bool fits = std::uint64_t(h.rows) <= available / element / std::uint64_t(h.cols);
    const std::string claim = std::to_string(h.rows) + " x " + std::to_string(h.cols) + " " + h.descr;
    if (!fits)
        throw InputError("the .npy file is truncated or its header lies: " + claim + " needs more than the " +
                         std::to_string(available) + " bytes that follow the header");
    const std::uint64_t need = std::uint64_t(h.rows) * std::uint64_t(h.cols) * element;
    if (need != available)
        throw InputError("the .npy file has " + std::to_string(available - need) + " byte(s) after the " + claim +
                         " values: its header does not describe it");
    return h;
}

}  // namespace gigacheck
