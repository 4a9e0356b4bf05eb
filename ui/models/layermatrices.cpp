#include "layermatrices.hpp"

#include <algorithm>

namespace gigacheck::ui {

HostMatrix injectedErrorMatrix(std::int64_t rows, std::int64_t cols, const std::vector<InjectEvent>& injections)
{
    HostMatrix m(Precision::F64, rows, cols);
    double* out = m.as<double>();
    for (const InjectEvent& e : injections) {
        const Injection& i = e.injection;
        // Faults in a checksum row or column lie outside C: they have no element to mark.
        if (i.globalRow < 0 || i.globalCol < 0 || i.globalRow >= rows || i.globalCol >= cols)
            continue;
        out[i.globalRow * cols + i.globalCol] += i.after - i.before;
    }
    return m;
}

HostMatrix residualMatrix(std::int64_t rows, std::int64_t cols, const std::vector<VerifyEvent>& verifications)
{
    HostMatrix m(Precision::F64, rows, cols);
    double* out = m.as<double>();
    const auto keep = [&](std::int64_t r, std::int64_t c, double v) {
        if (r >= 0 && c >= 0 && r < rows && c < cols)
            out[r * cols + c] = std::max(out[r * cols + c], v);
    };
    for (const VerifyEvent& v : verifications) {
        const VerifyResult& r = v.result;
        // Indices are local to the augmented block; the checksum index (== rows / cols) is no element of C.
        for (std::size_t i = 0; i < r.mismatchRows.size() && i < r.rowResidual.size(); ++i)
            if (r.mismatchRows[i] < v.rows)
                for (std::int64_t c = 0; c < v.cols; ++c)
                    keep(v.rowOffset + r.mismatchRows[i], v.colOffset + c, r.rowResidual[i]);
        for (std::size_t j = 0; j < r.mismatchCols.size() && j < r.colResidual.size(); ++j)
            if (r.mismatchCols[j] < v.cols)
                for (std::int64_t row = 0; row < v.rows; ++row)
                    keep(v.rowOffset + row, v.colOffset + r.mismatchCols[j], r.colResidual[j]);
    }
    return m;
}

}  // namespace gigacheck::ui
