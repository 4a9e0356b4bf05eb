// The heatmap's event layers as whole matrices for File > Export (.npy): the injected error and
// the checksum residuals of a run, one value per element of C, as the layers draw them but at full
// resolution rather than through the bounded grid.
#pragma once

#include <gigacheck/events.hpp>
#include <gigacheck/matrix.hpp>

#include <vector>

namespace gigacheck::ui {

// float64 rows x cols: C* - C at each injected cell (the signed error the fault added; the sum
// where several faults struck one cell), 0 elsewhere.
HostMatrix injectedErrorMatrix(std::int64_t rows, std::int64_t cols, const std::vector<InjectEvent>& injections);

// float64 rows x cols: for each element of a block, the largest |control - stored| of its row's
// and its column's check where they mismatched, 0 where neither did (the heatmap's "checksum
// residuals" layer).
HostMatrix residualMatrix(std::int64_t rows, std::int64_t cols, const std::vector<VerifyEvent>& verifications);

}  // namespace gigacheck::ui
