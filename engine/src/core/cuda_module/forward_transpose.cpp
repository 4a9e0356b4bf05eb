// families/transpose/cuda/device_transpose.hpp in the engine of a CUDA build: forwarded to the
// module; without it no device is available (and *why says why).
#include "core/cuda_module/module_loader.hpp"
#include "families/transpose/cuda/device_transpose.hpp"

namespace gigacheck::transpose::device {

bool available(std::string* why)
{
    const cuda_module::Api* api = cuda_module::load(why);
    return api && api->transposeAvailable(why);
}

double deviceCopyGbps(std::size_t bytes, int reps, int device)
{
    return cuda_module::require("the transpose copy line").transposeDeviceCopyGbps(bytes, reps, device);
}

double datasheetPeakGbps(int device)
{
    const cuda_module::Api* api = cuda_module::load(nullptr);
    return api ? api->transposeDatasheetPeakGbps(device) : 0;
}

}  // namespace gigacheck::transpose::device
