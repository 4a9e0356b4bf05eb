// Where and how one call of a CUTLASS kernel of the lab runs, shared by the TF32 and 16-bit kernels
// (no CUTLASS header here).
#pragma once

#include <cuda_runtime.h>

namespace gigacheck::cuda {

inline constexpr int kCutlassMaxDevices = 64;

// The device and its multiprocessors (the persistent grid), and the tile scheduler's swizzle (1, 2,
// 4 or 8 tiles of one raster strip side by side: fewer operand tiles streamed per wave of CTAs at
// large shapes).
struct CutlassLaunch {
    int device = 0;
    int smCount = 0;
    int maxSwizzle = 1;
};

// Why a launch did not happen, worded for one kernel family ("CUTLASS TF32 GEMM: ...").
struct CutlassRefusals {
    const char* shape;      // can_implement refused the shape or alignment
    const char* workspace;  // the kernel asks for a workspace
    const char* sharedMemory;
    const char* launch;
};

// The multiprocessors of `device` when it is of compute capability 9.0 (sm_90a machine code runs
// there only), else -1; asked once per device.
inline int cutlassHopperSmCount(int device)
{
    static int cached[kCutlassMaxDevices] = {};
    if (device < 0 || device >= kCutlassMaxDevices)
        return -1;
    if (cached[device] == 0) {
        int major = 0, minor = 0, sms = 0;
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
            cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
            return -1;
        cached[device] = major == 9 && minor == 0 ? sms : -1;
    }
    return cached[device];
}

}  // namespace gigacheck::cuda
