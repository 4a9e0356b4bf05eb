#include "core/table.hpp"

#include <algorithm>
#include <cstdio>

namespace gigacheck::bench {

void Table::print(std::ostream& out) const
{
    std::vector<std::size_t> width;
    for (const auto& row : rows_)
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (width.size() <= c)
                width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        std::string line;
        for (std::size_t c = 0; c < rows_[r].size(); ++c) {
            std::string cell = rows_[r][c];
            cell.resize(width[c], ' ');
            line += (c ? "  " : "") + cell;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
        if (r == 0) {
            std::size_t total = 0;
            for (std::size_t w : width)
                total += w + 2;
            out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
        }
    }
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string percent(double ratio, int decimals) { return fixed(100.0 * ratio, decimals) + "%"; }

}  // namespace gigacheck::bench
