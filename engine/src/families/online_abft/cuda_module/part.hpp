// Online ABFT's part of the CUDA module (core/cuda_module/README.md): its op table and the panel
// products of `bench online` (cuda/panel_floor.hpp), forwarded in forward.cpp, filled in
// cuda/module_part.cpp.
#pragma once

#include "families/online_abft/cuda/panel_floor.hpp"

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::online_abft {

struct CudaModulePart {
    const cuda::OpTable* ops = nullptr;
    cuda::PanelFloor (*panelProductsAlone)(std::int64_t m, std::int64_t n, std::int64_t panel,
                                           const std::vector<std::int64_t>& blockCols, int reps,
                                           bool sumsAfterEachStep) = nullptr;
};

}  // namespace gigacheck::online_abft
