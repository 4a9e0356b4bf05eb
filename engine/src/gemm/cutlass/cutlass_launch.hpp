// Where and how one call of a CUTLASS kernel of the lab runs, shared by the TF32 and 16-bit kernels
// (no CUTLASS header here).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>

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

// C's row sums split at a column (CutlassTf32Call::rowSumSplit): rowSums take the columns below `at`
// (a multiple of the kernel's 128-column tile side, > 0), and the sums of the columns from it on go to
// sums[i * stride] (float) instead. Where B^T's last rows hold r_B's parts (prepared_operands.hpp),
// those columns of C are A r_B's parts and `sums` C's checksum column. at = 0: no split.
struct RowSumSplit {
    std::int64_t at = 0;
    float* sums = nullptr;
    std::int64_t stride = 0;
};

// What a kernel's parameters are made from, besides its type: the device, multiprocessors and
// swizzle, the extents, operand and C pointers with their leading dimensions, whether C is
// accumulated into, and the sums' vectors (cutlassParamsKey).
using CutlassParamsKey = std::array<std::int64_t, 15>;
inline constexpr std::size_t kCutlassParamsKept = 256;  // per kernel type; then the kept set starts over

inline CutlassParamsKey cutlassParamsKey(const CutlassLaunch& launch, std::int64_t m, std::int64_t n, std::int64_t q,
                                         const void* a, std::int64_t lda, const void* b, std::int64_t ldb,
                                         const void* c, std::int64_t ldc, bool accumulate, const void* rowSums,
                                         const void* colSums)
{
    const auto address = [](const void* p) { return std::int64_t(reinterpret_cast<std::intptr_t>(p)); };
    return {launch.device, launch.smCount, launch.maxSwizzle, m, n, q, address(a), lda, address(b), ldb,
            address(c), ldc, accumulate ? 1 : 0, address(rowSums), address(colSums)};
}

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

// Why a call cannot run on the current device, worded for one kernel family; see cutlassCallRefusal.
struct CutlassDeviceRefusals {
    const char* noDevice;
    const char* notHopper;
    const char* extent;
    const char* fit;  // the kernel's own alignment rule refused the call
};

// Null when a call of extents m, n, q (and `fits`, the kernel's alignment rule) can run on the
// current device, whose index and multiprocessors it sets; else why not.
inline const char* cutlassCallRefusal(const CutlassDeviceRefusals& why, std::int64_t m, std::int64_t n,
                                      std::int64_t q, bool fits, int& device, int& sms)
{
    if (cudaGetDevice(&device) != cudaSuccess)
        return why.noDevice;
    sms = cutlassHopperSmCount(device);
    if (sms <= 0)
        return why.notHopper;
    if (m > INT32_MAX || n > INT32_MAX || q > INT32_MAX)
        return why.extent;
    return fits ? nullptr : why.fit;
}

}  // namespace gigacheck::cuda
