#include "heatmapgrid.hpp"

#include <algorithm>

namespace gigacheck::ui {

HeatmapGrid::HeatmapGrid(const MatrixWindow& window, int maxCells) : window_(window)
{
    cellsX_ = int(std::clamp<std::int64_t>(window.cols, 1, maxCells));
    cellsY_ = int(std::clamp<std::int64_t>(window.rows, 1, maxCells));
    values_.assign(std::size_t(cellsX_) * std::size_t(cellsY_), 0.0);
}

int HeatmapGrid::cellOfRow(std::int64_t row) const
{
    const std::int64_t r = row - window_.row0;
    if (r < 0 || r >= window_.rows)
        return -1;
    // Inverse of rowOfCell: the largest cy with rowOfCell(cy) <= row.
    return int(((r + 1) * cellsY_ - 1) / window_.rows);
}

int HeatmapGrid::cellOfCol(std::int64_t col) const
{
    const std::int64_t c = col - window_.col0;
    if (c < 0 || c >= window_.cols)
        return -1;
    return int(((c + 1) * cellsX_ - 1) / window_.cols);
}

void HeatmapGrid::accumulate(std::int64_t row, std::int64_t col, double v)
{
    const int cy = cellOfRow(row), cx = cellOfCol(col);
    if (cx >= 0 && cy >= 0)
        keep(at(cx, cy), v);
}

// A row or a column is the rectangle one line thick.
void HeatmapGrid::accumulateRow(std::int64_t row, std::int64_t col0, std::int64_t col1, double v)
{
    accumulateRect(row, row + 1, col0, col1, v);
}

void HeatmapGrid::accumulateCol(std::int64_t col, std::int64_t row0, std::int64_t row1, double v)
{
    accumulateRect(row0, row1, col, col + 1, v);
}

void HeatmapGrid::accumulateRect(std::int64_t row0, std::int64_t row1, std::int64_t col0, std::int64_t col1, double v)
{
    row0 = std::max(row0, window_.row0);
    row1 = std::min(row1, window_.row0 + window_.rows);
    col0 = std::max(col0, window_.col0);
    col1 = std::min(col1, window_.col0 + window_.cols);
    if (row0 >= row1 || col0 >= col1)
        return;
    const int cx0 = cellOfCol(col0), cx1 = cellOfCol(col1 - 1);
    for (int cy = cellOfRow(row0); cy <= cellOfRow(row1 - 1); ++cy)
        for (int cx = cx0; cx <= cx1; ++cx)
            keep(at(cx, cy), v);
}

void HeatmapGrid::accumulateGrid(const HeatmapGrid& other)
{
    const MatrixWindow& o = other.window();
    for (int cy = 0; cy < other.cellsY(); ++cy) {
        const std::int64_t r0 = other.rowOfCell(cy), r1 = cy + 1 < other.cellsY() ? other.rowOfCell(cy + 1) : o.row0 + o.rows;
        for (int cx = 0; cx < other.cellsX(); ++cx) {
            const std::int64_t c0 = other.colOfCell(cx);
            const std::int64_t c1 = cx + 1 < other.cellsX() ? other.colOfCell(cx + 1) : o.col0 + o.cols;
            accumulateRect(r0, r1, c0, c1, other.value(cx, cy));
        }
    }
}

namespace {

template <class T>
void reduceSampled(const T* data, std::int64_t ld, const MatrixWindow& w, std::int64_t rowStep,
                   std::int64_t colStep, HeatmapGrid& grid)
{
    for (std::int64_t r = w.row0; r < w.row0 + w.rows; r += rowStep)
        for (std::int64_t c = w.col0; c < w.col0 + w.cols; c += colStep)
            grid.accumulate(r, c, double(data[r * ld + c]));
}

template <class T>
void reduce(const T* data, std::int64_t ld, const MatrixWindow& w, const std::vector<int>& colCell,
            HeatmapGrid& grid, std::vector<double>& rowMax)
{
    for (std::int64_t r = w.row0; r < w.row0 + w.rows; ++r) {
        const int cy = grid.cellOfRow(r);
        const T* row = data + r * ld + w.col0;
        for (std::int64_t c = 0; c < w.cols; ++c) {
            const double v = double(row[c]);
            double& cell = rowMax[std::size_t(cy) * std::size_t(grid.cellsX()) + std::size_t(colCell[std::size_t(c)])];
            if ((v < 0 ? -v : v) > (cell < 0 ? -cell : cell))
                cell = v;
        }
    }
}

}  // namespace

HeatmapGrid HeatmapGrid::fromMatrix(const HostMatrix& m, const MatrixWindow& window, int maxCells)
{
    const MatrixWindow w = clampWindow(window, m.rows(), m.cols());
    HeatmapGrid grid(w, maxCells);
    if (m.empty())
        return grid;
    std::vector<int> colCell(std::size_t(w.cols));
    for (std::int64_t c = 0; c < w.cols; ++c)
        colCell[std::size_t(c)] = grid.cellOfCol(w.col0 + c);
    if (m.precision() == Precision::F32)
        reduce(m.as<float>(), m.cols(), w, colCell, grid, grid.values_);
    else
        reduce(m.as<double>(), m.cols(), w, colCell, grid, grid.values_);
    return grid;
}

HeatmapGrid HeatmapGrid::sampledFromMatrix(const HostMatrix& m, const MatrixWindow& window, int maxCells, int maxSamples)
{
    const MatrixWindow w = clampWindow(window, m.rows(), m.cols());
    HeatmapGrid grid(w, maxCells);
    if (m.empty())
        return grid;
    const std::int64_t samples = std::max(maxSamples, 1);
    const std::int64_t rowStep = (w.rows + samples - 1) / samples, colStep = (w.cols + samples - 1) / samples;
    if (m.precision() == Precision::F32)
        reduceSampled(m.as<float>(), m.cols(), w, rowStep, colStep, grid);
    else
        reduceSampled(m.as<double>(), m.cols(), w, rowStep, colStep, grid);
    return grid;
}

MatrixWindow clampWindow(MatrixWindow w, std::int64_t rows, std::int64_t cols)
{
    w.row0 = std::clamp<std::int64_t>(w.row0, 0, std::max<std::int64_t>(rows - 1, 0));
    w.col0 = std::clamp<std::int64_t>(w.col0, 0, std::max<std::int64_t>(cols - 1, 0));
    w.rows = std::clamp<std::int64_t>(w.rows, 1, std::max<std::int64_t>(rows - w.row0, 1));
    w.cols = std::clamp<std::int64_t>(w.cols, 1, std::max<std::int64_t>(cols - w.col0, 1));
    return w;
}

}  // namespace gigacheck::ui
