// Shared by the GPU tests: skip visibly (QSKIP with the reason) when no CUDA device can be used.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/bench.hpp"
#include "gigacheck/cuda_status.hpp"

#include <QtTest>

#include <string>

#define GIGACHECK_REQUIRE_CUDA_DEVICE()                                                              \
    do {                                                                                           \
        if (!gigacheck::cudaCompiledIn())                                                          \
            QSKIP(("GPU test skipped: no CUDA backend: " + gigacheck::whyNoCudaBackend()).c_str()); \
        std::string gcWhy;                                                                         \
        if (!gigacheck::makeCudaBackend(&gcWhy))                                                   \
            QSKIP(("GPU test skipped: no CUDA device: " + gcWhy).c_str());                          \
    } while (0)

// Why --gemm cutlass-tf32 cannot run here (empty when it can): the build has no CUTLASS kernels, or
// the first CUDA device is not a Hopper GPU (the kernels are sm_90a machine code).
inline std::string whyNoCutlassKernels()
{
    const std::string status = gigacheck::cutlassKernelsStatus();
    if (status.rfind("built", 0) != 0)
        return "CUTLASS kernels " + status;
    std::string why;
    for (const gigacheck::DeviceInfo& d : gigacheck::listDevices(&why))
        if (d.backend == gigacheck::BackendKind::Cuda)
            return d.computeCapability == "9.0" ? std::string()
                                                : "the CUTLASS kernels need compute capability 9.0, device 0 has " +
                                                      d.computeCapability;
    return "no CUDA device: " + why;
}

#define GIGACHECK_REQUIRE_CUTLASS_KERNELS()                                                         \
    do {                                                                                           \
        const std::string gcCutlassWhy = whyNoCutlassKernels();                                    \
        if (!gcCutlassWhy.empty())                                                                 \
            QSKIP(("cutlass-tf32 skipped: " + gcCutlassWhy).c_str());                              \
    } while (0)
