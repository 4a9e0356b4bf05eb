// A bounded grid over a window of C: matrices far too large to draw cell by cell (20000 x 2000,
// 16384^2) are reduced by block maximum (the largest magnitude wins, its sign kept) so a fault
// never disappears in the downsampling. Plain data, tested without a screen.
#pragma once

#include <gigacheck/matrix.hpp>

#include <cstdint>
#include <vector>

namespace gigacheck::ui {

struct MatrixWindow {
    std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
    bool operator==(const MatrixWindow&) const = default;
};

class HeatmapGrid {
public:
    HeatmapGrid() = default;
    // Cells per axis = min(extent, maxCells).
    HeatmapGrid(const MatrixWindow& window, int maxCells);

    const MatrixWindow& window() const { return window_; }
    int cellsX() const { return cellsX_; }
    int cellsY() const { return cellsY_; }
    double value(int cx, int cy) const { return values_[std::size_t(cy) * std::size_t(cellsX_) + std::size_t(cx)]; }

    // Cell of a global row / column (-1 outside the window).
    int cellOfRow(std::int64_t row) const;
    int cellOfCol(std::int64_t col) const;
    // First global row / column of a cell.
    std::int64_t rowOfCell(int cy) const { return window_.row0 + std::int64_t(cy) * window_.rows / cellsY_; }
    std::int64_t colOfCell(int cx) const { return window_.col0 + std::int64_t(cx) * window_.cols / cellsX_; }

    // Keeps the larger magnitude in the cell of (row, col); ignored outside the window.
    void accumulate(std::int64_t row, std::int64_t col, double v);
    // Same over a row (columns [col0, col1)) or a column (rows [row0, row1)).
    void accumulateRow(std::int64_t row, std::int64_t col0, std::int64_t col1, double v);
    void accumulateCol(std::int64_t col, std::int64_t row0, std::int64_t row1, double v);
    // Same over the rectangle rows [row0, row1) x columns [col0, col1).
    void accumulateRect(std::int64_t row0, std::int64_t row1, std::int64_t col0, std::int64_t col1, double v);
    // Keeps every cell of other (another window of the same matrix) in the cells it covers.
    void accumulateGrid(const HeatmapGrid& other);

    // Block maximum of the window of m.
    static HeatmapGrid fromMatrix(const HostMatrix& m, const MatrixWindow& window, int maxCells);
    // Block maximum over a lattice of at most maxSamples rows x maxSamples columns of the window:
    // bounded work for a live preview (a lone outlier between samples may be missed; the full
    // matrix at the end of a run is reduced with fromMatrix).
    static HeatmapGrid sampledFromMatrix(const HostMatrix& m, const MatrixWindow& window, int maxCells, int maxSamples);

private:
    double& at(int cx, int cy) { return values_[std::size_t(cy) * std::size_t(cellsX_) + std::size_t(cx)]; }
    void keep(double& cell, double v) const
    {
        if ((v < 0 ? -v : v) > (cell < 0 ? -cell : cell))
            cell = v;
    }

    MatrixWindow window_;
    int cellsX_ = 0, cellsY_ = 0;
    std::vector<double> values_;
};

// Clamps a window to the matrix and grows it to at least one element per side.
MatrixWindow clampWindow(MatrixWindow w, std::int64_t rows, std::int64_t cols);

}  // namespace gigacheck::ui
