// families/reduced_matmul/cuda/device_reduced.hpp in the engine of a CUDA build: forwarded to the
// module; without it no device is available (and *why says why).
#include "core/cuda_module/module_loader.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why)
{
    const cuda_module::Api* api = cuda_module::load(why);
    return api && api->reducedAvailable(why);
}

}  // namespace gigacheck::reduced_matmul::device
