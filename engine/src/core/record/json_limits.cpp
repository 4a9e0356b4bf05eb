// Depth and size limits of JSON text, checked by one flat scan (json_limits.hpp).
#include "core/record/json_limits.hpp"

#include "core/io/input_file.hpp"

namespace gigacheck::jsonlimits {

void check(std::string_view text, std::string_view source, const Limits& limits)
{
    if (text.size() > limits.maxBytes)
        throw InputError(std::string(source) + ": larger than " + binaryBytes(limits.maxBytes) +
                         ", refused");
    int depth = 0;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limits.maxDepth)
                throw InputError(std::string(source) + ": objects and arrays nested deeper than " +
                                 std::to_string(limits.maxDepth) + " levels (at byte " + std::to_string(i) +
                                 "), refused");
        } else if (c == '}' || c == ']') {
            // Unbalanced closers are the parser's to report; the depth only has to stay an upper bound.
            if (depth > 0)
                --depth;
        }
    }
}

std::string readFile(const std::string& path, std::string_view what, const Limits& limits)
{
    return readInputFile(path, what, limits.maxBytes);
}

}  // namespace gigacheck::jsonlimits
