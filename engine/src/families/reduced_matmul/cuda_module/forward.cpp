// Reduced matmul's CUDA functions in the engine of a CUDA build (its op table,
// cuda/device_reduced.hpp): forwarded to its part of the module (part.hpp); without the module
// no device is available (and *why says why).
#include "core/cuda_module/module_loader.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"
#include "families/reduced_matmul/cuda_module/part.hpp"
#include "families/reduced_matmul/ops.hpp"

namespace gigacheck::reduced_matmul {

const cuda::OpTable& cudaOps()
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return cuda_module::opTableOr(part ? part->ops : nullptr);
}

bool device::available(std::string* why)
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, why);
    return part && part->available(why);
}

}  // namespace gigacheck::reduced_matmul
