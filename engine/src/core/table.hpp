// A plain-text table: columns sized to their widest cell, printed once complete.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gigacheck::bench {

class Table {
public:
    explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void print(std::ostream& out) const;
    bool empty() const { return rows_.size() <= 1; }  // the header alone

private:
    std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double v, int decimals);
std::string percent(double ratio, int decimals = 1);  // 0.123 -> "12.3%"

}  // namespace gigacheck::bench
