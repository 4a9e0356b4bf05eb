// A kernel launched as a programmatic dependent of the kernel before it on its stream (Hopper's
// programmatic dependent launch): its blocks may be placed while that kernel's last blocks still
// run, and must wait for it (`griddepcontrol.wait`) before reading anything it wrote. For .cu files.
#pragma once

#include "core/cuda/check.hpp"

#include <cuda_runtime.h>

namespace gigacheck::cuda {

// kernel<<<grid, block, 0, s>>>(args...) with cudaLaunchAttributeProgrammaticStreamSerialization; a
// plain launch where the device refuses the attribute.
template <class... Params, class... Args>
void launchAsDependent(dim3 grid, dim3 block, void (*kernel)(Params...), cudaStream_t s, Args... args)
{
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.stream = s;
    cudaLaunchAttribute dependent[1];
    dependent[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = dependent;
    config.numAttrs = 1;
    if (cudaLaunchKernelEx(&config, kernel, Params(args)...) == cudaSuccess)
        return;
    (void)cudaGetLastError();
    kernel<<<grid, block, 0, s>>>(Params(args)...);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
