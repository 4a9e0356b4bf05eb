// A fault applied to one value on the device, as the host's applyFault makes it: shared by the
// injection kernels (abft_kernels.cu) and the kernels that fault C in registers
// (gemm/cutlass/cutlass_step_sums_mainloop.cuh).
#pragma once

namespace gigacheck::cuda {

__device__ __forceinline__ float flipBit(float v, int bit) { return __uint_as_float(__float_as_uint(v) ^ (1u << bit)); }
__device__ __forceinline__ double flipBit(double v, int bit)
{
    return __longlong_as_double(__double_as_longlong(v) ^ (1LL << bit));
}

// One bit, two bits of the word at once, or a delta (added in T: FP32 deltas in float, FP64 in double).
// Fault: DeviceInjection (abft_device.hpp) or StepFault (gemm/cutlass/cutlass_step_sums.hpp).
template <class T, class Fault> __device__ __forceinline__ T faulted(T before, const Fault& inj)
{
    if (!inj.bitFlip)
        return T(before + T(inj.delta));
    const T once = flipBit(before, inj.bit);
    return inj.bit2 >= 0 ? flipBit(once, inj.bit2) : once;
}

}  // namespace gigacheck::cuda
