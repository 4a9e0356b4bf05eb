// Transpose's CUDA functions in the engine of a CUDA build (its op table,
// cuda/device_transpose.hpp): forwarded to its part of the module (part.hpp); without the module
// no device is available (and *why says why).
#include "core/cuda_module/module_loader.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/cuda_module/part.hpp"
#include "families/transpose/ops.hpp"

namespace gigacheck::transpose {

const cuda::OpTable& cudaOps()
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return cuda_module::opTableOr(part ? part->ops : nullptr);
}

namespace device {

bool available(std::string* why)
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, why);
    return part && part->available(why);
}

double deviceCopyGbps(std::size_t bytes, int reps, int device)
{
    return cuda_module::requirePart<CudaModulePart>(kFamilyName, "the transpose copy line").deviceCopyGbps(bytes, reps, device);
}

double datasheetPeakGbps(int device)
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return part ? part->datasheetPeakGbps(device) : 0;
}

}  // namespace device
}  // namespace gigacheck::transpose
