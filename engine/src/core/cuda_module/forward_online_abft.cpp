// families/online_abft/cuda/panel_floor.hpp in the engine of a CUDA build: forwarded to the module.
#include "core/cuda_module/module_loader.hpp"
#include "families/online_abft/cuda/panel_floor.hpp"

namespace gigacheck::cuda {

PanelFloor panelProductsAlone(std::int64_t m, std::int64_t n, std::int64_t panel, const std::vector<std::int64_t>& blockCols,
                              int reps, bool sumsAfterEachStep)
{
    return cuda_module::require("the online bench's panel products")
        .panelProductsAlone(m, n, panel, blockCols, reps, sumsAfterEachStep);
}

}  // namespace gigacheck::cuda
