// What the GPU test of addRowSumPartials (tests/gpu/tst_cuda_row_sum_partials.cpp) runs on the device,
// in plain C++ (no CUDA types): C's row sums from the fused kernels' per-tile partials, split or not,
// with a fault of the product's arithmetic applied there (FaultAsComputed) or none.
#pragma once

#include <cstdint>
#include <vector>

namespace gigacheck::cuda {

struct RowSumPartialsCase {
    std::int64_t rows = 0, cols = 0;
    std::int64_t tiles = 0, width = 0;  // partials: tiles x width floats, width >= rows
    std::int64_t splitTile = -1;        // below tiles: the split form (addRowSumPartialsSplit)
    std::vector<float> partials;
    std::vector<double> rowSums, colSums;  // what the sums hold before the call (rows, cols)
    std::vector<float> c;                  // rows x cols, row-major
    // The fault, as FaultAsComputed's fields (faultRow < 0: none); its pair is the run's own.
    std::int64_t faultRow = -1, faultCol = 0;
    int bitFlip = 0, bit = 0, bit2 = -1;
    double delta = 0;
};

struct RowSumPartialsRun {
    std::vector<double> rowSums, colSums;
    std::vector<float> splitSums;  // one a row (the split form)
    std::vector<float> c;
    double before = 0, after = 0;  // what the pinned pair holds after the call
};

RowSumPartialsRun addRowSumPartialsOnDevice(const RowSumPartialsCase& x);

}  // namespace gigacheck::cuda
