// --device N for every verb that takes it (run, campaign, strassen, reduced, transpose, bench):
// checked once the options are read and before anything runs, so that a device that is not there
// is refused at once (exit 2, one line) instead of being ignored by a path that runs elsewhere.
#pragma once

#include "gigacheck/bench.hpp"
#include "gigacheck/types.hpp"

#include <string>

namespace cli {

// device: a CUDA ordinal as `gigacheck devices` lists them, or -1 (not given: nothing to check).
// Throws gigacheck::InputError when backend is cpu (a device number asks for CUDA), or when there
// is no CUDA device with that ordinal (no CUDA at all, or fewer devices), naming what there is.
inline void requireDevice(int device, gigacheck::BackendKind backend = gigacheck::BackendKind::Auto)
{
    if (device < 0)
        return;
    const std::string asked = "--device " + std::to_string(device);
    // The same words as the engine's makeBackend, said before anything runs.
    if (backend == gigacheck::BackendKind::Cpu)
        throw gigacheck::InputError(asked + " picks a CUDA device, but --backend cpu runs on the CPU (leave "
                                            "--device out, or use --backend cuda)");
    std::string whyNoCuda;
    int cudaDevices = 0;
    for (const gigacheck::DeviceInfo& d : gigacheck::listDevices(&whyNoCuda)) {
        if (d.backend != gigacheck::BackendKind::Cuda)
            continue;
        if (d.index == device)
            return;
        ++cudaDevices;
    }
    if (cudaDevices == 0)
        throw gigacheck::InputError(asked + " is not available: " +
                                    (whyNoCuda.empty() ? std::string("no CUDA device") : whyNoCuda));
    throw gigacheck::InputError(asked + " is not available: this machine has CUDA device" +
                                (cudaDevices == 1 ? std::string(" 0") : "s 0 to " + std::to_string(cudaDevices - 1)) +
                                " (see gigacheck devices)");
}

}  // namespace cli
