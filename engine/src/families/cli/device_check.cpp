// --device N, checked before anything runs (gigacheck/command_options.hpp).
#include "gigacheck/command_options.hpp"

#include "gigacheck/bench.hpp"

#include <string>

namespace gigacheck {

void requireDevice(int device, BackendKind backend)
{
    if (device < 0)
        return;
    const std::string asked = "--device " + std::to_string(device);
    // The same words as the engine's makeBackend, said before anything runs.
    if (backend == BackendKind::Cpu)
        throw InputError(asked + " picks a CUDA device, but --backend cpu runs on the CPU (leave "
                                 "--device out, or use --backend cuda)");
    std::string whyNoCuda;
    int cudaDevices = 0;
    for (const DeviceInfo& d : listDevices(&whyNoCuda)) {
        if (d.backend != BackendKind::Cuda)
            continue;
        if (d.index == device)
            return;
        ++cudaDevices;
    }
    if (cudaDevices == 0)
        throw InputError(asked + " is not available: " + (whyNoCuda.empty() ? std::string("no CUDA device") : whyNoCuda));
    throw InputError(asked + " is not available: this machine has CUDA device" +
                     (cudaDevices == 1 ? std::string(" 0") : "s 0 to " + std::to_string(cudaDevices - 1)) +
                     " (see gigacheck devices)");
}

}  // namespace gigacheck
