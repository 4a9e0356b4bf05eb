// The engine's side of core/cuda in a CUDA build: the backend factory's entry points and the
// device listing, forwarded to the CUDA module when it loads (module_loader.hpp), and a plain
// "why not" when it does not.
#include "core/cuda/devices.hpp"
#include "core/cuda_module/module_loader.hpp"
#include "gigacheck/backend.hpp"
#include "gigacheck/cuda_status.hpp"

namespace gigacheck {

bool cudaCompiledIn() { return cuda_module::load(nullptr) != nullptr; }

std::string whyNoCudaBackend()
{
    std::string why;
    cuda_module::load(&why);
    return why;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, const std::vector<int>& ordinals)
{
    const cuda_module::Api* api = cuda_module::load(why);
    return api ? api->makeCudaBackend(why, ordinals) : nullptr;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, int device)
{
    return makeCudaBackend(why, std::vector<int>{device < 0 ? 0 : device});
}

namespace cuda {

std::vector<DeviceInfo> cudaDevices(std::string* why)
{
    const cuda_module::Api* api = cuda_module::load(why);
    return api ? api->cudaDevices(why) : std::vector<DeviceInfo>{};
}

void useDevice(int device) { cuda_module::require("choosing a CUDA device").useDevice(device); }

}  // namespace cuda
}  // namespace gigacheck
