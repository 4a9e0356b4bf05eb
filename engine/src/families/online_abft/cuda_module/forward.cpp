// Online ABFT's CUDA functions in the engine of a CUDA build (its op table,
// cuda/panel_floor.hpp): forwarded to its part of the module (part.hpp).
#include "core/cuda_module/module_loader.hpp"
#include "families/online_abft/cuda_module/part.hpp"
#include "families/online_abft/ops.hpp"

namespace gigacheck::online_abft {
const cuda::OpTable& cudaOps()
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return cuda_module::opTableOr(part ? part->ops : nullptr);
}
}  // namespace gigacheck::online_abft

namespace gigacheck::cuda {

PanelFloor panelProductsAlone(std::int64_t m, std::int64_t n, std::int64_t panel, const std::vector<std::int64_t>& blockCols,
                              int reps, bool sumsAfterEachStep)
{
    return cuda_module::requirePart<online_abft::CudaModulePart>(online_abft::kFamilyName, "the online bench's panel products")
        .panelProductsAlone(m, n, panel, blockCols, reps, sumsAfterEachStep);
}

}  // namespace gigacheck::cuda
