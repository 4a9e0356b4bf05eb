// The reach of one fault (--extent), shared by every family that takes it: its parsing and
// naming, and the cells it strikes from its anchor cell (gigacheck/fault_models.hpp).
#include "gigacheck/fault_models.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace gigacheck {

void parseFaultExtent(std::string_view text, FaultExtent& extent, int& length)
{
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    int n = 32;
    if (colon != std::string_view::npos) {
        const std::string digits(text.substr(colon + 1));
        char* end = nullptr;
        const long v = std::strtol(digits.c_str(), &end, 10);
        if (digits.empty() || *end != '\0' || v < 1 || v > (1 << 20))
            throw InputError("'" + digits + "' is not a cell count (1 to 2^20)");
        n = int(v);
    }
    FaultExtent e;
    try {
        e = valueOfName<FaultExtent>(name);
    } catch (const InputError&) {
        throw InputError("expected cell, row[:L], col[:L] or tile[:S] (L cells of a row / column of a block, an S x S "
                         "tile; default 32), got '" + std::string(text) + "'");
    }
    if (e == FaultExtent::Cell && colon != std::string_view::npos)
        throw InputError("cell takes no length (row:L, col:L or tile:S do)");
    extent = e;
    length = n;
}

std::string faultExtentText(FaultExtent extent, int length)
{
    if (extent == FaultExtent::Cell)
        return "cell";
    return std::string(nameOf(extent)) + ":" + std::to_string(length);
}

std::vector<std::pair<std::int64_t, std::int64_t>> faultReach(FaultExtent extent, int length, std::int64_t row,
                                                             std::int64_t col, std::int64_t rows, std::int64_t cols)
{
    const std::int64_t n = length;
    const std::int64_t rowEnd =
        extent == FaultExtent::ColSegment || extent == FaultExtent::Tile ? std::min(rows, row + n) : row + 1;
    const std::int64_t colEnd =
        extent == FaultExtent::RowSegment || extent == FaultExtent::Tile ? std::min(cols, col + n) : col + 1;
    std::vector<std::pair<std::int64_t, std::int64_t>> cells;
    for (std::int64_t r = row; r < rowEnd; ++r)
        for (std::int64_t c = col; c < colEnd; ++c)
            cells.emplace_back(r, c);
    return cells;
}

}  // namespace gigacheck
